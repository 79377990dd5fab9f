"""The data derive works on when validation found errors: the records that passed as
written; a figure whose record (or what holds it) failed, read as not judgeable; a
reference that names nothing, read as naming nothing; a record whose id is not its to
use, left out. Nothing of it is published (the build stops once the pages are checked):
it lets the pages be checked in the same build without telling an error twice."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, cast

from progress_site.errors import Problem
from progress_site.model.dataset import Dataset
from progress_site.model.failed import Failed, Placed
from progress_site.model.figure import Figure
from progress_site.model.keys import Keyed, figures
from progress_site.model.schema import Data
from progress_site.model.values import Text, Where
from progress_site.model.walk import holding_fields, reference_fields
from progress_site.model.walk import walk as walk_records

# Never published: a build with a failed record only checks its pages.
REASON = Text((("en", "its data has errors"), ("fr", "ses données ont des erreurs")))

# What a figure that failed keeps: where it comes from, and what it says besides a number
# (not its proof: a link that failed would be refused again where the page shows it).
KEPT = ("unit", "text", "machine", "date", "commit", "run", "method", "note", "where")


def passed(data: Data, failed: Failed) -> tuple[Data, frozenset[str]]:
    """The data as derive reads it (above), and the names of the figures read as not
    judgeable and of what holds them (`Namespace.told`)."""
    if not failed:
        return data, frozenset()
    walk = _Rebuild(failed)
    data = cast(Data, walk.value(data, False))
    told = set(failed.told)
    for keyed in figures(data):
        if (keyed.figure.where.location.file, keyed.figure.where.path) in walk.unjudged:
            told.add(str(keyed.key))
            if keyed.key.parts[-1] in ("before", "after") and keyed.key.parent:
                told.add(str(keyed.key.parent))  # its comparison's ratio and change
    return data, frozenset(told)


def not_judgeable(fig: Figure) -> Figure:
    """A figure without its number, not judgeable: whatever it gave may be what failed."""
    kept = {name: getattr(fig, name) for name in KEPT}
    return Figure(status="not-judgeable", reason=REASON, **kept)


class _Rebuild:
    """One walk of the data, rebuilding only what holds a failed record."""

    def __init__(self, failed: Failed) -> None:
        self.failed = failed
        self.holders = failed.holders()
        self.unjudged: set[Placed] = set()

    def value(self, value: Any, inside: bool) -> Any:
        """The value rebuilt (itself when nothing in it failed); `inside`: within a
        failed record."""
        if isinstance(value, tuple):
            items = [self.value(v, inside) for v in value if not self.dropped(v)]
            same = len(items) == len(value) and all(
                a is b for a, b in zip(items, value, strict=True))
            return value if same else tuple(items)
        holding = holding_fields(type(value))
        where = getattr(value, "where", None)
        if holding is None or not isinstance(where, Where):
            return self.record(value, holding, inside) if holding else value
        path = (where.location.file, where.path)
        if not inside and path not in self.holders and not self.failed.dangling:
            return value  # most records: nothing failed in or under them
        inside = inside or path in self.failed.records
        changes: dict[str, Any] = {
            name: None for name, kind in reference_fields(type(value))
            if (kind, getattr(value, name)) in self.failed.dangling}
        # A figure fails with what holds it, and with a part of it (its distribution).
        if isinstance(value, Figure) and (inside or path in self.holders):
            self.unjudged.add(path)
            return dataclasses.replace(not_judgeable(value), **changes)
        return self.record(value, holding, inside, changes)

    def record(self, value: Any, holding: tuple[str, ...], inside: bool,
               changes: dict[str, Any] | None = None) -> Any:
        """A record with what it holds rebuilt, and `changes`."""
        changes = dict(changes or {})
        for name in holding:
            child = getattr(value, name)
            if child is not None and name not in changes:
                new = self.value(child, inside)
                if new is not child:
                    changes[name] = new
        return dataclasses.replace(value, **changes) if changes else value

    def dropped(self, value: Any) -> bool:
        """Whether a list's item is left out."""
        where = getattr(value, "where", None)
        return isinstance(where, Where) and (where.location.file,
                                             where.path) in self.failed.dropped


def told_by(problems: list[Problem], keyed: tuple[Keyed, ...], datasets: tuple[Dataset, ...]
            ) -> frozenset[str]:
    """The names of the figures and datasets derive's own errors are about (a formula
    that computes nothing, a dataset's computed column): what cites them is not judged
    again (`Namespace.told`). A good build pays nothing here."""
    errors = [(p.location.file, p.key_path) for p in problems if not p.warning]
    if not errors:
        return frozenset()

    def has_error(where: Where) -> bool:
        # By file and path: the data joins several files' collections, and another
        # file's `measurements[0]` is another record, whose citations are still judged.
        path, file = where.path, where.location.file
        return bool(path) and any(f == file and e[:len(path)] == path for f, e in errors)

    return frozenset([str(k.key) for k in keyed if has_error(k.figure.where)]
                     + [ds.id for ds in datasets if has_error(ds.where)])


def left_out(data: Data, kept: Data, failed: Failed) -> Mapping[str, str]:
    """The names of the records left out because their id was already used (the printed
    key of what holds their figures, `comparisons.C`), each with where it was written: a
    name no record has may be the id such a record had before it was copied or renamed,
    so 'did you mean' must not point at the id now used twice (`Namespace.hint`)."""
    if not failed.dropped:
        return MappingProxyType({})
    still = {str(k.key) for k in figures(kept)}
    records = _dropped(data, failed.dropped)
    found: dict[str, str] = {}
    for keyed in figures(data):
        path = keyed.figure.where.path
        for file, at in failed.dropped:
            record = records.get((file, at))
            if file != keyed.figure.where.location.file or path[:len(at)] != at \
                    or record is None:
                continue
            ident = getattr(record, "id", None)
            if ident not in keyed.key.parts:
                continue
            holder = ".".join(keyed.key.parts[:keyed.key.parts.index(ident) + 1])
            if any(s == holder or s.startswith(f"{holder}.") for s in still):
                found[holder] = str(record.where.of("id"))
    return MappingProxyType(found)


def _dropped(data: Data, dropped: frozenset[Placed]) -> dict[Placed, Any]:
    """The records at these places: not by index into the data's collections, which join
    several files' and leave out the records that did not read."""
    return {(rec.where.location.file, rec.where.path): rec for rec in walk_records(data)
            if isinstance(getattr(rec, "where", None), Where)
            and (rec.where.location.file, rec.where.path) in dropped}
