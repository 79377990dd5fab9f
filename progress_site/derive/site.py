"""Derive stage: the `Model` that templates read, and `derive()`, which builds it.

Nothing here depends on the language: numbers stay numbers until the render stage
formats them. The model is complete when derive returns: later stages only read it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from progress_site.derive.columns import with_columns
from progress_site.derive.evaluation import evaluate
from progress_site.derive.expressions import ExpressionError
from progress_site.derive.formulas import derive_formulas
from progress_site.derive.headlines import derive_headlines
from progress_site.derive.namespace import REFERENCE, Entry, Namespace, texts
from progress_site.derive.passed import left_out, passed, told_by
from progress_site.derive.scopes import scoped
from progress_site.derive.verdicts import check_wordings
from progress_site.derive.views import (
    BudgetView,
    FigureView,
    HeadlineView,
    RoadmapView,
    StudyView,
    check_budget_units,
    check_controls,
    compare,
    derive_budget,
    derive_roadmap,
    freshness,
    view_figure,
)
from progress_site.errors import Problem
from progress_site.model.failed import Failed
from progress_site.model.history import HistorySeries
from progress_site.model.keys import FigureKey, figures
from progress_site.model.links import unsafe_links
from progress_site.model.schema import Data
from progress_site.model.units import BUILTIN_UNITS
from progress_site.model.values import Text, Where, problem

if TYPE_CHECKING:
    from progress_site.derive.history import SeriesView

NONE_FAILED = Failed()


@dataclass(frozen=True, slots=True)
class Model:
    """Everything the templates read: the data and all that was derived from it."""

    data: Data
    studies: tuple[StudyView, ...]
    budgets: tuple[BudgetView, ...]
    roadmaps: tuple[RoadmapView, ...]
    headlines: tuple[HeadlineView, ...]
    figures: Mapping[FigureKey, FigureView]  # every figure of the data, by its key
    namespace: Namespace
    today: dt.date
    # Every text of the data, where it was written and its field's name (`texts`): walked
    # once here for the references, read again by the typed-number lint (render/typed.py).
    texts: tuple[tuple[Text, Where, str], ...]
    series: tuple[SeriesView, ...] = ()  # data/history/: every series and its report

    def view(self, *key: FigureKey | str | int) -> FigureView:
        """The derived view of a figure: by its key, its name (`"measurements.ID"`), or
        the parts of its key (`model.view("measurements", m.id)` in a template)."""
        if len(key) == 1 and isinstance(key[0], FigureKey):
            return self.figures[key[0]]
        if len(key) == 1 and isinstance(key[0], str) and key[0] in self.namespace.figures:
            return self.figures[self.namespace.figures[key[0]]]
        parts = tuple(map(str, key))
        # A page asks for thousands of figures by their parts: found by their name, with
        # no key made (the parts compared: an id may hold a dot).
        named = self.namespace.figures.get(".".join(parts))
        if named is not None and named.parts == parts:
            return self.figures[named]
        return self.figures[FigureKey(parts)]


def derive(data: Data, today: dt.date, history: tuple[HistorySeries, ...] = (),
           failed: Failed = NONE_FAILED) -> tuple[Model, list[Problem]]:
    """The model the templates read, and the problems only derived numbers reveal.
    `failed`: the records validation found errors in (derive reads the data as
    `passed` leaves it, and nothing cites them into a second error)."""
    kept, told = passed(data, failed)
    left = left_out(data, kept, failed)
    data = scoped(kept)
    # Computed columns first: tables, charts and every text read the records complete.
    data, problems = with_columns(data, told)
    rules = freshness(data, today)
    keyed = tuple(figures(data))
    roadmaps = tuple(derive_roadmap(r) for r in data.roadmaps)

    def names_of(views: Mapping[FigureKey, FigureView]) -> Namespace:
        return Namespace.build(data, keyed, views, studies_of(data, views),
                               tuple(derive_budget(b, views) for b in data.budgets), roadmaps,
                               told, left)

    # Derived figures first: comparisons, budgets and every name read them like the rest.
    views, formula_problems = derive_formulas(
        keyed, {k.key: view_figure(k.key, k.figure, rules) for k in keyed}, names_of,
        BUILTIN_UNITS | {u.id for u in data.site.units})
    problems += formula_problems
    told |= told_by(problems, keyed, data.datasets)
    budgets = tuple(derive_budget(b, views) for b in data.budgets)
    # A budget's figure over its limit is over it everywhere it is shown.
    views |= {item.figure.key: item.figure for b in budgets for item in b.items}
    studies = studies_of(data, views)
    problems += (check_controls(studies) + check_wordings(studies)
                 + check_budget_units(data.budgets))
    namespace = Namespace.build(data, keyed, views, studies, budgets, roadmaps, told, left)
    headlines, named, found = derive_headlines(data.headlines, namespace, views)
    namespace = namespace.with_entries(named)
    written = tuple(texts(data))
    computed, found_in_texts = compute_references(written, namespace)
    namespace = dataclasses.replace(namespace, computed=MappingProxyType(computed))
    problems += found + found_in_texts
    series: tuple[SeriesView, ...] = ()
    if history:  # most sites have none: the analysis and its statistics load only here
        from progress_site.derive.history import check_claims, derive_series

        series = derive_series(history)
        problems += check_claims(data.headlines, series)
    model = Model(data, studies, budgets, roadmaps, headlines, MappingProxyType(views),
                  namespace, today, written, series)
    return model, problems


def studies_of(data: Data, views: Mapping[FigureKey, FigureView]) -> tuple[StudyView, ...]:
    """Every study with each comparison's ratio, change and checks."""
    return tuple(
        StudyView(s, tuple(compare(c, views[FigureKey(("comparisons", c.id, "before"))],
                                   views[FigureKey(("comparisons", c.id, "after"))])
                           for c in s.comparisons))
        for s in data.studies)


def compute_references(written: tuple[tuple[Text, Where, str], ...], ns: Namespace
                       ) -> tuple[dict[tuple[str, str], Entry], list[Problem]]:
    """What every `{{ ... }}` in the data's texts (`texts`) computes, by (expression,
    scope); and a problem for each that names or computes nothing, or links where it may
    not."""
    out: list[Problem] = []
    computed: dict[tuple[str, str], Entry] = {}
    for text, where, name in written:
        seen: set[str] = set()  # both languages usually cite the same names: report once
        for lang, words in text.by_language:
            if "{" not in words and "]" not in words and "<" not in words:
                continue  # no `{{ name }}`, no `](address)`, `]: address` or `<a:b>`
            found = []
            for match in REFERENCE.finditer(words):
                try:
                    if (match.group(1), text.scope) not in computed:
                        computed[match.group(1), text.scope] = evaluate(
                            match.group(1), ns, text.scope)
                except ExpressionError as exc:
                    found.append((exc.message, exc.hint))
            found += [(f"link to '{url}': {why}", "use an http(s) address or a page of this "
                       "site") for _at, url, why in unsafe_links(words)]
            for message, hint in found:
                if message not in seen:
                    seen.add(message)
                    at = problem(where, name, message, hint)
                    path = at.key_path + ((lang,) if lang != "*" else ())
                    out.append(dataclasses.replace(at, key_path=path))
    return computed, out
