"""Where a series' page chart puts things: the viewBox and its margins, the levels between
steps and the round y ticks that cover them (`Scale`), each point's x, and the x labels
thinned so that they never touch. Numbers only: render/serieschart.py writes them as SVG.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import median
from typing import TypeVar, overload

from progress_site.derive.cuts import MAD_TO_SD
from progress_site.derive.regressions import Step

WIDTH, HEIGHT = 720, 300  # the viewBox; the figure takes the content width
NARROW = 360  # the viewBox of the chart phones show: its labels stay readable there
LEFT, RIGHT, TOP, BOTTOM = 84, 16, 28, 40  # room for the y labels, step labels, x labels
FONT = 13  # the labels' size, in viewBox units
CHAR = 0.62 * FONT  # a wide estimate of a character's advance, so labels never touch
GAP = 12  # the least room between two x labels
MAX_X_LABELS = 8
Y_TICKS = 5  # about this many round ticks
T = TypeVar("T")


class Lazy(Sequence[T]):
    """`count` items, each made when first read: a chart of 500 points shows eight
    dates, and only those are formatted (or measured)."""

    def __init__(self, count: int, make: Callable[[int], T]) -> None:
        self.size = count
        self.make = make
        self.made: dict[int, T] = {}

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...

    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        if isinstance(index, slice):
            return [self[i] for i in range(self.size)[index]]
        if not -self.size <= index < self.size:
            raise IndexError(index)
        index %= self.size
        if index not in self.made:
            self.made[index] = self.make(index)
        return self.made[index]

    def __len__(self) -> int:
        return self.size


def nice_ticks(low: float, high: float, count: int = Y_TICKS) -> tuple[list[float], int]:
    """Round ticks covering `low..high` (steps of 1, 2 or 5 times a power of ten), and
    the decimals they need."""
    if high <= low:
        high = low + (abs(low) or 1.0) * 0.1
    raw = (high - low) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    ticks, value = [], first
    while value < high + step * 0.5:
        ticks.append(round(value, 12))
        value += step
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    return ticks, decimals


def thinned(centres: Sequence[float], widths: Sequence[float], low: float, high: float
            ) -> list[tuple[int, float]]:
    """The x labels shown, as (index, centre): at most MAX_X_LABELS, each kept inside
    `low..high` and at least GAP from its neighbours; the newest point always labelled,
    the others evenly strided back from it (a small stride that fits)."""
    count = len(centres)
    spacing = (centres[-1] - centres[0]) / (count - 1) if count > 1 else 0.0
    stride = max(1, math.ceil((count - 1) / max(MAX_X_LABELS - 1, 1)))
    while stride < count:
        placed, short = strided(centres, widths, low, high, stride)
        if placed is not None:
            return placed
        # Two labels overlapped by `short`: the next stride is one that would part them,
        # not every stride in between (each try formats the dates it places).
        stride += max(1, math.floor(short / spacing)) if spacing > 0 else 1
    return strided(centres, widths, low, high, max(count, 1))[0] or []


def strided(centres: Sequence[float], widths: Sequence[float], low: float, high: float,
            stride: int) -> tuple[list[tuple[int, float]] | None, float]:
    """Every `stride`-th label back from the newest; or None, and by how much the first
    two that touch overlap (GAP included)."""
    chosen: list[tuple[int, float]] = []
    left_edge = math.inf
    for i in range(len(centres) - 1, -1, -stride):
        half = widths[i] / 2
        centre = min(max(centres[i], low + half), high - half)
        if centre + half + GAP > left_edge:
            return None, centre + half + GAP - left_edge
        chosen.append((i, centre))
        left_edge = centre - half
    return (sorted(chosen), 0.0) if len(chosen) <= MAX_X_LABELS else (None, 0.0)


def label_width(label: str) -> float:
    """A label's width estimated wide (CHAR a character), in viewBox units."""
    return len(label) * CHAR


def extremes(values: Sequence[float]) -> tuple[int, int]:
    """The indexes of the lowest and the highest value (the first of equals)."""
    indexes = range(len(values))
    return min(indexes, key=values.__getitem__), max(indexes, key=values.__getitem__)


def levels(values: Sequence[float], starts: Sequence[int]) -> list[tuple[int, int, float, float]]:
    """Each level between steps: first and last index, median, robust noise (the median
    absolute deviation as a standard deviation: one stray point does not widen it)."""
    bounds = [0, *sorted(s for s in starts if 0 < s < len(values)), len(values)]
    out = []
    for first, end in itertools.pairwise(bounds):
        part = values[first:end]
        if not part:
            continue
        mid = median(part)
        noise = MAD_TO_SD * median([abs(v - mid) for v in part])
        out.append((first, end - 1, mid, noise))
    return out


@dataclass(frozen=True, slots=True)
class Scale:
    """What a series' charts share at every width: its levels, its y ticks, the range
    they span, and each point's y (the height is the same)."""

    bands: list[tuple[int, int, float, float]]
    ticks: list[float]
    decimals: int
    low: float
    high: float
    ys: tuple[float, ...]


def scale_of(values: Sequence[float], steps: Sequence[Step]) -> Scale:
    """The levels, ticks and the line's y of a series' values and steps."""
    bands = levels(values, [s.index for s in steps])
    low = min(min(values), *(m - n for _, _, m, n in bands))
    high = max(max(values), *(m + n for _, _, m, n in bands))
    ticks, decimals = nice_ticks(low, high)
    low, high = min(ticks[0], low), max(ticks[-1], high)
    # The arithmetic of `y` in `serieschart.series_chart`, written out, for the points
    # the line holds (500 of them a chart): the same numbers.
    plot_h, span = HEIGHT - TOP - BOTTOM, (high - low) or 1.0
    ys = tuple([TOP + plot_h - (v - low) / span * plot_h for v in values])
    return Scale(bands, ticks, decimals, low, high, ys)


def x_positions(count: int, width: int) -> tuple[float, ...]:
    """Each of `count` points' x on a chart `width` units wide (the arithmetic of
    `serieschart.series_chart`'s `x`, written out: the same numbers)."""
    plot_w, last = width - LEFT - RIGHT, max(count - 1, 1)
    if count > 1:
        return tuple(LEFT + i / last * plot_w for i in range(count))
    return (LEFT + plot_w / 2,)
