"""The list of steps, in one language: each step found in a series, as the dashboard
and the regressions feed show it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from markupsafe import Markup

from progress_site.derive.cuts import Settings
from progress_site.derive.quantity import significant_decimals
from progress_site.render import formatting
from progress_site.render.serieswords import STATUS, SeriesWords, series_slug

if TYPE_CHECKING:  # a site without history renders no series: its analysis stays unloaded
    from progress_site.derive.history import SeriesView
    from progress_site.derive.regressions import Step
    from progress_site.render.words import Words

ALPHA = Settings().alpha  # the commits' test a step passes (docs/regressions.md)


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


def step_row(board: SeriesWords, view: SeriesView, step: Step) -> StepRow:
    """One step's line."""
    w = board.words
    lang = w.lang
    words, status_class = w._(STATUS[step.status if step.status != "pending" else (
        "regressed" if step.direction == "regression" else "improved")]), step.status
    if step.status == "pending":
        words = w._("%(status)s, pending", status=words)
    span = f"{step.last_before}..{step.first_after}"
    href = w.address(None, "compare", f"{step.last_before}...{step.first_after}")
    code = Markup("<code>{}</code>").format(span)
    shown = Markup('<a href="{}">{}</a>').format(href, code) if href else code
    p_value = rank_test(w, step)
    return StepRow(
        slug=series_slug(view), title=board.title(view), range=shown,
        # Three significant digits, as a study's ratio prints: "1,237.32 times" told
        # more than a step between two levels of noisy commits knows.
        ratio=w._("%(ratio)s\u00a0times",
                  ratio=w.number(step.ratio, significant_decimals(step.ratio))),
        percent=board.percent(step),
        noise=formatting.percent_amount(step.noise * 100, 1, lang),
        p_value=p_value, status=words, status_class=status_class)


def rank_test(w: Words, step: Step) -> str:
    """The p-value that let the step through: the commits' rank test's, or, where a short
    history's commits cannot pass it and their levels stood apart, their readings' (a
    step that passed by its readings read "p = 0.5000" beside "Regressed")."""
    p, readings = step.p_value, False
    if p >= ALPHA and step.samples_p_value is not None:
        p, readings = step.samples_p_value, True
    shown = (w._("p\u00a0<\u00a0%(p)s", p=w.number(0.0001, 4)) if p < 0.0001
             else w._("p\u00a0=\u00a0%(p)s", p=w.number(p, 4)))
    return w._("%(p)s (readings)", p=shown) if readings else shown
