"""`FigureKey`: the one dotted name of a figure, or of a number derived from one.

A figure is known by the same name everywhere: in the model, the names texts cite, data.json,
the feeds and the change summary (`measurements.startup`, `comparisons.cpu.after`,
`budgets.B.ITEM.share`). The key is made from the ids of the records that hold the figure,
so it survives a rebuild and an edit elsewhere in the data; `figures(data)` says which key
each figure of the data has.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from progress_site.model.figure import Figure
from progress_site.model.schema import Data


@dataclass(frozen=True, slots=True, order=True)
class FigureKey:
    """The parts of a figure's name: its collection, then ids, then a part's name."""

    parts: tuple[str, ...]
    # Its printed form, made once: the namespace and data.json print every key.
    text: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.parts or "" in self.parts:
            raise ValueError(f"a key has no empty part: {self.parts!r}")
        object.__setattr__(self, "text", ".".join(self.parts))

    @classmethod
    def of(cls, *parts: str | int) -> FigureKey:
        """The key made of these parts (a list item without an id is named by its place)."""
        return cls(tuple(map(str, parts)))

    @classmethod
    def parse(cls, text: str) -> FigureKey:
        """The key a dotted name writes (ValueError for an empty part). An id may itself
        hold a dot, so where that matters a name is looked up by its text (`__str__`)."""
        return cls(tuple(text.split(".")))

    def __str__(self) -> str:
        return self.text

    @property
    def parent(self) -> FigureKey | None:
        """The key this one is a part of (`comparisons.C` of `comparisons.C.ratio`)."""
        return FigureKey(self.parts[:-1]) if len(self.parts) > 1 else None

    def child(self, name: str | int) -> FigureKey:
        """The key of a part of this one (`comparisons.C` -> `comparisons.C.ratio`)."""
        return FigureKey((*self.parts, str(name)))


@dataclass(frozen=True, slots=True)
class Keyed:
    """A figure of the data with its key, the record holding it, and whether texts may
    cite it by that key (a run item's details are shown, not named)."""

    key: FigureKey
    figure: Figure
    holder: Any
    named: bool = True


def figures(data: Data) -> Iterator[Keyed]:
    """Every figure of the data with its key, in the order the data declares them."""
    # Keys made from their parts directly: this runs over every figure, more than once.
    for m in data.measurements:
        yield Keyed(FigureKey(("measurements", m.id)), m.figure, m)
    for s in data.studies:
        for c in s.comparisons:
            yield Keyed(FigureKey(("comparisons", c.id, "before")), c.before, c)
            yield Keyed(FigureKey(("comparisons", c.id, "after")), c.after, c)
    for p in data.profiles:
        for claim in p.claims:
            yield Keyed(FigureKey(("profiles", p.id, claim.id)), claim.figure, claim)
            if claim.uses is not None:
                yield Keyed(FigureKey(("profiles", p.id, claim.id, "uses")), claim.uses, claim)
    for b in data.budgets:
        for item in b.items:
            yield Keyed(FigureKey(("budgets", b.id, item.id)), item.figure, item)
    for run in data.runs:
        for run_item in run.items:
            yield Keyed(FigureKey(("runs", run.id, run_item.id)), run_item.figure, run_item)
            for i, detail in enumerate(run_item.details):
                yield Keyed(FigureKey(("runs", run.id, run_item.id, "details", str(i))),
                            detail.figure, detail, named=False)


# Where data.json (and an older data.json's change summary) holds each keyed record or
# figure: a path of field names and list items' ids ("*"), and how its key is made (a
# word, or the index of a path part). One table, read both ways.
PUBLISHED: tuple[tuple[tuple[str, ...], tuple[str | int, ...]], ...] = (
    (("measurements", "*"), ("measurements", 1)),
    (("measurements", "*", "figure"), ("measurements", 1)),
    (("studies", "*", "comparisons", "*"), ("comparisons", 3)),
    (("studies", "*", "comparisons", "*", "before"), ("comparisons", 3, "before")),
    (("studies", "*", "comparisons", "*", "after"), ("comparisons", 3, "after")),
    (("profiles", "*", "claims", "*"), ("profiles", 1, 3)),
    (("profiles", "*", "claims", "*", "figure"), ("profiles", 1, 3)),
    (("profiles", "*", "claims", "*", "uses"), ("profiles", 1, 3, "uses")),
    (("budgets", "*", "items", "*"), ("budgets", 1, 3)),
    (("budgets", "*", "items", "*", "figure"), ("budgets", 1, 3)),
    (("runs", "*", "items", "*"), ("runs", 1, 3)),
    (("runs", "*", "items", "*", "figure"), ("runs", 1, 3)),
    (("runs", "*", "items", "*", "details", "*", "figure"), ("runs", 1, 3, "details", 5)),
    (("roadmaps", "*"), ("roadmaps", 1)),
    (("headlines", "*"), ("headlines", 1)),
)
_BY_SHAPE = MappingProxyType({tuple(p if p != "*" else None for p in path): made
                              for path, made in PUBLISHED})


def published(path: tuple[str, ...]) -> FigureKey | None:
    """The key of the record or figure data.json holds at `path` (field names, and each
    list item's id, or its place when it has none); None for any other value."""
    parts = published_parts(path)
    return None if parts is None else FigureKey(parts)


def published_parts(path: tuple[str, ...]) -> tuple[str, ...] | None:
    """The parts of `published(path)`, without a key made of them (data.json looks up
    every record's by its parts: `FigureKey.parts`)."""
    # Field names stand at even places, ids at odd ones.
    shape: list[str | None] = list(path)
    shape[1::2] = [None] * (len(path) // 2)
    made = _BY_SHAPE.get(tuple(shape))
    if made is None:
        return None
    return tuple([part if isinstance(part, str) else path[part] for part in made])
