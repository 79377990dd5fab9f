"""Read YAML with the position of every key and value, refusing what would hurt the build.

Plain data is read in one pass over libyaml's events, each value built as its event
arrives, keeping where each mapping starts; every other place is found by reading the
text again when a problem asks (see bench/scale.py). A file holding what only composed
nodes read exactly (anchors, aliases, tags, `<<` merge keys, odd or repeated keys, deep
nesting, syntax errors) is read again by composing its nodes, which words every refusal;
both paths give the same values and problems. Each scalar is read as `yaml_scalars`
says; the result is a `Document` (`document.py`).
"""

from __future__ import annotations

import datetime
import functools
from typing import Any

import yaml

from progress_site.characters import first_forbidden
from progress_site.errors import KeyPath, Location, Problem
from progress_site.load.document import Document, Lines, Positions
from progress_site.load.yaml_refusals import (
    MAX_DEPTH,
    MAX_NODES,
    TOO_DEEP,
    syntax_error,
    too_big,
    unacceptable,
)
from progress_site.load.yaml_scalars import (
    PLAIN_TAGS,
    SCALAR_TAGS,
    STR_TAG,
    YAML_TAG,
    Loader,
    Reader,
    mark,
)

# The events the one-pass reader meets most, looked up once (it meets one per value).
_SCALAR, _MAP, _SEQ = yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent
_MAP_END, _SEQ_END = yaml.MappingEndEvent, yaml.SequenceEndEvent
_NUMBERS = (int, float)  # exact types: true and false are not numbers here
_UNKNOWN: Any = object()  # a scalar not read yet


class _HandOver(Exception):
    """The file holds something only the composed path reads exactly."""


class _Events(Reader):
    """Values and positions from libyaml's events, in one pass; gives up (`_HandOver`)
    on whatever the composed path reads otherwise or words as a problem."""

    def __init__(self, loader: Any, doc: Document, *, every: bool = False) -> None:
        super().__init__(doc)
        # Where each mapping starts is all a record keeps; a key's or a scalar's place
        # is found only when a problem asks (`every`: a second read for `reread`).
        self.every = every
        self.next = loader.get_event
        self.resolve = loader.resolve
        # Written text -> its value, for scalars read without a problem, plain and quoted
        # apart: keys and words repeat thousands of times, and their values cannot change.
        self.plain: dict[str, Any] = {}
        self.quoted: dict[str, Any] = {}

    def document(self) -> list[Problem]:
        """The one document of the stream (or none), read to the end of the stream."""
        self.next()  # the stream's start
        event = self.next()
        if isinstance(event, yaml.DocumentStartEvent):
            self.doc.data = self.value(self.next(), (), 0)
            self.next()  # the document's end
            event = self.next()
        if not isinstance(event, yaml.StreamEndEvent):
            raise _HandOver  # a second document: an error the composer words
        return self.problems

    def value(self, event: Any, path: KeyPath, depth: int) -> Any:
        """The value an event starts, with its position (and its children's) recorded."""
        self.count += 1
        if event.anchor is not None or self.count >= MAX_NODES:
            raise _HandOver
        kind = type(event)
        if kind is _SCALAR:
            return self.leaf(event, path)
        if depth == MAX_DEPTH or event.tag is not None or kind not in (_MAP, _SEQ):
            raise _HandOver  # too deep, tagged, or an alias
        if kind is _SEQ:
            if self.every:
                self.doc.values[path] = mark(event)
            return self.sequence(path, depth)
        self.doc.values[path] = mark(event)  # where a record starts: all it keeps
        return self.mapping(path, depth)

    def leaf(self, event: Any, path: KeyPath) -> Any:
        """A scalar's value at `path`, remembering how a number was written."""
        if self.every:
            self.doc.values[path] = mark(event)
        value = self.scalar(event, path)
        if type(value) in _NUMBERS:  # `6.40`, `0x1f`: as written, for decimals and ids
            self.doc.raw[path] = event.value
        return value

    def sequence(self, path: KeyPath, depth: int) -> list[Any]:
        """A sequence's items, up to its end."""
        items: list[Any] = []
        event = self.next()
        while type(event) is not _SEQ_END:
            items.append(self.value(event, (*path, len(items)), depth + 1))
            event = self.next()
        return items

    def mapping(self, path: KeyPath, depth: int) -> dict[str, Any]:
        """A mapping's keys and values, up to its end; scalar values read here, without
        a call each (most values are)."""
        out: dict[str, Any] = {}
        event = self.next()
        while type(event) is not _MAP_END:
            if type(event) is not _SCALAR or event.anchor is not None:
                raise _HandOver
            key = self.scalar(event, path)
            if type(key) is not str and type(key) is not int:
                raise _HandOver  # not a word (true, a date...): the composed path words it
            name = str(key)
            if name in out:
                raise _HandOver  # a key twice
            child = (*path, name)
            if self.every:
                self.doc.keys[child] = mark(event)
            event = self.next()
            if type(event) is _SCALAR and event.anchor is None and self.count < MAX_NODES - 1:
                self.count += 1
                out[name] = self.leaf(event, child)
            else:
                out[name] = self.value(event, child, depth + 1)
            event = self.next()
        return out

    def scalar(self, event: Any, path: KeyPath) -> Any:
        """A scalar's value, read once per distinct written form and style."""
        if event.tag is not None:
            raise _HandOver
        written = event.value
        known = self.plain if event.implicit[0] else self.quoted
        value = known.get(written, _UNKNOWN)
        if value is not _UNKNOWN:
            return value
        tag = self.resolve(yaml.ScalarNode, written, event.implicit) if event.implicit[0] \
            else STR_TAG
        if tag == STR_TAG and not first_forbidden(written):
            known[written] = written  # a text is as written: no node to build
            return written
        if tag not in SCALAR_TAGS:
            raise _HandOver  # tagged, `<<`, `=`: rare, and the composed path words them
        node = yaml.ScalarNode(tag, written, event.start_mark, event.end_mark, event.style)
        before = len(self.problems)
        value = self.read(node, path)
        if len(self.problems) == before:
            known[written] = value
        return value


