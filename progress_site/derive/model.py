"""Derive stage: the `Model` that templates read, and `derive()`, which builds it.

The views of every record (views.py) come first; the names texts cite are built from
them (namespace.py); then headlines, which cite those names, and every reference in a
text is computed once (evaluation.py). Nothing here depends on the language: numbers
stay numbers until the render stage formats them.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass

from progress_site.derive.evaluation import evaluate
from progress_site.derive.expressions import ExpressionError
from progress_site.derive.namespace import REFERENCE, Namespace, texts
from progress_site.derive.quantity import Quantity
from progress_site.derive.views import (
    BudgetView,
    FigureView,
    HeadlineView,
    RoadmapView,
    StudyView,
    all_figures,
    check_budget_units,
    check_controls,
    compare,
    derive_budget,
    derive_roadmap,
    freshness,
    view_figure,
)
from progress_site.errors import Problem
from progress_site.model.links import unsafe_links
from progress_site.model.schema import Data, Figure, Headline
from progress_site.model.values import problem


@dataclass(frozen=True, slots=True)
class Model:
    """Everything the templates read: the data and all that was derived from it."""

    data: Data
    studies: tuple[StudyView, ...]
    budgets: tuple[BudgetView, ...]
    roadmaps: tuple[RoadmapView, ...]
    headlines: tuple[HeadlineView, ...]
    figures: dict[int, FigureView]  # by id() of the Figure record
    namespace: Namespace
    today: dt.date

    def view(self, figure: Figure) -> FigureView:
        """The derived view of any figure of the data."""
        return self.figures[id(figure)]


def derive(data: Data, today: dt.date) -> tuple[Model, list[Problem]]:
    """The model the templates read, and the problems only derived numbers reveal."""
    rules = freshness(data, today)
    figures = {id(f): view_figure(f, rules) for f in all_figures(data)}
    studies = tuple(
        StudyView(s, tuple(compare(c, figures[id(c.before)], figures[id(c.after)])
                           for c in s.comparisons))
        for s in data.studies)
    budgets = tuple(derive_budget(b, figures) for b in data.budgets)
    roadmaps = tuple(derive_roadmap(r) for r in data.roadmaps)
    problems = check_controls(studies)
    for b in data.budgets:
        problems += check_budget_units(b)
    namespace = Namespace.build(data, studies, budgets, roadmaps, figures)
    headlines, headline_problems = derive_headlines(data.headlines, namespace, figures)
    namespace = namespace.with_headlines(headlines)
    problems += headline_problems
    problems += check_text_references(data, namespace)
    model = Model(data, studies, budgets, roadmaps, headlines, figures, namespace, today)
    return model, problems


def derive_headlines(headlines: tuple[Headline, ...], ns: Namespace,
                     figures: dict[int, FigureView]) -> tuple[tuple[HeadlineView, ...],
                                                              list[Problem]]:
    """Each headline's number; a stated number must agree with what it summarises."""
    views, out = [], []
    for h in headlines:
        view, found = derive_headline(h, ns, figures)
        out += found
        if view is not None:
            views.append(view)
        elif h.value is not None:
            # A refused stated number is still the name texts cite: keep it, so one wrong
            # headline is one error, not one more per text that quotes it.
            stated = Quantity("value", h.value.value, decimals=h.value.decimals)
            ns.add(f"headlines.{h.id}", stated)
    return tuple(views), out


def derive_headline(h: Headline, ns: Namespace, figures: dict[int, FigureView]
                    ) -> tuple[HeadlineView | None, list[Problem]]:
    """One headline: a referenced figure, or a stated value checked against its sources."""
    if (h.figure is None) == (h.value is None):
        return None, [problem(h.where, "figure", "a headline shows either a `figure:` or a "
                              "stated `value:`", "keep one of them")]
    if h.figure is not None:
        target = ns.figure_view(h.figure, figures)
        if target is None:
            return None, [problem(h.where, "figure", f"no figure '{h.figure}'",
                                  ns.hint(h.figure))]
        return HeadlineView(h, target.quantity, h.status or target.status), []
    assert h.value is not None
    stated = Quantity("value", h.value.value, decimals=h.value.decimals)
    if not h.summarises:
        return None, [problem(h.where, "value", "a stated number must name the figures it "
                              "summarises", "add `summarises: [comparisons.ID.ratio, ...]`")]
    sources = []
    for ref in h.summarises:
        q = ns.quantity(ref)
        if q is None or q.kind != "value":
            return None, [problem(h.where, "summarises", f"no number '{ref}'", ns.hint(ref))]
        sources.append(q.low)
    # The stated number may round what it summarises, by half a unit of its last digit.
    slack = 0.5 * 10 ** -h.value.decimals
    low, high = min(sources), max(sources)
    if not low - slack <= h.value.value <= high + slack:
        places = h.value.decimals
        said = ", ".join(f"{ref} = {q:.{places}f}" for ref, q in zip(h.summarises, sources,
                                                                     strict=True))
        fix = (f"state {low:.{places}f}" if f"{low:.{places}f}" == f"{high:.{places}f}"
               else f"state a number between {low:.{places}f} and {high:.{places}f}")
        return None, [problem(h.where, "value", f"the headline states {h.value.value:g} but "
                              f"what it summarises says otherwise: {said}",
                              f"{fix}, or correct the data")]
    status = h.status or "measured"
    return HeadlineView(h, stated, status), []


def check_text_references(data: Data, ns: Namespace) -> list[Problem]:
    """Every `{{ ... }}` in a text of the data names or computes something that exists."""
    out: list[Problem] = []
    for text, scope, where, name in texts(data, "", ns):
        seen: set[str] = set()  # both languages usually cite the same names: report once
        for lang, words in text.by_language:
            if "{" not in words and "]" not in words and "<" not in words:
                continue  # no `{{ name }}`, no `](address)`, `]: address` or `<a:b>`
            found = []
            for match in REFERENCE.finditer(words):
                try:
                    evaluate(match.group(1), ns, scope)
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
    return out
