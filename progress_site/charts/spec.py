"""What a chart shows: a frozen `ChartSpec` of named series, checked when it is made.

A spec is everything that decides a chart's SVG and nothing else, so it is also the
chart cache's key (`cache.py`); drawing it is `svg.py`'s business. Both read the spec
from here, and a spec is checked against the shared style (`style.py`) without loading
the drawing code.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from typing import Literal

from progress_site.charts.style import FORMAT_LOCALES, LABEL_PX
from progress_site.model.limits import MAX_CATEGORIES, MAX_POINTS, MAX_SERIES, MAX_WORDS

_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
# A chart's side, in px: past MAX_SIZE the chart engine runs out of memory drawing it
# (100000000 px wide), and no page shows more.
MIN_SIZE, MAX_SIZE = 50, 4000
# A chart wider than a phone's text column is drawn twice (`narrow`): as asked, and
# NARROW px wide, for a phone (343 px of text at 375 px wide, 309 px in a card: its labels
# shown at 10 px or more). The page shows the narrow one wherever the wide one would be
# scaled down past READABLE_PX (`wide_from`; style.css, `.wide-from-N`).
NARROW = 320
READABLE_PX = 10


@dataclass(frozen=True, slots=True)
class Series:
    """One line, or one group of bars, with its legend label."""

    name: str  # legend label, already translated
    points: tuple[tuple[float | str, float], ...]  # (x, y); x is a number or a label


@dataclass(frozen=True, slots=True)
class ChartSpec:
    """Everything that decides a chart's SVG, and nothing else (it is the cache key)."""

    id: str  # stable; prefixes the ids inside the SVG, so charts on one page do not clash
    kind: Literal["line", "bar"]
    title: str  # already translated, like the other words
    x_title: str
    y_title: str
    series: tuple[Series, ...]
    x_kind: Literal["quantitative", "ordinal"] = "quantitative"  # bars are always ordinal
    y_zero: bool = True  # start the y axis at zero (bars always do)
    width: int = 560  # of the drawing, in px, give or take its axes' numbers (svg.py)
    height: int = 260
    rule: float | None = None  # a horizontal reference line, e.g. a limit, drawn dashed
    locale: str = "en"  # number format on the axes: "en" or "fr"

    def __post_init__(self) -> None:
        """Refuse a spec that would draw a wrong or misleading chart."""
        problems = _spec_problems(self)
        for series in self.series:
            problems += _point_problems(self, series)
        if problems:
            raise ValueError("\n".join(f"chart {self.id!r}: {problem}" for problem in problems))


def _spec_problems(spec: ChartSpec) -> list[str]:
    """What is wrong with a spec as a whole."""
    problems = []
    if not _ID.fullmatch(spec.id):
        problems.append("id: expected a letter, then letters, digits, '-' or '_'")
    if spec.kind not in ("line", "bar"):
        problems.append(f"kind: expected 'line' or 'bar', got {spec.kind!r}")
    if spec.x_kind not in ("quantitative", "ordinal"):
        problems.append(f"x_kind: expected 'quantitative' or 'ordinal', got {spec.x_kind!r}")
    if spec.locale not in FORMAT_LOCALES:
        problems.append(f"locale: expected one of {sorted(FORMAT_LOCALES)}, got {spec.locale!r}")
    if not 1 <= len(spec.series) <= MAX_SERIES:
        problems.append(f"series: expected 1 to {MAX_SERIES}, got {len(spec.series)}")
    names = [series.name for series in spec.series]
    if len(set(names)) < len(names):
        problems.append(f"series: two series share a name in {names}")
    if len({isinstance(x, str) for series in spec.series for x, _ in series.points}) > 1:
        problems.append("x: mixes numbers and labels; write every x the same way")
    if spec.kind == "bar" and not spec.y_zero:
        problems.append("y_zero: bars start at zero, or their lengths would mislead")
    if not (MIN_SIZE <= spec.width <= MAX_SIZE and MIN_SIZE <= spec.height <= MAX_SIZE):
        problems.append(f"size: expected {MIN_SIZE} to {MAX_SIZE} pixels a side, got "
                        f"{spec.width}x{spec.height}")
    if spec.rule is not None and not _is_number(spec.rule):
        problems.append(f"rule: expected a finite number, got {spec.rule!r}")
    return problems + _size_problems(spec)


def _size_problems(spec: ChartSpec) -> list[str]:
    """Where a spec is past what a chart can hold (model/limits.py)."""
    problems = []
    points = sum(len(series.points) for series in spec.series)
    if points > MAX_POINTS:
        problems.append(f"points: expected at most {MAX_POINTS}, got {points}")
    if spec.kind == "bar" or spec.x_kind == "ordinal":
        categories = len({x for series in spec.series for x, _ in series.points})
        if categories > MAX_CATEGORIES:
            problems.append(f"x: expected at most {MAX_CATEGORIES} categories, "
                            f"got {categories}")
    words = {"title": spec.title, "x_title": spec.x_title, "y_title": spec.y_title}
    words |= {f"series {i}": series.name for i, series in enumerate(spec.series)}
    long = next((x for s in spec.series for x, _ in s.points
                 if isinstance(x, str) and len(x) > MAX_WORDS), None)
    if long is not None:
        words["x label"] = long
    problems += [f"{what}: expected at most {MAX_WORDS} characters, got {len(word)}"
                 for what, word in words.items() if len(word) > MAX_WORDS]
    return problems


def _point_problems(spec: ChartSpec, series: Series) -> list[str]:
    """What is wrong with the points of one series."""
    labels_allowed = spec.kind == "bar" or spec.x_kind == "ordinal"
    problems = []
    for index, (x, y) in enumerate(series.points):
        where = f"series {series.name!r}, point {index}"
        if isinstance(x, str) and not labels_allowed:
            problems.append(f"{where}: x {x!r} is a label, which needs x_kind='ordinal'")
        elif not isinstance(x, str) and not _is_number(x):
            problems.append(f"{where}: x: expected a finite number or a label, got {x!r}")
        if not _is_number(y):
            problems.append(f"{where}: y: expected a finite number, got {y!r}")
    return problems


def _is_number(value: object) -> bool:
    """Whether a value is a finite int or float (a bool is not a number here)."""
    return isinstance(value, int | float) and not isinstance(value, bool) \
        and math.isfinite(value)


def narrow(spec: ChartSpec) -> ChartSpec | None:
    """The same chart drawn for a phone's width (NARROW), or None when the chart is
    about that narrow already."""
    if spec.width * READABLE_PX <= NARROW * LABEL_PX:
        return None
    return replace(spec, id=f"{spec.id}-narrow", width=NARROW)


def wide_from(spec: ChartSpec) -> int:
    """The least width, in rem, of a column that shows the wide drawing with its labels
    at READABLE_PX or more: a step of style.css's (every 4 rem from 24 to 56; a chart
    wider than 56 rem shows its wide drawing on a 56 rem column, scaled down)."""
    needed = spec.width * READABLE_PX / LABEL_PX / 16
    return min(max(24, 4 * math.ceil(needed / 4)), 56)
