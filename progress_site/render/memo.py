"""Pieces of HTML that thousands of figures share, rendered once per language."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field

from markupsafe import Markup

from progress_site.model.dataset import Dataset
from progress_site.model.declare import Link
from progress_site.model.figure import Figure
from progress_site.model.values import Text


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a figure comes from: all that the `source` macro may print, and no more."""

    machine: str | None
    date: dt.date | None
    commit: str | None
    run: str | None
    method: Text | None
    proof: Link | None
    # What it compares and its hash, made once: `memo` looks one up for every figure
    # of a page, and most of a large site's figures share a handful.
    compared: tuple[Hashable, ...] = field(init=False, repr=False, compare=False)
    hashed: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # All it prints. A text compares with its scope (where its references are read),
        # so two figures share a method or proof only when both print the same.
        proof = self.proof
        link = None if proof is None else (proof.text, proof.url, proof.pull, proof.issue,
                                           proof.repository)
        compared = (self.machine, self.date, self.commit, self.run, self.method, link)
        object.__setattr__(self, "compared", compared)
        object.__setattr__(self, "hashed", hash(compared))

    @classmethod
    def of(cls, fig: Figure) -> Provenance:
        """The provenance of a figure (the `provenance` filter)."""
        return cls(fig.machine, fig.date, fig.commit, fig.run, fig.method, fig.proof)

    @classmethod
    def of_records(cls, ds: Dataset) -> Provenance:
        """Where a dataset's records come from (the `records_provenance` filter)."""
        return cls(ds.machine, ds.date, None, None, ds.method, ds.proof)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Provenance) and self.compared == other.compared

    def __hash__(self) -> int:
        return self.hashed

    def says_anything(self) -> bool:
        """Whether the `source` macro would print anything for it."""
        return any(part is not None for part in self.compared)


def shared(figures: Iterable[Figure | None]) -> Provenance | None:
    """The provenance most of these figures have (the first, on a tie), or None when
    none has one (the `shared` filter): said once above a table of them, so that each
    row says only where its figure comes from elsewhere."""
    counts = Counter(p for p in (Provenance.of(f) for f in figures if f is not None)
                     if p.says_anything())
    return max(counts, key=counts.__getitem__) if counts else None


class Memo:
    """`macro|memo(*args)`: the macro's output for these arguments, rendered once.

    Only for macros that print nothing but their arguments and the language's words. A
    large site's figures share a handful of distinct sources and badges, and rendering
    each once keeps its pages fast (see bench/scale.py). One per environment (language).
    """

    def __init__(self) -> None:
        self.seen: dict[tuple[Hashable, ...], Markup] = {}

    def __call__(self, macro: Callable[..., Markup], *args: Hashable) -> Markup:
        key = (macro, *args)
        found = self.seen.get(key)
        if found is None:
            found = self.seen[key] = macro(*args)
        return found
