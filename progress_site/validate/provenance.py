"""Figures complete with the provenance of what holds them: a study's machine, date,
method and the commit of each side; a run's machine, date, commit and id.

Validation checks a figure's evidence once it is complete (see validate)."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, TypeVar

from progress_site.model.schema import Data, Figure, Run, Study

R = TypeVar("R")


def renewed(record: R, changes: dict[str, Any]) -> R:
    """`dataclasses.replace`, without running `__init__` again over every field.

    Records are plain frozen dataclasses: `__init__` only stores its arguments, one
    `object.__setattr__` a field (20 for a figure), 22,000 times on a large site.
    """
    cls = type(record)
    if hasattr(cls, "__post_init__") or not hasattr(record, "__dict__"):
        # An __init__ that does more than store (none does today) must run.
        return typing.cast(R, dataclasses.replace(typing.cast(Any, record), **changes))
    new: R = object.__new__(cls)
    new.__dict__.update(record.__dict__, **changes)
    return new


def inherit(fig: Figure, done: dict[int, Figure], **context: Any) -> Figure:
    """The figure with its holder's provenance where it names none of its own (and
    `done` told which figure of the data it completes)."""
    changes = {k: v for k, v in context.items() if v is not None and getattr(fig, k) is None}
    new = renewed(fig, changes) if changes else fig
    done[id(fig)] = new
    return new


def complete_study(study: Study, done: dict[int, Figure]) -> Study:
    """Give a study's figures its machine, date, method and the commit of their side."""
    ctx = {"machine": study.machine, "date": study.date, "method": study.method}
    comps = tuple(renewed(c, {
        "before": inherit(c.before, done, unit=c.unit, commit=study.before.commit, **ctx),
        "after": inherit(c.after, done, unit=c.unit, commit=study.after.commit, **ctx),
    }) for c in study.comparisons)
    return renewed(study, {"comparisons": comps})


def complete_run(run: Run, done: dict[int, Figure]) -> Run:
    """Give a run's figures its machine, date, commit and its own id as their run."""
    ctx = {"machine": run.machine, "date": run.date, "commit": run.commit, "run": run.id}
    items = tuple(renewed(item, {
        "figure": inherit(item.figure, done, **ctx),
        "details": tuple(renewed(d, {"figure": inherit(d.figure, done, **ctx)})
                         for d in item.details),
    }) for item in run.items)
    return renewed(run, {"items": items})


def complete(data: Data, done: dict[int, Figure] | None = None) -> Data:
    """The data with every figure's provenance filled in from what holds it; `done`
    learns, by id() of each figure of `data`, the figure that replaces it."""
    done = {} if done is None else done
    return renewed(data, {
        "studies": tuple(complete_study(s, done) for s in data.studies),
        "runs": tuple(complete_run(r, done) for r in data.runs),
    })