class _Nodes(Reader):
    """Values and positions from composed nodes: the careful path, which refuses."""

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
        if not plain:
            return node.value
        value = self.read(node, path)
        if type(value) in _NUMBERS:  # as written, as `leaf` keeps it
            self.doc.raw[path] = node.value
        return value

    def mapping(self, node: yaml.MappingNode, path: KeyPath) -> dict[Any, Any]:
        """A mapping; duplicate keys are errors (PyYAML would keep the last silently)."""
        if any(k.tag == YAML_TAG + "merge" for k, _ in node.value):
            self.constructor.flatten_mapping(node)  # `<<` as PyYAML's constructor applies it
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = (self.read(key_node, path) if isinstance(key_node, yaml.ScalarNode)
                   else None)
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                self.report(key_node, path, f"this key is {not_a_word(key_node, key)}, "
                            "not a word", "write the key as a word; quote one that YAML "
                            "reads otherwise ('true': ...)")
                continue
            key = str(key)
            child = (*path, key)
            if key in out:
                self.doc.keys.setdefault(child, mark(key_node))
                self.report(key_node, child, f"key '{key}' appears twice", "keep one of them")
                continue
            self.doc.keys[child] = mark(key_node)
            out[key] = self.build(value_node, child)
        return out

    def too_deep(self, text: str) -> Problem | None:
        """Nesting deeper than MAX_DEPTH as written, refused before it is composed: the C
        composer recurses once a level (a crash), and libyaml slows down quadratically."""
        depth = 0
        for event in yaml.parse(text, Loader=Loader):
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    return self.at(event, *TOO_DEEP)
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
        return None

    def document(self, text: str) -> list[Problem]:
        """Fill the document from composed nodes; syntax errors and refusals are problems."""
        try:
            problem = self.too_deep(text)
            node = None if problem else yaml.compose(text, Loader=Loader)
        except yaml.MarkedYAMLError as exc:
            return [syntax_error(exc, self.doc.display, self.doc.line)]
        except yaml.reader.ReaderError as exc:
            return [unacceptable(text, exc, self.doc.display, self.doc.line)]
        except yaml.YAMLError as exc:
            return [Problem(Location(self.doc.display), f"YAML error: {exc}")]
        if problem is None and node is not None and "*" in text:
            problem = too_big(node, self.at)  # only aliases (`*name`) make a node count twice
        if problem is not None:
            return [problem]
        self.doc.data = None if node is None else self.build(node, ())
        return self.problems


def not_a_word(node: yaml.Node, key: Any) -> str:
    """What a key that is no word is, in words (it is at the user's key, not its map)."""
    if not isinstance(node, yaml.ScalarNode):
        return "a list" if isinstance(node, yaml.SequenceNode) else "a mapping"
    what = ("null" if key is None else "true or false" if isinstance(key, bool)
            else "a number" if isinstance(key, float) else "a date" if isinstance(
                key, datetime.date) else "a value of its own")
    return f"{node.value!r}, read as {what}"


def parse(text: str, display: str) -> tuple[Document, list[Problem]]:
    """Parse YAML text into a Document, with positions; syntax errors become problems."""
    doc = Document(display, Lines(text))
    loader = Loader(text)
    try:
        problems = _Events(loader, doc).document()
        doc.reread = functools.partial(_every_position, text, display)
        return doc, problems
    except (_HandOver, yaml.YAMLError):
        pass
    finally:
        loader.dispose()
    doc = Document(display, doc.lines)  # the careful path reads it afresh
    return doc, _Nodes(doc).document(text)


def _every_position(text: str, display: str) -> tuple[Positions, Positions]:
    """Where every value and key of a text the one-pass reader read is: read again."""
    doc = Document(display, [])
    loader = Loader(text)
    try:
        _Events(loader, doc, every=True).document()
    finally:
        loader.dispose()
    return doc.values, doc.keys
