"""The `trend` block, and a comparison's trend: a line of one measure over its commits
or dates, as wide as the page's text.

    {{< trend comparisons ID >}}    {{< trend measurements ID >}}

A comparison's trend is its `history:` then its before and after; a measurement's, its
`history:` then its figure, or its history file's points; in date order, drawn from
three points on.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from progress_site.derive.kinds import kind_of
from progress_site.model.history import SeriesPoint, decimals_of
from progress_site.render.blocks.chartview import ChartView, chart_locale, chart_view
from progress_site.render.blocks.lines import FEWER_MOMENTS, Line, Point, checked_spec
from progress_site.render.blocks.options import BlockError

if TYPE_CHECKING:
    from progress_site.charts.cache import ChartCache
    from progress_site.derive.site import Model
    from progress_site.derive.views import ComparisonView
    from progress_site.model.figure import HistoryPoint
    from progress_site.model.schema import Measurement, Study
    from progress_site.render.blocks.tables import Tables


@dataclass(frozen=True, slots=True)
class Moment:
    """One point of a trend: the commit and date it was measured at, its own label."""

    commit: str | None
    date: dt.date | None
    label: str | None
    value: float
    decimals: int


# A trend of two points only joins the two figures printed beside it.
MIN_TREND_POINTS = 3
# A trend takes the width of the page's text (style.css: `.wrap` is 60rem, less its
# padding and a measure's card): drawn narrower, its dates had no room to be read.
TREND_WIDTH, TREND_HEIGHT = 880, 220


class Trends:
    """The trends of one language."""

    def __init__(self, model: Model, tables: Tables, cache: ChartCache) -> None:
        self.model, self.tables, self.cache = model, tables, cache
        self.w = tables.w
        # A release's label names its commit on the axis, in the table and the sentence,
        # as on a series' own page: "at v0.9.0" tells a reader more than a hash.
        self.releases = {c.id: c.label for c in model.data.commits if c.label is not None}

    def trend(self, args: Sequence[str]) -> ChartView | None:
        """The `trend` block: `{{< trend comparisons ID >}}` or `... measurements ID >}}`."""
        if len(args) != 2 or args[0] not in ("comparisons", "measurements"):
            raise BlockError("trend: write `{{< trend comparisons ID >}}` or "
                             "`{{< trend measurements ID >}}`")
        if args[0] == "measurements":
            found = [m for m in self.model.data.measurements if m.id == args[1]]
            if not found:
                raise BlockError(f"no measurement '{args[1]}' in the data")
            return self.measurement_trend(found[0])
        for study in self.model.studies:
            for c in study.comparisons:
                if c.comparison.id == args[1]:
                    return self.comparison_trend(c, study.study)
        raise BlockError(f"no comparison '{args[1]}' in the data")

    def comparison_trend(self, c: ComparisonView, study: Study) -> ChartView | None:
        """A comparison's trend: its history, then before and after; None without history
        (the two sides alone are what the figures above it already say)."""
        comp = c.comparison
        points = [self.history(p) for p in comp.history]
        for side, fig in ((study.before, c.before), (study.after, c.after)):
            one = kind_of(fig.quantity).compared(fig.quantity)  # a distribution's median
            if one is not None:  # a commit, or a contender's name and version
                label = self.w.contender_words(side) or None
                points.append(Moment(side.commit, fig.figure.date, label, one,
                                     fig.quantity.decimals))
        title = self.w.text(comp.title).striptags() + (
            ", " + self.w.text(comp.context).striptags() if comp.context else "")
        scale = comp.scale.value if comp.scale else None
        return self.trend_view(f"trend-{comp.id}", title, comp.unit, points, scale)

    def measurement_trend(self, m: Measurement) -> ChartView | None:
        """A measurement's trend: its history, then its figure; or its history file's
        points, the newest of which is its figure."""
        key = f"measurements.{m.id}"
        for view in self.model.series:
            if view.key == key:
                return self.trend_view(f"trend-{m.id}", self.w.text(m.title).striptags(),
                                       view.series.unit, list(map(self.moment, view.points)),
                                       None)
        points = [self.history(p) for p in m.history]
        fig = self.model.view("measurements", m.id).quantity
        one = kind_of(fig).compared(fig)
        if one is not None:
            points.append(Moment(m.figure.commit, m.figure.date, None, one, fig.decimals))
        # The view's unit: a derived figure may take the unit its formula computes.
        return self.trend_view(f"trend-{m.id}", self.w.text(m.title).striptags(),
                               fig.unit or m.figure.unit, points, None)

    def history(self, point: HistoryPoint) -> Moment:
        """One earlier value: when it was measured, its number and decimals."""
        label = point.label.get(self.w.lang) if point.label else self.release(point.commit)
        return Moment(point.commit, point.date, label, point.value.value,
                      point.value.decimals)

    def moment(self, point: SeriesPoint) -> Moment:
        """One point of a history file as a trend draws it."""
        day = point.date.date() if isinstance(point.date, dt.datetime) else point.date
        return Moment(point.commit, day, self.release(point.commit), point.value,
                      decimals_of(point.value))

    def release(self, commit: str | None) -> str | None:
        """The label `commits:` gives a commit (a release), in this language."""
        label = self.releases.get(commit) if commit else None
        return label.get(self.w.lang) if label else None

    def axis(self, points: list[Moment]) -> tuple[str, list[str]]:
        """The trend's x axis: the commits in order where every point names one, else
        the dates where every point has one, else the versions as the data names them."""
        if all(p.commit for p in points):
            return self.w._("Commit"), [p.label or str(p.commit) for p in points]
        if all(p.date for p in points):
            # Without its year, a date of another year would read as one of this year.
            years = {p.date.year for p in points if p.date}
            day = self.w.short_date if len(years) == 1 else self.w.date
            return self.w._("Date"), [p.label or day(p.date) for p in points if p.date]
        return self.w._("Version"), [
            p.label or p.commit or (self.w.short_date(p.date) if p.date else str(i + 1))
            for i, p in enumerate(points)]

    def trend_view(self, chart_id: str, title: str, unit: str | None,
                   points: list[Moment], rule: float | None) -> ChartView | None:
        """A small line chart of one measure over its history; None with fewer than
        three points, which a line would not tell more about than the figures."""
        if len(points) < MIN_TREND_POINTS:
            return None
        if all(p.date for p in points):  # drawn in time order, whatever the list's order
            points = sorted(points, key=lambda p: p.date or dt.date.min)
        x_title, labels = self.axis(points)
        labels = _unique(labels)
        unit_words = self.tables.unit(unit) if unit else ""
        line = Line(unit_words or title, tuple(
            Point(label, label, p.value, self.w.with_unit(p.value, p.decimals, unit))
            for label, p in zip(labels, points, strict=True)))
        spec = checked_spec([line], FEWER_MOMENTS, id=chart_id, kind="line", title=title,
                            x_title=x_title, y_title=unit_words or title, x_kind="ordinal",
                            width=TREND_WIDTH, height=TREND_HEIGHT, rule=rule,
                            locale=chart_locale(self.w))
        return chart_view(self.w, self.cache, spec, [line], x_title,
                          by_commit=all(p.commit for p in points),
                          labelled=frozenset(x for x, p in zip(labels, points, strict=True)
                                             if p.label))


def _unique(labels: list[str]) -> list[str]:
    """Axis labels made distinct (two points of one day): a second one gets ' (2)'."""
    out: list[str] = []
    seen: Counter[str] = Counter()
    for label in labels:
        seen[label] += 1
        out.append(label if seen[label] == 1 else f"{label} ({seen[label]})")
    return out
