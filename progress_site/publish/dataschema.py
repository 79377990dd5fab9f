"""`data.schema.json`: the JSON Schema of data.json, made from the same declarations
as the records it describes (`model/schema.py`), and what the build derives for each."""

from __future__ import annotations

import datetime as dt
import functools
import json
from collections.abc import Mapping
from typing import Any

from progress_site.derive.kinds import KINDS
from progress_site.model.dataset import Dataset
from progress_site.model.declare import fields, hints, json_schema, record_classes
from progress_site.model.figure import Figure
from progress_site.model.roadmap import Roadmap, Task
from progress_site.model.schema import BudgetItem, Comparison, Data, Headline
from progress_site.model.values import Number, Text
from progress_site.publish.datajson import VERSION

DIALECT = "https://json-schema.org/draft/2020-12/schema"

def _quantity() -> dict[str, Any]:
    """A number the build derived, of any kind."""
    return {
        "type": "object", "additionalProperties": False,
        "required": ["kind", "low", "high", "decimals", "unit", "signed"],
        "properties": {"kind": {"enum": [k.name for k in KINDS]},
                       "low": {"type": "number"}, "high": {"type": "number"},
                       "decimals": {"type": "integer", "minimum": 0},
                       "unit": {"type": ["string", "null"]}, "signed": {"type": "boolean"},
                       # What each kind adds (not required: the kinds without it lack it).
                       **{name: _plain(prop) for k in KINDS
                          for name, prop in k.schema.items()}},
    }


def _plain(value: Any) -> Any:
    """A read-only table (a kind's `schema`) made of JSON's own dicts, for this schema."""
    return {k: _plain(v) for k, v in value.items()} if isinstance(value, Mapping) else value


def _derived(doc: str, optional: dict[str, Any] | None = None, **props: Any) -> dict[str, Any]:
    """The schema of a record's derived numbers: `props` always there, `optional` may be."""
    return {"description": doc, "type": "object", "additionalProperties": False,
            "required": sorted(props), "properties": props | (optional or {})}


def derived_schemas() -> dict[type, dict[str, Any]]:
    """What the build adds to each record class that has derived numbers (`derived`)."""
    maybe_quantity = {"anyOf": [{"$ref": "#/$defs/Quantity"}, {"type": "null"}]}
    maybe_bool = {"type": ["boolean", "null"]}
    status = {"enum": ["measured", "watch", "over-limit", "estimate", "not-judgeable"]}
    key = {"type": "string", "description": "its one name, as texts cite it "
           "(`measurements.ID`, `comparisons.ID.after`), the same in feeds and the change "
           "summary"}
    # Only comparisons of two distributions have it: not required.
    parts = {
        "description": "two distributions: the ratio and change of each part both sides give",
        "type": "object", "additionalProperties": {
            "type": "object", "additionalProperties": False, "required": ["change", "ratio"],
            "properties": {"ratio": maybe_quantity, "change": maybe_quantity}}}
    return {
        Figure: _derived("its number, effective status (over-limit is derived) and "
                         "freshness; a derived figure's inputs",
                         key=key, quantity={"$ref": "#/$defs/Quantity"}, status=status,
                         stale={"type": "boolean"},
                         inputs={"type": "array", "items": {"type": "string"},
                                 "description": "the keys of the figures its formula "
                                                "reads, in the order it names them (none "
                                                "when measured)"}),
        Comparison: _derived("after against before: times smaller or larger, change in %",
                             key=key, ratio=maybe_quantity, change=maybe_quantity,
                             direction={"enum": ["lower", "higher", "same", "unknown"]},
                             improved=maybe_bool, within_allowance=maybe_bool,
                             within_noise=maybe_bool, optional={"parts": parts}),
        BudgetItem: _derived("its share of the limit, in %, and whether it is over it",
                             share=maybe_quantity, over={"type": "boolean"}),
        Roadmap: _derived("how many of its tasks are done", key=key,
                          done={"type": "integer"}, total={"type": "integer"}),
        Task: _derived("how many of its steps are done", steps_done={"type": "integer"},
                       steps_total={"type": "integer"}),
        Headline: _derived("the number shown and its status",
                           key=key, quantity={"$ref": "#/$defs/Quantity"}, status=status),
    }


def _rows() -> dict[str, Any]:
    """A dataset's records, as data.json writes them."""
    return {"description": "its records, in their file's order: each field's value "
                           "(computed fields too) and `note` when the record has one",
            "type": "array", "items": {"type": "object", "additionalProperties": {
                "type": ["string", "number", "boolean"]}}}


def _series() -> dict[str, Any]:
    """The history series (publish/regressions.py writes them)."""
    return {"type": "array", "description": "every history series (data/history/), its "
            "points oldest first, and the steps found in it (present when the data has "
            "history)",
            "items": {"type": "object", "required": [
                "key", "unit", "better", "group", "min_change", "machine", "status",
                "points", "steps", "outliers"]}}


def type_schema(tp: Any) -> dict[str, Any]:
    """The schema of one field's value as data.json writes it."""
    return json_schema(tp, {
        str: {"type": "string"}, int: {"type": "integer"}, bool: {"type": "boolean"},
        Number: {"type": "number"}, dt.date: {"type": "string", "format": "date"},
        Text: {"$ref": "#/$defs/Text"}})


def record_schema(cls: type, derived: dict[type, dict[str, Any]]) -> dict[str, Any]:
    """A record: every declared field, always present; `derived` where the build adds it."""
    props = {f.name: {**type_schema(hints(cls)[f.name]), "description": f.metadata["doc"]}
             for f in fields(cls)}
    if cls in derived:
        props["derived"] = derived[cls]
    if cls is Dataset:
        props["rows"] = _rows()
    return {"type": "object", "additionalProperties": False, "required": sorted(props),
            "properties": props}


def data_schema() -> dict[str, Any]:
    """The JSON Schema of data.json."""
    derived = derived_schemas()
    defs = {cls.__name__: record_schema(cls, derived) for cls in record_classes(Data)}
    top = defs.pop("Data")
    top["properties"] |= {"version": {"const": VERSION, "description": "the file's format"},
                          "today": {"type": "string", "format": "date",
                                    "description": "the day ages and staleness count from"}}
    top["required"] = sorted(top["properties"])
    top["properties"]["series"] = _series()
    defs["Quantity"] = _quantity()
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
