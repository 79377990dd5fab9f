"""How the data format declares a field, and the two records every part of it uses.

`f` gives a field its documentation (read by the validator's messages, the JSON Schema
and docs/data-format.md), `where` the hidden field that remembers where a record was
written. A unit and a link are declared here because the site, its figures, its tasks
and its datasets all have them (`schema.py`, `figure.py`, `roadmap.py`, `dataset.py`).
"""

# No `from __future__ import annotations`: field types as objects (see schema.py).

import dataclasses
import functools
import typing
from dataclasses import MISSING, dataclass, field
from typing import Any

from progress_site.model.values import NOWHERE, Text, Where


@functools.cache
def hints(cls: type) -> dict[str, Any]:
    """The resolved field types of a record class, once per class (callers must not
    change the dict): loading, validating and publishing all read them."""
    return typing.get_type_hints(cls)


def f(doc: str, default: Any = MISSING, *, ref: str = "", example: str = "") -> Any:
    """A documented field; `ref` names the collection its value must be an id of."""
    meta = {"doc": doc, "ref": ref, "example": example}
    if default is MISSING:
        return field(metadata=meta)
    if isinstance(default, (list, dict, set)):
        raise TypeError("mutable default")
    return field(default=default, metadata=meta)


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
