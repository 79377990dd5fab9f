"""A value: one number (`2.62 cores`, `+1.5%`)."""

from __future__ import annotations

from progress_site.derive.kinds.base import Kind, Printer
from progress_site.derive.quantity import Quantity
from progress_site.model.figure import Figure


class Value(Kind):
    """One number, measured or computed: compared whole."""

    name = "value"

    def compute(self, fig: Figure) -> Quantity | None:
        """`value: 2.62`."""
        if fig.value is None:
            return None
        return Quantity("value", fig.value.value, decimals=fig.value.decimals, unit=fig.unit)

    def number(self, q: Quantity) -> float | None:
        """The value itself."""
        return q.low

    def ends(self, q: Quantity) -> tuple[float, float] | None:
        """The value, at both ends."""
        return q.low, q.low

    def printed(self, q: Quantity, p: Printer) -> str:
        """`2.62 cores`; a signed percentage as a change (`+1.5%`)."""
        if q.unit == "%" and q.signed:
            return p.signed_percent(q.low, q.decimals)
        return p.with_unit(q.low, q.decimals, q.unit)


KIND = Value()
