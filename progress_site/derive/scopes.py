"""Each text given the scope it is read in: the key of the record whose own names its
references may cite without their prefix (`{{ ratio }}` inside comparison C is
`comparisons.C.ratio`).

The scope is made once, while deriving, and carried by the text itself (`Text.scope`):
checking a reference, printing it in each language and publishing it all read the same
scope, and none of them has to work it out again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from progress_site.model.schema import Data
from progress_site.model.values import Text
from progress_site.model.walk import holding_fields

T = TypeVar("T")


def with_scope(value: T, scope: str) -> T:
    """`value` with each citing text in it that has no scope yet read in `scope`; the
    same object when nothing in it cites (most of the data)."""
    # Plain loops, and a record rebuilt only when something in it changed: this meets
    # every record of the data (bench/scale.py).
    item: Any = value
    cls = type(item)
    if cls is Text:
        if not item.scope:
            for _, words in item.by_language:
                if "{{" in words:
                    return Text(item.by_language, item.neutral, scope)  # type: ignore[return-value]
        return value
    if cls is tuple:
        changed: list[Any] | None = None
        for i, x in enumerate(item):
            y = with_scope(x, scope)
            if y is not x:
                changed = changed or list(item)
                changed[i] = y
        return value if changed is None else tuple(changed)  # type: ignore[return-value]
    holding = holding_fields(cls)
    if not holding:
        return value
    changes: dict[str, Any] | None = None
    for name in holding:
        old = getattr(item, name)
        if old is not None and (new := with_scope(old, scope)) is not old:
            changes = changes or {}
            changes[name] = new
    return replace(item, **changes) if changes else value


def scoped(data: Data) -> Data:
    """The data with every citing text given its scope. A part is scoped before what
    holds it, so a text takes the scope of the nearest record that has one; texts of no
    such record (a study's own, a site's) keep none."""
    return replace(
        data,
        measurements=tuple(with_scope(m, f"measurements.{m.id}") for m in data.measurements),
        studies=inner(data.studies, "comparisons",
                      lambda s, c: nested(c, f"comparisons.{c.id}", "before", "after")),
        profiles=inner(data.profiles, "claims",
                       lambda p, c: nested(c, f"profiles.{p.id}.{c.id}", "uses")),
        budgets=inner(data.budgets, "items",
                      lambda b, i: with_scope(i, f"budgets.{b.id}.{i.id}")),
        runs=inner(data.runs, "items", lambda r, i: with_scope(i, f"runs.{r.id}.{i.id}")),
        roadmaps=tuple(with_scope(r, f"roadmaps.{r.id}") for r in data.roadmaps),
    )


def nested(record: Any, key: str, *parts: str) -> Any:
    """A record scoped in `key`, its fields `parts` first, each in its own (`KEY.PART`)."""
    changes = {name: new for name in parts if (old := getattr(record, name)) is not None
               and (new := with_scope(old, f"{key}.{name}")) is not old}
    return with_scope(replace(record, **changes) if changes else record, key)


def inner(records: tuple[Any, ...], name: str, scope: Callable[[Any, Any], Any]
          ) -> tuple[Any, ...]:
    """Each record with the parts listed in its field `name` scoped; a record is
    rebuilt only when one of them changed."""
    out = []
    for record in records:
        parts = getattr(record, name)
        new = tuple(scope(record, part) for part in parts)
        changed = any(a is not b for a, b in zip(new, parts, strict=True))
        out.append(replace(record, **{name: new}) if changed else record)
    return tuple(out)
