"""The shape of github-action-benchmark's `data.js`, checked before a bench is read: every
mistake of structure (a number where a list is, a list where an object is, a key left
out) told at its line and column, in the format's words, all of them at once.

The action writes (src/write.ts of benchmark-action/github-action-benchmark):

    {"lastUpdate": ..., "repoUrl": ..., "entries": {SUITE: [ENTRY, ...], ...}}
    ENTRY: {"commit": {"id": ..., "timestamp": ..., ...}, "date": MS, "tool": ...,
            "benches": [{"name": ..., "value": ..., "unit": ..., "range": ..., "extra": ...}]}

The decoded value says what is wrong; the text is walked again only to place a mistake
(`_offset`), so a good file pays one walk of its decoded entries.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

from progress_site.errors import MAX_SHOWN, KeyPath, Location, Problem

HINT = ("give the data.js as github-action-benchmark wrote it (its gh-pages branch's "
        "dev/bench/data.js)")
# What each object of the format holds: key -> (what it must be, whether it is needed).
ENTRY = MappingProxyType({"commit": ("object", False), "date": ("number", False),
                         "tool": ("text", False), "benches": ("list", True)})
COMMIT = MappingProxyType({"id": ("text", False), "timestamp": ("text", False)})
BENCH = MappingProxyType({"name": ("text", True), "value": ("number", True),
                         "unit": ("text", False), "range": ("text", False),
                         "extra": ("text", False)})
KINDS = MappingProxyType({"number": "a number", "text": "a text", "list": "a list",
                          "object": "an object"})
_DECODER = json.JSONDecoder()
_SPACE = " \t\n\r"


def shape_problems(doc: Any, text: str, start: int, display: str) -> list[Problem]:
    """Every mistake of structure of a decoded data.js (`text`: the file, its JSON from
    offset `start`), located; the first MAX_SHOWN told, the rest counted."""
    found = list(_mistakes(doc))
    if not found:
        return []
    lines = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    out = []
    for path, message in found[:MAX_SHOWN]:
        offset = _offset(text, start, path)
        line = bisect.bisect_right(lines, offset)
        end = text.find("\n", offset)
        source = text[lines[line - 1]:end if end >= 0 else len(text)]
        out.append(Problem(Location(display, line, offset - lines[line - 1] + 1), message,
                           path, HINT, source))
    out.sort(key=Problem.sort_key)
    if len(found) > MAX_SHOWN:
        out.append(Problem(Location(display), f"and {len(found) - MAX_SHOWN:,} more mistakes "
                           "of the same kind (fix those above first)"))
    return out


def _mistakes(doc: Any) -> Iterator[tuple[KeyPath, str]]:
    """Each mistake: the key path of the value at fault (or of the object lacking a key),
    and what is wrong."""
    if not isinstance(doc, dict):
        yield (), f"the data is {_what(doc)}, not an object {{\"entries\": ...}}"
        return
    suites = doc.get("entries")
    if not isinstance(suites, dict):
        yield ((), "no `entries`: the object of each suite's entries") if suites is None \
            else (("entries",), f"`entries` is {_what(suites)}, not an object of suites")
        return
    for suite, entries in suites.items():
        if not isinstance(entries, list):
            yield ("entries", suite), f"suite is {_what(entries)}, not a list of entries"
            continue
        for i, entry in enumerate(entries):
            yield from _record(("entries", suite, i), entry, ENTRY, "an entry")
            if not isinstance(entry, dict):
                continue
            if isinstance(entry.get("commit"), dict):
                yield from _record(("entries", suite, i, "commit"), entry["commit"], COMMIT,
                                   "a commit")
            if isinstance(entry.get("benches"), list):
                for j, bench in enumerate(entry["benches"]):
                    yield from _record(("entries", suite, i, "benches", j), bench, BENCH,
                                       "a bench")


def _record(path: KeyPath, value: Any, keys: Mapping[str, tuple[str, bool]], name: str
            ) -> Iterator[tuple[KeyPath, str]]:
    """The mistakes of one object of the format: not an object, a key it needs left out,
    a key's value of the wrong kind (null stands for a key left out)."""
    if not isinstance(value, dict):
        yield path, f"{name} is {_what(value)}, not an object {{...}}"
        return
    for key, (kind, needed) in keys.items():
        got = value.get(key)
        if got is None:
            if needed:
                yield path, f"{name} without `{key}`"
        elif not _is(kind, got):
            yield (*path, key), f"`{key}` is {_what(got)}, not {KINDS[kind]}"


def _is(kind: str, value: Any) -> bool:
    """Whether a value is of a kind the format names."""
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, {"text": str, "list": list, "object": dict}[kind])


def _what(value: Any) -> str:
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


def _offset(text: str, pos: int, path: KeyPath) -> int:
    """Where the value at `path` begins, in valid JSON whose value begins at `pos`."""
    pos = _skip(text, pos)
    for part in path:
        pos = _skip(text, pos + 1)  # past '{' or '['
        if isinstance(part, int):
            for _ in range(part):
                pos = _skip(text, _skip(text, _DECODER.raw_decode(text, pos)[1]) + 1)
            continue
        while True:
            key, end = _DECODER.raw_decode(text, pos)
            pos = _skip(text, _skip(text, end) + 1)  # past ':'
            if key == part:
                break
            pos = _skip(text, _skip(text, _DECODER.raw_decode(text, pos)[1]) + 1)
    return pos


def _skip(text: str, pos: int) -> int:
    """The offset of the next character that is not JSON white space."""
    while pos < len(text) and text[pos] in _SPACE:
        pos += 1
    return pos
