"""A series of times shown in one unit: the one its pages print every point in.

A history file keeps the unit of its first line, and `import` writes each new point in
it: a benchmark first measured at 800 us and now at 14 ms would print `14,040 μs`. The
file stays as written (its lines are what `git diff` shows); the build reads its points
in the unit the measurement's `unit:` names, else in the largest duration in which the
newest point is 1 or more, as `import` picks one for a new series. Numbers are moved by
a power of ten in decimal, so 14040 us is 14.04 ms, not 14.040000000000001.
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal

from progress_site.model.history import HistorySeries, SeriesPoint
from progress_site.model.units import TIME_POWERS, fitting_time_unit


def shown_unit(series: HistorySeries, wanted: str | None) -> str:
    """The unit a series is printed in: `wanted` when both are durations, else the
    largest duration that keeps its newest point at 1 or more, else its own."""
    unit = series.unit
    if unit not in TIME_POWERS:
        return unit
    if wanted is not None and wanted in TIME_POWERS:
        return "us" if wanted == "µs" else wanted
    seconds = abs(Decimal(repr(series.newest.value))).scaleb(TIME_POWERS[unit])
    if seconds == 0:  # nothing to size a unit by
        return unit
    return fitting_time_unit(seconds)


def shown_in(series: HistorySeries, wanted: str | None) -> HistorySeries:
    """The series with every point in its shown unit (`shown_unit`)."""
    unit = shown_unit(series, wanted)
    if unit == series.unit:
        return series
    shift = TIME_POWERS[series.unit] - TIME_POWERS[unit]
    if shift == 0:  # µs and us: one unit, spelled two ways
        return dataclasses.replace(series, unit=unit)
    return dataclasses.replace(series, unit=unit,
                               points=tuple(scaled(p, shift) for p in series.points))


def scaled(point: SeriesPoint, shift: int) -> SeriesPoint:
    """A point's numbers moved by `shift` powers of ten (its counts and words kept)."""
    def move(x: float) -> float:
        return float(Decimal(repr(x)).scaleb(shift))

    return point._replace(
        value=move(point.value),
        spread=None if point.spread is None else move(point.spread),
        stats={k: move(v) for k, v in point.stats.items()} if point.stats else point.stats,
        samples=tuple(map(move, point.samples)),
        iqr=None if point.iqr is None else move(point.iqr))
