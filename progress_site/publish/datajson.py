"""`data.json`: the validated data and every number derived from it, for other tools.

Every record is written with all of its fields (null when not given) in the order the
data format declares them, and the records the build derives something from carry it
under `derived`: a figure its key, number and effective status, a comparison its ratio
and change, a budget item its share, a roadmap its counts. A figure's `key` is the name
texts cite it by (`model/keys.py`), and the change summary compares figures by it. Keys
are sorted and nothing depends on the clock, so the same data gives the same bytes.
`data.schema.json` describes the file; it is made from the same declarations
(`model/schema.py`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import json
import types
import typing
from typing import Any, Literal

from progress_site.derive.kinds import KINDS, kind_of
from progress_site.derive.model import Model
from progress_site.derive.quantity import Quantity
from progress_site.model.declare import fields, hints
from progress_site.model.keys import FigureKey, published
from progress_site.model.schema import BudgetItem, Comparison, Data, Figure, Headline, Roadmap, Task
from progress_site.model.values import Number, Text, plain
from progress_site.model.walk import record_fields
from progress_site.publish.regressions import SERIES_SCHEMA, series_json

# Bump when a field is renamed or removed, or its meaning changes; adding one does not.
VERSION = 1
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def quantity(q: Quantity | None) -> dict[str, Any] | None:
    """A derived number: its kind, both ends, decimals shown, unit; and what its kind
    adds (a distribution's parts)."""
    if q is None:
        return None
    return {"kind": q.kind, "low": q.low, "high": q.top, "decimals": q.decimals,
            "unit": q.unit, "signed": q.signed, **kind_of(q).serialised(q)}


def derived_records(model: Model) -> dict[FigureKey, dict[str, Any]]:
    """What the build derived, by the key of the figure or record it belongs to (a
    figure's key is its own; a budget item's figure takes the item's)."""
    out: dict[FigureKey, dict[str, Any]] = {}
    for key, view in model.figures.items():
        out[key] = {"key": str(key), "quantity": quantity(view.quantity),
                    "status": view.status, "stale": view.stale,
                    "inputs": [str(k) for k in view.inputs]}
    for study in model.studies:
        for c in study.comparisons:
            out[c.key] = {
                "key": str(c.key), "ratio": quantity(c.ratio), "change": quantity(c.change),
                "direction": c.direction, "improved": c.improved,
                "within_allowance": c.within_allowance, "within_noise": c.within_noise}
            if c.by_part:  # two distributions: each part both give, compared on its own
                out[c.key]["parts"] = {part: {"ratio": quantity(r), "change": quantity(ch)}
                                       for part, r, ch in c.by_part}
    for roadmap in model.roadmaps:
        out[roadmap.key] = {"key": str(roadmap.key), "done": roadmap.done,
                            "total": roadmap.total}
    for headline in model.headlines:
        out[headline.key] = {"key": str(headline.key), "quantity": quantity(headline.quantity),
                             "status": headline.status}
    return out


def budget_items(model: Model) -> dict[FigureKey, dict[str, Any]]:
    """What the build derived for each budget item (its figure has the same key)."""
    return {item.figure.key: {"share": quantity(item.share), "over": item.over}
            for budget in model.budgets for item in budget.items}


def task_derived(task: Task) -> dict[str, Any]:
    """How many of a task's steps are done: the task's own, it needs no key."""
    return {"steps_done": sum(s.status == "done" for s in task.steps),
            "steps_total": len(task.steps)}


# Where a value is: (the path of what holds it, its field's name or list item's id),
# made in constant time for every value written; `()` at the top.
Path = tuple[Any, ...]


class Writer:
    """Model values as JSON, each record with what was derived for it, found by its key."""

    def __init__(self, model: Model) -> None:
        self.derived, self.items = derived_records(model), budget_items(model)

    def to_json(self, value: Any, path: Path) -> Any:
        """A model value as JSON: records as objects of every field, plus what was derived
        (`path`: the field names and list items' ids that lead to it)."""
        kind = type(value)
        if kind in _AS_IS:  # most values: tested first, by exact type
            return value
        if kind is tuple:
            return [self.to_json(v, (path, str(getattr(v, "id", i))))
                    for i, v in enumerate(value)]
        if isinstance(value, (Text, Number)):
            return plain(value)
        if isinstance(value, dt.date):
            return value.isoformat()
        if not hasattr(kind, "__dataclass_fields__"):
            return value
        out = {}
        for name in record_fields(kind):
            field = getattr(value, name)
            # Most fields are plain values: written as they are, without a path made.
            out[name] = field if type(field) in _AS_IS else self.to_json(field, (path, name))
        if kind in DERIVED:
            out["derived"] = self.derived_of(value, path)
        return out

    def derived_of(self, record: Any, path: Path) -> dict[str, Any] | None:
        """What was derived for the record at `path`."""
        if isinstance(record, Task):
            return task_derived(record)
        parts: list[str] = []
        while path:
            path, name = path
            parts.append(name)
        key = published(tuple(reversed(parts)))
        if key is None:
            return None
        return (self.items if isinstance(record, BudgetItem) else self.derived).get(key)


_AS_IS = frozenset({str, int, float, bool, type(None)})


def data_json(model: Model) -> bytes:
    """The file's bytes: the version, the day the build counted from, every collection."""
    body = Writer(model).to_json(model.data, ())
    document = {"version": VERSION, "today": model.today.isoformat(), **body}
    if model.series:  # a site without history keeps the file it had
        document["series"] = series_json(model)
    # Compact: without `indent`, json uses its C encoder (large sites: see bench/scale.py).
    return (json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                       allow_nan=False) + "\n").encode("utf-8")


