"""Build time and peak memory of generated sites of 1,000, 10,000 and 100,000 figures,
beside the target: 10,000 figures and 1,000 tasks in at most 2 s and 150 MiB.

Each size is built in a fresh process: once with empty caches, then three times with
warm caches and nothing changed (the time kept is the best: such a build finds its inputs
and output those of the last one, and does nothing), as a maintainer rebuilds; then once
after one value of the data is edited (a real build). The peak memory is a real build's
(`--force`). Growth should be no worse than linear.

    python bench/scale.py [--sizes 1000 10000 100000] [--tasks 1000]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from common import BUILD, peak_rss_kib, run_timed, table
from generate import generate

TARGET_FIGURES, TARGET_TASKS, TARGET_S, TARGET_MIB = 10_000, 1_000, 2.0, 150


def edit_one_value(path: Path) -> None:
    """Change the first measured value of a data file, as a maintainer's edit does."""
    text = path.read_text("utf-8")
    at = text.index("value: ") + len("value: ")
    end = text.index(",", at)
    path.write_text(f"{text[:at]}{float(text[at:end]) + 1:.2f}{text[end:]}", "utf-8")


def targets(size: int, tasks: int) -> tuple[str, str]:
    """The time and memory targets of a size: only 10,000 figures and 1,000 tasks have one."""
    if (size, tasks) != (TARGET_FIGURES, TARGET_TASKS):
        return "-", "-"
    return f"<= {TARGET_S:.0f}", f"<= {TARGET_MIB}"


def main() -> None:
    """Build each size, then print its figures beside the targets."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--tasks", type=int, default=1_000)
    args = parser.parse_args()
    rows = [("figures", "tasks", "first build (s)", "time (s)", "cpu (s)", "target (s)",
             "one edit (s)", "peak (MiB)", "target (MiB)", "time growth", "size growth")]
    previous: tuple[int, float] | None = None
    for size in args.sizes:
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "src"
            generate(src, size, args.tasks)
            cmd = [*BUILD, "--source", str(src), "--out", str(Path(tmp) / "out"),
                   "--cache-dir", str(Path(tmp) / "cache")]
            first = run_timed(cmd).seconds  # an empty cache folder: it fills it
            best = min((run_timed(cmd) for _ in range(3)), key=lambda run: run.seconds)
            edit_one_value(src / "data" / "measurements.yaml")
            edited = run_timed(cmd).seconds  # every page rendered again
            peak = peak_rss_kib([*cmd, "--force"]) / 1024  # nothing changed: made to build
        growth = ("-", "-") if previous is None else (
            f"x{best.seconds / previous[1]:.1f}", f"x{size / previous[0]:.0f}")
        time_target, memory_target = targets(size, args.tasks)
        rows.append((f"{size:,}", f"{args.tasks:,}", f"{first:.2f}", f"{best.seconds:.2f}",
                     f"{best.cpu:.2f}", time_target, f"{edited:.2f}", f"{peak:.0f}",
                     memory_target, *growth))
        previous = (size, best.seconds)
    print(table(rows))
    print(f"\ntargets: {TARGET_FIGURES:,} figures and {TARGET_TASKS:,} tasks in {TARGET_S:.0f} s "
          f"and {TARGET_MIB} MiB (warm caches, nothing changed); time growth <= size growth;\n"
          "cpu: the processor time of the fastest warm build, any child it forks included "
          "(a busy machine moves it less than the wall time)")


if __name__ == "__main__":
    main()
