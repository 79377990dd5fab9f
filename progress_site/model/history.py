"""A benchmark's history, as read from data/history/KEY.jsonl: one series, its points.

Frozen records, no I/O: load/history.py builds them from the file (docs/history-format.md),
derive turns each into a figure and a regression report.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import statistics
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal, NamedTuple

from progress_site.model.figure import Better
from progress_site.model.values import NOWHERE, Where

# The keys of a line, in the order every line writes them (docs/history-format.md).
KEYS = ("commit", "date", "machine", "value", "unit", "spread", "n", "stats", "samples",
        "tool", "status", "note")
REQUIRED = ("commit", "date", "machine", "value", "unit")
# What a tool may report beside the value; `plus_minus` is cargo's `± N` (as
# github-action-benchmark keeps it), not a standard deviation; `mad` and `slope` are
# criterion's median absolute deviation and its linear regression's time per iteration.
# New names go last: a history line writes its stats in this order.
STATS = ("mean", "median", "stddev", "min", "max", "iqr", "q1", "q3", "p50", "p90", "p95",
         "p99", "ci_99_low", "ci_99_high", "plus_minus", "mad", "slope")
MAX_SAMPLES = 10_000
# Significant digits of a point's spread that set where its other numbers are cut (import
# writes them so, pages print them so).
SPREAD_DIGITS = 3
NO_STATS: Mapping[str, float] = MappingProxyType({})  # a point whose tool gave none
DEFAULT_MIN_CHANGE = 5.0  # percent
# Units where more is better: rates.
HIGHER_UNITS = ("ops/s", "req/s", "MB/s", "GB/s", "KB/s", "Mbit/s", "Gbit/s", "items/s",
                "msg/s", "/s")


# Each kind of spread as plain-text output names it (console lines, the pull-request
# summary); pages name them through the catalogs, in each language.
SPREAD_NAMES = MappingProxyType({"iqr": "IQR", "stddev": "σ", "interval": "99% interval ±"})


class Spread(NamedTuple):
    """What a point's noise is, as its page prints it: the interquartile range beside a
    median, the standard deviation (σ) otherwise, or half a tool's 99 % interval."""

    kind: Literal["iqr", "stddev", "interval"]
    width: float  # the interquartile range, the deviation, or the interval's half-width


class SeriesPoint(NamedTuple):
    """One (commit, machine) measurement of a series."""

    # A named tuple, not a frozen dataclass: a long history makes a point a line, and a
    # frozen dataclass sets each of its fields through object.__setattr__ where a tuple
    # is made in one step (bench/history_scale.py).
    commit: str
    date: dt.date | dt.datetime
    machine: str
    value: float
    spread: float | None = None
    n: int | None = None
    stats: Mapping[str, float] = NO_STATS
    samples: tuple[float, ...] = ()
    tool: str | None = None
    status: str = "measured"
    note: str | None = None
    # The interquartile range beside a median (`with_iqr`), worked out once where the
    # point is made (load): pages, data.json and the figure read it, rather than each
    # sorting up to MAX_SAMPLES readings again. A plain CI line has none.
    iqr: float | None = None
    where: Where = NOWHERE

    @property
    def shown(self) -> Spread | None:
        """The spread its value prints with: the same family as the value, as asv pairs
        a median with its quartiles and hyperfine a mean with its deviation. A few slow
        rounds on a shared runner put pytest-benchmark's deviation at several times its
        mean, which says nothing of the median's noise; a point without quartiles keeps
        the tool's deviation, said to be one."""
        return deviation(self) if self.iqr is None else Spread("iqr", self.iqr)


@dataclass(frozen=True, slots=True)
class HistorySeries:
    """One benchmark's points, oldest first, and how to judge them."""

    key: str  # the figure's key, `measurements.ID`
    unit: str
    points: tuple[SeriesPoint, ...]
    better: Better = "lower"
    group: str = ""
    min_change: float = DEFAULT_MIN_CHANGE  # percent
    file: str = ""  # data/history/KEY.jsonl, as errors print it
    # Where the i-th point's line is, found when a problem asks: only the newest point
    # carries its `where` (its figure's), a long history's others are seldom located.
    place: Callable[[int], Where] = field(default=lambda _: NOWHERE, compare=False,
                                          repr=False)

    @property
    def id(self) -> str:
        """The measurement's id: the key without `measurements.`."""
        return self.key.split(".", 1)[1]

    @property
    def newest(self) -> SeriesPoint:
        """The point the figure shows."""
        return self.points[-1]


def with_iqr(point: SeriesPoint) -> SeriesPoint:
    """The point with the interquartile range its value prints with (`SeriesPoint.shown`):
    its readings' when the value is their median, else none."""
    return point._replace(iqr=quartile_range(point) if is_median(point) else None)


def deviation(point: SeriesPoint) -> Spread | None:
    """The point's `spread`, said what it is: the tool's standard deviation, or half its
    99 % interval when it gave no deviation (as import writes it)."""
    if point.spread is None:
        return None
    stats = point.stats
    if "stddev" not in stats and "ci_99_low" in stats and "ci_99_high" in stats:
        return Spread("interval", point.spread)
    return Spread("stddev", point.spread)


def is_median(point: SeriesPoint) -> bool:
    """Whether the point's value is the median of its readings (import's default; a
    value picked with `--stat mean` is not)."""
    stats, value = point.stats, point.value
    given = stats.get("median", stats.get("p50"))
    if given is None and len(point.samples) > 1:
        given = statistics.median(point.samples)
    # Import cuts the value and the readings at one precision: equal but for that cut.
    return given is not None and math.isclose(given, value, rel_tol=1e-4)


def quartile_range(point: SeriesPoint) -> float | None:
    """The interquartile range: the tool's `iqr`, else its quartiles', else computed from
    four readings or more (as import computes it to round a point)."""
    stats = point.stats
    if "iqr" in stats:
        return stats["iqr"]
    if "q1" in stats and "q3" in stats:
        return stats["q3"] - stats["q1"]
    if len(point.samples) < 4:
        return None
    q1, _, q3 = statistics.quantiles(point.samples, n=4)
    return q3 - q1


def significant(width: float) -> float:
    """A spread cut at its third significant digit, as pages print it and data.json gives
    it (an interquartile range computed from readings is 0.27900000000000003)."""
    return float(f"{width:.{SPREAD_DIGITS}g}")


def default_better(unit: str | None) -> Better:
    """Lower for times and sizes, higher for rates."""
    return "higher" if unit is not None and unit.endswith(HIGHER_UNITS) else "lower"


def default_group(ident: str) -> str:
    """The id's part before its first '-', '_' or '/' (after its first character):
    `parse-small` is in `parse`."""
    return ident[:1] + re.split("[-_/]", ident[1:], maxsplit=1)[0]


def decimals_of(value: float) -> int:
    """How many decimals the shortest form of a number has (55.4 has 1, 55 none)."""
    text = repr(value)
    return 0 if value.is_integer() or "e" in text else len(text.split(".", 1)[1])
