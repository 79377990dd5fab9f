"""The points of a series as its history file writes them (docs/history-format.md): one
JSON object a line, keys in the agreed order, numbers rounded to what the run can tell,
and how a new run of a commit joins the point already there.

Numbers are Decimals here, from the tool's file to the line written, so no binary float
noise reaches a file (`12.233333333333334`).
"""

from __future__ import annotations

import datetime as dt
import json
import statistics
from collections import Counter
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from progress_site.load.history_line import parse_date
from progress_site.load.jsonfiles import TooDeep, parse_json
from progress_site.load.yaml_refusals import MAX_DEPTH
from progress_site.model.history import (
    KEYS,
    MAX_SAMPLES,
    NO_STATS,
    SPREAD_DIGITS,
    SPREAD_NAMES,
    STATS,
    SeriesPoint,
    with_iqr,
)

DIGITS = 6  # significant digits a number keeps at most
_POINT = json.JSONDecoder(parse_float=Decimal)

Point = dict[str, Any]


def exponent(x: Decimal, spread: Decimal | None) -> int:
    """Where `x` is cut: at the spread's third significant digit (what the run can
    tell), but never past the number's own sixth."""
    own = x.adjusted() - (DIGITS - 1) if x else 0
    if spread:
        return max(spread.adjusted() - (SPREAD_DIGITS - 1), own)
    return own


def rounded(x: Decimal, spread: Decimal | None) -> Decimal:
    """A number to the precision the spread allows (at most six significant digits)."""
    if not x:
        return Decimal(0)
    return x.quantize(Decimal(1).scaleb(exponent(x, spread))).normalize()


def json_number(x: Decimal) -> int | float:
    """A rounded Decimal as JSON writes it: whole numbers without `.0`; the float of a
    number of six digits or fewer prints back as those digits."""
    return int(x) if x == x.to_integral_value() else float(x)


def summary(samples: list[Decimal]) -> dict[str, Decimal]:
    """What readings say of themselves: mean, median, stddev, min, max."""
    out = {"mean": statistics.mean(samples), "median": statistics.median(samples),
           "min": min(samples), "max": max(samples)}
    if len(samples) > 1:
        out["stddev"] = statistics.stdev(samples)
    return out


def precision(fields: Mapping[str, Any]) -> Decimal | None:
    """The spread that sets the numbers' precision: the standard deviation, or the
    readings' interquartile range when narrower. On a shared runner a few slow rounds
    make the deviation many times the median, and rounding at its third digit would
    erase the differences between commits that the readings do tell."""
    found = [x for x in (fields.get("spread"), quartile_range(fields)) if x]
    return min(found) if found else None


def quartile_range(fields: Mapping[str, Any]) -> Decimal | None:
    """The readings' interquartile range: the tool's, else computed from the samples."""
    stats = fields.get("stats") or {}
    if stats.get("iqr"):
        return Decimal(stats["iqr"])
    samples = fields.get("samples") or []
    if len(samples) < 4:
        return None
    q1, _, q3 = statistics.quantiles(samples, n=4)
    return Decimal(q3 - q1)


def make(fields: Mapping[str, Any], round_samples: bool = True) -> Point:
    """A point with its numbers rounded, in the agreed key order, empty keys left out;
    readings already written keep the precision they were written with."""
    spread = fields.get("spread")
    cut = precision({**fields, "spread": rounded(spread, spread) if spread else spread})
    point: Point = {}
    for key in KEYS:
        value = fields.get(key)
        if value is None or value == {} or value == []:
            continue
        if key == "value":
            value = rounded(value, cut)
        elif key == "spread":  # the deviation keeps its own three digits
            value = rounded(value, value)
        elif key == "stats":
            value = {k: rounded(value[k], value[k] if k == "stddev" else cut)
                     for k in STATS if k in value}
        elif key == "samples":
            value = [rounded(x, cut) if round_samples else x for x in value]
        point[key] = value
    return point


def line(point: Point) -> str:
    """One line of a history file, as the format writes it (no newline)."""
    return json.dumps({k: point[k] for k in KEYS if k in point}, ensure_ascii=False,
                      separators=(", ", ": "), default=json_number)


def series_point(point: Point) -> SeriesPoint:
    """A point as the reader gives it back from its line (`load/history.py`): an
    import's check reads the points it made, not their texts again."""
    date = parse_date(point["date"])
    assert date is not None  # written from a date (`appending.when`)
    stats = point.get("stats")
    made = SeriesPoint(
        point["commit"], date, point["machine"], float(point["value"]),
        float(point["spread"]) if point.get("spread") is not None else None, point.get("n"),
        dict(sorted((k, float(v)) for k, v in stats.items())) if stats else NO_STATS,
        tuple(map(float, point.get("samples") or ())), point.get("tool"),
        point.get("status") or "measured", point.get("note"))
    return with_iqr(made)


def printed(point: Point) -> str:
    """`23.332 us (IQR 0.998 us, n = 40)`: a point as its pages print it, in the console's
    plain English (render/serieswords.py prints it per language)."""
    unit = f" {point['unit']}" if point.get("unit") else ""
    spread = with_iqr(SeriesPoint(
        "", dt.date.min, "", float(point["value"]),
        float(point["spread"]) if point.get("spread") is not None else None,
        stats={k: float(v) for k, v in (point.get("stats") or {}).items()},
        samples=tuple(float(x) for x in point.get("samples") or ()))).shown
    details = []
    if spread is not None:
        width = Decimal(repr(spread.width))
        details.append(f"{SPREAD_NAMES[spread.kind]} {json_number(rounded(width, width))}{unit}")
    if point.get("n") is not None:
        details.append(f"n = {point['n']}")
    shown = f"{json_number(point['value'])}{unit}"
    return f"{shown} ({', '.join(details)})" if details else shown


def readings(point: Point) -> list[Decimal]:
    """A point's readings: its samples, else its one value."""
    samples = point.get("samples")
    return [Decimal(str(x)) for x in samples] if samples else [Decimal(str(point["value"]))]


def joined(old: Point, new: Point, stat: str | None = None) -> Point | None:
    """The point of a commit after another run of it: the readings of both, the value
    (their median, or the statistic --stat picked) and the statistics computed again;
    None when the run is already in it."""
    before, added = readings(old), readings(new)
    if not Counter(added) - Counter(before):  # every new reading among the old: imported again
        return None
    samples = before + added
    stats = summary(samples)
    fields = {**old, "value": stats[stat or "median"], "spread": stats.get("stddev"),
              "n": len(samples), "stats": stats,
              "samples": samples if len(samples) <= MAX_SAMPLES else None}
    if new.get("status") == "watch" or old.get("status") == "watch":
        fields["status"] = "watch"
        fields["note"] = old.get("note") or new.get("note")
    if old.get("tool") != new.get("tool"):
        fields["tool"] = old.get("tool") or new.get("tool")
    return make(fields, round_samples=False)


def parse(text: str) -> Point:
    """A line read back, through the one JSON reader with limits: numbers as Decimals,
    as they were written."""
    try:
        value = parse_json(text, _POINT)
    except TooDeep:
        raise ValueError(f"lists and objects nested more than {MAX_DEPTH} levels"
                         ) from None
    if not isinstance(value, dict):
        raise ValueError("a line of a history file is one JSON object")
    return value
