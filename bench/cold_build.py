"""Cold build of the example site against a floor, in the same run.

Each run is a fresh process (imports included), as a user's `python build.py` is.
The floor (bench/floor.py) renders the same data with jinja2 + yaml + babel and
nothing else. Runs alternate between the two so that noise hits both alike. Then one
build with the chart cache emptied, and one with every cache emptied (the first build
after a clone), show what the caches under .cache/ save. With --instructions, one run of
each under valgrind's callgrind also gives the instructions each executes: a count that
repeats to within a few hundredths of a percent where wall-clock times wander.

    python bench/cold_build.py [--runs 20] [--instructions]
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import BUILD, REPO, run_timed, table, user_env


def empty_caches(tmp: Path) -> list[tuple[str, ...]]:
    """One build of a copy of the example without its chart cache (every chart is
    drawn: Altair and vl-convert load), and one without any cache."""
    rows = []
    for what, keep_others in (("build, chart cache empty (draws every chart)", True),
                              ("build, every cache empty (first after a clone)", False)):
        source = tmp / ("charts-gone" if keep_others else "all-gone")
        for name in ("data", "content"):
            shutil.copytree(REPO / name, source / name)
        if keep_others:
            shutil.copytree(REPO / ".cache", source / ".cache")
            shutil.rmtree(source / ".cache" / "charts")
        seconds = run_timed([*BUILD, "--source", str(source), "--out", str(source / "site")])[0]
        rows.append((what, f"{seconds:.3f}", "-", "-", "1"))
    return rows


def instructions(cmd: list[str]) -> int:
    """The instructions one run of `cmd` executes, counted by valgrind's callgrind."""
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (Debian: apt install valgrind)")
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           *cmd], capture_output=True, text=True, env=user_env())
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"{' '.join(cmd)} failed under valgrind:\n{done.stderr}")
    return int(found.group(1))


def middle_half(times: list[float]) -> str:
    """The first to the third quartile: how much the machine moved the runs."""
    low, _, high = statistics.quantiles(times, n=4)
    return f"{low:.3f} to {high:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20,
                        help="runs of each (default 20: on a noisy machine, 10 runs' median "
                             "can move by 0.15)")
    parser.add_argument("--no-empty-caches", action="store_true",
                        help="skip the two builds with emptied caches (they draw charts)")
    parser.add_argument("--instructions", action="store_true",
                        help="also count each one's instructions under valgrind (slow)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        build = [*BUILD, "--out", str(out / "site")]
        floor = [sys.executable, str(REPO / "bench" / "floor.py"), str(REPO), str(out / "floor")]
        run_timed(build)  # the first build fills the template and chart caches
        ours, base = [], []
        for _ in range(args.runs):
            ours.append(run_timed(build)[0])
            base.append(run_timed(floor)[0])
        cold = [] if args.no_empty_caches else empty_caches(out)
        counted = (instructions(build), instructions(floor)) if args.instructions else None
    m_ours, m_base = statistics.median(ours), statistics.median(base)
    print(table([
        ("what", "median (s)", "min (s)", "middle half (s)", "runs"),
        ("progress-site build (warm caches)", f"{m_ours:.3f}", f"{min(ours):.3f}",
         middle_half(ours), str(args.runs)),
        ("floor: jinja2 + yaml + babel", f"{m_base:.3f}", f"{min(base):.3f}",
         middle_half(base), str(args.runs)),
        *cold,
    ]))
    print(f"\nratio build / floor: {m_ours / m_base:.2f} (target: <= 1.00); of the fastest "
          f"runs: {min(ours) / min(base):.2f} (less swayed by a busy machine)")
    if counted:
        print(f"instructions: build {counted[0] / 1e6:.1f} M, floor {counted[1] / 1e6:.1f} M, "
              f"ratio {counted[0] / counted[1]:.2f} (what the code does; time adds the "
              "machine's caches, page faults and I/O)")


if __name__ == "__main__":
    main()
