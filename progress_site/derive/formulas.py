"""Derived figures: a figure's `formula:` computed from other figures, in dependency order.

A formula is an expression of the `{{ ... }}` language (expressions.py), read in its
figure's neighbourhood: the parent of its key is its scope, so a measurement names the
other measurements by their ids (`requests / seconds`) and a comparison's side the other
side (`before * 2`). Its inputs are the figures the names it cites belong to (a ratio
belongs to both sides of its comparison, a share to its budget item). Formulas are
computed in the order of their inputs (graphlib), a generation at a time, each against
the names of every figure computed before it; a cycle is one error, at one formula of
it. A derived figure is as sure as its least sure input: any not judgeable makes it not
judgeable, else any estimate an estimate, else any to watch to watch, else measured.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from graphlib import CycleError, TopologicalSorter

from progress_site.derive.evaluation import evaluate
from progress_site.derive.expressions import ExpressionError, Node, names, parse
from progress_site.derive.formula_units import unit_problem
from progress_site.derive.namespace import Namespace
from progress_site.derive.quantity import Quantity
from progress_site.derive.views import EffectiveStatus, FigureView
from progress_site.errors import Problem
from progress_site.model.figure import Figure
from progress_site.model.keys import FigureKey, Keyed
from progress_site.model.values import problem, text_problem

# The names every figure computed so far gives (site.py makes them from the views).
Names = Callable[[Mapping[FigureKey, FigureView]], Namespace]
# The statuses from the surest to the least sure; over the limit is measured.
BY_SURENESS: tuple[EffectiveStatus, ...] = ("measured", "watch", "estimate", "not-judgeable")


@dataclass(frozen=True, slots=True)
class Formula:
    """A derived figure as written: its key, figure, parse tree, scope and inputs."""

    key: FigureKey
    figure: Figure
    tree: Node
    scope: str
    inputs: tuple[FigureKey, ...]


def derive_formulas(keyed: tuple[Keyed, ...], views: dict[FigureKey, FigureView],
                    names_of: Names, units: Collection[str]
                    ) -> tuple[dict[FigureKey, FigureView], list[Problem]]:
    """The views with every derived figure computed, and the problems found. A formula
    that fails leaves its figure without a number, and those that read it uncomputed
    (one error, not one more per formula downstream)."""
    formulas, out = read_formulas(keyed)
    if not formulas:
        return views, out
    graph = {k: [i for i in f.inputs if i in formulas] for k, f in formulas.items()}
    failed: set[FigureKey] = {k.key for k in keyed if k.figure.formula is not None} - set(
        formulas)
    sorter, cycles = ordered(graph, list(formulas))
    out += [cycle_problem(formulas, cycle) for cycle in cycles]
    failed |= {k for cycle in cycles for k in cycle}
    views = dict(views)
    while sorter.is_active():
        given = set(sorter.get_ready())
        ready = [k for k in formulas if k in given]  # in the order of the data
        ns = names_of(views)
        for key in ready:
            formula = formulas[key]
            if failed & set(formula.inputs):
                failed.add(key)
                continue
            try:
                views[key] = computed(formula, ns, views)
            except ExpressionError as exc:
                failed.add(key)
                out.append(at_formula(formula.figure, exc))
            else:
                found = unit_problem(formula.figure, formula.tree, ns, formula.scope, units)
                out += [found] if found else []
        sorter.done(*ready)
    return views, out


def read_formulas(keyed: tuple[Keyed, ...]) -> tuple[dict[FigureKey, Formula], list[Problem]]:
    """Every figure with a formula that parses, by key, in the order of the data; a
    problem for each that does not, or names no figure."""
    known = {str(k.key): k.key for k in keyed if k.named}
    formulas, out = {}, []
    for k in keyed:
        source = k.figure.formula
        if source is None:
            continue
        try:
            tree = parse(source)
        except ExpressionError as exc:
            out.append(at_formula(k.figure, exc))
            continue
        cited = names(tree)
        if not cited and "[" not in source:
            out.append(problem(k.figure.where, "formula", f"the formula '{source}' names "
                               "no figure", "a formula computes from other figures "
                               "(`measurements.ID`); a number of your own goes in `value:`"))
            continue
        scope = str(k.key.parent) if k.key.parent else ""
        inputs = dict.fromkeys(key for name, _ in cited
                               for key in figure_keys(name, scope, known))
        formulas[k.key] = Formula(k.key, k.figure, tree, scope, tuple(inputs))
    return formulas, out


def at_formula(fig: Figure, exc: ExpressionError) -> Problem:
    """The problem of a formula, at the character where it is."""
    return text_problem(fig.where, "formula", fig.formula or "", exc.offset, exc.message,
                        exc.hint)


def figure_keys(name: str, scope: str, known: Mapping[str, FigureKey]) -> tuple[FigureKey, ...]:
    """The figures a cited name belongs to: the figure it names or a part of (`.value`,
    `.share`), or both sides of a comparison for its ratio and change; none for a
    dataset, a roadmap's count or an unknown name (evaluation reports that one)."""
    for candidate in ((f"{scope}.{name}", name) if scope else (name,)):
        parts = candidate.split(".")
        for end in range(len(parts), 1, -1):
            found = known.get(".".join(parts[:end]))
            if found is not None:
                return (found,)
        if parts[0] == "comparisons" and parts[-1] in ("ratio", "change"):
            sides = [known.get(".".join([*parts[:-1], side])) for side in ("before", "after")]
            if all(sides):
                return tuple(s for s in sides if s is not None)
    return ()


