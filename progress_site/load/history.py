"""data/history/KEY.jsonl: one benchmark's points, read with the position of every value.

The format is docs/history-format.md: one file a series, one JSON object a line, one line
a (commit, machine) pair, in date order. The file goes through the one regular-file
reader and the one JSON-lines reader every record file uses; each value is checked here,
every problem located at its line and column, all of them at once.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from progress_site.errors import Location, Problem, closest, did_you_mean
from progress_site.load.files import inside, source_files, unreadable_name
from progress_site.load.history_plain import in_order, parse_date, plain_points
from progress_site.load.records import BROKEN, locate_line, parse_json_lines
from progress_site.load.text import decode, read_text
from progress_site.load.yaml import Document
from progress_site.model.history import (
    KEYS,
    MAX_SAMPLES,
    REQUIRED,
    STATS,
    HistorySeries,
    SeriesPoint,
)
from progress_site.model.values import Where

FOLDER = ("data", "history")
SUFFIX = ".jsonl"
STATUSES = ("measured", "watch")
NAME = re.compile(r"measurements\.([A-Za-z0-9][A-Za-z0-9_.-]*)\.jsonl")
FORMAT_HINT = "see docs/history-format.md"
KNOWN = frozenset(KEYS)


def history_paths(root: Path, edited: Mapping[Path, str]) -> list[Path]:
    """Every history file: those on disk and those an edit would write."""
    folder = root.joinpath(*FOLDER)
    extra = [p for p in edited if p.suffix == SUFFIX and p.parent == folder]
    return sorted({*source_files(folder, root, (SUFFIX,)), *extra})


def load_history(root: Path, edited: Mapping[Path, str] | None = None
                 ) -> tuple[tuple[HistorySeries, ...], list[Problem]]:
    """Every series under data/history/, and every problem of their files."""
    edited = edited or {}
    found: list[HistorySeries] = []
    problems: list[Problem] = []
    for path in history_paths(root, edited):
        series, more = read_series(path, root, edited.get(path))
        problems += more
        if series is not None:
            found.append(series)
    return tuple(found), problems


def read_series(path: Path, root: Path, edited: str | None
                ) -> tuple[HistorySeries | None, list[Problem]]:
    """One history file as a series (None when nothing of it can be used)."""
    display = path.relative_to(root).as_posix()
    problems = unreadable_name(display) or inside(path, root, display)
    if problems:
        return None, problems
    name = NAME.fullmatch(path.name)
    if name is None or path.parent != root.joinpath(*FOLDER):
        return None, [Problem(Location(display), "a history file is named after its figure's "
                              "key", hint="name it data/history/measurements.ID.jsonl, ID "
                              "being a measurement's id (letters, digits, '-', '_', '.')")]
    text, problems = read_text(path, display) if edited is None else decode(
        edited.encode("utf-8", "surrogatepass"), display)
    if text is None:
        return None, problems
    doc, problems = parse_json_lines(text, display, located=False)
    assert doc is not None
    reader = _Lines(doc)
    points = reader.points()
    problems += reader.problems
    # Only positions may still be asked of the file (a point's machine, when unknown):
    # its lines stay, the records read from them go.
    doc.data = None
    if not points:
        if not reader.problems:
            problems.append(Problem(Location(display), "this history file has no point",
                                    hint="add one JSON object a line, or remove the file"))
        return None, problems
    return HistorySeries(f"measurements.{name.group(1)}", reader.unit or "", tuple(points),
                         file=display), problems


class _Lines:
    """Reads a history file's records into points, collecting every problem."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.problems: list[Problem] = []
        self.unit: str | None = None

    def error(self, index: int, key: str | None, message: str, hint: str = FORMAT_HINT,
              *, at_key: bool = False) -> None:
        """A problem at one value (or key) of line `index`."""
        path = ("records", index, *((key,) if key else ()))
        loc = self.doc.locate(path, key=at_key)
        self.problems.append(Problem(loc, message, (key,) if key else (), hint,
                                     self.doc.line(loc.line)))

    def points(self) -> list[SeriesPoint]:
        """Every line that reads as a point; the order and duplicates checked."""
        # Most files are plain, and are checked a column at a time; any other is read
        # line by line, which words each problem.
        plain = plain_points(self.doc.data, self.place)
        if plain is not None:
            self.unit, out = plain
            last = len(out) - 1
        else:
            out, last = self.each()
        if out:
            out[-1] = dataclasses.replace(out[-1], where=self.where(last, self.doc.data[last]))
        return out

    def each(self) -> tuple[list[SeriesPoint], int]:
        """The points of the lines read one by one, and the newest one's line index."""
        out: list[SeriesPoint] = []
        last = -1  # the newest point's line: its figure needs every field's position
        newest = in_order(dt.date.min)
        seen: dict[tuple[str, str], int] = {}
        for index, record in enumerate(self.doc.data):
            if record is BROKEN:
                continue
            point = self.point(index, record)
            if point is None:
                continue
            pair = (point.commit, point.machine)
            line = point.where.location.line
            if pair in seen:
                self.error(index, "commit", f"commit '{point.commit}' on machine "
                           f"'{point.machine}' is already at line {seen[pair]}",
                           "one line per (commit, machine): add the new samples to that line")
                continue
            seen[pair] = line
            when = in_order(point.date)
            if out and when < newest:
                self.error(index, "date", f"date {point.date.isoformat()} is before the "
                           f"previous line's ({out[-1].date.isoformat()})",
                           "lines are appended in date order: move this line up")
                continue
            out.append(point)
            last, newest = index, when
        return out, last

    def point(self, index: int, rec: dict[str, Any]) -> SeriesPoint | None:
        """One line's point, or None after reporting what is wrong with it."""
        before = len(self.problems)
        # A misspelt key is reported once, as unknown, not also as missing.
        meant: set[str | None] = set()
        for key in () if KNOWN.issuperset(rec) else rec:  # most lines: known keys only
            if key not in KNOWN:
                meant.add(closest(key, KEYS))
                self.error(index, key, f"unknown key '{key}'",
                           did_you_mean(key, KEYS, "known keys"), at_key=True)
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
        return SeriesPoint(commit, date, machine, value, spread, count, stats, samples,
                           tool, status or "measured", note, self.place(index))

    def place(self, index: int) -> Where:
        """Where line `index` is; its machine found only if a problem asks."""
        # Only the machine of an older point is ever reported (an unknown one), and
        # seldom: its position is found then. The newest point's every position is
        # found once the file is read (`points`).
        return Where(self.doc.locate(("records", index)), (), _Machine(self.doc, index))

    def where(self, index: int, rec: dict[str, Any]) -> Where:
        """The line's position and each of its values'."""
        locate_line(self.doc, index)
        fields = {k: self.doc.locate(("records", index, k)) for k in rec}
        return Where(self.doc.locate(("records", index)), (), fields)

    def word(self, index: int, rec: dict[str, Any], key: str) -> str | None:
        """A text value: a non-empty string."""
        value = rec.get(key)
        if value is None and key not in rec:
            return None
        if not isinstance(value, str) or not value.strip():
            self.error(index, key, f"`{key}` must be a non-empty text, not {_shown(value)}")
            return None
        return value

    def date(self, index: int, rec: dict[str, Any]) -> dt.date | dt.datetime | None:
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

    def number(self, index: int, rec: dict[str, Any], key: str,
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

    def count(self, index: int, rec: dict[str, Any]) -> int | None:
        """`n`: how many readings the value summarises, at least 1."""
        value = rec.get("n")
        if "n" not in rec:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            self.error(index, "n", f"`n` must be a whole number of readings, at least 1, "
                       f"not {_shown(value)}")
            return None
        return value

    def stats(self, index: int, rec: dict[str, Any]) -> dict[str, float]:
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

    def samples(self, index: int, rec: dict[str, Any]) -> tuple[float, ...]:
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


class _Machine(Mapping[str, Location]):
    """A point's `machine` field, located only when a problem asks where it is."""

    def __init__(self, doc: Document, index: int) -> None:
        self.doc = doc
        self.index = index

    def __getitem__(self, key: str) -> Location:
        if key != "machine":
            raise KeyError(key)
        return self.doc.locate(("records", self.index, key))

    def __iter__(self) -> Iterator[str]:
        return iter(("machine",))

    def __len__(self) -> int:
        return 1


def _shown(value: Any) -> str:
    """A JSON value as a message shows it."""
    if isinstance(value, str):
        return repr(value[:40])
    if value is None:
        return "null"
    if isinstance(value, (list, dict)):
        return "a list" if isinstance(value, list) else "an object"
    return str(value).lower() if isinstance(value, bool) else repr(value)
