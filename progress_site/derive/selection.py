"""A dataset's records selected by the conditions of `{{ ... }}`, and the numbers they give.

A selection (`runs[server=paper].tick`) gives a field's numbers keyed by the records they
come from: by the dataset's `key:` fields the conditions leave open (`bots=1`), else by
each record's place. The evaluator pairs and gathers them by those keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from progress_site.derive.expressions import COMPARE, ExpressionError, Node
from progress_site.errors import did_you_mean
from progress_site.model.dataset import Dataset, Row

Key = tuple[tuple[str, Any], ...]
NUMERIC = ("number", "whole")  # the fields that hold numbers


@dataclass(frozen=True, slots=True)
class Numbers:
    """What an expression computes: numbers keyed by the records they come from."""

    items: tuple[tuple[Key, float], ...]
    decimals: int
    unit: str | None

    @classmethod
    def one(cls, value: float, decimals: int = 0, unit: str | None = None) -> Numbers:
        """A single number, tied to no record: it pairs with every one."""
        return cls((((), value),), decimals, unit)


def records(datasets: Mapping[str, Dataset], node: Node) -> list[Row]:
    """The records a selection (or a dataset's name) matches, for count(): none is a
    count of 0 (the tests that failed), so long as each condition could match."""
    if node.kind == "select":
        return matching(datasets, node.parts[0], node.parts[1], node.offset, counting=True)
    if node.kind == "name" and node.parts[0] in datasets:
        return list(datasets[node.parts[0]].rows)
    raise ExpressionError("count() takes a dataset or a selection", offset=node.offset)


def matching(datasets: Mapping[str, Dataset], name: str, conditions: tuple[Any, ...],
             offset: int, *, counting: bool = False) -> list[Row]:
    """The records of a dataset that meet every condition: one at least, or, `counting`,
    none where each condition alone could match (a choice of its field, or a value some
    record meets): a mistyped value is still an error, not a count of 0."""
    dataset = named(datasets, name, offset)
    rows = list(dataset.rows)
    for field, op, value, at in conditions:
        value = _condition_value(dataset, field, value, at)
        kept = [r for r in rows if r.get(field) is not None
                and COMPARE[op](_plain(r.get(field)), value)]
        if not kept and counting and _could_match(dataset, field, op, value):
            rows = kept
            continue
        if not kept:
            have = [_show(v) for v in sorted({_plain(r.get(field)) for r in rows
                                             if r.get(field) is not None})]
            raise ExpressionError(f"no record of {name} has {field}{op}{_show(value)}"
                                  + (" with the conditions before it"
                                     if len(rows) < len(dataset.rows) else ""),
                                  f"{field} is {', '.join(have) or 'never given'} there",
                                  at)
        rows = kept
    return rows


def select(datasets: Mapping[str, Dataset], name: str, conditions: tuple[Any, ...],
           field: str | None, offset: int) -> Numbers:
    """A field of the matching records, keyed by the key fields left open."""
    dataset = named(datasets, name, offset)
    declared = {f.name: f for f in dataset.fields}
    if field is None:
        raise ExpressionError(f"which field of {name}?", did_you_mean("", declared,
                                                                      "known fields"), offset)
    if field not in declared:
        raise no_field(dataset, field, offset)
    if declared[field].type not in NUMERIC:
        raise ExpressionError(f"{name}.{field} holds words, not numbers", offset=offset)
    rows = matching(datasets, name, conditions, offset)
    pinned = {c[0] for c in conditions if c[1] == "="}
    open_key = [k for k in dataset.key if k not in pinned] if dataset.key else ["#"]
    items = tuple((tuple((k, r.index if k == "#" else _plain(r.get(k))) for k in open_key),
                   float(value)) for r in rows if (value := _number(r.get(field)))
                  is not None)
    if not rows:
        raise ExpressionError(f"{name} has no records", "add them to its records file",
                              offset)
    if not items:
        said = {n.name: n.label.get("en") for n in dataset.notes}  # why a record lacks it
        why = "; ".join(sorted({said.get(r.note or "", "") for r in rows} - {""}))
        key = tuple((k, _plain(rows[0].get(k))) for k in dataset.key)
        which = (f"the record {spell(key)}" if len(rows) == 1 and dataset.key
                 else "no record of that selection")
        raise ExpressionError(f"{which} gives no {field}" + (f" ({why})" if why else ""),
                              offset=offset)
    fld = declared[field]
    decimals = fld.decimals if fld.decimals is not None else max(  # as the records wrote it
        int(getattr(r.get(field), "decimals", 0)) for r in rows)
    return Numbers(items, decimals, fld.unit)


def named(datasets: Mapping[str, Dataset], name: str, offset: int) -> Dataset:
    """A dataset by its id."""
    if name not in datasets:
        raise ExpressionError(f"no dataset '{name}'", did_you_mean(
            name, datasets, "known datasets"), offset)
    return datasets[name]


def no_field(dataset: Dataset, field: str, offset: int = 0) -> ExpressionError:
    """A field the dataset does not declare: a minus without spaces, or a misspelling."""
    declared = [f.name for f in dataset.fields]
    return ExpressionError(f"{dataset.id} has no field '{field}'", "to subtract, put spaces "
                           "around '-'" if field.split("-")[0] in declared else did_you_mean(
                               field, declared, "known fields"), offset)


def _condition_value(dataset: Dataset, field: str, value: Any, offset: int) -> Any:
    """A condition's value, checked against the field it compares."""
    declared = {f.name: f for f in dataset.fields}
    if field not in declared:
        raise ExpressionError(f"{dataset.id} has no field '{field}'",
                              did_you_mean(field, declared, "known fields"), offset)
    fld = declared[field]
    if fld.type in NUMERIC and not isinstance(value, float):
        raise ExpressionError(f"{field} is a number, got '{value}'", offset=offset)
    if fld.type == "bool":
        return value == "true"
    if fld.choices and str(value) not in {c.value for c in fld.choices}:
        raise ExpressionError(f"no {field} '{value}' in {dataset.id}", did_you_mean(
            str(value), [c.value for c in fld.choices], f"known {field}s"), offset)
    return value if fld.type in NUMERIC else str(value)


def _could_match(dataset: Dataset, field: str, op: str, value: Any) -> bool:
    """Whether a condition names a value its field can hold: one of its choices (checked
    by `_condition_value`), or one a record of the dataset meets."""
    if any(f.name == field and (f.choices or f.type == "bool") for f in dataset.fields):
        return True
    return any(r.get(field) is not None and COMPARE[op](_plain(r.get(field)), value)
               for r in dataset.rows)


def _number(value: Any) -> float | None:
    """A record's number as a float; None for a word or a missing value."""
    return None if value is None or isinstance(value, (str, bool)) else float(value)


def _plain(value: Any) -> Any:
    """A record's value as a plain float, word or bool (what conditions compare)."""
    return float(value) if _number(value) is not None else value


def _show(value: Any) -> str:
    """A value as a message writes it: `10`, not `10.0`."""
    return f"{value:g}" if isinstance(value, float) else str(value)


def spell(key: Key) -> str:
    """The records a key names: `bots=1, server=paper`."""
    return ", ".join(f"{k}={_show(v)}" for k, v in key)

