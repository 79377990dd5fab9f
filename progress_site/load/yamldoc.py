"""What a parsed YAML file becomes: a Document of values and positions, shared by the
one-pass event reader and the composed-node reader (how they read it: yamlread). A
Document read back from the parse cache needs no YAML parser: this module loads none."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from progress_site.errors import KeyPath, Location, Problem

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
YAML_TAG = "tag:yaml.org,2002:"
# The tags plain YAML gives its values (and `<<` merge keys); any other tag is refused.
PLAIN_TAGS = frozenset(YAML_TAG + name for name in (
    "map", "seq", "str", "int", "float", "bool", "null", "timestamp", "merge"))


class Document:
    """One parsed file: its values, and where each key path was written.

    A plain class, not a dataclass: building one costs each build 0.7 ms at import.
    It compares and prints as the dataclass did (`copy` makes the copy `replace` did)."""

    __slots__ = ("data", "display", "keys", "lines", "raw", "unread", "values")

    def __init__(self, display: str, lines: list[str], data: Any = None,
                 values: dict[KeyPath, tuple[int, int]] | None = None,
                 keys: dict[KeyPath, tuple[int, int]] | None = None,
                 raw: dict[KeyPath, str] | None = None, unread: str | None = None) -> None:
        self.display = display  # the path as errors print it, relative to the source folder
        self.lines = lines
        self.data = data
        self.values = {} if values is None else values
        self.keys = {} if keys is None else keys
        # The written form of numbers only (`6.40` keeps its decimals): nothing else reads
        # it.
        self.raw = {} if raw is None else raw
        # The text, while `values` holds only where each mapping starts and `keys` nothing
        # (a parse read back from the cache, see parsecache): the rest is read from it the
        # first time it is asked for, which only a problem in the file does.
        self.unread = unread

    def _fields(self) -> tuple[Any, ...]:
        """What equality compares, in order (`unread` too, as the dataclass did)."""
        return (self.display, self.lines, self.data, self.values, self.keys, self.raw,
                self.unread)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Document)
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable: as the dataclass, unhashable

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(
            ("display", "lines", "data", "values", "keys", "raw"), self._fields(),
            strict=False))
        return f"Document({shown})"

    def copy(self) -> Document:
        """Another Document holding the same values and tables (not copies of them)."""
        return Document(*self._fields())

    def locate(self, path: KeyPath, *, key: bool = False) -> Location:
        """Location of a value (or of its key), falling back to the nearest parent."""
        table = self.keys if key else self.values
        found = table.get(path)
        if found is not None:  # nearly always: every value and key written is in its table
            return Location(self.display, *found)
        if self.unread is not None:
            self.read_positions()
            return self.locate(path, key=key)
        probe = path
        while probe and probe not in table:
            probe = probe[:-1]
        line, col = table.get(probe, self.values.get((), (0, 0)))
        return Location(self.display, line, col)

    def read_positions(self) -> None:
        """Fill the tables of a document read back with only its mappings' positions."""
        from progress_site.load.yamlsource import (
            parse,  # the parser builds on this module, not the reverse
        )

        text, self.unread = self.unread, None
        if text is not None:
            full, _ = parse(text, self.display)
            self.values, self.keys = full.values, full.keys

    def line(self, number: int) -> str:
        """The source text of a 1-based line number."""
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""

    def problem(self, path: KeyPath, message: str, hint: str = "", *, key: bool = False,
                warning: bool = False) -> Problem:
        """A problem located at a key path of this document."""
        loc = self.locate(path, key=key)
        return Problem(loc, message, path, hint, self.line(loc.line), warning)


class Places(Mapping[str, Location]):
    """Where each key of a mapping has its value, looked up only when asked for.

    A record remembers where each of its fields was written, for errors found later;
    a few records ever need one. Looking each up as it is read made a Location per
    field of every record (16 MiB on a site of 10,000 measurements)."""

    __slots__ = ("_doc", "_names", "_path")

    def __init__(self, doc: Document, path: KeyPath, names: Mapping[str, Any]) -> None:
        self._doc = doc
        self._path = path
        self._names = names  # the mapping as written: its keys are the fields given

    def __getitem__(self, name: str) -> Location:
        if name not in self._names:
            raise KeyError(name)
        return self._doc.locate((*self._path, name))

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


def keep_raw(doc: Document, path: KeyPath, value: Any, written: str) -> None:
    """Remember how a number was written (its decimals); other values need no copy."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        doc.raw[path] = written
