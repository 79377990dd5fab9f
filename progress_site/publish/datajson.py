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
import io
import json
import types
import typing
from collections.abc import Iterator
from typing import Any, Literal

from progress_site.derive.kinds import KINDS, kind_of
from progress_site.derive.quantity import Quantity
from progress_site.derive.site import Model
from progress_site.derive.views import (
    BudgetItemView,
    ComparisonView,
    FigureView,
    HeadlineView,
    RoadmapView,
)
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


def figure_derived(view: FigureView) -> dict[str, Any]:
    """What was derived for a figure: its key, number, effective status, inputs."""
    return {"key": str(view.key), "quantity": quantity(view.quantity), "status": view.status,
            "stale": view.stale, "inputs": [str(k) for k in view.inputs]}


def comparison_derived(c: ComparisonView) -> dict[str, Any]:
    """What was derived for a comparison: its ratio, change and verdicts."""
    out = {"key": str(c.key), "ratio": quantity(c.ratio), "change": quantity(c.change),
           "direction": c.direction, "improved": c.improved,
           "within_allowance": c.within_allowance, "within_noise": c.within_noise}
    if c.by_part:  # two distributions: each part both give, compared on its own
        out["parts"] = {part: {"ratio": quantity(r), "change": quantity(ch)}
                        for part, r, ch in c.by_part}
    return out


def roadmap_derived(roadmap: RoadmapView) -> dict[str, Any]:
    """How many of a roadmap's tasks are done."""
    return {"key": str(roadmap.key), "done": roadmap.done, "total": roadmap.total}


def headline_derived(headline: HeadlineView) -> dict[str, Any]:
    """A headline's number and status."""
    return {"key": str(headline.key), "quantity": quantity(headline.quantity),
            "status": headline.status}


def item_derived(item: BudgetItemView) -> dict[str, Any]:
    """A budget item's share of its limit, and whether it is over it."""
    return {"share": quantity(item.share), "over": item.over}


Derivable = FigureView | ComparisonView | RoadmapView | HeadlineView


def derived_views(model: Model) -> dict[FigureKey, Derivable]:
    """The view each record's `derived` is made from, by the key of the figure or record
    it belongs to (a figure's key is its own), made JSON only as it is written."""
    out: dict[FigureKey, Derivable] = dict(model.figures)
    out.update((c.key, c) for study in model.studies for c in study.comparisons)
    out.update((roadmap.key, roadmap) for roadmap in model.roadmaps)
    out.update((headline.key, headline) for headline in model.headlines)
    return out


def derived_json(view: Derivable) -> dict[str, Any]:
    """A view's `derived`, as its kind of record writes it."""
    if isinstance(view, FigureView):
        return figure_derived(view)
    if isinstance(view, ComparisonView):
        return comparison_derived(view)
    if isinstance(view, RoadmapView):
        return roadmap_derived(view)
    return headline_derived(view)


def budget_items(model: Model) -> dict[FigureKey, BudgetItemView]:
    """Each budget item's view, by its key (its figure has the same key)."""
    return {item.figure.key: item for budget in model.budgets for item in budget.items}


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
        self.derived, self.items = derived_views(model), budget_items(model)

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
        if isinstance(record, BudgetItem):
            item = self.items.get(key)
            return None if item is None else item_derived(item)
        view = self.derived.get(key)
        return None if view is None else derived_json(view)


_AS_IS = frozenset({str, int, float, bool, type(None)})


def data_json(model: Model) -> bytes:
    """The file's bytes: the version, the day the build counted from, every collection."""
    writer = Writer(model)
    document: dict[str, Any] = {"version": VERSION, "today": model.today.isoformat(),
                                **{name: Collection(writer, getattr(model.data, name), name)
                                   for name in record_fields(Data)}}
    if model.series:  # a site without history keeps the file it had
        document["series"] = series_json(model)
    out = io.BytesIO()  # grown in place: no list of every piece, no copy at the end
    for chunk in chunks(document):
        out.write(chunk)
    out.write(b"\n")
    return out.getvalue()


@dataclasses.dataclass(frozen=True, slots=True)
class Collection:
    """A field of the data, made JSON one record at a time as it is written."""

    writer: Writer
    value: Any
    name: str

    def records(self) -> Iterator[Any]:
        """Its records as JSON, in order; a field that is not a list as one value."""
        if type(self.value) is not tuple:
            yield self.writer.to_json(self.value, ((), self.name))
            return
        for i, record in enumerate(self.value):
            yield self.writer.to_json(record, (((), self.name), str(getattr(record, "id", i))))


def dumped(value: Any) -> bytes:
    """One value as compact JSON, keys sorted: what `json.dumps` of the whole document
    writes for it. Compact: without `indent`, json uses its C encoder."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def chunks(document: dict[str, Any]) -> Iterator[bytes]:
    """The document's bytes, its collections a record at a time: the JSON of a large
    site's every record never exists at once, nor the whole file as text."""
    yield b"{"
    for i, name in enumerate(sorted(document)):
        value = document[name]
        yield (b"," if i else b"") + dumped(name) + b":"
        if not isinstance(value, Collection):
            yield dumped(value)
        elif type(value.value) is not tuple:
            yield from (dumped(v) for v in value.records())
        else:
            yield b"["
            for j, record in enumerate(value.records()):
                yield (b"," if j else b"") + dumped(record)
            yield b"]"
    yield b"}"


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


def _derived(doc: str, optional: dict[str, Any] | None = None, **props: Any) -> dict[str, Any]:
    """The schema of a record's derived numbers: `props` always there, `optional` may be."""
    return {"description": doc, "type": "object", "additionalProperties": False,
            "required": sorted(props), "properties": props | (optional or {})}


# Only comparisons of two distributions have it: not required.
PARTS = {
    "description": "two distributions: the ratio and change of each part both sides give",
    "type": "object", "additionalProperties": {
        "type": "object", "additionalProperties": False, "required": ["change", "ratio"],
        "properties": {"ratio": MAYBE_QUANTITY, "change": MAYBE_QUANTITY}}}


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
                         within_noise=MAYBE_BOOL, optional={"parts": PARTS}),
    BudgetItem: _derived("its share of the limit, in %, and whether it is over it",
                         share=MAYBE_QUANTITY, over={"type": "boolean"}),
    Roadmap: _derived("how many of its tasks are done", key=KEY, done={"type": "integer"},
                      total={"type": "integer"}),
    Task: _derived("how many of its steps are done", steps_done={"type": "integer"},
                   steps_total={"type": "integer"}),
    Headline: _derived("the number shown and its status",
                       key=KEY, quantity={"$ref": "#/$defs/Quantity"}, status=STATUS),
}

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
