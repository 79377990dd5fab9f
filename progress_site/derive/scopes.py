"""Each text given the scope it is read in: the key of the record whose own names its
references may cite without their prefix (`{{ ratio }}` inside comparison C is
`comparisons.C.ratio`).

The scope is made once, while deriving, and carried by the text itself (`Text.scope`):
checking a reference, printing it in each language and publishing it all read the same
scope, and none of them has to work it out again.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, TypeVar

from progress_site.model.keys import FigureKey
from progress_site.model.schema import Data
from progress_site.model.values import Text
from progress_site.model.walk import holding_fields

T = TypeVar("T")


def with_scope(value: T, scope: FigureKey) -> T:
    """`value` with each citing text in it that has no scope yet read in `scope`; the
    same object when nothing in it cites (most of the data)."""
    item: Any = value
    if isinstance(item, Text):
        cites = not item.scope and any("{{" in words for _, words in item.by_language)
        return replace(item, scope=str(scope)) if cites else value  # type: ignore[return-value]
    if isinstance(item, tuple):
        new = tuple(with_scope(x, scope) for x in item)
        return new if any(a is not b for a, b in zip(new, item, strict=True)) else value  # type: ignore[return-value]
    holding = holding_fields(type(item))
    if not holding:
        return value
    changes = {name: new for name in holding
               if (old := getattr(item, name)) is not None
               and (new := with_scope(old, scope)) is not old}
    return replace(item, **changes) if changes else value


def scoped(data: Data) -> Data:
    """The data with every citing text given its scope. A part is scoped before what
    holds it, so a text takes the scope of the nearest record that has one; texts of no
    such record (a study's own, a site's) keep none."""
    def comparison(c: Any) -> Any:
        key = FigureKey.of("comparisons", c.id)
        c = replace(c, before=with_scope(c.before, key.child("before")),
                    after=with_scope(c.after, key.child("after")))
        return with_scope(c, key)

    def claim(p_id: str, c: Any) -> Any:
        key = FigureKey.of("profiles", p_id, c.id)
        if c.uses is not None:
            c = replace(c, uses=with_scope(c.uses, key.child("uses")))
        return with_scope(c, key)

    return replace(
        data,
        measurements=tuple(with_scope(m, FigureKey.of("measurements", m.id))
                           for m in data.measurements),
        studies=tuple(replace(s, comparisons=tuple(comparison(c) for c in s.comparisons))
                      for s in data.studies),
        profiles=tuple(replace(p, claims=tuple(claim(p.id, c) for c in p.claims))
                       for p in data.profiles),
        budgets=tuple(replace(b, items=tuple(with_scope(i, FigureKey.of("budgets", b.id, i.id))
                                             for i in b.items)) for b in data.budgets),
        runs=tuple(replace(r, items=tuple(with_scope(i, FigureKey.of("runs", r.id, i.id))
                                          for i in r.items)) for r in data.runs),
        roadmaps=tuple(with_scope(r, FigureKey.of("roadmaps", r.id)) for r in data.roadmaps),
    )
