"""Which records validation found errors in: a plain value validate returns and derive
reads, so that the pages are checked in the same build as the data (all errors at once)
without the errors of a record told again as consequences elsewhere."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from types import MappingProxyType

from progress_site.errors import KeyPath, Problem
from progress_site.model.dataset import Dataset, records_path

# The first part of the names of a collection's figures, where it is not the collection's.
CITED_AS = MappingProxyType({"studies": "comparisons"})
# A record's place: its file, and its path in that file (`Where.path`: the data joins
# the collections of several files, so a path alone may be two records').
Placed = tuple[str, KeyPath]


@dataclass(frozen=True, slots=True)
class Failed:
    """The records an error is about, each by its place (`Placed`): the innermost record
    that holds the error's key path."""

    records: frozenset[Placed] = frozenset()
    # (collection, id) that references name and nothing holds (each told where it is
    # named): derive reads them as naming nothing, so a block does not tell them again.
    dangling: frozenset[tuple[str, str]] = frozenset()
    # Records whose id is not theirs to use (an earlier record of their kind holds it, or
    # it is not a word): derive leaves them out, so a page does not show two records of
    # one id (and tell their anchors' clash as well).
    dropped: frozenset[Placed] = frozenset()
    # Names whose records failed as they loaded (a dataset's declaration or records, a
    # machine set aside): what cites them is not judged again (`Namespace.told`).
    told: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.records or self.dangling or self.dropped or self.told)

    def holders(self) -> frozenset[Placed]:
        """Every place a failed record lies at or inside: where a walk must look."""
        return frozenset((file, path[:end]) for file, path in self.records | self.dropped
                         for end in range(len(path) + 1))


def failed_records(places: set[Placed], errors: list[Placed]) -> frozenset[Placed]:
    """The innermost record (of those at `places`) that holds each error's key path; an
    error at no record's path (a whole file's) marks none."""
    found = set()
    for file, key_path in errors:
        for end in range(len(key_path), 0, -1):
            if (file, key_path[:end]) in places:
                found.add((file, key_path[:end]))
                break
    return frozenset(found)


def spoiled(datasets: tuple[Dataset, ...], aside: Collection[tuple[str, str]],
            problems: list[Problem]) -> frozenset[str]:
    """The names of what load set aside: the ids of datasets whose declaration or records
    have an error (a page's statements over them would find no records), and each record
    set aside as `collection.id` (a block naming it would find none)."""
    errors = [p for p in problems if not p.warning]
    if not errors:
        return frozenset()
    # A dataset is cited by its id alone (`count(four-way)`), the others by their kind.
    found = {f"{kind}.{ident}" for kind, ident in aside if kind != "collections"}
    found |= {ident for kind, ident in aside if kind == "datasets"}
    # A whole collection: every name of its records (a study's are its comparisons'); for
    # the datasets, any name that is not another's (`Namespace.cites_told`).
    found |= {name for kind, ident in aside if kind == "collections"
              for name in (ident, CITED_AS.get(ident, ident))}
    for ds in datasets:
        path, declared, records = ds.where.path, ds.where.location.file, records_path(ds)
        if any(p.location.file == records or (p.location.file == declared and path
                                              and p.key_path[:len(path)] == path)
               for p in errors):
            found.add(ds.id)
    return frozenset(found)