# --- its JSON Schema -------------------------------------------------------------------

NULL = {"type": "null"}
QUANTITY: dict[str, Any] = {
    "type": "object", "additionalProperties": False,
    "required": ["kind", "low", "high", "decimals", "unit", "signed"],
    "properties": {"kind": {"enum": [k.name for k in KINDS]},
                   "low": {"type": "number"}, "high": {"type": "number"},
                   "decimals": {"type": "integer", "minimum": 0},
                   "unit": {"type": ["string", "null"]}, "signed": {"type": "boolean"},
                   # What each kind adds (not required: the kinds without it lack it).
                   **{name: prop for k in KINDS for name, prop in k.schema.items()}},
}
MAYBE_QUANTITY = {"anyOf": [{"$ref": "#/$defs/Quantity"}, NULL]}
MAYBE_BOOL = {"type": ["boolean", "null"]}
STATUS = {"enum": ["measured", "watch", "over-limit", "estimate", "not-judgeable"]}


KEY = {"type": "string", "description": "its one name, as texts cite it "
       "(`measurements.ID`, `comparisons.ID.after`), the same in feeds and the change summary"}


def _derived(doc: str, **props: Any) -> dict[str, Any]:
    return {"description": doc, "type": "object", "additionalProperties": False,
            "required": sorted(props), "properties": props}


DERIVED: dict[type, dict[str, Any]] = {
    Figure: _derived("its number, effective status (over-limit is derived) and freshness; "
                     "a derived figure's inputs",
                     key=KEY, quantity={"$ref": "#/$defs/Quantity"}, status=STATUS,
                     stale={"type": "boolean"},
                     inputs={"type": "array", "items": {"type": "string"},
                             "description": "the keys of the figures its formula reads, "
                                            "in the order it names them (none when measured)"}),
    Comparison: _derived("after against before: times smaller or larger, change in %",
                         key=KEY, ratio=MAYBE_QUANTITY, change=MAYBE_QUANTITY,
                         direction={"enum": ["lower", "higher", "same", "unknown"]},
                         improved=MAYBE_BOOL, within_allowance=MAYBE_BOOL,
                         within_noise=MAYBE_BOOL),
    BudgetItem: _derived("its share of the limit, in %, and whether it is over it",
                         share=MAYBE_QUANTITY, over={"type": "boolean"}),
    Roadmap: _derived("how many of its tasks are done", key=KEY, done={"type": "integer"},
                      total={"type": "integer"}),
    Task: _derived("how many of its steps are done", steps_done={"type": "integer"},
                   steps_total={"type": "integer"}),
    Headline: _derived("the number shown and its status",
                       key=KEY, quantity={"$ref": "#/$defs/Quantity"}, status=STATUS),
}

