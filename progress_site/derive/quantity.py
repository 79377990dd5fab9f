"""What a page prints as a number: one value, a range, a count, a distribution, or nothing.

How each kind is computed from a figure, compared, printed and published is the kind's
own module (`derive/kinds/`); this is the one value they all make and read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

# One part of a distribution: its name (`p95`, `sd`, `n`), its number and its decimals.
Part = tuple[str, float, int]


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number to print, with its decimals and unit; ranges keep both ends."""

    kind: Literal["value", "range", "count", "distribution", "none"]
    low: float = 0.0
    high: float | None = None  # the upper end of a range, or the total of a count
    decimals: int = 0
    unit: str | None = None
    signed: bool = False
    parts: tuple[Part, ...] = ()  # a distribution's parts, in their declared order

    def __post_init__(self) -> None:
        if self.high is None:
            object.__setattr__(self, "high", self.low)

    @property
    def top(self) -> float:
        """The largest number it stands for (what a bar is drawn to)."""
        return float(self.high if self.high is not None else self.low)

    def with_decimals(self, decimals: int) -> Quantity:
        """The same quantity printed with another number of decimals (each of its parts
        too, but a count of readings, `n`, which stays whole)."""
        parts = tuple((n, v, d if n == "n" else decimals) for n, v, d in self.parts)
        return replace(self, decimals=decimals, parts=parts)

    def bare(self) -> Quantity:
        """The same quantity without its unit (`12 to 17`, not `12 to 17 packets`)."""
        if self.unit is None:
            return self
        # Built directly, not with `replace`: a name and its `.value` twin are made for
        # every figure of the data.
        return Quantity(self.kind, self.low, self.high, self.decimals, None, self.signed,
                        self.parts)


def significant_decimals(value: float, digits: int = 3) -> int:
    """The decimals that print `value` with `digits` significant digits: 2.46, 12.5, 0.735,
    and none for 100 or more (the whole number already says enough)."""
    if value == 0 or not math.isfinite(value):
        return 0
    # Rounded first, so 9.996 (printed 10.0) is counted by the digits it prints with.
    magnitude = math.floor(math.log10(abs(float(f"{value:.{digits}g}"))))
    return max(0, digits - 1 - magnitude)
