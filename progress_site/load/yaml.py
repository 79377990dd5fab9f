"""Read YAML with the position of every key and value, refusing what would hurt the build.

Plain data is read in one pass over libyaml's events, each value built as its event
arrives, keeping where each mapping starts; every other place is found by reading the
text again when a problem asks (see bench/scale.py). A file holding what only composed
nodes read exactly (anchors, aliases, tags, `<<` merge keys, odd or repeated keys, deep
nesting, syntax errors) is read again by composing its nodes, which words every refusal;
both paths give the same values and problems. Plain scalars are read by one `Resolver`, which
record/yamledit asks too (`plain_tag`), so what the build reads as a text is what the
editor writes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

import yaml

from progress_site.errors import KeyPath, Location, Problem
from progress_site.load.yaml_refusals import (
    MAX_DEPTH,
    MAX_NODES,
    TOO_DEEP,
    syntax_error,
    too_big,
    unacceptable,
)
from progress_site.model.characters import first_forbidden

# A whole number Python can write out in decimal (at most 4,300 digits): a longer one,
# read from `0x...`, `0o...` or `0b...`, would fail where a message quotes it.
MAX_INT_BITS = 14_000
YAML_TAG = "tag:yaml.org,2002:"
STR_TAG = YAML_TAG + "str"
BOOL_TAG = YAML_TAG + "bool"
# The tags of plain values, which the one-pass reader builds; `<<` merge keys and any
# other tag are the composed path's, which refuses every tag but these and `merge`.
_SCALAR_TAGS = frozenset(YAML_TAG + n for n in ("str", "int", "float", "bool", "null",
                                                "timestamp"))
PLAIN_TAGS = _SCALAR_TAGS | {YAML_TAG + n for n in ("map", "seq", "merge")}

Positions = dict[KeyPath, tuple[int, int]]
# The events the one-pass reader meets most, looked up once (it meets one per value).
_SCALAR, _MAP, _SEQ = yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent
_MAP_END, _SEQ_END = yaml.MappingEndEvent, yaml.SequenceEndEvent
_NUMBERS = (int, float)  # exact types: true and false are not numbers here
_UNKNOWN: Any = object()  # a scalar not read yet


class Resolver(yaml.resolver.BaseResolver):
    """How a plain scalar reads: YAML 1.1's numbers, dates and nulls, and YAML 1.2's
    booleans only (`no`, `on` and `yes` stay words: `fr: non` is not false)."""


Resolver.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != BOOL_TAG]
    for first, resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.items()}
Resolver.add_implicit_resolver(
    BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
_READING: Any = Resolver()  # PyYAML types `resolve` loosely


_BaseLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Loader(_BaseLoader):  # type: ignore[misc]
    """libyaml's parser, reading plain scalars as `Resolver` does."""

    yaml_implicit_resolvers = Resolver.yaml_implicit_resolvers


def plain_tag(text: str) -> str:
    """The tag the build gives `text` written unquoted: `57930e6` is a text, `0x1f` an int."""
    return str(_READING.resolve(yaml.ScalarNode, text, (True, False)))


class Lines(Sequence[str]):
    """A text's lines, split only when a message first quotes one: most files have no
    problem, and their text is kept anyway (watch mode remembers parses by it)."""

    __slots__ = ("_lines", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._lines: list[str] | None = None

    def _split(self) -> list[str]:
        """The lines, split once."""
        if self._lines is None:
            self._lines = self._text.splitlines()
        return self._lines

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        return self._split()[index]

    def __len__(self) -> int:
        return len(self._split())


@dataclass(slots=True)
class Document:
    """One parsed file: its values, and where each key path was written."""

    display: str  # the path as errors print it, relative to the source folder
    lines: Sequence[str]
    data: Any = None
    values: Positions = field(default_factory=dict)
    keys: Positions = field(default_factory=dict)
    raw: dict[KeyPath, str] = field(default_factory=dict)  # how each number was written
    # Set when `values` holds only where each mapping (or JSON line) starts and `keys`
    # nothing: it gives every position, which only a problem asks for.
    reread: Callable[[], tuple[Positions, Positions]] | None = field(
        default=None, compare=False, repr=False)

    def every_position(self) -> None:
        """Find every value's and key's position now, if only some were kept."""
        if self.reread is not None:
            (self.values, self.keys), self.reread = self.reread(), None

    def locate(self, path: KeyPath, *, key: bool = False) -> Location:
        """Location of a value (or of its key), falling back to the nearest parent."""
        table = self.keys if key else self.values
        if path not in table and self.reread is not None:
            self.every_position()
            table = self.keys if key else self.values
        probe = path
        while probe and probe not in table:
            probe = probe[:-1]
        return Location(self.display, *table.get(probe, self.values.get((), (0, 0))))

    def line(self, number: int) -> str:
        """The source text of a 1-based line number."""
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""

    def problem(self, path: KeyPath, message: str, hint: str = "", *, key: bool = False,
                warning: bool = False) -> Problem:
        """A problem located at a key path of this document."""
        loc = self.locate(path, key=key)
        return Problem(loc, message, path, hint, self.line(loc.line), warning)


def mark(node: Any) -> tuple[int, int]:
    """A node's or an event's 1-based line and column."""
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Reader:
    """Reads one document's scalars into values, collecting its problems."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.problems: list[Problem] = []
        self.count = 0
        # Its own constructor: PyYAML's remembers every node it built (a shared one kept
        # each file's nodes alive for the whole process).
        self.constructor = yaml.constructor.SafeConstructor()

    def read(self, node: yaml.Node, path: KeyPath) -> Any:
        """A scalar's value; tags we do not know are refused, never constructed."""
        try:
            value = self.constructor.construct_object(node)
            if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
                raise ValueError  # `0xfff...`: read, but too long for Python to write out
            wrong = first_forbidden(value) if isinstance(value, str) else ""
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

    def report(self, node: Any, path: KeyPath, message: str, hint: str = "") -> None:
        """A problem at a node (a key's own place, not its mapping's)."""
        self.problems.append(self.at(node, message, hint, path))

    def keep_raw(self, path: KeyPath, value: Any, written: str) -> Any:
        """`value`, remembering how it was written if it is a number (`6.40`, `0x1f`)."""
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            self.doc.raw[path] = written
        return value

    def at(self, node: Any, message: str, hint: str, path: KeyPath = ()) -> Problem:
        """A problem at a node's or a parser mark's place."""
        line, col = mark(node)
        return Problem(Location(self.doc.display, line, col), message, path, hint,
                       self.doc.line(line))


class _HandOver(Exception):
    """The file holds something only the composed path reads exactly."""


class _Events(_Reader):
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
        if tag not in _SCALAR_TAGS:
            raise _HandOver  # tagged, `<<`, `=`: rare, and the composed path words them
        node = yaml.ScalarNode(tag, written, event.start_mark, event.end_mark, event.style)
        before = len(self.problems)
        value = self.read(node, path)
        if len(self.problems) == before:
            known[written] = value
        return value


class _Nodes(_Reader):
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
        return self.keep_raw(path, self.read(node, path), node.value) if plain else node.value

    def mapping(self, node: yaml.MappingNode, path: KeyPath) -> dict[Any, Any]:
        """A mapping; duplicate keys are errors (PyYAML would keep the last silently)."""
        if any(k.tag == YAML_TAG + "merge" for k, _ in node.value):
            self.constructor.flatten_mapping(node)  # `<<` as PyYAML's constructor applies it
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
