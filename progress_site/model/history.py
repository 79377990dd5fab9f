"""A benchmark's history, as read from data/history/KEY.jsonl: one series, its points.

Frozen records, no I/O: load/history.py builds them from the file (docs/history-format.md),
derive turns each into a figure and a regression report.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import NamedTuple

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
    where: Where = NOWHERE


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


def default_better(unit: str | None) -> Better:
    """Lower for times and sizes, higher for rates."""
    return "higher" if unit is not None and unit.endswith(HIGHER_UNITS) else "lower"


def default_group(ident: str) -> str:
    """The id's part before its first '-', '_' or '/': `parse-small` is in `parse`."""
    for i, char in enumerate(ident):
        if char in "-_/" and i:
            return ident[:i]
    return ident


def decimals_of(value: float) -> int:
    """How many decimals the shortest form of a number has (55.4 has 1, 55 none)."""
    text = repr(value)
    return 0 if value.is_integer() or "e" in text else len(text.split(".", 1)[1])
