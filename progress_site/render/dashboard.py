"""The benchmarks dashboard, in one language: every series' row, its steps, its points.

Everything shown is computed here from the model's series and their reports, and
formatted by Babel through `Words`; templates/blocks/dashboard.html only lays it out.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING

from markupsafe import Markup

from progress_site.derive.site import Model
from progress_site.load.pages import Page, PageMeta
from progress_site.model.history import SeriesPoint, decimals_of
from progress_site.render import formatting
from progress_site.render.blocks.options import BlockError
from progress_site.render.i18n import Catalogs
from progress_site.render.places import PagePlace
from progress_site.render.sparkline import sparkline
from progress_site.render.words import N_, Words

if TYPE_CHECKING:  # a site without history renders no series: its analysis stays unloaded
    from progress_site.derive.history import SeriesView
    from progress_site.derive.regressions import Step

PAGE = "benchmarks"  # the dashboard's own page, unless the content has one of that name
# The newest points in a series' table; the page says so and data.json has them all.
# A table of every point would dwarf the chart it repeats, and formatting each row's
# numbers was the largest part of a 100,000-point build (bench/history_scale.py).
SHOWN_POINTS = 20
SPARK_POINTS = 30  # a row's sparkline: 200 rows stay small (docs/data-format.md)
STATUS = {
    "improved": N_("Improved"),
    "regressed": N_("Regressed"),
    "within noise": N_("Within noise"),
    "not enough points": N_("Not enough points"),
    None: N_("Not judged"),
}
BETTER = {"lower": N_("Lower is better"), "higher": N_("Higher is better")}
_COMMIT = attrgetter("commit")


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


@dataclass(frozen=True, slots=True)
class StepRow:
    """One step as the list of steps shows it."""

    slug: str
    title: str
    range: Markup
    ratio: str
    percent: str
    noise: str
    p_value: str
    status: str
    status_class: str


class Dashboard:
    """The dashboard's rows and steps in one language (a block helper)."""

    def __init__(self, words: Words, model: Model) -> None:
        self.words = words
        self.model = model
        self.decimals: dict[str, int] = {}
        self.counts: dict[int, str] = {}
        self.dates: dict[dt.date, str] = {}
        self.short_dates: dict[dt.date, str] = {}
        # A series' row is on the dashboard and heads its own page: made once.
        self.rows: dict[str, Row] = {}
        # A lookup a row, a step and a chart each make: once, not a scan each time.
        self.titles = {m.id: m.title for m in model.data.measurements}
        self.by_id = {v.series.id: v for v in model.series}
        # Commits with a label (a release): marked on charts and in tables.
        self.tags = {c.id: c.label for c in model.data.commits if c.label is not None}

    def series(self, group: str | None) -> tuple[SeriesView, ...]:
        """The series shown: all of them, or those of one group."""
        views = self.model.series
        if group is None:
            return views
        chosen = tuple(v for v in views if v.series.group == group)
        if not chosen:
            known = ", ".join(sorted({v.series.group for v in views})) or "none"
            raise BlockError(f"dashboard: no series in group '{group}' (known: {known})",
                             "name one of those groups, or write {{< dashboard >}} for all; "
                             "a series' group is its measurement's `group:`")
        return chosen

    def href(self, here: PagePlace, slug: str) -> str:
        """A link from the page `here` to a series' page."""
        default = self.model.data.site.languages[0]
        return here.href(PagePlace.of(self.words.lang, slug, default))

    def detail(self, ident: str) -> Row:
        """One series' page: the `series` block."""
        view = self.by_id.get(ident)
        if view is None:
            known = ", ".join(v.series.id for v in self.model.series) or "none"
            raise BlockError(f"no series '{ident}' under data/history/ (known: {known})",
                             "name a measurement that has a history file")
        row = self.row(view)
        shown = view.points[:-SHOWN_POINTS - 1:-1]
        # The newest point's value is the row's, formatted already.
        values = [row.latest, *(self.value(view, p) for p in shown[1:])]
        return dataclasses.replace(
            row, chart=self.chart(view), note=self.left_out(view),
            points=tuple((self.commit(p.commit), self.date(p), p.machine, value)
                         for p, value in zip(shown, values, strict=True)))

    def left_out(self, view: SeriesView) -> str:
        """The note under a table that shows only the newest points, else ''."""
        total = len(view.points)
        if total <= SHOWN_POINTS:
            return ""
        return self.words._("The newest %(shown)s of %(total)s points; data.json holds "
                            "every one.", shown=self.words.number(SHOWN_POINTS),
                            total=self.words.number(total))

    def commit(self, ident: str) -> Markup:
        """A point's commit, linked, with its label when the data gives it one."""
        label = self.tags.get(ident)
        shown = self.words.commit_hash(ident)
        if label is None:
            return shown
        return Markup('{} <span class="tag">{}</span>').format(shown,
                                                              label.get(self.words.lang))

    def chart(self, view: SeriesView) -> Markup:
        """The series' page chart: axes, levels' noise band, steps (render/serieschart.py)."""
        from progress_site.render.serieschart import (
            NARROW,
            ChartText,
            Lazy,
            scale_of,
            series_chart,
        )

        w = self.words
        points = view.points
        steps = view.report.steps if view.report else ()
        unit = view.series.unit
        values = [p.value for p in points]
        # Without its year, a date of another year would read as one of this year; the
        # first and last points say which years there are (loading refuses lines out of
        # date order).
        day = (self.short_date if self.day(points[0]).year == self.day(points[-1]).year
               else self.long_date)
        desc = self.describe(view, values, day)
        for step in steps:
            desc += " " + w._("Step of %(percent)s between commits %(a)s and %(b)s.",
                              percent=self.percent(step), a=step.last_before,
                              b=step.first_after)
        text = ChartText(
            title=w._("%(title)s: every point", title=self.title(view)), desc=desc,
            x_labels=Lazy(len(points), lambda i: day(self.day(points[i]))),
            # Both sizes label the same ticks: each formatted once.
            y_label=functools.cache(lambda v, d: w.with_unit(v, d, unit)),
            step_label=self.percent,
            tags=tuple((i, self.tags[commit].get(w.lang)) for i, commit in self.tagged(view)))
        # Two sizes, one shown per screen: a viewBox scaled down to a phone would make
        # its labels too small to read. Both have the same height: the same levels,
        # ticks and y of each point.
        scale = scale_of(values, steps)
        return series_chart(values, steps, text, scale=scale) + series_chart(
            values, steps, text, NARROW, "narrow", scale)

    def tagged(self, view: SeriesView) -> list[tuple[int, str]]:
        """The series' labelled commits (a release) and their points' indexes, in order."""
        commits = list(map(_COMMIT, view.points))
        # A view's commits are distinct (one machine): each labelled one is found once,
        # looked up among a few labels rather than each point looked up among them.
        return sorted((commits.index(c), c) for c in self.tags.keys() & set(commits))

    def describe(self, view: SeriesView, values: Sequence[float],
                 day: Callable[[dt.date], str]) -> str:
        """The chart's text: its lowest and highest point of all it draws, each with its
        commit and date (the first and last points say nothing of a peak between)."""
        from progress_site.render.serieschart import extremes

        points = view.points
        low, high = extremes(values)
        return self.words._(
            "Lowest %(low)s at commit %(a)s (%(a_day)s), highest %(high)s at commit "
            "%(b)s (%(b_day)s), %(n)s points.",
            low=self.value_only(view, points[low]), a=points[low].commit,
            a_day=day(self.day(points[low])), high=self.value_only(view, points[high]),
            b=points[high].commit, b_day=day(self.day(points[high])),
            n=self.words.number(len(points)))

    def percent(self, step: Step) -> str:
        """`+44.4 %`: a step's change, as this language writes it."""
        return formatting.percent_amount(step.percent, 1, self.words.lang, sign=True)

    def value_only(self, view: SeriesView, point: SeriesPoint) -> str:
        """A point's value in its unit, without its spread."""
        return self.words.with_unit(point.value, self.digits(view), view.series.unit)

    def groups(self, group: str | None = None) -> list[tuple[str, list[Row]]]:
        """Each group's rows, groups by name, rows by key."""
        out: dict[str, list[Row]] = {}
        for view in self.series(group):
            out.setdefault(view.series.group, []).append(self.row(view))
        return sorted(out.items())

    def steps(self, group: str | None = None) -> list[StepRow]:
        """Every reported step, newest series' steps first by key, oldest step first."""
        return [self.step(view, step) for view in self.series(group)
                if view.report is not None for step in view.report.steps]

    def title(self, view: SeriesView) -> str:
        """The measurement's title in this language, or the series' id."""
        found = self.titles.get(view.series.id)
        return found.get(self.words.lang) if found else view.series.id

    def value(self, view: SeriesView, point: SeriesPoint) -> str:
        """A point's value in its unit, with its spread and count when it has them."""
        w = self.words
        unit = view.series.unit
        value = w.with_unit(point.value, self.digits(view), unit)
        if point.spread is not None:
            spread = w.with_unit(point.spread, decimals_of(point.spread), unit)
            value = w._("%(value)s ± %(spread)s", value=value, spread=spread)
        if point.n is not None:
            value = w._("%(value)s (n = %(n)s)", value=value, n=self.count(point.n))
        return value

    def count(self, n: int) -> str:
        """A point's count of readings: formatted once a count (a tool runs every
        benchmark the same number of times, so a table repeats one count)."""
        found = self.counts.get(n)
        if found is None:
            found = self.counts[n] = self.words.number(n)
        return found

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

    def change(self, new: float, old: float) -> str:
        """`+3.1 %`: the change from `old` to `new`."""
        if old == 0:
            return "–"
        return formatting.percent_amount((new / old - 1) * 100, 1, self.words.lang, sign=True)

    def since_previous(self, ident: str) -> str:
        """`+3.1 %`: a measurement's newest point against the one before it, or '' when
        it has no history of two points (the table of the `measurements` block)."""
        view = self.by_id.get(ident)
        if view is None or len(view.points) < 2:
            return ""
        return self.change(view.points[-1].value, view.points[-2].value)

    def status(self, view: SeriesView) -> tuple[str, str]:
        """The series' status in words, and its CSS class."""
        report = view.report
        key = report.status if report is not None else None
        words = self.words._(STATUS[key])
        if report is not None and report.steps and report.steps[-1].status == "pending" \
                and key in ("improved", "regressed"):
            words = self.words._("%(status)s, pending", status=words)
        return words, (key or "not-judged").replace(" ", "-")

    def row(self, view: SeriesView) -> Row:
        """One series' row and section, made once."""
        found = self.rows.get(view.key)
        if found is None:
            found = self.rows[view.key] = self.new_row(view)
        return found

    def new_row(self, view: SeriesView) -> Row:
        """One series' row and section, made now."""
        points = view.points
        newest, values = points[-1], [p.value for p in points]
        status, status_class = self.status(view)
        title = self.title(view)
        marks = [s.index for s in view.report.steps] if view.report else []
        recent = values[-SPARK_POINTS:]
        recent_marks = [m - (len(values) - len(recent)) for m in marks
                        if m >= len(values) - len(recent)]
        return Row(
            slug=series_slug(view), title=title, latest=self.value(view, newest),
            previous=self.change(newest.value, points[-2].value) if len(points) > 1 else "–",
            baseline=self.change(newest.value, points[0].value) if len(points) > 1 else "–",
            better=self.words._(BETTER[view.series.better]), status=status,
            status_class=status_class, spark=sparkline(recent, self.words._(
                "%(title)s: the last %(n)s points", title=title,
                n=self.words.number(len(recent))), marks=recent_marks),
            chart=Markup(), points=())

    def date(self, point: SeriesPoint) -> str:
        """A point's day, as this language writes dates."""
        return self.long_date(self.day(point))

    def long_date(self, day: dt.date) -> str:
        """A day with its year, formatted once a day (every series of a CI run shares
        its dates: 200 series' tables and charts print the same few dozen)."""
        found = self.dates.get(day)
        if found is None:
            found = self.dates[day] = self.words.date(day)
        return found

    def short_date(self, day: dt.date) -> str:
        """A day without its year, formatted once a day (as `long_date`)."""
        found = self.short_dates.get(day)
        if found is None:
            found = self.short_dates[day] = self.words.short_date(day)
        return found

    @staticmethod
    def day(point: SeriesPoint) -> dt.date:
        """A point's day, without its time."""
        day = point.date
        return day.date() if isinstance(day, dt.datetime) else day

    def step(self, view: SeriesView, step: Step) -> StepRow:
        """One step's line."""
        w = self.words
        lang = w.lang
        words, status_class = w._(STATUS[step.status if step.status != "pending" else (
            "regressed" if step.direction == "regression" else "improved")]), step.status
        if step.status == "pending":
            words = w._("%(status)s, pending", status=words)
        span = f"{step.last_before}..{step.first_after}"
        href = w.address(None, "compare", f"{step.last_before}...{step.first_after}")
        code = Markup("<code>{}</code>").format(span)
        shown = Markup('<a href="{}">{}</a>').format(href, code) if href else code
        p_value = (w._("p < %(p)s", p=w.number(0.0001, 4)) if step.p_value < 0.0001
                   else w._("p = %(p)s", p=w.number(step.p_value, 4)))
        return StepRow(
            slug=series_slug(view), title=self.title(view), range=shown,
            ratio=w._("%(ratio)s times", ratio=w.number(step.ratio, 2)),
            percent=self.percent(step),
            noise=formatting.percent_amount(step.noise * 100, 1, lang),
            p_value=p_value, status=words, status_class=status_class)



def dashboard_pages(model: Model, pages: tuple[Page, ...], catalogs: Catalogs
                    ) -> tuple[Page, ...]:
    """`benchmarks` in each language, holding the dashboard, when the data has series
    and the content has no page of that name."""
    if not model.series:
        return ()
    taken = {(p.language, p.slug) for p in pages}
    languages = model.data.site.languages
    board = tuple(
        Page(lang, PAGE, PageMeta(title=catalogs.translations[lang].gettext("Benchmarks")),
             "{{< dashboard >}}\n", 1, "data/history")
        for lang in languages if (lang, PAGE) not in taken)
    titles = {m.id: m.title for m in model.data.measurements}
    return board + tuple(
        Page(lang, series_slug(v), PageMeta(title=titles[v.series.id].get(lang)),
             f"{{{{< series {v.series.id} >}}}}\n", 1, v.series.file)
        for lang in languages for v in model.series)


def series_slug(view: SeriesView) -> str:
    """Where a series' own page is: `benchmarks/ID`."""
    return f"{PAGE}/{view.series.id}"
