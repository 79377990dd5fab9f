"""The shape of a tool's JSON, checked before a result is read: every mistake of structure
(a number where a list is, a list where an object is, a key left out, null) told at its
line and column in the format's words, all of them at once, never in Python's.

A format is declared as a table (`Obj`, `Each` and the kinds of KINDS); the decoded value
says what is wrong, and the text is walked again only to place a mistake (`offset`), so
a good file pays one walk of its decoded values.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from progress_site.errors import MAX_SHOWN, KeyPath, Location, Problem, shorten
from progress_site.load.text import LineIndex
from progress_site.model.limits import LARGEST

KINDS = MappingProxyType({"number": "a number", "text": "a text", "list": "a list",
                          "object": "an object", "any": "a value",
                          "maybe-number": "a number or null",
                          "count": "a count of runs (a whole number from 1)"})
# The exact types of a kind's values, where they say it alone (a bool is no number).
EXACT: Mapping[str, frozenset[type]] = MappingProxyType({
    "number": frozenset((int, float)), "text": frozenset((str,)),
    "maybe-number": frozenset((int, float, type(None)))})
Mistake = tuple[KeyPath, str]  # the key path of the value at fault, and what is wrong


@dataclass(frozen=True)
class Obj:
    """An object of the format: `name` as messages call it, and each key's shape with
    whether it is needed (null stands for a key left out)."""

    name: str
    keys: Mapping[str, tuple[Spec, bool]]
    either: tuple[str, ...] = ()  # keys of which one at least is needed (not null nor [])


@dataclass(frozen=True)
class Each:
    """A list of values of one shape (`name`: what one of them is called)."""

    name: str
    item: Spec
    nulls: bool = False  # whether an item may be null (a tool's "none for this one")


@dataclass(frozen=True)
class Format:
    """A tool's JSON: its shape, what a file lacking the shape's needed keys is told (it
    is not the tool's at all), how to fix a mistake, and mistakes a table cannot say."""

    shape: Obj
    not_it: str
    hint: str
    more: Callable[[Any], Iterable[Mistake]] | None = None

    def problems(self, doc: Any, text: str, display: str) -> list[Problem]:
        """Every mistake of a decoded file (`text`), located; [] when it has the shape."""
        found = list(record((), doc, self.shape))
        if not found and self.more is not None:
            found = list(self.more(doc))
        return located(found, text, 0, display, self.hint)

    def is_of(self, doc: Any) -> bool:
        """Whether a decoded file holds the shape's needed keys, of the right kind."""
        kinds = {Obj: dict, Each: list}
        return isinstance(doc, dict) and all(
            isinstance(doc.get(key), kinds.get(type(spec), object))
            for key, (spec, needed) in self.shape.keys.items() if needed)


Spec = str | Obj | Each  # a kind of KINDS, an object, or a list
DECODER = json.JSONDecoder()
_SPACE = " \t\n\r"
_PLAIN = re.compile(r"[A-Za-z0-9_-]+")  # a key a path prints as it is


def mistakes(path: KeyPath, value: Any, spec: Spec, name: str) -> Iterator[Mistake]:
    """Each mistake of a value against its declared shape (`name`: what it is called)."""
    if isinstance(spec, Obj):
        yield from record(path, value, spec)
    elif isinstance(spec, Each):
        if not isinstance(value, list):
            yield path, f"{name} is {what(value)}, not a list"
            return
        types = EXACT.get(spec.item) if isinstance(spec.item, str) else None
        if types is not None and all(type(item) in types or (item is None and spec.nulls)
                                     for item in value):
            return  # a list of plain values, as a good file holds, checked without a walk
        for i, item in enumerate(value):
            if item is not None or not spec.nulls:
                yield from mistakes((*path, i), item, spec.item, spec.name)
    elif not is_kind(spec, value):
        # A count's number is shown: `2.7` or `0` says more than "a number".
        found = repr(value) if spec == "count" and is_kind("number", value) else what(value)
        yield path, f"{name} is {shorten(found, 40)}, not {KINDS[spec]}"


def record(path: KeyPath, value: Any, spec: Obj) -> Iterator[Mistake]:
    """The mistakes of one object: not an object, a key it needs left out or null, a
    key's value of the wrong shape."""
    if not isinstance(value, dict):
        yield path, f"{spec.name} is {what(value)}, not an object {{...}}"
        return
    if spec.either and not any(value.get(key) not in (None, []) for key in spec.either):
        yield path, f"{spec.name} without " + " or ".join(f"`{key}`" for key in spec.either)
    for key, (inner, needed) in spec.keys.items():
        got = value.get(key)
        if got is None:
            if needed:
                yield path, f"{spec.name} without `{key}`"
        elif not isinstance(inner, str) or type(got) not in EXACT.get(inner, ()):
            yield from mistakes((*path, key), got, inner, f"`{key}`")


def is_kind(kind: str, value: Any) -> bool:
    """Whether a value is of a kind the format names."""
    if kind == "any" or (kind == "maybe-number" and value is None):
        return True
    if kind == "count":
        return type(value) is int and 1 <= value <= LARGEST
    if kind in ("number", "maybe-number"):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, {"text": str, "list": list, "object": dict}[kind])


