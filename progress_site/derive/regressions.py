"""Steps outside the noise: where a benchmark's level changed, by how much, and whether
it got better or worse. docs/regressions.md ("How a step is found") explains the method:
cuts found by a rank scan (`scan`) and a tail watch (`tail_cut`), placed (`cuts.refine`),
then gated (`cuts.gate`, `prune`).

Nothing here is random, and nothing depends on set or dict order: the same series gives
the same steps on any machine and under any PYTHONHASHSEED.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from statistics import median
from typing import Literal

from progress_site.derive.cuts import (
    Cut,
    Gate,
    Settings,
    boundary_range,
    gate,
    placing_scale,
    refine,
    robust_sigma,
    samples_agree,
)
from progress_site.derive.ranks import mann_whitney_p, rank_scan, tie_term, tied_pairs
from progress_site.derive.series import Series, median_interval

SeriesStatus = Literal["improved", "regressed", "within noise", "not enough points"]
StepStatus = Literal["regressed", "improved", "pending"]


@dataclass(frozen=True, slots=True)
class Step:
    """A change of level between two commits.

    The change happened in (`last_before`, `first_after`]: after the old level's last
    commit, at or before the new level's first. `commits` counts the commits in that
    range (1: the very commit is known). `noise` is the relative spread of single
    commits around their levels (a robust standard deviation) the step was judged
    against; `p_value` is the rank test's, corrected for the scan's looks."""

    last_before: str
    first_after: str
    index: int  # where the new level starts, as fitted (an index into the series)
    commits: int
    before: float
    after: float
    before_interval: tuple[float, float]
    after_interval: tuple[float, float]
    noise: float
    p_value: float
    samples_p_value: float | None
    points_after: int
    direction: Literal["regression", "improvement"]
    status: StepStatus

    @property
    def ratio(self) -> float:
        """The new level over the old."""
        return self.after / self.before

    @property
    def percent(self) -> float:
        """The change in percent of the old level (+10.0: ten percent higher)."""
        return (self.ratio - 1) * 100


@dataclass(frozen=True, slots=True)
class Report:
    """One series analysed: its status, its steps oldest first, and its outliers
    (commits far off their level, never steps). Each commit's median and interval are
    `series.summarise`'s, for whoever shows them.

    The status follows the newest step, pending or not: a series whose last step is a
    regression is "regressed" until a later step improves it."""

    status: SeriesStatus
    steps: tuple[Step, ...]
    outliers: tuple[str, ...]


DEFAULT = Settings()


def analyse(series: Series, settings: Settings = DEFAULT) -> Report:
    """The steps, outliers and status of one series."""
    if len(series.points) < settings.min_points:
        return Report("not enough points", (), ())
    values = [p.value if p.value is not None else median(p.samples) for p in series.points]
    samples = [p.samples for p in series.points]
    cuts = settle(values, samples, scan(values, samples, settings), series.min_change, settings)
    last = max(cuts, default=0)
    tail = tail_cut(values[last:], settings)
    if tail is not None and last + tail not in cuts:
        # Watched after the scan's cuts are settled, against the newest kept level.
        found = {at: cut.looks for at, cut in cuts.items()} | {last + tail: settings.tail_looks}
        cuts = settle(values, samples, found, series.min_change, settings)
    edges = [0, *sorted(cuts), len(values)]
    steps = tuple(describe(series, values, (start, at, end), cuts[at], settings)
                  for start, at, end in zip(edges, edges[1:], edges[2:], strict=False)
                  if cuts[at].passed)
    far = far_off(values, edges, series.min_change, settings)
    outliers = tuple(series.points[i].commit for i in far)
    status: SeriesStatus = "within noise"
    if steps:
        status = "regressed" if steps[-1].direction == "regression" else "improved"
    return Report(status, steps, outliers)


def scan(values: Sequence[float], samples: Sequence[tuple[float, ...]], settings: Settings
         ) -> dict[int, int]:
    """Cuts found by binary segmentation on ranks: each cut's index and the number of
    looks its test is corrected for. A split too short for the commits' test to pass is
    kept when its levels do not overlap and the pooled samples confirm it (`gate`)."""
    cuts: dict[int, int] = {}
    todo = [(0, len(values))]
    while todo:
        start, end = todo.pop()
        split = rank_scan(values[start:end])
        if split is None:
            continue
        worth = settings.alpha / split.looks
        pairs = (tied_pairs(values[start:start + split.at], values[start + split.at:end])
                 if split.ties else 0.0)
        p = mann_whitney_p(split.u, split.at, end - start - split.at, split.ties, worth,
                           pairs)
        at = start + split.at
        if p < worth or samples_agree(values, samples, Cut(start, at, end, split.looks),
                                      settings):
            cuts[at] = split.looks
            todo += [(start, start + split.at), (start + split.at, end)]
    return cuts


def settle(values: Sequence[float], samples: Sequence[tuple[float, ...]],
           found: dict[int, int], min_change: float, settings: Settings) -> dict[int, Gate]:
    """The cuts placed and judged. Placing a cut can change a gate's verdict, and dropping
    a cut moves its neighbours' best places: twice settles both."""
    placing = placing_scale(values)
    cuts = prune(values, samples, refine(placing, found), min_change, settings)
    found = {at: cut.looks for at, cut in cuts.items()}
    return prune(values, samples, refine(placing, found), min_change, settings)


