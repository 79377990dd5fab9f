"""Pieces of HTML that thousands of figures share, rendered once per language."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Hashable

from markupsafe import Markup

from .declare import Link
from .schema import Figure
from .values import Text

SHOWN = ("machine", "date", "commit", "run", "method", "proof")  # a provenance's fields


class Provenance:
    """Where a figure comes from: all that the `source` macro may print, and no more.

    A plain class with slots, not a dataclass: its own equality leaves a dataclass
    nothing to write but `__init__`, and making one costs ~1 ms of every build."""

    __slots__ = ("_key", "commit", "date", "machine", "method", "proof", "run")
    machine: str | None
    date: dt.date | None
    commit: str | None
    run: str | None
    method: Text | None
    proof: Link | None
    _key: tuple[Hashable, ...]

    def __init__(self, machine: str | None, date: dt.date | None, commit: str | None,
                 run: str | None, method: Text | None, proof: Link | None) -> None:
        put = object.__setattr__
        put(self, "machine", machine)
        put(self, "date", date)
        put(self, "commit", commit)
        put(self, "run", run)
        put(self, "method", method)
        put(self, "proof", proof)
        # A text prints according to where it was written (the scope of its references),
        # so two figures share a method or proof only when it is the very same record.
        put(self, "_key", (machine, date, commit, run, id(method), id(proof)))

    @classmethod
    def of(cls, fig: Figure) -> Provenance:
        """The provenance of a figure (the `provenance` filter)."""
        return cls(fig.machine, fig.date, fig.commit, fig.run, fig.method, fig.proof)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a provenance is frozen: cannot assign {name!r}")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Provenance) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in SHOWN)
        return f"Provenance({shown})"


class Memo:
    """`macro|memo(*args)`: the macro's output for these arguments, rendered once.

    Only for macros that print nothing but their arguments and the language's words: a
    site of 10,000 figures has a handful of distinct sources and badges, and rendering
    each once is most of what makes a large page fast. One per environment (language).
    """

    def __init__(self) -> None:
        # The key holds its arguments, so the ids a Provenance compares stay valid.
        self.seen: dict[tuple[Hashable, ...], Markup] = {}

    def __call__(self, macro: Callable[..., Markup], *args: Hashable) -> Markup:
        key = (macro, *args)
        found = self.seen.get(key)
        if found is None:
            found = self.seen[key] = macro(*args)
        return found
