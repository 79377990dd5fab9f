"""How the data format declares a field, and the two records every part of it uses.

`f` gives a field its documentation (read by the validator's messages, the JSON Schema
and docs/data-format.md), `where` the hidden field that remembers where a record was
written. A unit and a link are declared here because the site, its figures, its tasks
and its datasets all have them (`schema.py`, `figure.py`, `roadmap.py`, `dataset.py`).
"""

# No `from __future__ import annotations`: field types as objects (see schema.py).

import collections
import dataclasses
import datetime as dt
import functools
import types
import typing
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field
from typing import Any, Literal, NamedTuple

from progress_site.model.values import NOWHERE, Number, Text, Where


@functools.cache
def hints(cls: type) -> dict[str, Any]:
    """The resolved field types of a record class, once per class (callers must not
    change the dict): loading, validating and publishing all read them."""
    return typing.get_type_hints(cls)


# The values a field may hold that are not records, though Number and Text are classes.
VALUES = (Number, Text)
PLAIN = (str, int, float, bool, dt.date)


class Declared(NamedTuple):
    """A field's declared type as every reader of the declarations takes it: loading,
    the walks, data.json and its schema, the editors' schema and the docs' reference all
    switch on this, the one reading of a type's `| None`, `tuple[...]` and `Literal`."""

    kind: str  # "sequence", "choice", "record", "value" (Number, Text), "plain" (PLAIN),
    # or "other" (a mapping: no field a user writes)
    arg: Any  # a sequence's item type, the choices, the record class, or the type itself
    optional: bool  # `| None`: null is a value of it


def declared(tp: Any) -> Declared:
    """What a declared type is (its readers keep what they make of it once a class:
    `walk.per_class`, `convert.field_plans`)."""
    union = typing.get_origin(tp) in (typing.Union, types.UnionType)
    optional = union and type(None) in typing.get_args(tp)
    if union:  # the data format declares no `A | B`: the first type is the one
        tp = next(a for a in typing.get_args(tp) if a is not type(None))
    origin = typing.get_origin(tp)
    if origin is tuple:
        return Declared("sequence", typing.get_args(tp)[0], optional)
    if origin is Literal:
        return Declared("choice", typing.get_args(tp), optional)
    if tp in VALUES:
        return Declared("value", tp, optional)
    if dataclasses.is_dataclass(tp):
        return Declared("record", tp, optional)
    return Declared("plain" if tp in PLAIN else "other", tp, optional)


def json_schema(tp: Any, scalars: Mapping[Any, Mapping[str, Any]]) -> dict[str, Any]:
    """The JSON Schema of a value of type `tp`: records by reference to their definition
    (`#/$defs/Name`), plain values and Text as `scalars` says (data.json and the editor's
    schema describe strings and dates each their own way)."""
    kind, arg, optional = declared(tp)
    if kind == "sequence":
        schema: dict[str, Any] = {"type": "array", "items": json_schema(arg, scalars)}
    elif kind == "choice":
        schema = {"enum": list(arg)}
    elif kind == "record":
        schema = {"$ref": f"#/$defs/{arg.__name__}"}
    else:
        schema = dict(scalars[arg])
    # `key:` with nothing after it is YAML's null; the build reads it as "not given".
    return {"anyOf": [schema, {"type": "null"}]} if optional else schema


def held_record(tp: Any) -> type | None:
    """The record class a field holds, alone or in a list, if any."""
    kind, arg, _ = declared(tp)
    if kind == "sequence":
        kind, arg, _ = declared(arg)
    return typing.cast(type, arg) if kind == "record" else None


def record_classes(root: type) -> list[type]:
    """Every record class under `root` through the fields a user writes, `root` first,
    breadth first: in the order a reader meets them."""
    seen, queue = [root], collections.deque([root])
    while queue:
        cls = queue.popleft()
        for fld in fields(cls):
            child = held_record(hints(cls)[fld.name])
            if child is not None and child not in seen:
                seen.append(child)
                queue.append(child)
    return seen


def f(doc: str, default: Any = MISSING, *, ref: str = "", example: str = "") -> Any:
    """A documented field; `ref` names the collection its value must be an id of
    (dataclasses refuses a mutable default itself)."""
    return field(default=default, metadata={"doc": doc, "ref": ref, "example": example})


def where() -> Any:
    """The hidden field that remembers where a record was written."""
    return field(default=NOWHERE, kw_only=True, compare=False, repr=False,
                 metadata={"internal": True})


def fields(cls: type) -> list[dataclasses.Field[Any]]:
    """The fields a user writes (not the hidden `where`): loading, data.json and the
    editors' schema all read a record's fields through this."""
    return [f for f in dataclasses.fields(cls) if not f.metadata.get("internal")]


@dataclass(frozen=True, slots=True, kw_only=True)
class Unit:
    id: str = f("name used in `unit:` fields", example="cores")
    one: Text = f("the unit after a singular number", example="{en: core, fr: cœur}")
    other: Text = f("the unit after a plural number", example="{en: cores, fr: cœurs}")
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Link:
    text: Text | None = f("the words of the link; made from pull/issue when absent", None)
    url: str | None = f("a web address, or a page of this site (`#section`, `report.html`)",
                        None)
    pull: int | None = f("a pull request number", None)
    issue: int | None = f("an issue number", None)
    repository: str | None = f("the repository of pull/issue; the site's own when absent",
                               None, ref="repositories")
    where: Where = where()
