"""JSON lines run records of your own (docs/ecosystem.md)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path
from typing import Any

from progress_site.characters import first_forbidden
from progress_site.errors import KeyPath, shorten
from progress_site.load.history_line import STATUSES as POINT_STATUSES
from progress_site.load.text import lines_of
from progress_site.model.limits import LARGEST
from progress_site.record.importers.base import (
    NOT_NEGATIVE,
    ImportFailed,
    Result,
    count,
    day_of,
    fail,
    not_negative,
    printable,
    quoted,
)
from progress_site.record.importers.places import ToolFile
from progress_site.record.importers.reading import loads, read_text
from progress_site.record.importers.shape import offset

# The texts of a record `import` writes into data/ as they are (the unit is checked, and
# spelled out, where it is converted).
WRITTEN = ("title", "machine", "commit")


def read(path: Path, display: str) -> list[Result]:
    """Every run record of the file, one JSON object a line."""
    results = []
    whole = read_text(path, display)
    start = 0  # where the line begins in the file: a refusal past the line places it
    for number_, text in enumerate(lines_of(whole), start=1):
        start, begun = whole.index(text, start) + len(text), start
        if not text.strip():
            continue
        rec = loads(text, display, number_, Decimal)
        if not isinstance(rec, dict) or not isinstance(rec.get("id"), str):
            raise at(Line(display, number_, text, rec), ("id",), "a run record needs an `id` "
                     "(a word)", 'write {"id": "parse", "value": 12.5, "unit": "ms"}')
        if rec.get("unit") in NOT_NEGATIVE:
            not_negative(display, rec["id"], rec, number_, text=text)
        results.append(replace(jsonl_result(rec, Line(display, number_, text, rec)),
                               places={"": (ToolFile(display, whole, begun), ("id",))}))
    return results


@dataclass(frozen=True)
class Line:
    """A record's line: the file's name, the line's number and text, the record read."""

    display: str
    number: int
    text: str
    rec: Any


def at(line: Line, path: KeyPath, message: str, hint: str = "") -> ImportFailed:
    """An error at the value `path` names in a record's line; at the record when the
    record holds no such value."""
    value: Any = line.rec
    for part in path:
        found = (isinstance(value, dict) and part in value) or (isinstance(value, list) and \
            isinstance(part, int) and part < len(value))
        value = value[part] if found else None
        if not found:
            break
    else:
        return fail(line.display, message, hint, line.number, offset(line.text, 0, path) + 1,
                    line.text)
    return fail(line.display, message, hint, line.number,
                len(line.text) - len(line.text.lstrip()) + 1, line.text)


def jsonl_result(rec: dict[str, Any], line: Line) -> Result:
    """One run record: a `value` (with its `stddev`), or every reading in `samples`."""
    samples = rec.get("samples")
    if isinstance(samples, list) and samples and all(
            isinstance(s, (int, Decimal)) for s in samples):
        readings = tuple(Decimal(s) for s in samples)
        stats: dict[str, Decimal] = {}
        runs = len(readings)
    elif isinstance(rec.get("value"), (int, Decimal)):
        readings, runs = (), runs_of(rec, line)
        stats = {"value": Decimal(rec["value"])}
        if isinstance(rec.get("stddev"), (int, Decimal)):
            stats["stddev"] = Decimal(rec["stddev"])
        elif rec.get("stddev") is not None:  # NaN, Infinity, a word: no spread to read past
            raise at(line, ("stddev",), f"run record {quoted(rec['id'])}: `stddev` is "
                     f"{shorten(str(rec['stddev']), 40)}, not a number",
                     "give the standard deviation as a number, or leave it out")
    else:
        raise at(line, (), f"run record {quoted(rec['id'])} has no `value` nor `samples`",
                 "give the number measured, or the list of readings")
    check_numbers(rec["id"], [*((("samples", i), v) for i, v in enumerate(readings)),
                              *(((key,), v) for key, v in stats.items())], line)

    def word(key: str) -> str | None:
        found = rec.get(key)
        if key in WRITTEN and isinstance(found, str) and first_forbidden(found):
            # Refused here, at its line: written into data/, it was told at a line of
            # a YAML file the user never wrote.
            raise at(line, (key,), f"run record {quoted(rec['id'])}: `{key}` holds "
                     f"{first_forbidden(found)}, which no page can hold",
                     "delete it from what wrote the record")
        return str(found) if isinstance(found, (str, int)) else None

    status = word("status")
    if status is not None and status not in POINT_STATUSES:
        # Told here, at its line: the point it would make was refused with the words of
        # --status, which the user never typed.
        raise at(line, ("status",), f"run record {quoted(rec['id'])}: status "
                 f"{quoted(shorten(status, 40))} is not one a point of a history can "
                 f"hold ({', '.join(POINT_STATUSES)})", "write measured or watch, or leave "
                 "`status` out (the noise of its readings then suggests one)")
    return Result(rec["id"], word("unit"), stats, readings, runs, day_of(rec.get("date")),
                  word("commit"), word("title"), word("machine"), status)


def check_numbers(name: str, values: list[tuple[KeyPath, Decimal]], line: Line) -> None:
    """Refuse a record's number that is not finite or past LARGEST, at that number."""
    for path, value in values:
        if not value.is_finite():
            raise at(line, path, f"run record {quoted(name)} has a number that is not finite")
        if not printable(value):
            raise at(line, path, f"run record {quoted(name)} has a number larger than "
                     f"{LARGEST:.0e}", "check the number of digits")


def runs_of(rec: dict[str, Any], line: Line) -> int:
    """How many runs a record's `value` summarises (1 when it does not say)."""
    try:
        return count(rec.get("runs", 1), "runs")
    except ValueError as exc:
        raise at(line, ("runs",), f"run record {quoted(rec['id'])}: {exc}", "give a whole "
                 "number of runs, 1 or more") from None