def ordered(graph: dict[FigureKey, list[FigureKey]], order: list[FigureKey]
            ) -> tuple[TopologicalSorter[FigureKey], list[list[FigureKey]]]:
    """A sorter over the formulas, prepared, and every cycle found (its formulas taken
    out of the graph, so the others are still computed)."""
    cycles: list[list[FigureKey]] = []
    while True:
        sorter = TopologicalSorter(graph)
        try:
            sorter.prepare()
        except CycleError as exc:
            cycle = list(exc.args[1][:-1])
            # Told from the member written first, so the message is the same every build.
            start = min(cycle, key=order.index)
            at = cycle.index(start)
            cycles.append(cycle[at:] + cycle[:at])
            graph = {k: [i for i in v if i not in cycle] for k, v in graph.items()
                     if k not in cycle}
            continue
        return sorter, cycles


def cycle_problem(formulas: Mapping[FigureKey, Formula], cycle: list[FigureKey]) -> Problem:
    """One error for a cycle of formulas, at the first of them, naming every one."""
    # graphlib gives a cycle against the direction of reading: each reads the one before.
    reads = [cycle[0], *reversed(cycle[1:]), cycle[0]]
    path = " -> ".join(str(k) for k in reads)
    return problem(formulas[cycle[0]].figure.where, "formula",
                   f"the formulas read each other in a cycle: {path}",
                   "one of them must be measured, or computed from other figures")


def computed(formula: Formula, ns: Namespace, views: Mapping[FigureKey, FigureView]
             ) -> FigureView:
    """A derived figure's view: its number, unit, decimals and status, from its inputs."""
    inputs = [views[k] for k in formula.inputs]
    status = sureness(v.status for v in inputs)
    stale = next((v for v in inputs if v.stale), None)
    fig = formula.figure
    if any(v.quantity.kind == "none" for v in inputs):
        # An input without a number (not judgeable): nothing to compute, and nothing to
        # judge either.
        return FigureView(formula.key, fig, Quantity("none"), "not-judgeable",
                          inputs=formula.inputs)
    assert fig.formula is not None
    entry = evaluate(fig.formula, ns, formula.scope)
    # A distribution named alone is its headline (the median, else the mean), as in
    # arithmetic: a study's side may be an imported series' figure.
    if not isinstance(entry, Quantity) or entry.kind not in ("value", "distribution"):
        what = "a commit" if not isinstance(entry, Quantity) else f"a {entry.kind}"
        raise ExpressionError(f"the formula gives {what}, not one number",
                              "a figure's formula computes one number: a count's parts "
                              "(.ok, .of, .share) are numbers")
    quantity = Quantity("value", entry.low, decimals=entry.decimals if fig.decimals is None
                        else fig.decimals, unit=fig.unit or entry.unit, signed=entry.signed)
    return FigureView(formula.key, fig, quantity, status, stale is not None,
                      stale.stale_because if stale else None,
                      stale.stale_reason if stale else None, formula.inputs)


def sureness(statuses: Iterable[EffectiveStatus]) -> EffectiveStatus:
    """The status of what is computed from figures of these statuses."""
    return max(("measured" if s == "over-limit" else s for s in statuses),
               key=BY_SURENESS.index, default="measured")
