"""A distribution: percentiles, mean and spread, and how many readings they summarise
(`p50 16 µs · p95 65 µs (n = 10)`, `55.4 ms ± 2.8 ms (n = 10)`).

Its headline, the number a comparison's ratio and arithmetic take, is the median (p50)
when the data gives one, else the mean: a mean pulled up by a few slow readings is not
what a reader should take away. Every part is cited on its own (`measurements.X.p95`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from progress_site.derive.kinds.base import Kind, Printer
from progress_site.derive.quantity import Part, Quantity
from progress_site.model.figure import Distribution, Figure
from progress_site.model.walk import record_fields

# The parts, in the order they print and publish (the record's declared order).
PARTS: tuple[str, ...] = tuple(n for n in record_fields(Distribution) if n != "where")
# Each percentile's rank, as its name says it (`p999` is the 99.9th).
RANKS = MappingProxyType({"p50": 50.0, "p90": 90.0, "p95": 95.0, "p99": 99.0, "p999": 99.9})
# Parts in the figure's unit; `sd` and `iqr` are too, but they are widths, not places.
PLACES = (*RANKS, "min", "max", "mean")


def headline(parts: dict[str, tuple[float, int]]) -> tuple[float, int]:
    """The median when given, else the mean, else the first part given."""
    for name in ("p50", "mean", *PARTS):
        if name in parts:
            return parts[name]
    return 0.0, 0


class DistributionKind(Kind):
    """Parts as `Quantity.parts`; `low` and `high` both the headline."""

    name = "distribution"
    # Read-only: data.json's schema copies it (publish/dataschema.py).
    schema: Mapping[str, Any] = MappingProxyType({"parts": MappingProxyType({
        "type": "object", "additionalProperties": False,
        "description": "a distribution's parts as the data gives them: percentiles, min, "
                       "max, mean, sd, iqr (in the unit), n (how many readings)",
        "properties": MappingProxyType({n: {"type": "number"} for n in PARTS})})})

    def compute(self, fig: Figure) -> Quantity | None:
        """`distribution: {p50: 16, p95: 65, n: 10}`."""
        dist = fig.distribution
        if dist is None:
            return None
        parts: list[Part] = []
        for name in PARTS:
            given = getattr(dist, name)
            if isinstance(given, int):
                parts.append((name, float(given), 0))
            elif given is not None:
                parts.append((name, given.value, given.decimals))
        value, decimals = headline({n: (v, d) for n, v, d in parts})
        return Quantity("distribution", value, value, decimals, fig.unit, parts=tuple(parts))

    def parts(self, q: Quantity) -> dict[str, Quantity]:
        """`.value` the headline without its unit; each part given, in the unit but `n`."""
        out = {"value": Quantity("value", q.low, decimals=q.decimals)}
        for name, value, decimals in q.parts:
            out[name] = Quantity("value", value, decimals=decimals,
                                 unit=None if name == "n" else q.unit)
        return out

    def hint(self, holder: str, part: str, q: Quantity) -> str | None:
        """The parts this distribution gives (a part it could have says it is not given)."""
        given = ", ".join(f".{n}" for n, _, _ in q.parts)
        if part in PARTS:
            return f"{holder} gives no {part}: its parts are .value, {given}"
        return f"a distribution's parts are {holder}.value, {given}"

    def number(self, q: Quantity) -> float | None:
        """The headline (the median, else the mean)."""
        return q.low

    def compared_parts(self, q: Quantity) -> dict[str, float]:
        """Its places (percentiles, min, max, mean): `comparisons.C.ratio.p99`."""
        return {n: v for n, v, _ in q.parts if n in PLACES}

    def ends(self, q: Quantity) -> tuple[float, float] | None:
        """Its lowest and highest place (percentiles, min, max, mean): what bars draw."""
        places = [v for n, v, _ in q.parts if n in PLACES]
        return (min(places), max(places)) if places else None

    def printed(self, q: Quantity, p: Printer) -> str:
        """Percentiles (the median's IQR beside it), then mean ± sd, then the count: the
        part a reader needs first; a mean beside a median says it is the mean."""
        given = {n: (v, d) for n, v, d in q.parts}
        shown = [p._("p%(rank)s\u00a0%(value)s", rank=p.number(rank, int(rank % 1 != 0)),
                     value=p.with_unit(*given[n], q.unit))
                 for n, rank in RANKS.items() if n in given]
        if "iqr" in given:  # the median's spread, beside it
            iqr = p._("IQR\u00a0%(spread)s", spread=p.with_unit(*given["iqr"], q.unit))
            shown.insert(int("p50" in given), iqr)
        if "mean" in given:
            mean = p.with_unit(*given["mean"], q.unit)
            if "sd" in given and "p50" in given:  # a mean ± σ beside a median: said which
                shown.append(p._("mean\u00a0%(value)s\u00a0±\u00a0%(spread)s", value=mean,
                                 spread=p.with_unit(*given["sd"], q.unit)))
            elif "sd" in given:
                shown.append(p._("%(value)s\u00a0±\u00a0%(spread)s", value=mean,
                                 spread=p.with_unit(*given["sd"], q.unit)))
            else:
                shown.append(p._("mean\u00a0%(value)s", value=mean))
        if not shown and "min" in given and "max" in given:
            shown.append(p._("%(low)s to %(high)s", low=p.number(*given["min"]),
                             high=p.with_unit(*given["max"], q.unit)))
        text = " · ".join(shown)
        if "n" in given:
            text = p._("%(value)s (n\u00a0=\u00a0%(n)s)", value=text, n=p.number(given["n"][0]))
        return text

    def serialised(self, q: Quantity) -> dict[str, Any]:
        """Its parts by name, as the data gives them."""
        return {"parts": {n: int(v) if n == "n" else v for n, v, _ in q.parts}}


KIND = DistributionKind()
