"""A range: lowest and highest (`12.5 to 17.1 packets`), written or read from samples."""

from __future__ import annotations

from progress_site.derive.kinds.base import Kind, Printer
from progress_site.derive.quantity import Quantity
from progress_site.model.figure import Figure


class Range(Kind):
    """Two ends; a range whose ends meet is a value. Not one number: arithmetic refuses
    it, and no ratio is taken between ranges (only which side is lower, by their ends,
    when they do not overlap). `low` and `high` are its ends in data.json."""

    name = "range"

    def compute(self, fig: Figure) -> Quantity | None:
        """`range: [12.5, 17.1]` or `samples: [...]` (their lowest and highest)."""
        numbers = fig.range or fig.samples
        if not numbers:
            return None
        low, high = min(n.value for n in numbers), max(n.value for n in numbers)
        decimals = max(n.decimals for n in numbers)
        return Quantity("range" if low != high else "value", low, high, decimals, fig.unit)

    def ends(self, q: Quantity) -> tuple[float, float] | None:
        """Its two ends."""
        return q.low, q.top

    def printed(self, q: Quantity, p: Printer) -> str:
        """`12.5 to 17.1 packets`: the unit once, after the higher end."""
        return p._("%(low)s to %(high)s", low=p.number(q.low, q.decimals),
                   high=p.with_unit(q.top, q.decimals, q.unit))


KIND = Range()
