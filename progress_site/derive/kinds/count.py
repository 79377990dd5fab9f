"""A count: how many passed of how many there were (`56 of 56`)."""

from __future__ import annotations

from progress_site.derive.kinds.base import Kind, Printer
from progress_site.derive.quantity import Quantity, significant_decimals
from progress_site.model.figure import Figure


class Count(Kind):
    """`low` is what passed, `high` the whole (in data.json too). Counts are not
    compared by ratio, and which of two is better is not told by their ends."""

    name = "count"

    def compute(self, fig: Figure) -> Quantity | None:
        """`ok: 56` with `of: 56`."""
        if fig.ok is None or fig.of is None:
            return None
        return Quantity("count", float(fig.ok), float(fig.of))

    def parts(self, q: Quantity) -> dict[str, Quantity]:
        """`.value` and `.ok` what passed (docs/data-format.md), not "998 of 1,000"; `.of`
        the whole; `.share` the percentage, unless of nothing (then an unknown name)."""
        ok, of = q.low, q.top
        out = {"value": Quantity("value", ok), "ok": Quantity("value", ok),
               "of": Quantity("value", of)}
        if of:
            amount = ok / of * 100  # to three significant digits: 99.8%
            out["share"] = Quantity("value", amount, decimals=significant_decimals(amount),
                                    unit="%")
        return out

    def hint(self, holder: str, part: str, q: Quantity) -> str | None:
        """A share of nothing, or the four parts a count has."""
        if part == "share":
            return f"{holder} counts {q.low:g} of {q.top:g}: a share of nothing is no number"
        return f"a count's parts are {holder}.ok, .of, .value and .share"

    def number(self, q: Quantity) -> float | None:
        """What passed, as `.ok`."""
        return q.low

    def compared(self, q: Quantity) -> float | None:
        """None: counts are not compared by ratio, though arithmetic takes `.ok`."""
        return None

    def printed(self, q: Quantity, p: Printer) -> str:
        """`56 of 56`."""
        return p._("%(ok)s of %(total)s", ok=p.number(q.low), total=p.number(q.top))


KIND = Count()
