"""The `chart` and `trend` blocks: charts of a dataset or of a history, in one language.

    {{< chart DATASET x=F y=F series=F kind=line rule=50 title="..." id=... zero=no >}}
    {{< trend comparisons ID >}}    {{< trend measurements ID >}}

A chart draws one line (or one group of bars) per value of `series`, from every record
that gives `y`. It comes with a sentence that says what it shows, computed from the
points it draws (the lowest and the highest), and with those numbers as a table. A trend
is a line of a measure over its commits or dates, as wide as the page's text: a
comparison's `history:` then its before and after, or a measurement's `history:` then
its figure, in date order; it is drawn from three points on. The SVG
comes from one `ChartCache` per build, made on the first chart, so a build without
charts never touches it.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from markupsafe import Markup

from progress_site.charts.cache import ChartCache
from progress_site.charts.spec import ChartSpec, narrow, wide_from
from progress_site.charts.style import FORMAT_LOCALES
from progress_site.derive.kinds import kind_of
from progress_site.derive.site import Model
from progress_site.derive.views import ComparisonView
from progress_site.model.dataset import Dataset, RecordField, Row
from progress_site.model.figure import HistoryPoint
from progress_site.model.history import SeriesPoint, decimals_of
from progress_site.model.schema import Measurement, Study
from progress_site.render.blocks.lines import (
    FEWER_MOMENTS,
    Line,
    Point,
    check_counts,
    checked_spec,
    every_x,
    repeated,
)
from progress_site.render.blocks.options import BlockError, Options
from progress_site.render.blocks.tables import Tables, plain


@dataclass(frozen=True, slots=True)
class ChartView:
    """A drawn chart, its sentence, and its numbers as a table."""

    id: str
    svg: Markup
    narrow: Markup | None  # the drawing a phone shows, for a chart wider than one
    wide_from: int  # the least width, in rem, that shows `svg` (style.css: wide-from-N)
    summary: str
    x_header: str
    series: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str, ...]], ...]


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


class Charts:
    """The chart blocks of one language."""

    def __init__(self, model: Model, tables: Tables, cache: ChartCache) -> None:
        self.model, self.tables, self.cache = model, tables, cache
        self.w = tables.w

    def chart(self, args: Sequence[str], options: dict[str, str]) -> ChartView:
        """The `chart` block."""
        ds = self.tables.dataset(args, "chart")
        opts = Options("chart", options, ds, ("x", "y", "series", "kind", "rule", "title",
                                              "id", "zero", "width", "height"))
        x, y = opts.field("x"), opts.field("y", numeric=True)
        group = opts.field("series") if opts.text("series") else None
        kind: Literal["line", "bar"] = "bar" if opts.choice("kind", ("line", "bar")) == "bar" \
            else "line"
        lines = self.lines(ds, x, y, group)
        rule = opts.number("rule")
        spec = checked_spec(
            lines, id=opts.text("id", f"{ds.id}-{y.name}-{x.name}"), kind=kind,
            title=self.w.plain_text(opts.text("title")) or self.tables.header(y),
            x_title=self.tables.header(x), y_title=self.tables.header(y),
            x_kind="quantitative" if _numeric(x) and kind == "line" else "ordinal",
            y_zero=opts.flag("zero", True), rule=None if rule is None else float(rule),
            width=int(opts.number("width") or 560), height=int(opts.number("height") or 260),
            locale=self.locale)
        return self.view(spec, lines, self.tables.header(x))

    def lines(self, ds: Dataset, x: RecordField, y: RecordField,
              group: RecordField | None) -> list[Line]:
        """One line per value of `group` (in the order of its choices), from the records."""
        grouped = self.grouped(ds, x, y, group)
        # Refused before a point is printed: printing is what a chart's size costs here.
        check_counts(len(grouped), sum(len(kept) for _, _, kept in grouped))
        last = max((plain(r.get(x.name)) for r in ds.rows), default=None) \
            if _numeric(x) else None
        out = []
        label = self.x_label(ds, x)
        for name, rows, kept in grouped:
            points = [Point(v, label(r.get(x.name)), float(r.values[y.name]),
                            self.printed(y, r.get(y.name))) for v, r in kept]
            if _numeric(x):
                points.sort(key=lambda p: p.x)
            missing = next((str(self.tables.note(ds, r) or "") for v, r in rows
                            if v == last and r.get(y.name) is None), "")
            notes = tuple((v, note) for v, r in rows if v is not None
                          and r.get(y.name) is None and (note := self.tables.note(ds, r)))
            name_text = self.tables.value(group, name) if group else self.tables.header(y)
            out.append(Line(name_text, tuple(points), missing, notes))
        return out

    def x_label(self, ds: Dataset, x: RecordField) -> Callable[[Any], str]:
        """How the x axis names a record's x: as a table does, but days without their
        year when they all share one (November 3), as a trend's axis does, so that
        they fit beside each other."""
        days = {str(r.get(x.name))[:4] for r in ds.rows if r.get(x.name) is not None}
        if x.type != "date" or len(days) != 1:
            return lambda value: self.tables.value(x, value)
        return lambda value: self.w.short_date(dt.date.fromisoformat(value)) if value else ""

    def grouped(self, ds: Dataset, x: RecordField, y: RecordField, group: RecordField | None
                ) -> list[tuple[Any, list[tuple[Any, Row]], list[tuple[Any, Row]]]]:
        """Each series that has a point: its value of `group`, its records with their x,
        and those that give a point; an x twice in one series is an error."""
        names: list[Any] = [None]
        if group is not None:
            names = [c.value for c in group.choices] or list(
                dict.fromkeys(plain(r.get(group.name)) for r in ds.rows))
        # Each record's series and x, read once, and the records of each series.
        by_series: dict[Any, list[tuple[Any, Row]]] = {}
        for r in ds.rows:
            series = plain(r.get(group.name)) if group else None
            by_series.setdefault(series, []).append((plain(r.get(x.name)), r))
        out = []
        for name in names:
            rows = by_series.get(name, [])
            twice = repeated([v for v, _ in rows])
            if twice is not None:
                raise BlockError(f"chart: two records of {ds.id} give {x.name}={twice}"
                                 + (f" for {group.name}={name}" if group else ""),
                                 "a chart takes one point per x and series: add `series=`")
            kept = [(v, r) for v, r in rows if r.get(y.name) is not None and v is not None]
            if kept:
                out.append((name, rows, kept))
        if not out:
            raise BlockError(f"chart: no record of {ds.id} gives {y.name}")
        return out

    @property
    def locale(self) -> str:
        """The number format of the axes (English where the chart engine has none)."""
        return self.w.lang if self.w.lang in FORMAT_LOCALES else "en"

    def printed(self, fld: RecordField, value: Any) -> str:
        """A record's number with its unit (`47.83 ms`)."""
        decimals = fld.decimals if fld.decimals is not None else value.decimals
        return self.w.with_unit(float(value), decimals, fld.unit)

    def view(self, spec: ChartSpec, lines: list[Line], x_header: str,
             by_commit: bool = False) -> ChartView:
        """The drawn chart (and its phone's drawing) with its sentence and its table;
        `by_commit`: its x axis is the commits measured (a trend's)."""
        figure = f"{spec.id}-figure"
        small = narrow(spec)
        svg = self.drawn(spec, figure, "wide" if small else "")
        xs = every_x(lines)
        rows = tuple((text, tuple(line.cell(x) for line in lines)) for x, text in xs)
        phone = self.drawn(small, figure, "narrow") if small else None
        return ChartView(figure, svg, phone,
                         wide_from(spec), self.summary(spec.title, lines, x_header, xs,
                                                         by_commit),
                         x_header, tuple(line.name for line in lines), rows)

    def drawn(self, spec: ChartSpec, figure: str, size: str) -> Markup:
        """A chart's SVG, described by its figure's sentence, of class `size` besides
        `chart` (the stylesheet shows one size a column width)."""
        try:
            svg = self.cache.svg(spec)
        except ValueError as exc:
            raise BlockError(str(exc)) from None
        if size:
            svg = svg.replace('class="chart', f'class="chart {size}', 1)
        return Markup(svg.replace("<svg ", f'<svg aria-describedby="{figure}-summary" ', 1))

    def summary(self, title: str, lines: list[Line], x_header: str,
                xs: list[tuple[float | str, str]], by_commit: bool = False) -> str:
        """One sentence that says what the chart shows, from exactly the points it draws:
        the lowest and the highest of all its marks, where they are and in which series
        (a bar chart's categories have no order that "from the first to the last" reads);
        `by_commit`: one line over commits, whose places are told as commits."""
        marks = [(p.y, i, p) for i, line in enumerate(lines) for p in line.points]
        low = min(marks, key=lambda m: m[0])
        high = max(marks, key=lambda m: m[0])
        if len(lines) == 1 and by_commit:  # as a series' chart says it (seriespage.py)
            sentence = self.w._("%(title)s: lowest %(low)s at commit %(low_x)s, highest "
                                "%(high)s at commit %(high_x)s.", title=title,
                                low=low[2].y_text, low_x=low[2].x_text, high=high[2].y_text,
                                high_x=high[2].x_text)
        elif len(lines) == 1:
            sentence = self.w._("%(title)s: lowest %(low)s where %(x)s is %(low_x)s, highest "
                                "%(high)s where %(x)s is %(high_x)s.", title=title, x=x_header,
                                low=low[2].y_text, low_x=low[2].x_text, high=high[2].y_text,
                                high_x=high[2].x_text)
        else:
            sentence = self.w._("%(title)s: lowest %(low)s (%(low_name)s, where %(x)s is "
                                "%(low_x)s), highest %(high)s (%(high_name)s, where %(x)s is "
                                "%(high_x)s).", title=title, x=x_header, low=low[2].y_text,
                                low_name=lines[low[1]].name, low_x=low[2].x_text,
                                high=high[2].y_text, high_name=lines[high[1]].name,
                                high_x=high[2].x_text)
        # A series that stops before the last x says why, when a record's note tells.
        last, last_text = xs[-1]
        for line in lines:
            if line.missing and line.at(last) is None:
                sentence += " " + self.w._("%(name)s has no number where %(x)s is %(value)s: "
                                           "%(why)s.", name=line.name, x=x_header,
                                           value=last_text, why=line.missing)
        return sentence

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
                                       view.series.unit, list(map(_moment, view.points)),
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
        label = point.label.get(self.w.lang) if point.label else None
        return Moment(point.commit, point.date, label, point.value.value,
                      point.value.decimals)

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
        unit_words = self.tables.unit(unit) if unit else ""
        line = Line(unit_words or title, tuple(
            Point(label, label, p.value, self.w.with_unit(p.value, p.decimals, unit))
            for label, p in zip(_unique(labels), points, strict=True)))
        spec = checked_spec([line], FEWER_MOMENTS, id=chart_id, kind="line", title=title,
                            x_title=x_title, y_title=unit_words or title, x_kind="ordinal",
                            width=TREND_WIDTH, height=TREND_HEIGHT, rule=rule,
                            locale=self.locale)
        return self.view(spec, [line], x_title, by_commit=all(p.commit for p in points))

    def trend(self, args: Sequence[str], options: dict[str, str]) -> ChartView | None:
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


def _moment(point: SeriesPoint) -> Moment:
    """One point of a history file as a trend draws it."""
    day = point.date.date() if isinstance(point.date, dt.datetime) else point.date
    return Moment(point.commit, day, None, point.value, decimals_of(point.value))


def _numeric(fld: RecordField) -> bool:
    """Whether a field holds numbers."""
    return fld.type in ("number", "whole")


def _unique(labels: list[str]) -> list[str]:
    """Axis labels made distinct (two points of one day): a second one gets ' (2)'."""
    out: list[str] = []
    seen: Counter[str] = Counter()
    for label in labels:
        seen[label] += 1
        out.append(label if seen[label] == 1 else f"{label} ({seen[label]})")
    return out
