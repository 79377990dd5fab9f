"""The careful way to read YAML: compose the nodes, refuse what would hurt, then build.

The one-pass event reader (yamlevents) hands over to this one whenever a file holds
what only composed nodes read exactly: anchors and aliases, `<<` merge keys, tags,
keys that are not plain words, duplicate keys, nesting past MAX_DEPTH, syntax errors.
"""

from __future__ import annotations

from typing import Any

import yaml

from progress_site.errors import KeyPath, Location, Problem
from progress_site.load.yamldoc import (
    MAX_DEPTH,
    MAX_NODES,
    PLAIN_TAGS,
    YAML_TAG,
    Document,
    keep_raw,
)
from progress_site.load.yamlread import Loader, ScalarReader, mark


def compose_and_build(text: str, doc: Document) -> list[Problem]:
    """Fill `doc` from composed nodes; syntax errors and refusals become problems."""
    try:
        problem = too_deep(text, doc)
        node = None if problem else yaml.compose(text, Loader=Loader)
    except yaml.MarkedYAMLError as exc:
        mark_ = exc.problem_mark or exc.context_mark
        line, col = (mark_.line + 1, mark_.column + 1) if mark_ else (0, 0)
        message = f"YAML syntax error: {exc.problem or exc.context}"
        hint = "check the indentation and the quotes on this line or the one above"
        return [Problem(Location(doc.display, line, col), message, (), hint, doc.line(line))]
    except yaml.YAMLError as exc:
        return [Problem(Location(doc.display), f"YAML error: {exc}")]
    if problem is None and node is not None and "*" in text:
        problem = too_big(node, doc)  # only aliases (`*name`) can make a node count twice
    if problem is not None:
        return [problem]
    if node is None:
        doc.data = None
        return []
    builder = _Builder(doc)
    doc.data = builder.build(node, ())
    return builder.problems


def _at(doc: Document, mark_: Any, message: str, hint: str) -> Problem:
    """A problem at a parser mark (0-based line and column)."""
    line, col = mark_.line + 1, mark_.column + 1
    return Problem(Location(doc.display, line, col), message, (), hint, doc.line(line))


def too_deep(text: str, doc: Document) -> Problem | None:
    """Refuse nesting deeper than MAX_DEPTH as written, before it is composed: the C
    composer recurses once a level (a crash), and libyaml slows down quadratically."""
    depth = 0
    for event in yaml.parse(text, Loader=Loader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                return _at(doc, event.start_mark, f"lists and mappings nested more than "
                           f"{MAX_DEPTH} levels deep", "flatten the data: no format here "
                           "nests that deep")
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return None


def too_big(root: yaml.Node, doc: Document) -> Problem | None:
    """Refuse a document whose aliases expand it past MAX_NODES values or MAX_DEPTH levels,
    or make a value hold itself, before any of it is built (one pass, no recursion)."""
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    open_: set[int] = set()  # nodes whose children are being measured: the path from root
    while stack:
        node, measured = stack.pop()
        kids = _children(node)
        if measured:
            open_.discard(id(node))
            size[id(node)] = 1 + sum(size[id(k)] for k in kids)
            depth[id(node)] = 1 + max((depth[id(k)] for k in kids), default=0)
            if size[id(node)] > MAX_NODES:
                return _at(doc, node.start_mark, f"this expands to more than {MAX_NODES:,} "
                           "values (anchors and aliases?)",
                           "write the values out instead of repeating an alias")
            if depth[id(node)] > MAX_DEPTH:
                return _at(doc, node.start_mark, "aliases nest this more than "
                           f"{MAX_DEPTH} levels deep", "write the values out instead")
            continue
        if id(node) in size:
            continue
        if id(node) in open_:
            return _at(doc, node.start_mark, "an anchor holds an alias of itself",
                       "a value cannot contain itself: remove the alias")
        open_.add(id(node))
        stack.append((node, True))
        stack.extend((k, False) for k in kids if id(k) not in size)
    return None


def _children(node: yaml.Node) -> list[yaml.Node]:
    """The nodes directly inside a node (keys and values of a mapping)."""
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


class _Builder(ScalarReader):
    """Turns composed YAML nodes into plain values, recording positions on the way."""

    def __init__(self, doc: Document) -> None:
        super().__init__(doc)
        self.count = 0

    def build(self, node: yaml.Node, path: KeyPath) -> Any:
        """The value of a node, with its position (and its children's) recorded."""
        self.count += 1
        if self.count == MAX_NODES:
            self.problems.append(self.doc.problem(path, "the file expands to more than "
                                 f"{MAX_NODES:,} values (anchors and aliases?)",
                                 "write the values out instead of repeating an alias"))
        if self.count >= MAX_NODES:
            return None
        self.doc.values[path] = mark(node)
        plain = node.tag in PLAIN_TAGS
        if not plain:  # `!!python/object`, `!!binary`, `!custom`: reported, never built
            self.report(node, path, f"unknown tag '{node.tag.replace(YAML_TAG, '!!')}'",
                        "remove the tag: data files hold plain values")
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
        value = self.read(node, path) if plain else node.value
        keep_raw(self.doc, path, value, node.value)
        return value

    def mapping(self, node: yaml.MappingNode, path: KeyPath) -> dict[Any, Any]:
        """A mapping; duplicate keys are errors (PyYAML would keep the last silently)."""
        _loader_flatten(node)
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = (self.read(key_node, path) if isinstance(key_node, yaml.ScalarNode)
                   else None)
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                self.problems.append(self.doc.problem(path, "keys must be words"))
                continue
            key = str(key)
            child = (*path, key)
            if key in out:
                self.doc.keys.setdefault(child, mark(key_node))
                line, col = mark(key_node)
                loc = Location(self.doc.display, line, col)
                self.problems.append(Problem(loc, f"key '{key}' appears twice", child,
                                             "keep one of them", self.doc.line(line)))
                continue
            self.doc.keys[child] = mark(key_node)
            out[key] = self.build(value_node, child)
        return out


def _loader_flatten(node: yaml.MappingNode) -> None:
    """Apply `<<` merge keys the way PyYAML's constructor does."""
    if any(k.tag == "tag:yaml.org,2002:merge" for k, _ in node.value):
        yaml.constructor.SafeConstructor().flatten_mapping(node)
