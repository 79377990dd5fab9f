"""Regression detection (progress_site/derive/regressions.py) on the fixed-seed synthetic
corpus of tests/regression_corpus.py, each figure beside its target and beside what
/work/shared/REGRESSIONS.md measured for asv's `step_detect` and for a ~100-line
pure-Python sketch on the same kind of series (500 points, Gaussian noise at a CV of
2.66 %, steps at a random index in 100 to 400, outliers: 2 % of points x1.3).

- a false alarm: a noise-only series with any step reported, pending ones included;
- located: a step reported whose new level starts within +-1 commit of the planted one;
- single commit: located, and its range (last old commit, first new] is one commit;
- lag: 200 points of noise, then a 10 % step fed one commit at a time; the lag is how
  many commits of the new level were analysed when a step was first reported near it
  (new level starting within +-5 commits), pending or not: 2 means the second slow
  commit raised it;
- speed: `analyse` of 200 series of 500 points, built beforehand, in this process
  (imports excluded): the median and the best of --runs, and the processor time, which
  neighbours on a shared machine move much less than the wall time; and one series of
  501 points analysed again, as when CI appends a commit (median of 20).

    python bench/regressions.py [--series 1000] [--lag-trials 200] [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

from common import REPO, table

sys.path.insert(0, str(REPO))

from progress_site.derive.regressions import Report, analyse
from tests.regression_corpus import Planted, corpus, planted, series

HISTORY, LAG_LIMIT, NEAR = 200, 30, 5
# A figure: what, measured, target, met (None: no target), asv's and the sketch's.
Row = tuple[str, str, str, bool | None, str, str]


def share(found: int, total: int) -> str:
    """A count as a percentage of the total."""
    return f"{100 * found / total:.1f} %"


def reports(items: list[Planted]) -> list[tuple[Planted, Report]]:
    """Each planted series with its analysis."""
    return [(p, analyse(series(p.values))) for p in items]


def located(p: Planted, r: Report, within: int = 1) -> bool:
    """Whether a step was reported within `within` commits of the planted one."""
    assert p.at is not None
    return any(abs(s.index - p.at) <= within for s in r.steps)


def single(p: Planted, r: Report) -> bool:
    """Located, with a range of one commit."""
    assert p.at is not None
    return any(abs(s.index - p.at) <= 1 and s.commits == 1 for s in r.steps)


def rate(done: list[tuple[Planted, Report]], test: Callable[[Planted, Report], bool]
         ) -> tuple[int, int]:
    """How many of the analysed series pass a test, and of how many."""
    return sum(test(p, r) for p, r in done), len(done)


def lag(seed: int) -> int:
    """Commits of a 10 % step's new level seen until a step is reported near it."""
    values = planted(seed, HISTORY + LAG_LIMIT, 0.10, at=HISTORY).values
    for k in range(1, LAG_LIMIT + 1):
        if any(abs(s.index - HISTORY) <= NEAR
               for s in analyse(series(values[:HISTORY + k])).steps):
            return k
    return LAG_LIMIT + 1


def speed(count: int, points: int, runs: int) -> tuple[list[float], list[float]]:
    """Wall and processor seconds of analysing `count` noise series, per run."""
    data = [series(p.values) for p in corpus(7, count, points)]
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        for s in data:
            analyse(s)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return walls, cpus


def alarms(n: int, points: int) -> list[Row]:
    """False alarms on noise alone, and with outliers."""
    rows = []
    for label, seed, outliers, asv, sketch in (("noise", 1, False, "0 %", "0.0 %"),
                                               ("noise + outliers", 2, True, "0 %", "0.1 %")):
        found, total = rate(reports(corpus(seed, n, points, outliers=outliers)),
                            lambda _p, r: bool(r.steps))
        rows.append((f"false alarms, {label}", share(found, total), "<= 1 %",
                     found <= total / 100, asv, sketch))
    return rows


def detections(n: int, points: int) -> list[Row]:
    """10 % steps located, in one commit, inside their range; 5 % and 50 % steps located."""
    tenth = reports(corpus(3, n, points, change=0.10))
    found, total = rate(tenth, located)
    rows: list[Row] = [("10 % step located +-1", share(found, total), ">= 97 %",
                        found >= 0.97 * total, "99.7 %", "97.7 %")]
    found, total = rate(tenth, single)
    rows.append(("10 % step, range of 1 commit", share(found, total), ">= 90 %",
                 found >= 0.90 * total, "-", "-"))
    found, total = rate(tenth, lambda p, r: any(
        int(s.last_before[1:]) < (p.at or 0) <= int(s.first_after[1:]) for s in r.steps))
    rows.append(("10 % step inside its range", share(found, total), "-", None, "-", "-"))
    for change, asv, sketch in ((0.05, "42 %", "42 %"), (0.50, "-", "-")):
        found, total = rate(reports(corpus(4, n, points, change=change)), located)
        rows.append((f"{change * 100:.0f} % step located +-1", share(found, total), "-", None,
                     asv, sketch))
    return rows


def lags(trials: int) -> list[Row]:
    """How soon a 10 % step is reported, fed one commit at a time."""
    seen = sorted(lag(5 * 100_000 + i) for i in range(trials))
    quick = sum(k <= 3 for k in seen)
    return [("lag <= 3 commits (10 % step)", share(quick, len(seen)), ">= 90 %",
             quick >= 0.9 * len(seen), "-", "-"),
            ("lag, median / max (commits)", f"{statistics.median(seen):g} / {seen[-1]}",
             "-", None, "7 / 12", "3 / 13")]


def speeds(count: int, points: int, runs: int) -> list[Row]:
    """Analysing many series, and one series again after one more commit."""
    walls, cpus = speed(count, points, runs)
    grown = series(planted(9, points + 1).values)
    again = []
    for _ in range(20):
        start = time.perf_counter()
        analyse(grown)
        again.append(1000 * (time.perf_counter() - start))
    return [(f"{count} x {points} points (s)",
             f"{statistics.median(walls):.2f} (best {min(walls):.2f}, "
             f"cpu {statistics.median(cpus):.2f})",
             "<= 1", statistics.median(walls) <= 1, "3.3 (14.1 pure Python)", "0.26"),
            (f"one more commit, {points + 1} points (ms)", f"{statistics.median(again):.1f}",
             "< 100", statistics.median(again) < 100, "-", "-")]


def measure(args: argparse.Namespace) -> list[Row]:
    """Each figure: what, measured, target, met (None: no target), asv, sketch."""
    return [*alarms(args.series, args.points), *detections(args.series, args.points),
            *lags(args.lag_trials), *speeds(args.speed_series, args.points, args.runs)]


def main() -> None:
    """Run every measure and print the table, then which targets were met."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--series", type=int, default=1000, help="series per corpus")
    parser.add_argument("--points", type=int, default=500, help="points per series")
    parser.add_argument("--lag-trials", type=int, default=200, help="steps fed one by one")
    parser.add_argument("--speed-series", type=int, default=200, help="series timed")
    parser.add_argument("--runs", type=int, default=3, help="timed runs")
    rows = measure(parser.parse_args())
    print(table([("what", "measured", "target", "asv step_detect", "sketch"),
                 *((what, got, target, asv, sketch)
                   for what, got, target, _, asv, sketch in rows)]))
    print()
    for what, got, target, met, _, _ in rows:
        if met is not None:
            print(f"target: {what} {target} ({'met' if met else 'MISSED'}: {got})")


if __name__ == "__main__":
    main()
