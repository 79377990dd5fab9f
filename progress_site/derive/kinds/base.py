"""What every kind of number does (`Kind`: see `kinds/__init__.py`), and what it is given
to print itself (`Printer`: the render stage's words of one language, Babel and the
catalogs)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Protocol

from progress_site.derive.quantity import Quantity
from progress_site.model.figure import Figure


class Printer(Protocol):
    """How one language prints numbers and sentences (render's `Words` is one)."""

    def _(self, message: str, **values: Any) -> str:
        """A translated sentence with its %(name)s values filled in."""

    def number(self, value: float, decimals: int = 0) -> str:
        """A plain number (`1,000.5`, `1 000,5`)."""

    def with_unit(self, value: float, decimals: int, unit: str | None) -> str:
        """One number with its unit (`47.83 ms`)."""

    def signed_percent(self, amount: float, decimals: int) -> str:
        """A change in percent, with its sign (`+1.5%`, `+1,5 %`)."""


class Kind(Protocol):
    """One kind of number: how it computes, compares, prints and is published. A kind
    subclasses it and keeps the defaults that fit: one citable part, `.value`; no advice;
    no number to compute with, and compared by that one; no ends; nothing more in
    data.json."""

    name: str
    # data.json's `quantity` properties of this kind beyond the ones all kinds write.
    schema: Mapping[str, Any] = MappingProxyType({})

    def compute(self, fig: Figure) -> Quantity | None:
        """The figure's quantity when the figure is written this kind's way, else None."""

    def parts(self, q: Quantity) -> dict[str, Quantity]:
        """The names cited after the figure's own (`value`, `p95`, `share`), by part."""
        return {"value": q.bare()}

    def hint(self, holder: str, part: str, q: Quantity) -> str | None:
        """What to write instead of a part this kind does not have (None: no advice)."""
        return None

    def number(self, q: Quantity) -> float | None:
        """The one number arithmetic takes (None: it is not one number)."""
        return None

    def compared(self, q: Quantity) -> float | None:
        """The number a before/after ratio and change take (None: none is computed): the
        one arithmetic takes, unless the kind says otherwise."""
        return self.number(q)

    def compared_parts(self, q: Quantity) -> dict[str, float]:
        """Parts compared one by one besides the whole (a distribution's p99), by name."""
        return {}

    def ends(self, q: Quantity) -> tuple[float, float] | None:
        """Its lowest and highest, for telling sides apart without a ratio; and for bars."""
        return None

    def printed(self, q: Quantity, p: Printer) -> str:
        """The quantity as a reader reads it, in the printer's language."""

    def serialised(self, q: Quantity) -> dict[str, Any]:
        """What data.json writes of it beyond kind, low, high, decimals, unit, signed."""
        return {}
