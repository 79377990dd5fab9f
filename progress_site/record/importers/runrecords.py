"""JSON lines run records of your own (docs/ecosystem.md)."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

from progress_site.characters import first_forbidden
from progress_site.errors import shorten
from progress_site.load.text import lines_of
from progress_site.model.limits import LARGEST
from progress_site.record.importers.base import (
    NOT_NEGATIVE,
    Result,
    count,
    day_of,
    fail,
    loads,
    not_negative,
    quoted,
    read_text,
)

# The texts of a record `import` writes into data/ as they are (the unit is checked, and
# spelled out, where it is converted).
WRITTEN = ("title", "machine", "commit")


def jsonl(lines: list[str], display: str) -> Iterator[Result]:
    """Run records of your own, one JSON object a line (docs/ecosystem.md)."""
    for number_, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        rec = loads(text, display, number_, Decimal)
        if not isinstance(rec, dict) or not isinstance(rec.get("id"), str):
            raise fail(display, "a run record needs an `id` (a word)",
                       'write {"id": "parse", "value": 12.5, "unit": "ms"}', number_)
        if rec.get("unit") in NOT_NEGATIVE:
            not_negative(display, rec["id"], rec, number_, text=text)
        yield jsonl_result(rec, display, number_)


def jsonl_result(rec: dict[str, Any], display: str, line: int) -> Result:
    """One run record: a `value` (with its `stddev`), or every reading in `samples`."""
    samples = rec.get("samples")
    if isinstance(samples, list) and samples and all(
            isinstance(s, (int, Decimal)) for s in samples):
        readings = tuple(Decimal(s) for s in samples)
        stats: dict[str, Decimal] = {}
        runs = len(readings)
    elif isinstance(rec.get("value"), (int, Decimal)):
        readings, runs = (), runs_of(rec, display, line)
        stats = {"value": Decimal(rec["value"])}
        if isinstance(rec.get("stddev"), (int, Decimal)):
            stats["stddev"] = Decimal(rec["stddev"])
        elif rec.get("stddev") is not None:  # NaN, Infinity, a word: no spread to read past
            raise fail(display, f"run record {quoted(rec['id'])}: `stddev` is "
                       f"{shorten(str(rec['stddev']), 40)}, not a number",
                       "give the standard deviation as a number, or leave it out", line)
    else:
        raise fail(display, f"run record {quoted(rec['id'])} has no `value` nor `samples`",
                   "give the number measured, or the list of readings", line)
    for value in (*readings, *stats.values()):
        if not value.is_finite():
            raise fail(display, f"run record {quoted(rec['id'])} has a number that is not finite",
                       line=line)
        if abs(value) > LARGEST:
            raise fail(display, f"run record {quoted(rec['id'])} has a number larger than "
                       f"{LARGEST:.0e}", "check the number of digits", line)

    def word(key: str) -> str | None:
        found = rec.get(key)
        if key in WRITTEN and isinstance(found, str) and first_forbidden(found):
            # Refused here, at its line: written into data/, it was told at a line of
            # a YAML file the user never wrote.
            raise fail(display, f"run record {quoted(rec['id'])}: `{key}` holds "
                       f"{first_forbidden(found)}, which no page can hold",
                       "delete it from what wrote the record", line)
        return str(found) if isinstance(found, (str, int)) else None

    return Result(rec["id"], word("unit"), stats, readings, runs, day_of(rec.get("date")),
                  word("commit"), word("title"), word("machine"), word("status"))


def runs_of(rec: dict[str, Any], display: str, line: int) -> int:
    """How many runs a record's `value` summarises (1 when it does not say)."""
    try:
        return count(rec.get("runs", 1), "runs")
    except ValueError as exc:
        raise fail(display, f"run record {quoted(rec['id'])}: {exc}", "give a whole number of "
                   "runs, 1 or more", line) from None


def read(path: Path, display: str) -> list[Result]:
    """Every run record of the file."""
    return list(jsonl(lines_of(read_text(path, display)), display))
