"""The records an edit changed, read from two data.json files without parsing the rest.

A build's summary compares the site it replaces with its own. Both data.json files are
written by the same code, a record at a time in the same order, so after an edit they
hold the same bytes but for a few records of one collection: only those are decoded, on
each side, a few records of a large file (bench/hugo_peer.py measures what it saves).
The old side is untrusted, and is read as strictly as a whole parse would: its records
must decode as the items of the same list, within the same depth limit. Whenever the
files differ otherwise (a new day changes `today` and the figures it makes stale; a file
that is not JSON), `edited` says None and the caller parses the old file whole, as
before.
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
    """The records of one collection that differ, on each side, and the index of the
    first of them in the collection (the same on both sides: the records before it are
    the same bytes)."""

    collection: str
    first: int
    old: list[Any]
    new: list[Any]


def common_prefix(a: str, b: str) -> int:
    """How many characters `a` and `b` share from their start."""
    at, end = 0, min(len(a), len(b))
    for size in STEPS:
        while at + size <= end and a[at:at + size] == b[at:at + size]:
            at += size
    return at


def common_suffix(a: str, b: str, limit: int) -> int:
    """How many characters `a` and `b` share at their end, at most `limit`."""
    at = 0
    for size in STEPS:
        while at + size <= limit and a[len(a) - at - size:len(a) - at] == \
                b[len(b) - at - size:len(b) - at]:
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
    start = common_prefix(old, new)
    end = len(new) - common_suffix(old, new, min(len(old), len(new)) - start)
    found = collection_at(new, start, end)
    if found is None:
        return None
    name, first, since, until, items = found
    if since > start:  # the difference starts before the first record: not in the list
        return None
    old_part = old[since:until + len(old) - len(new)]
    if not old_part and not (new[since - 1] == "[" and new[until] == "]"):
        return None  # the records were taken out, leaving a comma: not JSON any more
    try:  # two lists deep, as the records stand in the whole file: {"name": [...]}
        records = parse_json(f"[[{old_part}]]", _DECODER)[0]
    except (ValueError, TooDeep):
        return None
    return Edited(name, first, records, items)


def collection_at(new: str, start: int, end: int
                  ) -> tuple[str, int, int, int, list[Any]] | None:
    """The collection of `new` whose records hold characters `start` to `end`: its name,
    the index of the record holding `start` (or just before it), where that record starts,
    where the record holding `end - 1` ends, and the records in between; None when those
    characters are not all within one list's records."""
    if not new.startswith('{"'):
        return None
    at = 1
    while new[at] == '"':
        name, at = _DECODER.raw_decode(new, at)
        at += 1  # the colon
        if new[at] != "[" or new[at + 1] == "]":
            _, after = _DECODER.raw_decode(new, at)
            if after > start:
                return None  # the difference starts in a value that is not a list
        else:
            found = records_in(new, at + 1, start, end)
            if found is None or isinstance(found, tuple):
                return None if found is None else (name, *found)
            after = found
        if new[after] != ",":
            return None
        at = after + 1
    return None


def records_in(new: str, at: int, start: int, end: int
               ) -> tuple[int, int, int, list[Any]] | int | None:
    """In the list whose first record starts at `at`: the first record to read (the one
    holding `start`, or the one before it when `start` falls between two), where it starts,
    where the last to read ends (the first record end at or past `end`) and the records
    read; when `start` is past the list, where the list ends; None when the difference
    goes on past it."""
    index, begin, item, after = 0, at, *_DECODER.raw_decode(new, at)
    while new[after] == "," and after + 1 <= start:
        index, begin = index + 1, after + 1
        item, after = _DECODER.raw_decode(new, begin)
    if after < start and new[after] == "]":
        return after + 1  # not in this list
    items = [item]
    while after < end and new[after] == ",":
        item, after = _DECODER.raw_decode(new, after + 1)
        items.append(item)
    if after < end:
        return None  # the difference goes on past the list's end
    return index, begin, after, items
