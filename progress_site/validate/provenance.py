"""Figures complete with the provenance of what holds them: a study's machine, date,
method and the commit of each side; a run's machine, date, commit and id.

Validation checks a figure's evidence once it is complete (see validate)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from progress_site.model.schema import Data, Figure, Run, Study


def inherit(fig: Figure, **context: Any) -> Figure:
    """The figure with its holder's provenance where it names none of its own."""
    changes = {k: v for k, v in context.items() if v is not None and getattr(fig, k) is None}
    return replace(fig, **changes) if changes else fig


def complete_study(study: Study) -> Study:
    """Give a study's figures its machine, date, method and the commit of their side."""
    ctx = {"machine": study.machine, "date": study.date, "method": study.method}
    comps = tuple(replace(
        c,
        before=inherit(c.before, unit=c.unit, commit=study.before.commit, **ctx),
        after=inherit(c.after, unit=c.unit, commit=study.after.commit, **ctx),
    ) for c in study.comparisons)
    return replace(study, comparisons=comps)


def complete_run(run: Run) -> Run:
    """Give a run's figures its machine, date, commit and its own id as their run."""
    ctx = {"machine": run.machine, "date": run.date, "commit": run.commit, "run": run.id}
    items = tuple(replace(
        item,
        figure=inherit(item.figure, **ctx),
        details=tuple(replace(d, figure=inherit(d.figure, **ctx)) for d in item.details),
    ) for item in run.items)
    return replace(run, items=items)


def complete(data: Data) -> Data:
    """The data with every figure's provenance filled in from what holds it."""
    return replace(data, studies=tuple(complete_study(s) for s in data.studies),
                   runs=tuple(complete_run(r) for r in data.runs))
