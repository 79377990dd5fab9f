"""One line of a history file read as a point: a plain line checked in one pass, any
other field by field, with every problem worded at its line and column.

Nearly every line is what CI writes: commit, date, machine, value, unit and maybe spread,
n and tool, each of the right type. Such a line is checked by one function without a
message in sight (`plain_point`); any other line, or any doubt, is read by `LineReader`,
which words each problem: the messages have one source.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Mapping
from typing import Any

from progress_site.errors import Problem, closest, did_you_mean
from progress_site.load.document import Document
from progress_site.load.jsonfiles import locate_line
from progress_site.model.history import (
    KEYS,
    MAX_SAMPLES,
    NO_STATS,
    REQUIRED,
    STATS,
    SeriesPoint,
    with_iqr,
)
from progress_site.model.limits import MAX_DATA_TEXT, MAX_UNKNOWN, too_long
from progress_site.model.values import Where

STATUSES = ("measured", "watch")
FORMAT_HINT = "see docs/history-format.md"
KNOWN = frozenset(KEYS)
PLAIN = frozenset((*REQUIRED, "spread", "n", "tool"))
DATETIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
_ABSENT: Any = object()  # a key the line does not write (null is written, and wrong)
Day = dt.date | dt.datetime


def parse_date(value: Any) -> dt.date | dt.datetime | None:
    """`YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SSZ` (UTC); None for anything else."""
    try:
        if isinstance(value, str) and len(value) == 10:
            return dt.date.fromisoformat(value)
        if isinstance(value, str) and DATETIME.fullmatch(value):
            return dt.datetime.fromisoformat(value[:-1]).replace(tzinfo=dt.UTC)
    except ValueError:
        pass
    return None


def in_order(when: dt.date | dt.datetime) -> dt.datetime:
    """A date or a time, comparable with either (a date counts as its midnight, UTC)."""
    if isinstance(when, dt.datetime):
        return when
    return dt.datetime(when.year, when.month, when.day, tzinfo=dt.UTC)


def day_of(text: str, days: dict[str, Day | None]) -> Day | None:
    """A date text read once a file (a file repeats a day for each of its runs)."""
    if text not in days:
        days[text] = parse_date(text)
    return days[text]


def _number(x: Any) -> bool:
    """A finite number, 0 or more (NaN fails the comparison too)."""
    return (type(x) is float or type(x) is int) and 0 <= x < math.inf


def plain_point(rec: Any, unit: str | None, days: dict[str, Day | None], where: Where
                ) -> SeriesPoint | None:
    """The point of a line as CI writes it (known keys, right types, the series' unit);
    None for any other line, which `LineReader` reads and words."""
    if type(rec) is not dict or not PLAIN.issuperset(rec):
        return None
    commit, machine = rec.get("commit"), rec.get("machine")
    value: Any = rec.get("value")
    written, text = rec.get("unit"), rec.get("date")
    spread, n, tool = rec.get("spread", _ABSENT), rec.get("n", _ABSENT), rec.get("tool", _ABSENT)
    # A text past MAX_DATA_TEXT is the reader's to refuse: a length costs nothing to ask.
    if not (type(commit) is str and commit.strip() and type(machine) is str
            and machine.strip() and _number(value) and type(written) is str
            and len(commit) + len(machine) <= MAX_DATA_TEXT
            and (written == unit if unit is not None else (written == "" or written.strip()))
            and (spread is _ABSENT or _number(spread))
            and (n is _ABSENT or (type(n) is int and n >= 1))
            and (tool is _ABSENT or (type(tool) is str and tool.strip()
                                     and len(tool) <= MAX_DATA_TEXT))
            and type(text) is str):
        return None
    day = day_of(text, days)
    if day is None:
        return None
    return SeriesPoint(commit, day, machine, float(value),
                       None if spread is _ABSENT else float(spread),
                       None if n is _ABSENT else n, NO_STATS, (),
                       None if tool is _ABSENT else tool, "measured", None, None, where)


class LineReader:
    """Reads any line into a point field by field, collecting every problem."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.problems: list[Problem] = []
        self.unit: str | None = None
        self.scanned: set[int] = set()  # the lines whose positions were found

    def error(self, index: int, key: str | None, message: str, hint: str = FORMAT_HINT,
              *, at_key: bool = False) -> None:
        """A problem at one value (or key) of line `index`."""
        path = ("records", index, *((key,) if key else ()))
        if self.doc.reread is not None and index not in self.scanned:
            # This line's positions only: the file's every line was a second read of it.
            locate_line(self.doc, index)
            self.scanned.add(index)
        loc = self.doc.locate(path, key=at_key, reread=False)
        self.problems.append(Problem(loc, message, (key,) if key else (), hint,
                                     self.doc.line(loc.line)))

    def point(self, index: int, rec: dict[str, Any], where: Where) -> SeriesPoint | None:
        """One line's point, or None after reporting what is wrong with it."""
        before = len(self.problems)
        # A misspelt key is reported once, as unknown, not also as missing.
        meant: set[str | None] = set()
        # Most lines hold known keys only; of a line of a million, the first few are told.
        unknown = [] if KNOWN.issuperset(rec) else [k for k in rec if k not in KNOWN]
        for key in unknown[:MAX_UNKNOWN]:
            meant.add(closest(key, KEYS))
            self.error(index, key, f"unknown key '{key}'",
                       did_you_mean(key, KEYS, "known keys"), at_key=True)
        if len(unknown) > MAX_UNKNOWN:
            self.error(index, None, f"and {len(unknown) - MAX_UNKNOWN:,} more unknown keys",
                       f"a line holds only known keys: {', '.join(KEYS)}")
        for key in REQUIRED:
            if key not in rec and key not in meant:
                self.error(index, None, f"missing key '{key}'",
                           "each line gives commit, date, machine, value and unit")
        commit = self.word(index, rec, "commit")
        machine = self.word(index, rec, "machine")
        # "" is a series without a unit (a count, asv's `track_` benchmarks).
        unit = "" if rec.get("unit") == "" else self.word(index, rec, "unit")
        if unit is not None and self.unit is None:
            self.unit = unit
        elif unit is not None and unit != self.unit:
            self.error(index, "unit", f"unit '{unit}' differs from the first line's "
                       f"('{self.unit}')", "a series keeps one unit: convert the value")
        date = self.date(index, rec)
        value = self.number(index, rec, "value")
        spread = self.number(index, rec, "spread")
        count = self.count(index, rec)
        # Fields most lines leave out are looked at only when written.
        stats = self.stats(index, rec) if "stats" in rec else {}
        samples = self.samples(index, rec) if "samples" in rec else ()
        tool = self.word(index, rec, "tool")
        note = self.word(index, rec, "note") if "note" in rec else None
        status = self.word(index, rec, "status") if "status" in rec else None
        if status is not None and status not in STATUSES:
            self.error(index, "status", f"status '{status}' is not one of "
                       + ", ".join(STATUSES), "write measured (the default) or watch")
        if len(self.problems) > before or None in (commit, machine, date, value):
            return None
        assert commit and machine and date is not None and value is not None
        return with_iqr(SeriesPoint(commit, date, machine, value, spread, count, stats,
                                    samples, tool, status or "measured", note, where=where))

    def word(self, index: int, rec: Mapping[str, Any], key: str) -> str | None:
        """A text value: a non-empty string."""
        value = rec.get(key)
        if value is None and key not in rec:
            return None
        if not isinstance(value, str) or not value.strip():
            self.error(index, key, f"`{key}` must be a non-empty text, not {_shown(value)}")
            return None
        wrong = too_long(value)  # a series' page prints it, as a data file's text
        if wrong is not None:
            self.error(index, key, *wrong)
            return None
        return value

    def date(self, index: int, rec: Mapping[str, Any]) -> dt.date | dt.datetime | None:
        """`YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SSZ` (UTC)."""
        value = rec.get("date")
        if "date" not in rec:
            return None
        found = parse_date(value)
        if found is not None:
            return found
        self.error(index, "date", f"date {_shown(value)} is not a date",
                   "write YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SSZ in UTC")
        return None

    def number(self, index: int, rec: Mapping[str, Any], key: str,
               where: tuple[str | int, ...] = ()) -> float | None:
        """A finite number, not negative (a time, a size or a rate)."""
        value = rec.get(key)
        if key not in rec:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.error(index, key, f"`{'.'.join(map(str, (key, *where)))}` must be a "
                       f"number, not {_shown(value)}")
            return None
        if not math.isfinite(value) or value < 0:
            what = "negative" if value < 0 else "not a finite number"
            self.error(index, key, f"`{'.'.join(map(str, (key, *where)))}` is {what} "
                       f"({value}): a measurement is a finite number, 0 or more",
                       "write the number the tool measured")
            return None
        return float(value)

    def count(self, index: int, rec: Mapping[str, Any]) -> int | None:
        """`n`: how many readings the value summarises, at least 1."""
        value = rec.get("n")
        if "n" not in rec:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            self.error(index, "n", f"`n` must be a whole number of readings, at least 1, "
                       f"not {_shown(value)}")
            return None
        return value

    def stats(self, index: int, rec: Mapping[str, Any]) -> dict[str, float]:
        """`stats`: the tool's own statistics, by name."""
        value = rec.get("stats", {})
        if not isinstance(value, dict):
            self.error(index, "stats", f"`stats` must be an object, not {_shown(value)}")
            return {}
        out = {}
        for name, number in value.items():
            if name not in STATS:
                self.error(index, "stats", f"unknown statistic '{name}'",
                           did_you_mean(name, STATS))
                continue
            got = self.number(index, {"stats": number}, "stats", (name,))
            if got is not None:
                out[name] = got
        return dict(sorted(out.items()))

    def samples(self, index: int, rec: Mapping[str, Any]) -> tuple[float, ...]:
        """`samples`: the raw readings, at most MAX_SAMPLES."""
        value = rec.get("samples")
        if "samples" not in rec:
            return ()
        if not isinstance(value, list) or not value:
            self.error(index, "samples", f"`samples` must be a list of numbers, not "
                       f"{_shown(value)}")
            return ()
        if len(value) > MAX_SAMPLES:
            self.error(index, "samples", f"{len(value):,} samples, over the limit of "
                       f"{MAX_SAMPLES:,}", "keep the value and its spread, or fewer readings")
            return ()
        got = [self.number(index, {"samples": x}, "samples", (i,)) for i, x in enumerate(value)]
        return tuple(x for x in got if x is not None)


def _shown(value: Any) -> str:
    """A JSON value as a message shows it."""
    if isinstance(value, str):
        return repr(value[:40])
    if value is None:
        return "null"
    if isinstance(value, (list, dict)):
        return "a list" if isinstance(value, list) else "an object"
    return str(value).lower() if isinstance(value, bool) else repr(value)
