"""The `chart` block: a chart of a dataset, in one language (trends: trends.py).

    {{< chart DATASET x=F y=F series=F kind=line rule=50 title="..." id=... zero=no >}}

A chart draws one line (or one group of bars) per value of `series`, from every record
that gives `y`. It comes with a sentence that says what it shows, computed from the
points it draws (the lowest and the highest), and with those numbers as a table
(chartview.py). The SVG comes from one `ChartCache` per build, made on the first chart,
so a build without charts never touches it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from progress_site.render.blocks.chartview import ChartView, chart_locale, chart_view
from progress_site.render.blocks.lines import Line, Point, check_counts, checked_spec, repeated
from progress_site.render.blocks.options import BlockError, Options
from progress_site.render.blocks.tables import Tables, plain
from progress_site.render.blocks.trends import Trends

if TYPE_CHECKING:
    from progress_site.charts.cache import ChartCache
    from progress_site.derive.site import Model
    from progress_site.derive.views import ComparisonView
    from progress_site.model.dataset import Dataset, RecordField, Row
    from progress_site.model.schema import Study


V = TypeVar("V", bound="ChartView | None")


class Charts:
    """The chart blocks of one language."""

    def __init__(self, model: Model, tables: Tables, cache: ChartCache) -> None:
        self.model, self.tables, self.cache = model, tables, cache
        self.w = tables.w
        self.trends = Trends(model, tables, cache)

    def trend(self, args: Sequence[str], options: dict[str, str]) -> ChartView | None:
        """The `trend` block (trends.py): it takes no options."""
        return self.kept(("trend", tuple(args)), lambda: self.trends.trend(args))

    def comparison_trend(self, c: ComparisonView, study: Study) -> ChartView | None:
        """A comparison's trend, as its card shows it (trends.py)."""
        return self.kept(("comparison", study.id, c.comparison.id),
                         lambda: self.trends.comparison_trend(c, study))

    def chart(self, args: Sequence[str], options: dict[str, str]) -> ChartView:
        """The `chart` block."""
        return self.kept(("chart", tuple(args), tuple(options.items())),
                         lambda: self.drawn_chart(args, options))

    def kept(self, call: tuple[Hashable, ...], make: Callable[[], V]) -> V:
        """What a block's `call` shows in this language, worked out once a build: the
        charts a build asks for before its pages (`render/drawings.py`) are shown there
        as asked. A view that stood in for a chart missing then is worked out again."""
        key = (self.w.lang, *call)
        try:
            found: V | None = self.cache.shown.get(key)
        except TypeError:  # a site's own template called it with a list or a mapping
            return make()
        if found is None:
            missing = len(self.cache.missing)
            found = make()
            if found is not None and len(self.cache.missing) == missing:
                self.cache.shown[key] = found
        return found

    def drawn_chart(self, args: Sequence[str], options: dict[str, str]) -> ChartView:
        """The `chart` block, worked out."""
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
            locale=chart_locale(self.w))
        return chart_view(self.w, self.cache, spec, lines, self.tables.header(x))

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

    def printed(self, fld: RecordField, value: Any) -> str:
        """A record's number with its unit (`47.83 ms`)."""
        decimals = fld.decimals if fld.decimals is not None else value.decimals
        return self.w.with_unit(float(value), decimals, fld.unit)


def _numeric(fld: RecordField) -> bool:
    """Whether a field holds numbers."""
    return fld.type in ("number", "whole")
