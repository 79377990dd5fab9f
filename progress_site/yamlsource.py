"""Read YAML with the position of every key and value, refusing what would hurt the build."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import KeyPath, Location, Problem

# Large enough for 100,000 measurements; a bigger file is almost surely a mistake.
MAX_BYTES = 32 * 1024 * 1024
# Aliases can make a small file expand without bound ("billion laughs"): cap the nodes.
MAX_NODES = 5_000_000

BOOL_TAG = "tag:yaml.org,2002:bool"
_BaseLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_BaseLoader):  # type: ignore[misc]
    """YAML 1.2 booleans only: `no`, `on` and `yes` stay words (`fr: non` is not false)."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != BOOL_TAG]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
_scalar_constructor = yaml.constructor.SafeConstructor()


@dataclass
class Document:
    """One parsed file: its values, and where each key path was written."""

    display: str  # the path as errors print it, relative to the source folder
    lines: list[str]
    data: Any = None
    values: dict[KeyPath, tuple[int, int]] = field(default_factory=dict)
    keys: dict[KeyPath, tuple[int, int]] = field(default_factory=dict)
    raw: dict[KeyPath, str] = field(default_factory=dict)

    def locate(self, path: KeyPath, *, key: bool = False) -> Location:
        """Location of a value (or of its key), falling back to the nearest parent."""
        table = self.keys if key else self.values
        probe = path
        while probe and probe not in table:
            probe = probe[:-1]
        line, col = table.get(probe, self.values.get((), (0, 0)))
        return Location(self.display, line, col)

    def line(self, number: int) -> str:
        """The source text of a 1-based line number."""
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""

    def problem(self, path: KeyPath, message: str, hint: str = "", *, key: bool = False,
                warning: bool = False) -> Problem:
        """A problem located at a key path of this document."""
        loc = self.locate(path, key=key)
        return Problem(loc, message, path, hint, self.line(loc.line), warning)


def read_text(path: Path, display: str) -> tuple[str | None, list[Problem]]:
    """A file's text, or the problems that stop it being read (size, encoding, links)."""
    where = Location(display)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            return None, [Problem(where, f"file is {size // (1024 * 1024)} MiB, over the "
                                         f"{MAX_BYTES // (1024 * 1024)} MiB limit",
                                  hint="split it into several files under the same folder")]
        data = path.read_bytes()
    except OSError as exc:
        return None, [Problem(where, f"cannot read the file: {exc.strerror}")]
    if b"\0" in data:
        return None, [Problem(where, "this is a binary file, not text",
                              hint="remove it from the folder")]
    try:
        return data.decode("utf-8").removeprefix("\ufeff"), []
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, [Problem(Location(display, line, col), "the file is not valid UTF-8",
                              hint="save it as UTF-8")]


def parse(text: str, display: str) -> tuple[Document, list[Problem]]:
    """Parse YAML text into a Document, with positions; syntax errors become problems."""
    doc = Document(display, text.splitlines())
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        message = f"YAML syntax error: {exc.problem or exc.context}"
        hint = "check the indentation and the quotes on this line or the one above"
        return doc, [Problem(Location(display, line, col), message, (), hint, doc.line(line))]
    except yaml.YAMLError as exc:
        return doc, [Problem(Location(display), f"YAML error: {exc}")]
    if node is None:
        doc.data = None
        return doc, []
    builder = _Builder(doc)
    doc.data = builder.build(node, ())
    return doc, builder.problems


class _Builder:
    """Turns composed YAML nodes into plain values, recording positions on the way."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.problems: list[Problem] = []
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
        self.doc.values[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
        self.doc.raw[path] = node.value
        return self.scalar(node, path)

    def scalar(self, node: yaml.Node, path: KeyPath) -> Any:
        """A scalar's value; tags we do not know are refused, never constructed."""
        try:
            return _scalar_constructor.construct_object(node)
        except yaml.YAMLError as exc:
            self.problems.append(self.doc.problem(path, f"cannot read this value: {exc}"))
            return None

    def mapping(self, node: yaml.MappingNode, path: KeyPath) -> dict[Any, Any]:
        """A mapping; duplicate keys are errors (PyYAML would keep the last silently)."""
        _loader_flatten(node)
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = (self.scalar(key_node, path) if isinstance(key_node, yaml.ScalarNode)
                   else None)
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                self.problems.append(self.doc.problem(path, "keys must be words"))
                continue
            key = str(key)
            child = (*path, key)
            if key in out:
                self.doc.keys.setdefault(child, _mark(key_node))
                line, col = _mark(key_node)
                loc = Location(self.doc.display, line, col)
                self.problems.append(Problem(loc, f"key '{key}' appears twice", child,
                                             "keep one of them", self.doc.line(line)))
                continue
            self.doc.keys[child] = _mark(key_node)
            out[key] = self.build(value_node, child)
        return out


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _loader_flatten(node: yaml.MappingNode) -> None:
    """Apply `<<` merge keys the way PyYAML's constructor does."""
    if any(k.tag == "tag:yaml.org,2002:merge" for k, _ in node.value):
        yaml.constructor.SafeConstructor().flatten_mapping(node)
