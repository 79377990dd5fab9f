"""Rank statistics: ranks with ties, the Mann-Whitney U test, and the rank scan for a
change point. Standard library only (no SciPy at run time); without ties the p-values
match SciPy's `mannwhitneyu`, exact or asymptotic (tests/test_regressions.py lists the
values and where they come from); with ties, small groups get the exact p-value of the
ties broken against the change, the largest of any way to break them (`mann_whitney_p`).

Ranks make the tests blind to how far an outlier lies: a run 30 % slow weighs as much
as one 3 % slow, which is what keeps a noisy CI runner from raising alarms.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate, repeat

# An exact p-value counts the ways the smaller group can rank. The normal approximation
# is far too cautious in the tails for a small group (3 newest commits against 500: a
# p-value of 0.003 where the exact one is 1e-7), and close enough for a larger one.
# Exact, then, when the smaller group has at most EXACT_SMALL values (TIED_EXACT with
# ties) and the count takes at most EXACT_TERMS additions.
EXACT_SMALL = 30
TIED_EXACT = 10
EXACT_TERMS = 50_000
# The exact count is skipped when the normal approximation's p-value is SCREEN times
# what the caller asks about and the smaller group has at least SCREEN_SMALL values:
# there the normal curve's tail is at most ~53 times the exact one wherever the exact
# p-value is above 1e-7 (tests/test_regressions.py checks it), so the exact p-value is
# not below what was asked either. Smaller groups: the normal tail is up to 10^4 times
# too heavy, and the count is cheap.
SCREEN, SCREEN_SMALL = 100, 10


@dataclass(frozen=True, slots=True)
class Ranked:
    """Values' ranks (1 = smallest, ties share their mean rank) and the tie term
    sum(t^3 - t) over groups of t equal values, which shrinks the variance of U."""

    ranks: tuple[float, ...]
    ties: float


def rank(values: Sequence[float]) -> Ranked:
    """The ranks of the values, ties given their mean rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    if len(set(values)) == len(values):  # no ties: the common case, made fast
        for place, i in enumerate(order, start=1):
            ranks[i] = place
        return Ranked(tuple(ranks), 0.0)
    ties = 0.0
    start = 0
    while start < len(order):
        end = start + 1
        while end < len(order) and values[order[end]] == values[order[start]]:
            end += 1
        for i in order[start:end]:
            ranks[i] = (start + end + 1) / 2
        count = end - start
        ties += count**3 - count
        start = end
    return Ranked(tuple(ranks), ties)


def normal_p(u: float, n1: int, n2: int, ties: float) -> float:
    """Two-sided p-value of U by the normal approximation, with the tie and continuity
    corrections (as SciPy's `method="asymptotic"`)."""
    n = n1 + n2
    variance = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
    if variance <= 0:
        return 1.0
    z = (abs(u - n1 * n2 / 2) - 0.5) / math.sqrt(variance)
    return min(1.0, math.erfc(max(z, 0.0) / math.sqrt(2)))


def lower_tail_count(u: int, small: int, large: int) -> int:
    """How many of the C(small + large, small) orderings without ties give U <= u: the
    coefficients up to q^u of the Gaussian binomial [small + large choose small]."""
    counts = [1] + [0] * u
    for i in range(1, small + 1):
        # times (1 - q^(large + i)), then divided by (1 - q^i): both exact on a prefix.
        for j in range(u, large + i - 1, -1):
            counts[j] -= counts[j - large - i]
        for j in range(i, u + 1):
            counts[j] += counts[j - i]
    return sum(counts)


def p_floor(u: int, small: int, large: int) -> float:
    """A lower bound of the exact two-sided p-value, cheap to compute: every ordering in
    which each of the small group has at most u // small of the large group before it
    has U <= u."""
    per = u // small
    return min(1.0, 2 * math.comb(small + per, small) / math.comb(small + large, small))


def mann_whitney_p(u: float, n1: int, n2: int, ties: float, worth_below: float = 1.0,
                   tied_pairs: float = 0.0) -> float:
    """Two-sided p-value of the Mann-Whitney U of two groups of n1 and n2 values: exact
    when the count is small (with `tied_pairs` equal pairs across the groups, the ties
    broken against the change: see the module), else the normal approximation. When a
    cheap lower bound is at least `worth_below`, that bound: the caller only wants to
    know the p-value is not below it."""
    if n1 == 0 or n2 == 0:
        return 1.0
    small, large = min(n1, n2), max(n1, n2)
    tail = min(min(u, n1 * n2 - u) + tied_pairs / 2, n1 * n2 / 2)
    approximate = normal_p(u, n1, n2, ties)
    if small > (TIED_EXACT if ties else EXACT_SMALL) or small * (int(tail) + 1) > EXACT_TERMS:
        return approximate
    floor = p_floor(int(tail), small, large)
    if floor >= worth_below:
        return floor
    if small >= SCREEN_SMALL and worth_below >= 1e-7 and approximate >= SCREEN * worth_below:
        return approximate
    ways = lower_tail_count(int(tail), small, large)
    return min(1.0, 2 * ways / math.comb(n1 + n2, small))


def mann_whitney(first: Sequence[float], second: Sequence[float], worth_below: float = 1.0
                 ) -> tuple[float, float]:
    """U of the first group against the second (pairs where the first is larger, ties
    counted half) and its two-sided p-value (see `mann_whitney_p` for `worth_below`)."""
    ranked = rank([*first, *second])
    u = sum(ranked.ranks[: len(first)]) - len(first) * (len(first) + 1) / 2
    return u, mann_whitney_p(u, len(first), len(second), ranked.ties, worth_below,
                             tied_pairs(first, second) if ranked.ties else 0.0)


def tied_pairs(first: Sequence[float], second: Sequence[float]) -> float:
    """How many pairs across the two groups are equal."""
    # The smaller group counted, the larger looked up: the newest few commits against
    # hundreds count three values, not hundreds.
    small, large = (first, second) if len(first) <= len(second) else (second, first)
    counts = Counter(small)
    return float(sum(map(counts.get, large, repeat(0))))


def tie_term(values: Sequence[float]) -> float:
    """sum(t^3 - t) over the groups of t equal values (`Ranked.ties`), without ranking."""
    return float(sum(t**3 - t for t in Counter(values).values() if t > 1))


@dataclass(frozen=True, slots=True)
class Split:
    """Where a rank scan would cut a segment: the first index of its second part, how
    many cuts it looked at, and the U and tie term of the cut (for its p-value)."""

    at: int
    looks: int
    u: float
    ties: float


def rank_scan(values: Sequence[float]) -> Split | None:
    """The cut of the values whose two sides differ most by the Mann-Whitney statistic,
    standardised so that short sides are not favoured (Pettitt's scan, standardised)."""
    m = len(values)
    if m < 2:
        return None
    ranked = rank(values)
    spread = (m + 1) - ranked.ties / (m * (m - 1))
    if spread <= 0:
        return None
    # U - n1 n2 / 2 at each cut, from the ranks' running sums; the squared z without its
    # constant factor 12 / spread. Lists and max() rather than a loop: this runs once
    # per segment of every series.
    centre = (m + 1) / 2
    prefix = list(accumulate(ranked.ranks[:-1]))
    z2 = [(s - t * centre) ** 2 / (t * (m - t)) for t, s in enumerate(prefix, start=1)]
    best = max(range(m - 1), key=z2.__getitem__) + 1  # the first of equals
    best_u = prefix[best - 1] - best * (best + 1) / 2
    return Split(best, m - 1, best_u, ranked.ties)