def tail_cut(values: Sequence[float], settings: Settings) -> int | None:
    """Where the newest 1 to `tail_looks` commits differ most from the level before
    them, if they differ beyond noise: the index of their first commit."""
    looks = settings.tail_looks
    if len(values) - looks < settings.min_points:
        return None
    ties = tie_term(values) if len(set(values)) < len(values) else 0.0
    base = sorted(values[:len(values) - looks])
    worth = settings.alpha / looks
    best, best_p = None, worth
    for k in range(1, looks + 1):
        older = len(values) - k
        newer = values[older:]
        u = sum(below(base, values[len(base):older], y) for y in newer)
        pairs = tied_pairs(values[:older], newer) if ties else 0.0
        p = mann_whitney_p(u, k, older, ties, worth, pairs)
        if p < best_p:
            best, best_p = older, p
    return best


def below(ordered: Sequence[float], others: Sequence[float], y: float) -> float:
    """How many values of a sorted sequence and a few others are below y, ties counted
    half: the pairs one value adds to U."""
    low, high = bisect_left(ordered, y), bisect_right(ordered, y)
    return low + (high - low) / 2 + sum(1.0 if x < y else 0.5 for x in others if x <= y)


def prune(values: Sequence[float], samples: Sequence[tuple[float, ...]],
          cuts: dict[int, int], min_change: float, settings: Settings) -> dict[int, Gate]:
    """The cuts between levels that differ beyond noise, each with its gate; the
    weakest failing cut is dropped first and the rest judged again, until all pass.
    A real change smaller than `min_change` stays a cut, so that the levels on either
    side of it are not blended into one (which would make the next change look
    larger or smaller than it is); it is only not reported."""
    while True:
        edges = [0, *sorted(cuts), len(values)]
        judged = {at: gate(values, samples, Cut(start, at, end, cuts[at]), min_change,
                           settings)
                  for start, at, end in zip(edges, edges[1:], edges[2:], strict=False)}
        failing = sorted((abs(g.change), -g.p_value, at) for at, g in judged.items()
                         if not g.real)
        if not failing:
            return judged
        del cuts[failing[0][2]]


def describe(series: Series, values: Sequence[float], edges: Sequence[int], found: Gate,
             settings: Settings) -> Step:
    """A kept cut as a step: its commit range, levels, noise, p-value and status."""
    start, at, end = edges
    before, after = values[start:at], values[at:end]
    placing = placing_scale(values)
    low, high = boundary_range(placing, start, at, end, median(placing[start:at]),
                               median(placing[at:end]), settings.likelihood)
    worse = (found.change > 0) == (series.better == "lower")
    status: StepStatus = "regressed" if worse else "improved"
    if len(after) < settings.level_points and end == len(values):
        status = "pending"
    level = median(before)
    return Step(
        last_before=series.points[low - 1].commit, first_after=series.points[high].commit,
        index=at, commits=high - low + 1, before=level, after=median(after),
        before_interval=median_interval(before, settings.confidence)[:2],
        after_interval=median_interval(after, settings.confidence)[:2],
        noise=robust_sigma(values, start, at, end) / level, p_value=found.p_value,
        samples_p_value=found.samples_p_value, points_after=len(after),
        direction="regression" if worse else "improvement", status=status)


def far_off(values: Sequence[float], edges: Sequence[int], min_change: float,
            settings: Settings) -> list[int]:
    """Points farther from their level than `outlier_noises` noise widths and than the
    minimum change: one-commit excursions, reported beside the steps, never as one."""
    found = []
    for start, end in pairwise(edges):
        if end - start < settings.level_points:
            continue
        part = values[start:end]
        level = median(part)
        width = max(min_change * level,
                    settings.outlier_noises * robust_sigma(values, start, end, end))
        if min(part) < level - width or max(part) > level + width:
            found += [i for i in range(start, end) if abs(values[i] - level) > width]
    return found

