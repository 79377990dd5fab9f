"""No number: a figure that gives none (a not-judgeable figure may)."""

from __future__ import annotations

from progress_site.derive.kinds.base import Kind, Printer
from progress_site.derive.quantity import Quantity
from progress_site.model.figure import Figure


class NoNumber(Kind):
    """Printed as words that say so; nothing to compute with, compare or draw."""

    name = "none"

    def compute(self, fig: Figure) -> Quantity | None:
        """Every figure: the last kind tried."""
        return Quantity("none")

    def printed(self, q: Quantity, p: Printer) -> str:
        """`no number`."""
        return p._("no number")


KIND = NoNumber()
