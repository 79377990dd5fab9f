"""How the benchmarks' series read in one language: their titles, values, changes and
dates, each formatted once (by Babel, through `Words`), for the dashboard's rows, a
series' page and the list of steps alike.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from markupsafe import Markup

from progress_site.derive.quantity import significant_decimals
from progress_site.derive.site import Model
from progress_site.model.history import (
    SPREAD_DIGITS,
    SeriesPoint,
    Spread,
    decimals_of,
)
from progress_site.render import formatting
from progress_site.render.words import N_, Words

if TYPE_CHECKING:  # a site without history renders no series: its analysis stays unloaded
    from progress_site.derive.history import SeriesView
    from progress_site.derive.regressions import Step

PAGE = "benchmarks"  # the dashboard's own page, unless the content has one of that name
STATUS = MappingProxyType({
    "improved": N_("Improved"),
    "regressed": N_("Regressed"),
    "within noise": N_("Within noise"),
    "not enough points": N_("Not enough points"),
    None: N_("Not judged"),
})
BETTER = MappingProxyType({"lower": N_("Lower is better"), "higher": N_("Higher is better")})
INTERVAL = 99  # percent: the interval import halves into `spread` (record/appending.py)
# What each kind of spread a value prints with means, said once under its table.
LEGEND = MappingProxyType({
    "iqr": N_("IQR: the interquartile range of the runs, where the middle half of them lie "
              "(the spread of a median, which a few slow runs do not widen)."),
    "stddev": N_("σ: the standard deviation of the runs (the spread of a mean, which a few "
                 "slow runs widen)."),
    "interval": N_("%(level)s interval: the median lies within ± this, as the tool "
                   "estimated it."),
})


@dataclass(frozen=True, slots=True)
class Row:
    """One series as its dashboard row shows it (and its page: `chart`, `points`)."""

    slug: str
    title: str
    latest: str
    previous: str
    baseline: str
    better: str
    status: str
    status_class: str
    spark: Markup
    chart: Markup
    points: tuple[tuple[Markup, str, str, str], ...]  # commit, date, machine, value
    note: str = ""  # on a series' page whose table leaves older points out: says so
    spreads: frozenset[str] = frozenset()  # the kinds of spread its values print with


class SeriesWords:
    """A language's words for the series, each number and date formatted once."""

    def __init__(self, words: Words, model: Model) -> None:
        self.words = words
        self.model = model
        self.decimals: dict[str, int] = {}
        # Formatted once a build and language: a point's value is printed in its series'
        # table, row and chart, the spreads of a tool's runs and the charts' ticks repeat
        # across series (10,000 series: most of their pages' time); a tool runs every
        # benchmark the same number of times, and every series of a CI run shares its
        # dates (200 series' tables and charts print the same few dozen).
        self.amount: Callable[[float, int, str], str] = functools.cache(words.with_unit)
        self.count: Callable[[int], str] = functools.cache(words.number)
        self.long_date: Callable[[dt.date], str] = functools.cache(words.date)
        self.short_date: Callable[[dt.date], str] = functools.cache(words.short_date)
        # A lookup a row, a step and a chart each make: once, not a scan each time.
        self.titles = {m.id: m.title for m in model.data.measurements}
        self.by_id = {v.series.id: v for v in model.series}
        # Commits with a label (a release): marked on charts and in tables.
        self.tags = {c.id: c.label for c in model.data.commits if c.label is not None}

    def title(self, view: SeriesView) -> str:
        """The measurement's title in this language, or the series' id."""
        found = self.titles.get(view.series.id)
        return found.get(self.words.lang) if found else view.series.id

    def value(self, view: SeriesView, point: SeriesPoint) -> str:
        """A point's value in its unit, with its spread (said which) and count when it
        has them: `23.332 μs (IQR 0.999 μs, n = 40)`."""
        w = self.words
        unit = view.series.unit
        spread = point.shown
        value = self.amount(point.value, self.point_digits(view, point, spread), unit)
        details = [] if spread is None else [self.spread(spread, unit)]
        if point.n is not None:
            details.append(w._("n\u00a0=\u00a0%(n)s", n=self.count(point.n)))
        if not details:
            return value
        return w._("%(value)s (%(details)s)", value=value, details=", ".join(details))

    def spread(self, spread: Spread, unit: str) -> str:
        """`IQR 0.999 μs`, `σ 695 μs`, `99 % interval ± 0.2 ms`: a spread, named."""
        w = self.words
        width = self.amount(spread.width, width_digits(spread.width), unit)
        if spread.kind == "iqr":
            return w._("IQR\u00a0%(spread)s", spread=width)
        if spread.kind == "stddev":
            return w._("σ\u00a0%(spread)s", spread=width)
        return w._("%(level)s interval\u00a0±\u00a0%(spread)s", level=self.level(),
                   spread=width)

    def level(self) -> str:
        """`99 %`: the level of a tool's interval, as this language writes it."""
        return formatting.percent_amount(INTERVAL, 0, self.words.lang)

    @staticmethod
    def kinds(points: Sequence[SeriesPoint]) -> frozenset[str]:
        """The kinds of spread these points print with."""
        return frozenset(s.kind for s in (p.shown for p in points) if s is not None)

    def legend(self, kinds: frozenset[str]) -> list[str]:
        """What each kind of spread printed in a table means, in a fixed order."""
        return [self.words._(LEGEND[k], level=self.level()) if k == "interval"
                else self.words._(LEGEND[k]) for k in LEGEND if k in kinds]

    def value_only(self, view: SeriesView, point: SeriesPoint) -> str:
        """A point's value in its unit, without its spread."""
        return self.amount(point.value, self.point_digits(view, point, point.shown),
                           view.series.unit)

    def percent(self, step: Step) -> str:
        """`+44.4 %`: a step's change, as this language writes it."""
        return formatting.percent_amount(step.percent, 1, self.words.lang, sign=True)

    def change(self, new: float, old: float) -> str:
        """`+3.1 %`: the change from `old` to `new`."""
        if old == 0:
            return "–"
        return formatting.percent_amount((new / old - 1) * 100, 1, self.words.lang, sign=True)

    def digits(self, view: SeriesView) -> int:
        """The decimals of a series' values: the most any point was written with (at
        most 3), so a column of them lines up (150.0 beside 150.6)."""
        found = self.decimals.get(view.key)
        if found is None:
            found = 0
            for point in view.points:  # most series reach 3 at their first point
                found = max(found, decimals_of(point.value))
                if found >= 3:
                    break
            self.decimals[view.key] = found = min(3, found)
        return found

    def point_digits(self, view: SeriesView, point: SeriesPoint,
                     spread: Spread | None = None) -> int:
        """The decimals of one point: the series' (so a column lines up), but no more
        than the spread it prints with tells, its third significant digit, as import
        rounds: 177 ms with a spread of 129 ms read 177.000 beside the series' 140.600. A
        median import kept finer than its deviation (a slow outlier) prints with its
        quartiles' spread, and keeps its digits by it. A point the series' decimals
        would print with fewer than three significant digits takes what it needs of
        them, as written: after a step past the unit's thousand (23.5 us, then 1,977 us,
        shown in ms), the early points read 0.024 ms each, 23.51 and 23.74 us alike, beside
        quartiles of 0.000686 ms."""
        digits = self.digits(view)
        if 0 < abs(point.value) < 1 and digits < 6:
            digits = max(digits, min(decimals_of(point.value), 6,
                                     significant_decimals(point.value, SPREAD_DIGITS)))
        if spread is not None and spread.width > 0:
            digits = min(digits, significant_decimals(spread.width, SPREAD_DIGITS))
        return digits

    def date(self, point: SeriesPoint) -> str:
        """A point's day, as this language writes dates."""
        return self.long_date(self.day(point))

    @staticmethod
    def day(point: SeriesPoint) -> dt.date:
        """A point's day, without its time."""
        day = point.date
        return day.date() if isinstance(day, dt.datetime) else day


def width_digits(width: float) -> int:
    """The decimals of a spread: its own (a hand-written `2.8`), but no more than its
    third significant digit (an interquartile range computed from readings)."""
    if width <= 0:
        return decimals_of(width)
    return min(decimals_of(width), significant_decimals(width, SPREAD_DIGITS))


def series_slug(view: SeriesView) -> str:
    """Where a series' own page is: `benchmarks/ID`."""
    return f"{PAGE}/{view.series.id}"
