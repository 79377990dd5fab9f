"""JSON files as harnesses and tools write them: one object a line (.jsonl), or one list
(.json), read by the standard `json` module, each record's keys and values then found
again in the text so that a problem names its line and column like any other.

What the YAML reader refuses is refused here too, with a position: nesting past
MAX_DEPTH (deeper, Python's reader gives up), a whole number too long to read (`Huge`,
worded where fields are checked), a key or text holding a character no page can hold
(an escape such as "\u202e" is the only way JSON can write one). `parse_json` is the one
JSON reader with these limits: the importers read a tool's output through it too.
"""

from __future__ import annotations

import bisect
import functools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from progress_site.characters import first_forbidden
from progress_site.errors import KeyPath, Location, Problem
from progress_site.load.document import Document, Positions
from progress_site.load.text import lines_of
from progress_site.load.yaml_refusals import MAX_DEPTH
from progress_site.model.limits import MAX_DIGITS

_SPACE = " \t\n\r"  # what JSON counts as white space


@dataclass(frozen=True, slots=True)
class Huge:
    """A whole number written with more than MAX_DIGITS digits: never read as a number."""

    digits: int

    def __repr__(self) -> str:
        return f"a number of {self.digits} digits"


def _whole(text: str) -> int | Huge:
    """A JSON integer, unless it is too long to be one a record may hold."""
    digits = len(text.lstrip("-"))
    return int(text) if digits <= MAX_DIGITS else Huge(digits)


_DECODER = json.JSONDecoder(parse_int=_whole)
# What nesting is made of: a bracket outside a string (strings are skipped whole).
_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
BROKEN: Any = object()  # a line that is not JSON: reported, and keeps its record's index
Position = Callable[[int], tuple[int, int]]  # an offset in the text -> (line, column)


class TooDeep(Exception):
    """JSON whose lists and objects nest more than MAX_DEPTH levels, from `offset` on."""

    def __init__(self, offset: int) -> None:
        super().__init__(offset)
        self.offset = offset


def parse_json(text: str, decoder: json.JSONDecoder = _DECODER) -> Any:
    """One JSON value within the limits: json.JSONDecodeError for what is not JSON, TooDeep
    for nesting past MAX_DEPTH (whole numbers past MAX_DIGITS are the decoder's to refuse:
    the default reads them as `Huge`)."""
    if text.startswith("\ufeff"):  # as json.loads says it
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    try:
        value = decoder.decode(text)
    except RecursionError:  # deeper than Python's reader goes: past MAX_DEPTH too
        raise TooDeep(_too_deep(text) or 0) from None
    # The decoded containers are walked, not the text: a long file's every string would
    # be scanned for brackets; the text is read only to place a refusal.
    if _nests_too_deep(value):
        raise TooDeep(_too_deep(text) or 0)
    return value


def _nests_too_deep(value: Any) -> bool:
    """Whether lists and objects nest more than MAX_DEPTH levels in a decoded value."""
    level = [value] if isinstance(value, (dict, list)) else []
    for _ in range(MAX_DEPTH):
        level = [inner for outer in level
                 for inner in (outer.values() if isinstance(outer, dict) else outer)
                 if isinstance(inner, (dict, list))]
        if not level:
            return False
    return True


def _skip(text: str, pos: int) -> int:
    """The offset of the next character that is not JSON white space."""
    # A loop, not a regular expression: there is most often no space or one.
    end = len(text)
    while pos < end and text[pos] in _SPACE:
        pos += 1
    return pos


def parse_json_lines(text: str, display: str, *, located: bool = True
                     ) -> tuple[Document, list[Problem]]:
    """A JSON-lines file: one object a line, each located by its line.

    `located=False` finds where each line starts, and where its keys and values are
    only when a problem asks (`Document.reread`), or for one line (`locate_line`): a
    history file of 100,000 lines is read once, by the standard decoder alone, and a
    line whose keys or texts might be refused (an escape, a key twice) is scanned now.
    """
    doc = Document(display, lines_of(text), [])
    problems: list[Problem] = []
    if not located:
        located_later(doc)
    for number, line in enumerate(doc.lines, start=1):
        if not line.strip():
            continue
        if doc.read_no_further(problems, number):
            break
        start = len(line) - len(line.lstrip())
        try:
            record = _decoded(line, located)
        except json.JSONDecodeError as exc:
            problems.append(_syntax(doc, number, exc.colno, exc.msg))
            doc.data.append(BROKEN)
            continue
        except TooDeep as exc:
            problems.append(_nested(doc, number, exc.offset + 1))
            doc.data.append(BROKEN)
            continue
        if line[start] != "{":
            problems.append(_syntax(doc, number, start + 1, "expected an object {...}"))
            doc.data.append(BROKEN)
            continue
        if record is None:
            record = _scan(doc, line, start, ("records", len(doc.data)), _on_line(number),
                           problems)
        else:
            doc.values[("records", len(doc.data))] = (number, start + 1)
        doc.data.append(record)
    return doc, problems


def located_later(doc: Document) -> Document:
    """`doc`, a JSON-lines file whose `values` hold where each record starts, made to
    find where each of their keys and values is only when a problem asks."""
    doc.reread = functools.partial(_positions, doc)
    return doc