# Only comparisons of two distributions have it: not required.
DERIVED[Comparison]["properties"]["parts"] = {
    "description": "two distributions: the ratio and change of each part both sides give",
    "type": "object", "additionalProperties": {
        "type": "object", "additionalProperties": False, "required": ["change", "ratio"],
        "properties": {"ratio": MAYBE_QUANTITY, "change": MAYBE_QUANTITY}}}

SCALARS: dict[Any, dict[str, Any]] = {
    str: {"type": "string"}, int: {"type": "integer"}, bool: {"type": "boolean"},
    Number: {"type": "number"}, dt.date: {"type": "string", "format": "date"},
    Text: {"$ref": "#/$defs/Text"},
}


def type_schema(tp: Any) -> dict[str, Any]:
    """The schema of one field's value as data.json writes it."""
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        inner = next(a for a in typing.get_args(tp) if a is not type(None))
        return {"anyOf": [type_schema(inner), NULL]}
    if typing.get_origin(tp) is tuple:
        return {"type": "array", "items": type_schema(typing.get_args(tp)[0])}
    if typing.get_origin(tp) is Literal:
        return {"enum": list(typing.get_args(tp))}
    if tp in SCALARS:
        return dict(SCALARS[tp])
    return {"$ref": f"#/$defs/{tp.__name__}"}


def record_schema(cls: type) -> dict[str, Any]:
    """A record: every declared field, always present; `derived` where the build adds it."""
    props = {f.name: {**type_schema(hints(cls)[f.name]), "description": f.metadata["doc"]}
             for f in fields(cls)}
    if cls in DERIVED:
        props["derived"] = DERIVED[cls]
    return {"type": "object", "additionalProperties": False, "required": sorted(props),
            "properties": props}


def records(cls: type, seen: dict[str, dict[str, Any]]) -> None:
    """Add `cls` and every record class under it to `seen`."""
    if cls.__name__ in seen:
        return
    seen[cls.__name__] = record_schema(cls)
    for f in fields(cls):
        for arg in typing.get_args(hints(cls)[f.name]) or (hints(cls)[f.name],):
            for inner in typing.get_args(arg) or (arg,):
                if dataclasses.is_dataclass(inner) and inner not in SCALARS:
                    records(typing.cast(type, inner), seen)


def data_schema() -> dict[str, Any]:
    """The JSON Schema of data.json."""
    defs: dict[str, dict[str, Any]] = {}
    records(Data, defs)
    top = defs.pop("Data")
    top["properties"] |= {"version": {"const": VERSION, "description": "the file's format"},
                          "today": {"type": "string", "format": "date",
                                    "description": "the day ages and staleness count from"}}
    top["required"] = sorted(top["properties"])
    top["properties"]["series"] = SERIES_SCHEMA
    defs["Quantity"] = QUANTITY
    defs["Text"] = {"anyOf": [{"type": "string"}, {"type": "object",
                                                   "additionalProperties": {"type": "string"}}],
                    "description": "one text for every language, or one per language; "
                                   "{{ references }} are left as written"}
    return {"$schema": DIALECT, "title": "progress-site data.json",
            "description": "The validated data of a progress site and what the build "
                           "derived from it.", **top, "$defs": dict(sorted(defs.items()))}


@functools.cache  # it depends on the code only: once a process (watch mode rebuilds)
def data_schema_json() -> bytes:
    """The schema's bytes, made from the record classes."""
    return (json.dumps(data_schema(), sort_keys=True, indent=1, ensure_ascii=False)
            + "\n").encode("utf-8")