def what(value: Any) -> str:
    """A JSON value's kind, as the messages name it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a text"
    return "a list" if isinstance(value, list) else "an object"


def located(found: Iterable[Mistake], text: str, start: int, display: str, hint: str
            ) -> list[Problem]:
    """Mistakes of the JSON in `text` (its value from offset `start`) as problems at their
    line and column; the first MAX_SHOWN told, the rest counted."""
    found = list(found)
    lines = LineIndex(text)
    out = [problem_at(lines, text, offset(text, start, path), display, message, hint, path)
           for path, message in found[:MAX_SHOWN]]
    out.sort(key=Problem.sort_key)
    if len(found) > MAX_SHOWN:
        out.append(Problem(Location(display), f"and {len(found) - MAX_SHOWN:,} more mistakes "
                           "of the same kind (fix those above first)"))
    return out


def problem_at(lines: LineIndex, text: str, at: int, display: str, message: str, hint: str,
               path: KeyPath = ()) -> Problem:
    """A problem at offset `at` of `text` (`lines` its index), its line shown."""
    number, start, end = lines.line(at)
    return Problem(Location(display, number + 1, at - start + 1), message, spelled(path),
                   hint, text[start:end])


def spelled(path: KeyPath) -> KeyPath:
    """A key path as a message prints it, each key that is not one plain word quoted as
    JSON writes it (as jq does): `results."t.time_a"[1]`, not `results.t.time_a[1]`,
    which reads as three keys; `entries."Rust Benchmark"[0]`."""
    return tuple(json.dumps(part, ensure_ascii=False)
                 if isinstance(part, str) and not _PLAIN.fullmatch(part) else part
                 for part in path)


def offset(text: str, pos: int, path: KeyPath) -> int:
    """Where the value at `path` begins, in valid JSON whose value begins at `pos`."""
    pos = skip(text, pos)
    for part in path:
        pos = skip(text, pos + 1)  # past '{' or '['
        if isinstance(part, int):
            for _ in range(part):
                pos = after(text, pos)
            continue
        while DECODER.raw_decode(text, pos)[0] != part:
            pos = after(text, after(text, pos))  # past the key, then past its value
        pos = after(text, pos)
    return pos


def after(text: str, pos: int) -> int:
    """Past the JSON value at `pos` and the `,` or `:` after it."""
    return skip(text, skip(text, DECODER.raw_decode(text, pos)[1]) + 1)


def skip(text: str, pos: int) -> int:
    """The offset of the next character that is not JSON white space."""
    while pos < len(text) and text[pos] in _SPACE:
        pos += 1
    return pos
