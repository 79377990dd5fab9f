"""The benchmarks dashboard, in one language: every series' row and the steps found,
the pages made for it, and each series' page through `detail` (render/seriespage.py).

Everything shown is computed from the model's series and their reports and formatted
by Babel (render/serieswords.py); templates/blocks/dashboard.html and series.html only
lay it out.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from markupsafe import Markup

from progress_site.derive.site import Model
from progress_site.errors import Location, Problem, did_you_mean
from progress_site.load.pages import Page, PageMeta
from progress_site.render.blocklines import Block
from progress_site.render.blocks.options import BlockError
from progress_site.render.i18n import Catalogs
from progress_site.render.markdown import parts
from progress_site.render.places import PagePlace
from progress_site.render.seriespage import series_page
from progress_site.render.serieswords import BETTER, PAGE, STATUS, Row, SeriesWords, series_slug
from progress_site.render.sparkline import sparkline
from progress_site.render.steplist import StepRow, step_row
from progress_site.render.words import Words

if TYPE_CHECKING:  # a site without history renders no series: its analysis stays unloaded
    from progress_site.derive.history import SeriesView
    from progress_site.model.schema import Measurement

SPARK_POINTS = 30  # a row's sparkline: 200 rows stay small (docs/data-format.md)
NAMED = 5  # series pages a warning names before it counts the rest


class Dashboard(SeriesWords):
    """The dashboard's rows and steps in one language, and each series' page (a block
    helper)."""

    def __init__(self, words: Words, model: Model) -> None:
        super().__init__(words, model)
        # A series' row is on the dashboard and heads its own page: made once.
        self.rows: dict[str, Row] = {}

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
        return series_page(self, view, self.row(view))

    def groups(self, group: str | None = None) -> list[tuple[str, list[Row]]]:
        """Each group's rows, groups by name, rows by key."""
        out: dict[str, list[Row]] = {}
        for view in self.series(group):
            out.setdefault(view.series.group, []).append(self.row(view))
        return sorted(out.items())

    def group_title(self, name: str) -> Markup | str:
        """How the dashboard heads a group: its title under `site.groups`, else its name."""
        declared = next((g for g in self.model.data.site.groups if g.id == name), None)
        return self.words.text(declared.title) if declared else name

    def groups_legend(self, groups: list[tuple[str, list[Row]]]) -> list[str]:
        """What the spreads printed in the groups' tables (`groups`) mean."""
        return self.legend(frozenset().union(*(r.spreads for _, rows in groups for r in rows)))

    def steps(self, group: str | None = None) -> list[StepRow]:
        """Every reported step, newest series' steps first by key, oldest step first."""
        return [step_row(self, view, step) for view in self.series(group)
                if view.report is not None for step in view.report.steps]

    def measured_changes(self, shown: Iterable[Measurement]) -> list[str]:
        """Each measurement's change since its previous point (its history file's newest
        two; a `history:` written in YAML ends at the figure, its last point the previous
        one), '' where it has none: the `measurements` table's column, shown when one has it."""
        out = []
        for m in shown:
            view = self.by_id.get(m.id)
            points = view.points if view is not None else ()
            change = self.change(points[-1].value, points[-2].value) if len(points) > 1 else ""
            quantity = self.model.view("measurements", m.id).quantity
            if not change and m.history and quantity is not None and quantity.kind == "value":
                change = self.change(quantity.low, m.history[-1].value.value)
            out.append(change)
        return out

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
            status_class=status_class, spark=sparkline(recent, self.words.ngettext(
                "%(title)s: the last point", "%(title)s: the last %(n)s points",
                len(recent)) % {"title": title, "n": self.count(len(recent))},
                marks=recent_marks),
            chart=Markup(), points=(), spreads=self.kinds((newest,)))


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


def unlinked_series(model: Model, pages: tuple[Page, ...], strict: bool) -> list[Problem]:
    """A warning (an error in --strict) at a content page named `benchmarks`, which takes
    the dashboard's place, when no page of its language shows the dashboard of every
    series: the pages of the others (`benchmarks/ID/`) would be linked from nowhere."""
    problems = []
    for page in pages:
        if page.slug != PAGE or not model.series:
            continue
        groups = shown_groups(p for p in pages if p.language == page.language)
        hidden = [series_slug(v) for v in model.series
                  if groups is not None and v.series.group not in groups]
        if not hidden:
            continue
        more = f" and {len(hidden) - NAMED} more" if len(hidden) > NAMED else ""
        problems.append(Problem(
            Location(page.display, 1, 1),
            "this page takes the place of the benchmarks dashboard, but no page of its "
            f"language shows the dashboard of {len(hidden)} series: their pages are linked "
            f"from nowhere ({', '.join(s + '/' for s in hidden[:NAMED])}{more})",
            hint="place `{{< dashboard >}}` in this page (or in any page; `group=NAME` for "
                 "one group), or give this page another name to keep the dashboard at "
                 f"{PAGE}/", warning=not strict))
    return problems


def unused_group_titles(model: Model, strict: bool) -> list[Problem]:
    """A warning (an error in --strict) at each title of `site.groups` that no series'
    group takes, once there are series: a misspelt id heads nothing, and the dashboard
    shows the bare id."""
    groups = sorted({v.series.group for v in model.series})
    if not groups:  # titles written before the first import: nothing to head yet
        return []
    return [Problem(group.where.of("id"), f"no benchmark series is in the group "
                    f"'{group.id}'", (*group.where.path, "id"),
                    did_you_mean(group.id, groups, "groups with series"), warning=not strict)
            for group in model.data.site.groups if group.id not in groups]


def shown_groups(pages: Iterator[Page]) -> set[str] | None:
    """The groups whose dashboard the pages show; None when one shows every group."""
    groups: set[str] = set()
    for page in pages:
        for part in parts(page):
            if isinstance(part, Block) and part.name == "dashboard":
                group = dict(part.options).get("group")
                if group is None:
                    return None
                groups.add(group)
    return groups
