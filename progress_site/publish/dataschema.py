"""`data.schema.json`: the JSON Schema of data.json, made from the same declarations
as the records it describes (`model/schema.py`), and what the build derives for each."""

from __future__ import annotations

import copy
import datetime as dt
import functools
import json
from typing import Any

from progress_site.derive.kinds import KINDS
from progress_site.model.dataset import Dataset
from progress_site.model.declare import fields, hints, json_schema, record_classes
from progress_site.model.figure import Figure
from progress_site.model.roadmap import Roadmap, Task
from progress_site.model.schema import BudgetItem, Comparison, Data, Headline
from progress_site.model.values import Number, Text
from progress_site.publish.datajson import VERSION
from progress_site.publish.regressions import SERIES_SCHEMA

DIALECT = "https://json-schema.org/draft/2020-12/schema"

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

ROWS = {"description": "its records, in their file's order: each field's value (computed "
                        "fields too) and `note` when the record has one",
        "type": "array", "items": {"type": "object", "additionalProperties": {
            "type": ["string", "number", "boolean"]}}}

SCALARS: dict[Any, dict[str, Any]] = {
    str: {"type": "string"}, int: {"type": "integer"}, bool: {"type": "boolean"},
    Number: {"type": "number"}, dt.date: {"type": "string", "format": "date"},
    Text: {"$ref": "#/$defs/Text"},
}


def type_schema(tp: Any) -> dict[str, Any]:
    """The schema of one field's value as data.json writes it."""
    return json_schema(tp, SCALARS)


def record_schema(cls: type) -> dict[str, Any]:
    """A record: every declared field, always present; `derived` where the build adds it."""
    props = {f.name: {**type_schema(hints(cls)[f.name]), "description": f.metadata["doc"]}
             for f in fields(cls)}
    if cls in DERIVED:
        props["derived"] = DERIVED[cls]
    if cls is Dataset:
        props["rows"] = ROWS
    return {"type": "object", "additionalProperties": False, "required": sorted(props),
            "properties": props}


def data_schema() -> dict[str, Any]:
    """The JSON Schema of data.json."""
    defs = {cls.__name__: record_schema(cls) for cls in record_classes(Data)}
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
    schema = {"$schema": DIALECT, "title": "progress-site data.json",
              "description": "The validated data of a progress site and what the build "
                             "derived from it.", **top, "$defs": dict(sorted(defs.items()))}
    # The tables above (ROWS, DERIVED, QUANTITY, SERIES_SCHEMA) are placed in it as they
    # are: a copy makes each caller's schema its own, so editing one edits no other.
    return copy.deepcopy(schema)


@functools.cache  # it depends on the code only: once a process (watch mode rebuilds)
def data_schema_json() -> bytes:
    """The schema's bytes, made from the record classes."""
    return (json.dumps(data_schema(), sort_keys=True, indent=1, ensure_ascii=False)
            + "\n").encode("utf-8")
