"""A fixed-seed synthetic corpus of benchmark series, for tests/test_regressions.py and
bench/regressions.py (the series REGRESSIONS.md measured the other tools on).

Noise is Gaussian at a coefficient of variation of 2.66 %, what identical runs on shared
CI runners show; steps are 5, 10 or 50 %; "outliers" multiplies 2 % of the points by
1.3. Each series draws from its own `random.Random(seed)`, so a series is the same
whatever else is generated, on any machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from progress_site.derive.series import Better, Point, Series

CV = 0.0266
LEVEL = 100.0
OUTLIER_SHARE, OUTLIER_FACTOR = 0.02, 1.3
STEPS = (0.05, 0.10, 0.50)


@dataclass(frozen=True)
class Planted:
    """A generated series and what was planted in it: the index where the new level
    starts (None: noise only) and the relative change."""

    values: tuple[float, ...]
    at: int | None
    change: float


def noisy(rng: random.Random, level: float, outliers: bool) -> float:
    """One measurement around `level`: Gaussian noise, sometimes an outlier."""
    value = level * (1 + rng.gauss(0, CV))
    if outliers and rng.random() < OUTLIER_SHARE:
        value *= OUTLIER_FACTOR
    return value


def planted(seed: int, points: int = 500, change: float = 0.0, at: int | None = None,
            outliers: bool = False) -> Planted:
    """A series of `points` values; with a change, a step at `at` (by default at a random
    index in 100 to 400, as in REGRESSIONS.md)."""
    rng = random.Random(seed)
    if change and at is None:
        at = rng.randint(100, 400)
    where = at if change else None
    values = tuple(noisy(rng, LEVEL * (1 + change) if where is not None and i >= where
                         else LEVEL, outliers) for i in range(points))
    return Planted(values, where, change)


def commit(i: int) -> str:
    """The made-up commit id of the i-th point."""
    return f"c{i:04d}"


def series(values: tuple[float, ...] | list[float], better: Better = "lower",
           min_change: float = 0.05) -> Series:
    """A series of one value per commit."""
    return Series(tuple(Point(commit(i), value=v) for i, v in enumerate(values)), better,
                  min_change)


def sampled(seed: int, levels: list[float], runs: int = 5, better: Better = "lower"
            ) -> Series:
    """A series of `runs` samples per commit around each level (same noise)."""
    rng = random.Random(seed)
    return Series(tuple(Point(commit(i), samples=tuple(noisy(rng, level, False)
                                                       for _ in range(runs)))
                        for i, level in enumerate(levels)), better)


def corpus(seed: int, count: int, points: int = 500, change: float = 0.0,
           outliers: bool = False) -> list[Planted]:
    """`count` series, the i-th generated from seed `seed * 100_000 + i`."""
    return [planted(seed * 100_000 + i, points, change, outliers=outliers)
            for i in range(count)]
