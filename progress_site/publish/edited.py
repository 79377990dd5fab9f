"""The records an edit changed, read from the old data.json without parsing the rest.

A build's summary compares the site it replaces with its own. Both data.json files are
written by the same code, a record at a time in the same order, so after an edit they
hold the same bytes but for a few records of one collection: only those of the old file
are decoded, a few records of a large file (bench/hugo_peer.py measures what it saves),
and the new file's text in their place is handed back as written, for the caller to
match with the records of its model (`datajson.written`): what the build wrote is not
parsed again. The old side is untrusted, and is read as strictly as a whole parse would:
its records must decode as the items of the same list, within the same depth limit.
Whenever the files differ otherwise (a new day changes `today` and the figures it makes
stale; a file that is not JSON), `edited` says None and the caller parses the old file
whole, as before.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from progress_site.load.jsonfiles import TooDeep, parse_json

# Characters compared at a time, then fewer, then one: a few slices, not a loop a character.
STEPS = (1 << 16, 1 << 10, 1 << 4, 1)
# The standard decoder, as changes.parse_document reads a whole old file: a whole number
# of more than 4,300 digits is refused there, and so here.
_DECODER = json.JSONDecoder()


@dataclass(frozen=True, slots=True)
class Edited:
    """The old records of one collection that differ, the index of the first of them in
    the collection (the same on both sides: the records before it are the same bytes),
    and the new file's text in their place (its records as written, joined by commas)."""

    collection: str
    first: int
    old: list[Any]
    new: str


def common_length(a: str, b: str, limit: int, from_end: bool = False) -> int:
    """How many characters `a` and `b` share at their start (or their end), at most
    `limit`."""
    def part(text: str, at: int, size: int) -> str:
        return text[len(text) - at - size:len(text) - at] if from_end else text[at:at + size]

    at = 0
    for size in STEPS:
        while at + size <= limit and part(a, at, size) == part(b, at, size):
            at += size
    return at


def edited(old_bytes: bytes, new_bytes: bytes) -> Edited | None:
    """The records that differ between an old data.json and a new one this engine wrote
    (compact, keys sorted); None when they differ otherwise than in some records of one
    collection, or the old side's records do not read as items of that list."""
    try:
        old = old_bytes.decode("utf-8")
    except UnicodeDecodeError:
        return None
    new = new_bytes.decode("utf-8")
    shorter = min(len(old), len(new))
    start = common_length(old, new, shorter)
    end = len(old) - common_length(old, new, shorter - start, from_end=True)
    try:  # the old side may be any file: where it stops being JSON, nothing is found
        found = collection_at(old, start, end)
    except (ValueError, IndexError, RecursionError):
        return None
    if found is None:
        return None
    name, first, since, until = found
    try:  # two lists deep, as the records stand in the whole file: {"name": [...]}
        records = parse_json(f"[[{old[since:until]}]]", _DECODER)[0]
    except (ValueError, TooDeep):
        return None
    return Edited(name, first, records, new[since:until + len(new) - len(old)])


def collection_at(old: str, start: int, end: int) -> tuple[str, int, int, int] | None:
    """The collection of `old` whose records hold characters `start` to `end`: its name,
    the index of the record holding `start` (or just before it), where that record starts,
    and where the record holding `end - 1` ends; None when those characters are not all
    within one list's records."""
    if not old.startswith('{"'):
        return None
    at = 1
    while old[at] == '"':
        name, at = _DECODER.raw_decode(old, at)
        at += 1  # the colon
        if old[at] != "[" or old[at + 1] == "]":
            _, after = _DECODER.raw_decode(old, at)
            if after > start:
                return None  # the difference starts in a value that is not a list
        else:
            found = records_in(old, at + 1, start, end)
            if found is None or isinstance(found, tuple):
                return None if found is None else (name, *found)
            after = found
        if old[after] != ",":
            return None
        at = after + 1
    return None


def records_in(old: str, at: int, start: int, end: int) -> tuple[int, int, int] | int | None:
    """In the list whose first record starts at `at`: the first record to read (the one
    holding `start`, or the one before it when `start` falls between two), where it starts
    and where the last to read ends (the first record end at or past `end`); when `start`
    is past the list, where the list ends; None when the difference goes on past it."""
    index, begin, after = 0, at, _DECODER.raw_decode(old, at)[1]
    while old[after] == "," and after + 1 <= start:
        index, begin = index + 1, after + 1
        after = _DECODER.raw_decode(old, begin)[1]
    if after < start and old[after] == "]":
        return after + 1  # not in this list
    while after < end and old[after] == ",":
        after = _DECODER.raw_decode(old, after + 1)[1]
    if after < end:
        return None  # the difference goes on past the list's end
    return index, begin, after
