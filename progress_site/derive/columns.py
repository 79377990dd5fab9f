"""Computed columns: a dataset's fields with a `formula:`, worked out for every record.

    fields:
      - {name: cargo, label: cargo test, unit: s}
      - {name: nextest, label: nextest, unit: s}
      - {name: speedup, label: Speed-up, formula: cargo / nextest, decimals: 2}

A formula is a statement of the expression language (`expressions`), computed by its
evaluator (`evaluation`) once a record, with the record's numbers as the only names it
may cite; nothing else computes it. The record then holds the result like any other
field, so tables print it per language, charts draw it and texts cite it
(`suites[project=tokio].speedup`), all from this one computation. A formula may use
another computed field (they are worked out in the order they need), never itself
through others. A record that lacks a number the formula needs (a note says why) lacks
the result too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from types import MappingProxyType

from progress_site.derive.evaluation import evaluate
from progress_site.derive.expressions import ExpressionError, names, nodes, parse
from progress_site.derive.namespace import Namespace
from progress_site.derive.quantity import Quantity
from progress_site.derive.selection import NUMERIC, no_field
from progress_site.errors import Problem
from progress_site.model.dataset import Dataset, RecordField, Row
from progress_site.model.schema import Data
from progress_site.model.values import Number, problem


def with_columns(data: Data, told: Collection[str] = ()) -> tuple[Data, list[Problem]]:
    """The data with every dataset's computed fields filled in, and what went wrong; but
    those of the datasets `told` (their declaration has an error, told as it loaded)."""
    if not any(fld.formula for ds in data.datasets for fld in ds.fields):
        return data, []  # most sites: nothing to compute
    problems: list[Problem] = []
    datasets = []
    for ds in data.datasets:
        computed, found = computed_dataset(ds) if ds.id not in told else (ds, [])
        datasets.append(computed)
        problems += found
    return dataclasses.replace(data, datasets=tuple(datasets)), problems


def computed_dataset(ds: Dataset) -> tuple[Dataset, list[Problem]]:
    """One dataset with its computed fields filled in for every record."""
    formulas = {fld.name: fld for fld in ds.fields if fld.formula is not None}
    if not formulas:
        return ds, []
    order, problems = ordered(ds, formulas)
    if problems:
        return ds, problems
    rows = []
    units: dict[str, str] = {}
    for row in ds.rows:
        values = dict(row.values)
        for fld in order:
            result = computed(ds, fld, values, row)
            if isinstance(result, Problem):
                if result not in problems:  # a formula's own problem, said once
                    problems.append(result)
            elif result is not None:
                values[fld.name] = Number(result.low, result.decimals if fld.decimals is None
                                          else fld.decimals)
                if result.unit:
                    units.setdefault(fld.name, result.unit)
        rows.append(dataclasses.replace(row, values=values))
    # A computed field without a unit of its own takes its formula's (`change()`: %).
    fields = tuple(dataclasses.replace(f, unit=units[f.name])
                   if f.formula and f.unit is None and f.name in units else f
                   for f in ds.fields)
    return dataclasses.replace(ds, fields=fields, rows=tuple(rows)), problems


def ordered(ds: Dataset, formulas: Mapping[str, RecordField]
            ) -> tuple[list[RecordField], list[Problem]]:
    """The computed fields in an order where each comes after those it uses; a formula
    that does not parse, names what is not a number field, or goes round, is a problem."""
    declared = {fld.name: fld for fld in ds.fields}
    uses: dict[str, list[str]] = {}
    problems = []
    for name, fld in formulas.items():
        try:
            uses[name] = names_in(fld.formula or "")
        except ExpressionError as exc:
            problems.append(_at_formula(fld, exc.message, exc.hint))
            continue
        for used in uses[name]:
            if used not in declared:
                missing = no_field(ds, used)
                problems.append(_at_formula(fld, missing.message, missing.hint))
            elif declared[used].type not in NUMERIC:
                problems.append(_at_formula(fld, f"{used} is a {declared[used].type} field, "
                                            "not a number", "a formula computes with the "
                                            "record's number and whole fields"))
    if problems:
        return [], problems
    order: list[RecordField] = []
    for name in formulas:
        circle = _place(name, formulas, uses, order, [])
        if circle:
            return [], [_at_formula(formulas[name], "the formulas of " + " -> ".join(circle)
                                    + " go round in a circle", "compute one of them from "
                                    "fields the records give")]
    return order, []


def _place(name: str, formulas: Mapping[str, RecordField], uses: Mapping[str, list[str]],
           order: list[RecordField], path: list[str]) -> list[str]:
    """Put `name` in `order` after the computed fields it uses (depth first, a field's
    formulas at most a handful deep); the circle, if it goes round one."""
    if name in path:
        return [*path[path.index(name):], name]
    if formulas[name] in order:
        return []
    for used in uses[name]:
        if used in formulas:
            circle = _place(used, formulas, uses, order, [*path, name])
            if circle:
                return circle
    order.append(formulas[name])
    return []


def names_in(formula: str) -> list[str]:
    """Every name a formula cites, once each; a selection of a dataset is refused."""
    tree = parse(formula)
    for node, _ in nodes(tree):
        if node.kind == "select":
            raise ExpressionError("a formula computes from its own record's fields, not "
                                  f"from a selection of {node.parts[0]}", "name the fields "
                                  "alone: cargo / nextest", node.offset)
    return list(dict.fromkeys(name for name, _ in names(tree)))


def computed(ds: Dataset, fld: RecordField, values: Mapping[str, object], row: Row
             ) -> Quantity | Problem | None:
    """A computed field's number for one record: None when the record lacks a number
    the formula uses, a problem (at the record) when it cannot be computed."""
    declared = {f.name: f for f in ds.fields}
    entries = {}
    for name, value in values.items():
        if isinstance(value, Number):  # with the decimals its column prints
            decimals = declared[name].decimals
            entries[name] = Quantity("value", value.value, unit=declared[name].unit,
                                     decimals=value.decimals if decimals is None else decimals)
    formula = fld.formula or ""
    cited = names_in(formula)
    if any(name not in entries for name in cited):
        return None
    ns = Namespace(MappingProxyType(entries), MappingProxyType({}))
    try:
        result = evaluate(formula, ns)
    except ExpressionError as exc:
        given = ", ".join(f"{n}={entries[n].low:g}" for n in cited)
        return problem(row.where, fld.name, f"{fld.name} = {formula}: {exc.message} ({given})",
                       "correct the record, or leave its numbers out with a `note` that says "
                       "why")
    if not isinstance(result, Quantity) or result.kind != "value":
        return _at_formula(fld, "gives a range, not one number", "compute one number: "
                           "cargo / nextest, ratio(a, b), change(a, b)")
    return result


def _at_formula(fld: RecordField, message: str, hint: str = "") -> Problem:
    """A problem at a field's formula."""
    return problem(fld.where, "formula", message, hint)
