"""A cut between two levels of a series: where it is best placed, how sure its place
is, and the gates it must pass to be reported as a step (derive/regressions.py)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median

from progress_site.derive.ranks import mann_whitney

# A robust standard deviation from the median absolute deviation (for normal noise).
MAD_TO_SD = 1.4826
# How far a refined cut may move from where the rank scan put it, in commits.
WINDOW = 5
# A level is this many commits or more, whichever test would pass a shorter one: one
# commit's readings share the runner's bad minute, and one slow commit is never a step.
LEVEL_COMMITS = 2


@dataclass(frozen=True, slots=True)
class Settings:
    """How strict the detection is; the defaults meet the targets of bench/regressions.py."""

    alpha: float = 0.001  # the chance a cut's rank test passes on noise alone, per scan
    tail_looks: int = 5  # the tail watch compares the last 1 to this many commits
    min_points: int = 5  # fewer points than this: "not enough points", no steps
    level_points: int = 3  # a level needs this many commits; a newer, shorter one is pending
    pooled_commits: int = 10  # commits each side whose samples are pooled for the test
    confidence: float = 0.95  # of the medians' intervals
    outlier_noises: float = 5.0  # a point this many noise widths off its level is an outlier
    likelihood: float = 0.5  # a step's range: places whose fit is at most e^this less likely

    def __post_init__(self) -> None:
        if not 0 < self.alpha < 1 or not 0 < self.confidence < 1:
            raise ValueError("alpha and confidence: expected fractions between 0 and 1")
        if min(self.tail_looks, self.level_points, self.pooled_commits) < 1:
            raise ValueError("tail_looks, level_points, pooled_commits: expected at least 1")
        if self.min_points < 2 or self.outlier_noises <= 0 or self.likelihood < 0:
            raise ValueError("min_points >= 2, outlier_noises > 0, likelihood >= 0 expected")


@dataclass(frozen=True, slots=True)
class Cut:
    """A cut at `at` between the levels [start, at) and [at, end) of a series, and the
    number of looks its rank test is corrected for."""

    start: int
    at: int
    end: int
    looks: int


@dataclass(frozen=True, slots=True)
class Gate:
    """A cut judged: the relative change of level, the corrected p-values of the rank
    tests (on the commits' medians, and on pooled samples when there are some), whether
    the two levels differ beyond noise (`real`: the rank tests passed and both levels
    are long enough) and whether the change is also large enough to report (`passed`);
    `looks` is what the p-values were corrected for."""

    real: bool
    passed: bool
    change: float
    p_value: float
    samples_p_value: float | None
    looks: int


def gate(values: Sequence[float], samples: Sequence[tuple[float, ...]], cut: Cut,
         min_change: float, settings: Settings) -> Gate:
    """Whether a cut separates two levels beyond the noise, by every gate."""
    before, after = values[cut.start:cut.at], values[cut.at:cut.end]
    change = median(after) / median(before) - 1
    newest = cut.end == len(values)
    short = min(len(before), settings.level_points if newest else len(after))
    worth = settings.alpha / cut.looks
    p = mann_whitney(before, after, worth)[1]
    pooled = pooled_samples(samples, cut, settings.pooled_commits)
    samples_p = None if pooled is None else mann_whitney(*pooled, worth)[1]
    # Few commits a side cannot reach `worth` however far apart they are (the exact test
    # has no smaller p to give): levels that do not overlap at all, each commit's samples
    # telling the same story, are as strong as such a short history can be.
    commits_agree = p < worth or (samples_p is not None and separated(before, after))
    real = (short >= settings.level_points and two_levels(before, after) and commits_agree
            and (samples_p is None or samples_p < worth))
    return Gate(real, real and abs(change) >= min_change, change, min(1.0, p * cut.looks),
                None if samples_p is None else min(1.0, samples_p * cut.looks), cut.looks)


def samples_agree(values: Sequence[float], samples: Sequence[tuple[float, ...]], cut: Cut,
                  settings: Settings) -> bool:
    """Levels that do not overlap, commit by commit, and whose pooled samples differ
    beyond noise."""
    pooled = pooled_samples(samples, cut, settings.pooled_commits)
    before, after = values[cut.start:cut.at], values[cut.at:cut.end]
    if pooled is None or not two_levels(before, after) or not separated(before, after):
        return False
    return mann_whitney(*pooled, settings.alpha / cut.looks)[1] < settings.alpha / cut.looks


def two_levels(before: Sequence[float], after: Sequence[float]) -> bool:
    """Whether both sides of a cut are levels (LEVEL_COMMITS or more): the newest
    commit alone, however far off and whatever its rank test, is no new level."""
    return min(len(before), len(after)) >= LEVEL_COMMITS


def separated(before: Sequence[float], after: Sequence[float]) -> bool:
    """Whether every commit of one level lies beyond every commit of the other."""
    return max(before) < min(after) or min(before) > max(after)


def pooled_samples(samples: Sequence[tuple[float, ...]], cut: Cut, commits: int
                   ) -> tuple[list[float], list[float]] | None:
    """The samples of up to `commits` commits each side of a cut, if both sides have some."""
    before = [x for s in samples[max(cut.start, cut.at - commits):cut.at] for x in s]
    after = [x for s in samples[cut.at:min(cut.end, cut.at + commits)] for x in s]
    return (before, after) if before and after else None


def placing_scale(values: Sequence[float]) -> list[float]:
    """The values as a cut's place is judged: their logarithms when all are above zero,
    as timings spread by a share of their level (docs/regressions.md, "Place the cut")."""
    if all(v > 0 for v in values):
        return [math.log(v) for v in values]
    return list(values)


def refine(values: Sequence[float], cuts: dict[int, int]) -> dict[int, int]:
    """Each cut moved (within WINDOW commits and its neighbours) to where two levels fit
    best by least absolute deviations; the scan finds a change, this places it."""
    edges = [0, *sorted(cuts), len(values)]
    looks = [cuts[at] for at in edges[1:-1]]
    for i in range(1, len(edges) - 1):
        for _ in range(WINDOW):
            moved = best_place(values, edges[i - 1], edges[i], edges[i + 1])
            if moved == edges[i]:
                break
            edges[i] = moved
    return dict(zip(edges[1:-1], looks, strict=True))


def best_place(values: Sequence[float], start: int, at: int, end: int) -> int:
    """The cut near `at` with the least absolute deviation from the two levels' medians
    (the nearest one to `at` among equals)."""
    old, new = median(values[start:at]), median(values[at:end])
    costs = {at: 0.0}
    cost = 0.0
    for s in range(at - 1, max(start, at - WINDOW - 1), -1):
        cost += abs(values[s] - new) - abs(values[s] - old)
        costs[s] = cost
    cost = 0.0
    for s in range(at + 1, min(end, at + WINDOW + 1)):
        cost += abs(values[s - 1] - old) - abs(values[s - 1] - new)
        costs[s] = cost
    return min(costs, key=lambda s: (costs[s], abs(s - at), s))


def boundary_range(values: Sequence[float], start: int, at: int, end: int, old: float,
                   new: float, likelihood: float) -> tuple[int, int]:
    """The first and last places the new level may start: every place next to `at`
    whose two-level fit (normal noise of the levels' robust spread) is at most
    e^likelihood times less likely than at `at`."""
    sigma = robust_sigma(values, start, at, end) or 1e-12 * abs(old)
    scale = 2 * sigma * sigma
    low, worse = at, 0.0
    for s in range(at - 1, max(start, at - 2 * WINDOW - 1), -1):
        worse += ((values[s] - new) ** 2 - (values[s] - old) ** 2) / scale
        if worse > likelihood:
            break
        low = s
    high, worse = at, 0.0
    for s in range(at + 1, min(end, at + 2 * WINDOW + 1)):
        worse += ((values[s - 1] - old) ** 2 - (values[s - 1] - new) ** 2) / scale
        if worse > likelihood:
            break
        high = s
    return low, high


def robust_sigma(values: Sequence[float], start: int, at: int, end: int) -> float:
    """The spread of the points of [start, at) and [at, end) around their own levels:
    the median absolute deviation, scaled to a standard deviation."""
    deviations: list[float] = []
    for part in (values[start:at], values[at:end]):
        if part:
            level = median(part)
            deviations += [abs(x - level) for x in part]
    return MAD_TO_SD * median(deviations) if deviations else 0.0
