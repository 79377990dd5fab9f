"""Points added to history files: what `import` and `record --history` write.

A run adds one point per figure at its (commit, machine), in date order; the same run
again adds nothing; another run of that commit adds its readings to the commit's point
(re-runs are samples, not conflicts); `--replace` rewrites the point instead.
"""

from __future__ import annotations

import argparse
import datetime as dt
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from ruamel.yaml.comments import CommentedMap

from progress_site.characters import first_forbidden
from progress_site.errors import visible_path
from progress_site.model.history import MAX_SAMPLES, STATS
from progress_site.model.units import BUILTIN_UNITS
from progress_site.record.datafiles import DataFiles
from progress_site.record.history import Point, joined, make
from progress_site.record.recorder import TIME_UNITS, Refused, scale_time
from progress_site.record.series import SeriesFile, date_of
from progress_site.record.yamledit import flow

# Each series' own page (render/serieswords.py's `series_slug`): built for every series,
# where the dashboard's row (`#row-benchmarks-ID`) is not when a content page named
# `benchmarks` takes the dashboard's place.
SERIES_PAGE = "benchmarks/{}/index.html"


@dataclass
class Reading:
    """What one point is made of, before its unit and precision are settled."""

    value: Decimal
    unit: str | None
    samples: tuple[Decimal, ...] = ()
    stats: dict[str, Decimal] = field(default_factory=dict)
    n: int | None = None
    note: str | None = None


def spread_of(stats: dict[str, Decimal]) -> Decimal | None:
    """The tool's standard deviation, else half its 99 % interval."""
    if "stddev" in stats:
        return stats["stddev"]
    if "ci_99_low" in stats and "ci_99_high" in stats:
        return (stats["ci_99_high"] - stats["ci_99_low"]) / 2
    return None


def fields_of(reading: Reading, wanted: str | None) -> dict[str, Any]:
    """A reading in the series' unit (times convert; other units must match)."""
    value, unit = scale_time(reading.value, reading.unit, wanted)
    factor = (TIME_UNITS[reading.unit] / TIME_UNITS[unit]
              if reading.unit in TIME_UNITS and unit in TIME_UNITS else Decimal(1))
    stats = {k: v * factor for k, v in reading.stats.items() if k in STATS}
    samples = [x * factor for x in reading.samples] if len(reading.samples) <= MAX_SAMPLES \
        else []
    n = reading.n if reading.n and reading.n > 1 else (len(samples) or None)
    # A figure without a unit writes "" (the format requires the key on every line).
    return {"value": value, "unit": unit or "", "spread": spread_of(stats), "n": n,
            "stats": stats, "samples": samples, "note": reading.note}


def when(rec: DataFiles, args: argparse.Namespace, commit: str, found: dt.date | None,
         today: dt.date) -> dt.date:
    """A point's date: --date, else its commit's under `commits:`, else the tool's, else
    today."""
    entry = rec.find("commits", commit)
    day = entry[1].get("date") if entry else None
    return args.date or (day if isinstance(day, dt.date) else None) or found or today


def add(series: SeriesFile, point: Point, replace: bool, stat: str | None = None) -> str:
    """One point into a series, and what became of it: `added`, `joined` to its commit's
    (its value the median of the readings, or `stat`), `replaced`, or `known`."""
    found = series.find(point)
    if found is not None:
        index, old = found
        if replace:
            keep_order(series, index, point)
            series.put(index, point)
            return "replaced"
        merged = joined(old, point, stat)
        if merged is None:
            return "known"
        series.put(index, merged)
        return "joined"
    newest = series.newest()
    if newest is not None and date_of(point) < date_of(newest[1]):
        last = newest[1]
        raise Refused(
            f"{series.display}: commit {visible_path(str(point['commit']))} is dated "
            f"{point['date']}, before the newest point (commit "
            f"{visible_path(str(last['commit']))}, {visible_path(str(last['date']))}, line "
            f"{newest[0] + 1}): a "
            "history is written in date order; pass --date with the commit's own date "
            "(runs of older commits go in before newer ones)")
    series.put(None, point)
    return "added"


def keep_order(series: SeriesFile, index: int, point: Point) -> None:
    """A replaced point keeps its place in date order between its neighbours."""
    before, after = series.neighbours(index)
    if (before and date_of(point) < date_of(before)) or \
            (after and date_of(point) > date_of(after)):
        raise Refused(f"{series.display}:{index + 1}: the new point of commit "
                      f"{visible_path(str(point['commit']))} is dated {point['date']}, out "
                      "of the date order of its neighbours; pass --date with the commit's "
                      "own date")


