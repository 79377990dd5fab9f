"""A benchmark's series: one point per commit, and each point's median with its interval.

A point holds either the samples a harness measured or the one value a tool printed
(with the spread it printed, if any). The median of samples comes with a
distribution-free confidence interval from order statistics: no assumption of normal
noise, which benchmark timings rarely have. A point of one value says so (`basis`),
so a page can tell "a median of 10 runs" from "one number we were given".
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from progress_site.model.figure import Better
from progress_site.model.history import SeriesPoint

Basis = Literal["samples", "value", "value and spread"]


@dataclass(frozen=True, slots=True)
class Point:
    """One commit's measurement: its samples, or one value with an optional spread."""

    commit: str
    samples: tuple[float, ...] = ()
    value: float | None = None
    spread: float | None = None  # as the tool printed it (SD, half-width...): shown, not used

    def __post_init__(self) -> None:
        if bool(self.samples) == (self.value is not None):
            raise ValueError(f"{self.commit}: give either samples or one value")
        numbers = [*self.samples, *([] if self.value is None else [self.value])]
        if not all(math.isfinite(x) and x > 0 for x in numbers):
            raise ValueError(f"{self.commit}: measurements must be positive finite numbers")


# What the analysis reads of a point: a history's point of one value is read as it is,
# made into a `Point` only when it has samples (a long history has 100,000 points).
Measured = Point | SeriesPoint


@dataclass(frozen=True, slots=True)
class Series:
    """One benchmark's points in commit order, which way is better, and the smallest
    relative change worth reporting (0.05: 5 %)."""

    points: tuple[Measured, ...]
    better: Better = "lower"
    min_change: float = 0.05

    def __post_init__(self) -> None:
        if self.better not in ("lower", "higher"):
            raise ValueError(f"better: expected 'lower' or 'higher', got {self.better!r}")
        if not 0 <= self.min_change < 1:
            raise ValueError(f"min_change: expected a fraction in [0, 1), got {self.min_change}")


@dataclass(frozen=True, slots=True)
class PointStats:
    """A commit's median and its confidence interval; `coverage` is the interval's exact
    probability of holding the true median (None when there is no interval)."""

    commit: str
    median: float
    low: float
    high: float
    count: int
    basis: Basis
    coverage: float | None


def median_interval(values: Sequence[float], confidence: float = 0.95
                    ) -> tuple[float, float, float]:
    """The narrowest order-statistic interval (x_(k), x_(n+1-k)) holding the median with
    at least `confidence`, and its exact coverage. With too few samples for that level,
    the whole range and its (lower) coverage: 5 samples hold the median 94 % of the time."""
    ordered = sorted(values)
    n = len(ordered)
    k = 1
    # Each step inwards drops one sample from each end; stop before coverage falls short.
    # The coverage of (x_(k), x_(n+1-k)) is 1 - 2 P(X <= k - 1), X ~ Binomial(n, 1/2):
    # how often at most k - 1 of n samples fall below the true median. The tail's count
    # grows with k, each term made from the last (a step's old level may hold 10,000
    # commits, where summing again from 0, or making each comb(n, k) anew, is quadratic):
    # the same whole numbers, so the same quotients.
    whole = 2**n
    below, term = 1 + n, n  # comb(n, 0) + comb(n, 1), and comb(n, k)
    while k < (n + 1) // 2 and 1 - 2 * (below / whole) >= confidence:
        k += 1
        term = term * (n - k + 1) // k  # comb(n, k), exactly
        below += term
    coverage = 1 - 2 * ((below - term) / whole)
    return ordered[k - 1], ordered[n - k], coverage


def summarise(point: Point, confidence: float = 0.95) -> PointStats:
    """A point's median and interval, and what they were made from."""
    if point.samples:
        low, high, coverage = median_interval(point.samples, confidence)
        return PointStats(point.commit, statistics.median(point.samples), low, high,
                          len(point.samples), "samples", coverage)
    assert point.value is not None
    if point.spread is None:
        return PointStats(point.commit, point.value, point.value, point.value, 1, "value",
                          None)
    return PointStats(point.commit, point.value, point.value - point.spread,
                      point.value + point.spread, 1, "value and spread", None)
