"""Figures complete with the provenance of what holds them: a study's machine, date,
method and the commit of each side (a contender's side has none: its name and version
say what was measured); a run's machine, date, commit and id.

Validation checks a figure's evidence once it is complete (see validate); a study or run
that lacks what its measured figures would take from it is reported once, at the holder
(`check_holders`), rather than once per figure."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from progress_site.errors import Problem
from progress_site.model.figure import Figure
from progress_site.model.keys import FigureKey, figures
from progress_site.model.schema import Data, Run, Study
from progress_site.model.values import problem

# What a measured figure needs and may take from its study or run.
INHERITED = ("machine", "date")


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


def check_holders(data: Data) -> tuple[list[Problem], dict[FigureKey, frozenset[str]]]:
    """One problem for each study or run that lacks a machine or date its measured
    figures need and do not give; and, by figure, what it need not name itself: what was
    reported at its holder, or the commit its side does not have."""
    out: list[Problem] = []
    excused: dict[FigureKey, frozenset[str]] = {}
    holders: tuple[Study | Run, ...] = (*data.studies, *data.runs)
    for holder in holders:
        lacks = [n for n in INHERITED if getattr(holder, n) is None]
        if not lacks:
            continue  # most holders: their figures have all they may take
        kind = "study" if isinstance(holder, Study) else "run"
        found: dict[FigureKey, frozenset[str]] = {}
        for key, fig in held(data, holder):
            missing = frozenset(n for n in lacks if getattr(fig, n) is None)
            if missing and fig.status in ("measured", "watch") and fig.formula is None:
                found[key] = missing
        if found:
            out.append(holder_problem(kind, holder, set().union(*found.values()),
                                      list(found)))
            excused |= found
    for key in commitless(data):
        excused[key] = excused.get(key, frozenset()) | {"commit"}
    return out, excused


def commitless(data: Data) -> list[FigureKey]:
    """The figures of study sides that name no commit: a contender's name and version say
    what was measured, and a side with neither is reported once, at the side."""
    return [FigureKey(("comparisons", c.id, part)) for study in data.studies
            for part, side in (("before", study.before), ("after", study.after))
            if side.commit is None for c in study.comparisons]


def held(data: Data, holder: Study | Run) -> list[tuple[FigureKey, Figure]]:
    """The figures a study or run holds, with their keys (as `keys.figures` makes them)."""
    studies = (holder,) if isinstance(holder, Study) else ()
    runs = (holder,) if isinstance(holder, Run) else ()
    alone = replace(data, measurements=(), profiles=(), budgets=(), studies=studies, runs=runs)
    return [(k.key, k.figure) for k in figures(alone)]


def holder_problem(kind: str, holder: Study | Run, missing: set[str],
                   keys: list[FigureKey]) -> Problem:
    """A study or run without what its figures would take from it, said once."""
    fields = [n for n in INHERITED if n in missing]
    named = " and no ".join(fields)
    them = (f"measured figure needs ({keys[0]})" if len(keys) == 1
            else f"{len(keys)} measured figures need (first: {keys[0]})")
    to_add = " and ".join({"machine": "`machine: ID`", "date": "`date: YYYY-MM-DD`"}[n]
                          for n in fields)
    return problem(holder.where, fields[0], f"the {kind} gives no {named}, which its {them}",
                   f"add {to_add} to the {kind}: its figures take "
                   f"{'it' if len(fields) == 1 else 'them'}; or give each figure its own")
