"""Records as harnesses write them in JSON: one object a line (.jsonl), or one list (.json).

The standard `json` module reads them; each record's keys and values are then found
again in the text, so that a problem with a value names its line and column like any
other problem of the data.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Callable
from typing import Any

from progress_site.errors import KeyPath, Location, Problem
from progress_site.load.yaml import Document

_SPACE = " \t\n\r"  # what JSON counts as white space
_DECODER = json.JSONDecoder()
BROKEN: Any = object()  # a line that is not JSON: reported, and keeps its record's index
Position = Callable[[int], tuple[int, int]]  # an offset in the text -> (line, column)


def _skip(text: str, pos: int) -> int:
    """The offset of the next character that is not JSON white space."""
    # A loop, not a regular expression: there is most often no space or one.
    end = len(text)
    while pos < end and text[pos] in _SPACE:
        pos += 1
    return pos


def parse_json_lines(text: str, display: str) -> tuple[Document | None, list[Problem]]:
    """A JSON-lines file: one object a line, each located by its line."""
    doc = Document(display, text.splitlines(), [])
    problems: list[Problem] = []
    for number, line in enumerate(doc.lines, start=1):
        if not line.strip():
            continue
        start = len(line) - len(line.lstrip())
        try:
            json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(_syntax(doc, number, exc.colno, exc.msg))
            doc.data.append(BROKEN)
            continue
        if line[start] != "{":
            problems.append(_syntax(doc, number, start + 1, "expected an object {...}"))
            doc.data.append(BROKEN)
            continue
        doc.data.append(_scan(doc, line, start, ("records", len(doc.data)),
                              _on_line(number), problems))
    return doc, problems


def parse_json_list(text: str, display: str) -> tuple[Document | None, list[Problem]]:
    """A JSON file holding one list of objects."""
    doc = Document(display, text.splitlines(), [])
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, [_syntax(doc, exc.lineno, exc.colno, exc.msg)]
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]

    def at(offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(starts, offset)
        return line, offset - starts[line - 1] + 1

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
        doc.keys[child] = at(pos)
        start = _skip(text, _skip(text, end) + 1)  # past ':'
        out[key], end = _DECODER.raw_decode(text, start)
        doc.values[child] = at(start)
        doc.raw[child] = text[start:end]
        pos = _skip(text, end)
        if text[pos] == ",":
            pos = _skip(text, pos + 1)
    return out


def _syntax(doc: Document, line: int, col: int, message: str) -> Problem:
    """A line that is not JSON, or not a record."""
    return Problem(Location(doc.display, line, col), f"JSON syntax error: {message}", (),
                   "each record is one JSON object: {\"name\": value, ...}", doc.line(line))
