"""Walking records: every record inside a value, looking only where records may be.

Validation checks every record it meets, derive finds every figure and every text, and
data.json writes every record's fields: all of them walk the data the same way, so the
walk lives with the records rather than in one of those stages.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from progress_site.model.declare import VALUES, declared, fields, hints
from progress_site.model.values import Text

T = TypeVar("T")


def per_class(work: Callable[[type], T]) -> Callable[[type], T]:
    """functools.cache for what is worked out from a class alone (its declaration, code,
    not data): once a class, and no table of ours (typed, as mypy takes no class for a
    Hashable)."""
    return functools.cache(work)


@per_class
def record_fields(cls: type) -> tuple[str, ...]:
    """The names of the fields a user writes (`declare.fields`)."""
    return tuple(f.name for f in fields(cls))


@per_class
def reference_fields(cls: type) -> tuple[tuple[str, str], ...]:
    """(field, collection) for each field of a record class that names another record."""
    return tuple((f.name, f.metadata["ref"]) for f in dataclasses.fields(cls)
                 if f.metadata.get("ref"))


@per_class
def holding_fields(cls: type) -> tuple[str, ...] | None:
    """The fields of a record class whose type may hold records or texts; None if not a
    record. Walks look only there, instead of at every field of everything: values
    (declare.VALUES) hold no record, so walks neither yield them nor look inside."""
    if not dataclasses.is_dataclass(cls) or cls in VALUES:
        return None
    return tuple(n for n in record_fields(cls) if _may_hold(hints(cls)[n]))


def _may_hold(tp: Any) -> bool:
    """Whether a value of this declared type may be or contain a record (or a text)."""
    kind, arg, _ = declared(tp)
    if kind == "sequence":
        return _may_hold(arg)
    return kind == "record" or arg is Text  # never inside a choice or a mapping


def walk(value: Any) -> Iterator[Any]:
    """Every record inside a value, depth first, in the order written."""
    # An explicit stack: nested generators would add a frame per level to every record
    # passed up, on sites of many records (see bench/scale.py).
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            stack.extend(reversed(item))
            continue
        cls = type(item)
        holding = holding_fields(cls)
        if holding is None:
            continue
        yield item
        for name in reversed(holding):
            child = getattr(item, name)
            if child is not None:
                stack.append(child)