def locate_line(doc: Document, index: int) -> None:
    """Where each key and value of record `index` (of a JSON-lines file) is, found now."""
    number, col = doc.values[("records", index)]
    _scan(doc, doc.line(number), col - 1, ("records", index), _on_line(number), [])


def _positions(doc: Document) -> tuple[Positions, Positions]:
    """Where every record of a JSON-lines file, and each of its keys and values, is."""
    found = Document(doc.display, doc.lines, [])
    for key, (number, col) in doc.values.items():
        if len(key) == 2 and key[0] == "records":
            _scan(found, doc.line(number), col - 1, key, _on_line(number), [])
    return found.values, found.keys


class _Repeated(Exception):
    """An object writes a key twice (the standard decoder would keep the last quietly)."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's keys and values, unless one key is written twice."""
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _Repeated
    return out


def _decoded(line: str, located: bool) -> Any:
    """A line's JSON value; None when it is to be scanned key by key (`located`, or a
    line whose key or text might be refused: an escape, a key written twice)."""
    # Few brackets: a line that cannot nest past MAX_DEPTH, decoded as it is.
    if (not located and "\\" not in line and not line.startswith("\ufeff")
            and line.count("[") + line.count("{") <= MAX_DEPTH):
        try:
            return _PAIRS.decode(line)
        except _Repeated:
            pass
    parse_json(line)  # JSONDecodeError or TooDeep for a line that is not JSON within limits
    return None


_PAIRS = json.JSONDecoder(parse_int=_whole, object_pairs_hook=_pairs)


def parse_json_list(text: str, display: str) -> tuple[Document | None, list[Problem]]:
    """A JSON file holding one list of objects."""
    doc = Document(display, lines_of(text), [])
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]

    def at(offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(starts, offset)
        return line, offset - starts[line - 1] + 1

    try:
        value = parse_json(text)
    except json.JSONDecodeError as exc:
        return None, [_syntax(doc, exc.lineno, exc.colno, exc.msg)]
    except TooDeep as exc:
        return None, [_nested(doc, *at(exc.offset))]

    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        return None, [_syntax(doc, 1, 1, "expected a list of objects [{...}, ...]")]
    pos = _skip(text, text.index("[") + 1)
    problems: list[Problem] = []
    for _ in value:
        doc.data.append(_scan(doc, text, pos, ("records", len(doc.data)), at, problems))
        _, pos = _DECODER.raw_decode(text, pos)
        pos = _skip(text, pos)
        pos = _skip(text, pos + 1)  # past the comma
    return doc, problems


def _on_line(number: int) -> Position:
    """Positions within one line of the file."""
    return lambda offset: (number, offset + 1)


def _scan(doc: Document, text: str, pos: int, path: KeyPath, at: Position,
          problems: list[Problem]) -> dict[str, Any]:
    """One JSON object (already known to be valid), recording where each key and value is."""
    doc.values[path] = at(pos)
    out: dict[str, Any] = {}
    pos = _skip(text, pos + 1)
    while text[pos] != "}":
        key, end = _DECODER.raw_decode(text, pos)
        child = (*path, key)
        if key in out:
            line, col = at(pos)
            problems.append(Problem(Location(doc.display, line, col),
                                    f"key '{key}' appears twice", child, "keep one of them",
                                    doc.line(line)))
        _refuse_unwanted(doc, key, child, at(pos), problems, "key")
        doc.keys[child] = at(pos)
        start = _skip(text, _skip(text, end) + 1)  # past ':'
        out[key], end = _DECODER.raw_decode(text, start)
        if isinstance(out[key], str):
            _refuse_unwanted(doc, out[key], child, at(start), problems, "text")
        doc.values[child] = at(start)
        doc.raw[child] = text[start:end]
        pos = _skip(text, end)
        if text[pos] == ",":
            pos = _skip(text, pos + 1)
    return out


def _refuse_unwanted(doc: Document, text: str, path: KeyPath, place: tuple[int, int],
                     problems: list[Problem], what: str) -> None:
    """A key or text that holds a character no page or terminal should show, reported."""
    wrong = first_forbidden(text)
    if wrong:
        line, col = place
        problems.append(Problem(Location(doc.display, line, col),
                                f"this {what} holds {wrong}, which no page should show", path,
                                "remove the escape (\\u....) from the text", doc.line(line)))


def _too_deep(text: str) -> int | None:
    """The offset of the first list or object nested more than MAX_DEPTH levels."""
    depth = 0
    for found in _NESTING.finditer(text):
        bracket = found.group()
        if bracket in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                return found.start()
        elif bracket in ("]", "}"):
            depth -= 1
    return None


def _nested(doc: Document, line: int, col: int) -> Problem:
    """Nesting deeper than any record needs."""
    return Problem(Location(doc.display, line, col),
                   f"lists and objects nested more than {MAX_DEPTH} levels", (),
                   "a record's values are numbers, words and true or false", doc.line(line))


def _syntax(doc: Document, line: int, col: int, message: str) -> Problem:
    """A line that is not JSON, or not a record."""
    return Problem(Location(doc.display, line, col), f"JSON syntax error: {message}", (),
                   "each record is one JSON object: {\"name\": value, ...}", doc.line(line))
