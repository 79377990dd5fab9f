"""Read YAML with the position of every key and value, refusing what would hurt the build."""

from __future__ import annotations

import dataclasses
import functools
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import KeyPath, Location, Problem

# Large enough for 100,000 measurements; a bigger file is almost surely a mistake.
MAX_BYTES = 32 * 1024 * 1024
# Aliases can make a small file expand without bound ("billion laughs"): cap the nodes.
MAX_NODES = 5_000_000
# Real data nests a dozen levels; far deeper nesting only crashes parsers (C recursion).
MAX_DEPTH = 64
# Characters that reorder how the text around them is shown ("Trojan Source"): a reader
# would see something else than what is stored, in the page and in the terminal.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

BOOL_TAG = "tag:yaml.org,2002:bool"
_YAML_TAG = "tag:yaml.org,2002:"
# The tags plain YAML gives its values (and `<<` merge keys); any other tag is refused.
PLAIN_TAGS = frozenset(_YAML_TAG + name for name in (
    "map", "seq", "str", "int", "float", "bool", "null", "timestamp", "merge"))
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
# What a value must not hold: controls, direction overrides, lone surrogates.
_UNWANTED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
                       "\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


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
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None, [Problem(where, "the file is UTF-16, not UTF-8", hint="save it as UTF-8")]
    if b"\0" in data:
        return None, [Problem(where, "this is a binary file, not text",
                              hint="remove it from the folder")]
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, [Problem(Location(display, line, col), "the file is not valid UTF-8",
                              hint="save it as UTF-8")]
    problems = bidi_problems(text, display)
    return (None, problems) if problems else (text, [])


def bidi_problems(text: str, display: str, limit: int = 10) -> list[Problem]:
    """Each bidirectional control character, located (the first `limit` of them)."""
    if BIDI_CONTROLS.isdisjoint(text):
        return []
    problems: list[Problem] = []
    for number, line in enumerate(text.split("\n"), start=1):
        for col, ch in enumerate(line, start=1):
            if ch in BIDI_CONTROLS and len(problems) < limit:
                name = unicodedata.name(ch, "").lower()
                problems.append(Problem(
                    Location(display, number, col),
                    f"invisible control character U+{ord(ch):04X} ({name}): it makes the "
                    "text read otherwise than it is written", (),
                    "delete it; right-to-left words need no control characters", line))
    return problems


def parse(text: str, display: str) -> tuple[Document, list[Problem]]:
    """Parse YAML text into a Document, with positions; syntax errors become problems."""
    doc = Document(display, text.splitlines())
    try:
        problem = too_deep(text, doc)
        node = None if problem else yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        message = f"YAML syntax error: {exc.problem or exc.context}"
        hint = "check the indentation and the quotes on this line or the one above"
        return doc, [Problem(Location(display, line, col), message, (), hint, doc.line(line))]
    except yaml.YAMLError as exc:
        return doc, [Problem(Location(display), f"YAML error: {exc}")]
    if problem is None and node is not None and "*" in text:
        problem = too_big(node, doc)  # only aliases (`*name`) can make a node count twice
    if problem is not None:
        return doc, [problem]
    if node is None:
        doc.data = None
        return doc, []
    builder = _Builder(doc)
    doc.data = builder.build(node, ())
    return doc, builder.problems


def _at(doc: Document, mark: Any, message: str, hint: str) -> Problem:
    """A problem at a parser mark (0-based line and column)."""
    line, col = mark.line + 1, mark.column + 1
    return Problem(Location(doc.display, line, col), message, (), hint, doc.line(line))


def too_deep(text: str, doc: Document) -> Problem | None:
    """Refuse nesting deeper than MAX_DEPTH as written, before it is composed: the C
    composer recurses once a level (a crash), and libyaml slows down quadratically."""
    depth = 0
    for event in yaml.parse(text, Loader=_Loader):
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


def unwanted(text: str) -> str:
    """The first character a value must not hold, named; '' when there is none.

    A file holding one raw is refused by libyaml or read_text; only an escape in double
    quotes ("\\e", "\\u202e") puts one in a value."""
    found = _UNWANTED.search(text)
    if found is None:
        return ""
    ch = found.group()
    what = ("a direction override" if ch in BIDI_CONTROLS else
            "half of a character" if "\ud800" <= ch <= "\udfff" else "a control character")
    return f"U+{ord(ch):04X} ({what})"


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
        plain = node.tag in PLAIN_TAGS
        if not plain:  # `!!python/object`, `!!binary`, `!custom`: reported, never built
            self.report(node, path, f"unknown tag '{node.tag.replace(_YAML_TAG, '!!')}'",
                        "remove the tag: data files hold plain values")
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
        self.doc.raw[path] = node.value
        return self.scalar(node, path) if plain else node.value

    def scalar(self, node: yaml.Node, path: KeyPath) -> Any:
        """A scalar's value; tags we do not know are refused, never constructed."""
        try:
            value = _scalar_constructor.construct_object(node)
            wrong = unwanted(value) if isinstance(value, str) else ""
            if wrong:  # reported here; the value is kept so that no other error follows
                self.report(node, path, f"this text holds {wrong}, which no page should show",
                            "remove the escape (\\e, \\x.., \\u....) from the text")
            return value
        except yaml.YAMLError as exc:
            self.report(node, path, f"cannot read this value: {exc}")
        except (ValueError, OverflowError):  # 2026-02-30; an int of 5,000 digits
            kind = node.tag.rsplit(":", 1)[-1]
            if kind == "timestamp":
                self.report(node, path, f"{node.value} is not a day of the calendar",
                            "write a real date")
            elif kind == "int":
                self.report(node, path, f"a whole number of {len(node.value):,} characters "
                            "is too long to read", "check the number of digits")
                return 0  # a stand-in: the build stops at this error
            else:
                self.report(node, path, "cannot read this value", "quote it to keep it a text")
        return None

    def report(self, node: yaml.Node, path: KeyPath, message: str, hint: str = "") -> None:
        """A problem at a node (a key's own place, not its mapping's)."""
        line, col = _mark(node)
        self.problems.append(Problem(Location(self.doc.display, line, col), message, path,
                                     hint, self.doc.line(line)))

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


@functools.lru_cache(maxsize=256)
def _parse_remembered(text: str, display: str) -> tuple[Document, tuple[Problem, ...]]:
    doc, problems = parse(text, display)
    return doc, tuple(problems)


def parse_once(text: str, display: str) -> tuple[Document, list[Problem]]:
    """`parse`, remembered by content: a rebuild in the same process (--watch) parses only
    the files that changed. Callers get their own Document (its tables are only read)."""
    doc, problems = _parse_remembered(text, display)
    return dataclasses.replace(doc), list(problems)
