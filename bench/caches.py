"""What each on-disk cache saves on the builds a user waits for: the example's first
build and its rebuild, and a rebuild of the 10,000-figure site of bench/scale.py after
one edited value (the build a maintainer runs most on a large site).

Each folder a build leaves in its cache folder (`--cache-dir`) is one cache. For each,
the same build is timed with the whole cache warm, and with that one folder deleted
before the run (the build then does that cache's work again, and stores its entries
again). A cache pays when it saves a time a user feels: at least 0.1 s and a tenth of
the build it speeds up, in processor time (a shared machine's load moves wall times by
more than some of these savings).

Then what watch mode's builds remember (each data file parsed and converted, by its text:
`BuildConfig.remembered`, load/parse_cache.py): the large site's watch rebuild after
one edited file (load to publish, as watch mode runs it: templates kept, no fork, changed
charts left to the drawer), with that memory and with it cleared (as a first build).

    python bench/caches.py [--runs 5] [--figures 10000]
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from common import BUILD, REPO, Timed, run_timed, table
from generate import generate
from scale import edit_one_value

sys.path.insert(0, str(REPO))

from progress_site.load.site import remembered
from progress_site.pipeline import BuildConfig, finish, prepare
from progress_site.publish.swap import publish

PAYS_S, PAYS_SHARE = 0.1, 0.1
Row = tuple[str, ...]


def verdict(saved: float, without: float) -> str:
    """Whether a cache's saving is one a user feels."""
    return "yes" if saved >= PAYS_S and saved >= PAYS_SHARE * without else "no"


def measure(site: str, source: Path, work: Path, runs: int,
            before: Callable[[], None]) -> list[Row]:
    """The first build of `source`, its rebuild warm, and the rebuild without each cache.

    The rebuilds take turns (warm, then without each cache, and again), so that a busy
    moment of the shared machine falls on all of them alike."""
    cache = work / "cache"
    # With a public address, as CI publishes: the social cards are made then.
    # --force: the same build again would find nothing changed, and do nothing.
    cmd = [*BUILD, "--source", str(source), "--out", str(work / "out"),
           "--cache-dir", str(cache), "--base-url", "https://example.org/site/", "--force"]
    first = run_timed(cmd)
    folders = sorted(p for p in cache.iterdir() if p.is_dir())
    timed: dict[str, list[Timed]] = {"": [], **{f.name: [] for f in folders}}
    for _ in range(runs):
        for folder in [None, *folders]:
            before()
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
            timed[folder.name if folder else ""].append(run_timed(cmd))
    wall = {name: statistics.median(t.seconds for t in runs_) for name, runs_ in timed.items()}
    cpu = {name: statistics.median(t.cpu for t in runs_) for name, runs_ in timed.items()}
    rows: list[Row] = [
        (site, "(every cache empty: a first build)", f"{first.seconds:.2f}", f"{first.cpu:.2f}",
         "-", "-", "-", "-"),
        (site, "(every cache warm)", f"{wall['']:.2f}", f"{cpu['']:.2f}", "-", "-", "-", "-")]
    for folder in folders:
        name = folder.name
        saved = cpu[name] - cpu[""]
        rows.append((site, f"{name}/", f"{wall['']:.2f}", f"{cpu['']:.2f}", f"{wall[name]:.2f}",
                     f"{cpu[name]:.2f}", f"{saved:+.2f}", verdict(saved, cpu[name])))
    return rows


def forget(config: BuildConfig) -> BuildConfig:
    """`config` with no memory of parsed and converted files (its templates kept)."""
    return dataclasses.replace(config, remembered=remembered())


def rebuild_cpu(config: BuildConfig, later: bool) -> float:
    """The processor time of one watch rebuild of `config` in this process, from load to
    publish (`later`: its changed charts left to draw, as watch.rebuild's); it must build."""
    start = time.process_time()
    built = finish(config, prepare(config), last_drawings={} if later else None)
    publish(built.files, config.out)
    return time.process_time() - start


def in_process(name: str, source: Path, data: Path, work: Path, runs: int) -> list[Row]:
    """Watch mode's rebuild after one edit, with the process's memory of parsed and
    converted files and without it, taking turns (as `measure` does)."""
    config = BuildConfig(source=source, out=work / "out", today=dt.date.today(),
                         cache=work / "cache")
    # Beside a thread, as watch mode's builds run beside its server: they never fork, so
    # this process's processor time is the whole rebuild's.
    idle = threading.Event()
    threading.Thread(target=idle.wait, daemon=True).start()
    first = rebuild_cpu(config, later=False)
    warm: list[float] = []
    cold: list[float] = []
    for _ in range(runs):
        edit_one_value(data)
        warm.append(rebuild_cpu(config, later=True))
        edit_one_value(data)
        cold.append(rebuild_cpu(forget(config), later=True))
    idle.set()
    with_it, without = statistics.median(warm), statistics.median(cold)
    saved = without - with_it
    return [("site", "remembered", "first build cpu (s)", "with it cpu (s)",
             "without it cpu (s)", "cpu saved (s)", "pays"),
            (name, "parsed and converted files", f"{first:.2f}", f"{with_it:.2f}",
             f"{without:.2f}", f"{saved:+.2f}", verdict(saved, without))]


def main() -> None:
    """Measure both sites, then print each cache's saving beside the rule it must meet."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--figures", type=int, default=10_000)
    parser.add_argument("--tasks", type=int, default=1_000)
    args = parser.parse_args()
    rows: list[Row] = [("site", "cache", "with it (s)", "cpu (s)", "without it (s)", "cpu (s)",
                        "cpu saved (s)", "pays")]
    with tempfile.TemporaryDirectory() as tmp:
        example = Path(tmp) / "example"
        for name in ("data", "content"):
            shutil.copytree(REPO / name, example / name)
        rows += measure("example, rebuild", example, Path(tmp) / "e", args.runs,
                        lambda: None)
        large = Path(tmp) / "large"
        generate(large, args.figures, args.tasks)
        data = large / "data" / "measurements.yaml"
        rows += measure(f"{args.figures:,} figures, one edit", large, Path(tmp) / "l",
                        args.runs, lambda: edit_one_value(data))
        memory = in_process(f"{args.figures:,} figures, watch rebuild, one file edited",
                            large, data, Path(tmp) / "w", args.runs)
    print(table(rows))
    print(f"\ntarget: a cache stays only if it pays: it saves at least {PAYS_S} s and "
          f"{PAYS_SHARE:.0%} of the build without it, in processor time (which the "
          "neighbours on a shared machine move much less than the wall time); medians of "
          f"{args.runs} builds, each a new process; a cache deleted before a run is also "
          "stored again in it")
    print("\nin this process (watch mode):\n")
    print(table(memory))
    print(f"\ntarget: the same rule, on the whole rebuild (load to publish); medians of "
          f"{args.runs} rebuilds, taking turns")


if __name__ == "__main__":
    main()
