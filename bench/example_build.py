"""Build of the example site in a new process with warm caches, against its 0.3 s target.

Each run is a fresh `python build.py` (imports included), as a user's is, after one
build that fills its cache folder (`--cache-dir`, a temporary one). Two rows: the
example built again with nothing changed (the build finds its inputs and output those
of the last build, and does nothing: the target's row), and a copy of it built after one
content file is edited (each run adds a line to a page: a real build, which loads,
renders and publishes), and new copies of it each built once with the cache folder
restored, as CI restores it (a new clone's first build: no site/ and no record of a last
build, the charts already drawn). With --empty-caches, one build with the chart cache emptied and
one with an empty cache folder (the first build on a new machine) show what the cache
saves; they draw every chart, so they are off by default. Beside them, the floor of any
first build that draws a chart: Python importing Altair and vl-convert drawing one
point, and nothing else.

Beside them, the imports alone, each in a new process: `import progress_site.cli` (what
`--help`, `--version` and a build that finds nothing changed load) and
`import progress_site.pipeline` (what every real build loads before it reads a file).

    python bench/example_build.py [--runs 20] [--empty-caches]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from common import BUILD, REPO, add_line, middle_half, run_timed, table

TARGET_S = 0.3
FIRST_TARGET_S = 1.2
# The chosen chart libraries alone: what a first build that draws a chart cannot go under.
FLOOR = ("import altair as alt, vl_convert as vlc\n"
         "chart = alt.Chart(alt.Data(values=[{'x': 1}])).mark_point().encode(x='x:Q')\n"
         "vlc.vegalite_to_svg(chart.to_dict())\n")


def empty_caches(tmp: Path, warm: Path) -> list[tuple[str, ...]]:
    """One build of a copy of the example without its chart cache (every chart is
    drawn: Altair and vl-convert load), and one with an empty cache folder."""
    rows = []
    for what, keep_others in (("build, chart cache empty", True),
                              ("build, every cache empty", False)):
        source = tmp / ("charts-gone" if keep_others else "all-gone")
        cache = tmp / f"{source.name}-cache"
        for name in ("data", "content"):
            shutil.copytree(REPO / name, source / name)
        if keep_others:
            shutil.copytree(warm, cache)
            shutil.rmtree(cache / "charts", ignore_errors=True)
        run = run_timed([*BUILD, "--source", str(source), "--out", str(source / "site"),
                         "--cache-dir", str(cache)])
        rows.append((what, f"{run.seconds:.3f}", "-", "-", f"{run.cpu:.3f}", "1",
                     "-" if keep_others else f"<= {FIRST_TARGET_S}"))
    floor = run_timed([sys.executable, "-c", FLOOR])
    rows.append(("floor: Altair imported, one point drawn", f"{floor.seconds:.3f}", "-", "-",
                 f"{floor.cpu:.3f}", "1", "-"))
    return rows


IMPORTS = ("progress_site.cli", "progress_site.pipeline")


def import_rows(runs: int) -> list[tuple[str, ...]]:
    """The processor time of each of IMPORTS alone, in new processes, beside the builds."""
    rows = []
    for module in IMPORTS:
        cmd = [sys.executable, "-c", f"import {module}"]
        timed = [run_timed(cmd, {"PYTHONPATH": str(REPO)}) for _ in range(runs)]
        times = [t.seconds for t in timed]
        rows.append((f"import {module}", f"{statistics.median(times):.3f}", f"{min(times):.3f}",
                     middle_half(times), f"{statistics.median(t.cpu for t in timed):.3f}",
                     str(runs), "-"))
    return rows


def edited_rows(tmp: Path, warm: Path, runs: int) -> tuple[str, ...]:
    """A copy of the example built `runs` times, each after one line added to a page."""
    source = tmp / "edited"
    for name in ("data", "content"):
        shutil.copytree(REPO / name, source / name)
    build = [*BUILD, "--source", str(source), "--cache-dir", str(warm)]
    run_timed(build)  # its first build: not counted
    page = source / "content" / "en" / "index.md"
    timed = []
    for run in range(runs):
        add_line(page, run + 1)
        timed.append(run_timed(build))
    times = [t.seconds for t in timed]
    return ("example site, one content file edited", f"{statistics.median(times):.3f}",
            f"{min(times):.3f}", middle_half(times),
            f"{statistics.median(t.cpu for t in timed):.3f}", str(runs), "-")


def clone_rows(tmp: Path, warm: Path, runs: int) -> tuple[str, ...]:
    """`runs` new copies of the example (new clones, no site/ yet), each built once with
    the cache folder restored, as the workflows `new` writes restore it in CI."""
    timed = []
    for run in range(runs):
        source = tmp / f"clone-{run}"
        for name in ("data", "content"):
            shutil.copytree(REPO / name, source / name)
        timed.append(run_timed([*BUILD, "--source", str(source), "--cache-dir", str(warm)]))
    times = [t.seconds for t in timed]
    return ("first build of a new clone, cache folder restored (CI)",
            f"{statistics.median(times):.3f}", f"{min(times):.3f}", middle_half(times),
            f"{statistics.median(t.cpu for t in timed):.3f}", str(runs),
            f"<= {FIRST_TARGET_S}")


def main() -> None:
    """Time the runs, then print the median and the spread beside the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20,
                        help="builds timed (default %(default)s: this machine's speed "
                             "wanders, and the median of fewer moves with it)")
    parser.add_argument("--empty-caches", action="store_true",
                        help="also one build with the chart cache emptied, and one with "
                             "every cache emptied (each draws every chart)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        warm = Path(tmp) / "cache"
        build = [*BUILD, "--source", str(REPO), "--out", str(Path(tmp) / "site"),
                 "--cache-dir", str(warm)]
        run_timed(build)  # fills the cache; not counted
        runs = [run_timed(build) for _ in range(args.runs)]
        edited = edited_rows(Path(tmp), warm, args.runs)
        clones = clone_rows(Path(tmp), warm, args.runs)
        cold = empty_caches(Path(tmp), warm) if args.empty_caches else []
    imports = import_rows(args.runs)
    times = [r.seconds for r in runs]
    median = statistics.median(times)
    print(table([
        ("what", "median (s)", "min (s)", "middle half (s)", "cpu median (s)", "runs",
         "target (s)"),
        ("example site, nothing changed", f"{median:.3f}", f"{min(times):.3f}",
         middle_half(times), f"{statistics.median(r.cpu for r in runs):.3f}", str(args.runs),
         f"<= {TARGET_S}"),
        edited,
        clones,
        *imports,
        *cold,
    ]))
    verdict = "met" if median <= TARGET_S else "MISSED"
    print(f"\ntarget: the median at most {TARGET_S} s ({verdict}), nothing changed (a build "
          "that does nothing); each run is a new process running `python build.py`; cpu: the "
          "processor time it used, which a busy machine moves less than the wall time")


if __name__ == "__main__":
    main()
