"""No number: a figure that gives none (a not-judgeable figure may)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from progress_site.derive.kinds.base import Printer
from progress_site.derive.quantity import Quantity
from progress_site.model.schema import Figure


class NoNumber:
    """Printed as words that say so."""

    name = "none"
    schema: Mapping[str, Any] = {}

    def compute(self, fig: Figure) -> Quantity | None:
        """Every figure: the last kind tried."""
        return Quantity("none")

    def parts(self, q: Quantity) -> dict[str, Quantity]:
        """`.value`, which prints the same words."""
        return {"value": q.bare()}

    def hint(self, holder: str, part: str, q: Quantity) -> str | None:
        """No advice beyond the nearest name."""
        return None

    def number(self, q: Quantity) -> float | None:
        """None to compute with."""
        return None

    def compared(self, q: Quantity) -> float | None:
        """None to compare."""
        return None

    def compared_parts(self, q: Quantity) -> dict[str, float]:
        """None."""
        return {}

    def ends(self, q: Quantity) -> tuple[float, float] | None:
        """None."""
        return None

    def printed(self, q: Quantity, p: Printer) -> str:
        """`no number`."""
        return p._("no number")

    def serialised(self, q: Quantity) -> dict[str, Any]:
        """Nothing more."""
        return {}


KIND = NoNumber()