def add_all(rec: DataFiles, ident: str, points: Sequence[Point], replace: bool,
            stat: str | None = None) -> None:
    """Points into the series of `measurements.ID`, oldest first; its unit kept; a
    commit measured again takes `stat` of all its readings (default: the median)."""
    series = rec.history(ident)
    done: Counter[str] = Counter()
    for point in sorted(points, key=date_of):
        check_point(rec, ident, point)
        unit = series.unit()
        if unit is not None and point["unit"] != unit:
            raise Refused(f"{series.display} is in {visible_path(unit)}, the new point in "
                          f"{visible_path(str(point['unit']))}: a series has one unit; "
                          f"pass --unit {visible_path(unit)}")
        done[add(series, point, replace, stat)] += 1
    if not (done["added"] or done["joined"] or done["replaced"]):
        rec.unchanged.add(f"measurements.{ident}")
    rec.notes.append(told(ident, series, done))


def told(ident: str, series: SeriesFile, done: Counter[str]) -> str:
    """`measurements.ID: 1 point added (now 12 points), on its page benchmarks/ID/...`."""
    parts = [f"{n} point{'s' if n != 1 else ''} {what}" for n, what in (
        (done["added"], "added"), (done["joined"], "given more readings (a re-run of its commit)"),
        (done["replaced"], "replaced"), (done["known"], "already recorded")) if n]
    total = series.count()
    return (f"measurements.{visible_path(ident)}: {', '.join(parts)} (now {total} "
            f"point{'s' if total != 1 else ''}), on its page "
            f"{SERIES_PAGE.format(visible_path(ident))}")


def point(reading: Reading, unit: str | None, prov: dict[str, Any], tool: str | None,
          status: str) -> Point:
    """A point of a series, its numbers rounded."""
    fields = fields_of(reading, unit)
    fields.update(commit=prov["commit"], date=prov["date"].isoformat(),
                  machine=prov["machine"], tool=tool,
                  status="watch" if status == "watch" else None)
    if status != "watch":
        fields["note"] = None
    return make(fields)


def declared_units(rec: DataFiles) -> set[str]:
    """The units a point may have: the known ones and the site's own (`site.units`)."""
    found = rec.holder("site")
    site: Any = found.tree.get("site") if found else None
    own = site.get("units") if isinstance(site, dict) else None
    return set(BUILTIN_UNITS) | {str(u.get("id")) for u in own or () if hasattr(u, "get")}


def check_point(rec: DataFiles, ident: str, point: Point) -> None:
    """What the writer itself makes sure of before the reader checks the line: a unit
    the site knows, and no character a page cannot hold in any text of it."""
    for key in ("commit", "machine", "unit", "note"):
        text = str(point.get(key) or "")
        bad = first_forbidden(text)
        if bad:
            raise Refused(f"measurements.{visible_path(ident)}: the {key} "
                          f"'{visible_path(text)}' holds {bad}; give the file as the tool "
                          "wrote it")
    unit = point.get("unit")
    if unit and unit not in declared_units(rec):
        raise Refused(f"measurements.{visible_path(ident)}: unknown unit "
                      f"'{visible_path(str(unit))}'; declare it under site.units, or pass "
                      "--unit with a known one")


def yaml_entry(rec: DataFiles, args: argparse.Namespace, ident: str, title: str | None,
               unit: str | None, better: str | None = None) -> None:
    """A new series with a readable name gets a `measurements:` entry: its id, title,
    the direction its tool said is better, and unit when given (its value and evidence
    are the history file's)."""
    if not title or rec.find("measurements", ident) is not None:
        return
    file = rec.measurements_file(args.file)
    figure = flow(CommentedMap([("unit", unit)] if unit else []))
    file.append("measurements", CommentedMap([("id", ident), ("title", title),
                                              *([("better", better)] if better else []),
                                              *([("figure", figure)] if unit else [])]))


def require_point(status: str, prov: dict[str, Any]) -> None:
    """A point names its machine and commit and is measured (or to watch)."""
    if status not in ("measured", "watch"):
        raise Refused(f"a point of a history is measured; --status {visible_path(status)} "
                      "is for a figure kept in the YAML (a measurement without a history file)")
    missing = [f"--{k}" for k in ("machine", "commit") if prov.get(k) is None]
    if missing:
        raise Refused(f"a point of a history needs {' and '.join(missing)}")
