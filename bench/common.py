"""Shared helpers of the benchmark scripts: timing subprocesses, medians, tables."""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parent.parent
BUILD = [sys.executable, str(REPO / "build.py")]
# Runs are timed as a user's Python runs them: with compiled modules cached. Some sandboxes
# and CI images set PYTHONDONTWRITEBYTECODE, which would make every run recompile the
# engine; the cache goes to a folder of its own, not into the source tree.
PYCACHE = Path(tempfile.gettempdir()) / "progress-site-bench-pycache"


def user_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of the timed runs: this one, with bytecode caching on."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPYCACHEPREFIX": str(PYCACHE), **(extra or {})}


class Timed(NamedTuple):
    """One run of a command: its wall time, and the processor time it and its children
    used (which a busy shared machine moves much less than the wall time)."""

    seconds: float
    cpu: float


def run_timed(cmd: list[str], env: dict[str, str] | None = None) -> Timed:
    """Time one run of a command; exit with its errors if it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=user_env(env))
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stderr}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Timed(elapsed, cpu)


def add_line(page: Path, run: int) -> None:
    """Edit a Markdown page as its author does, with a line added: the next build is a
    real one (a build with nothing changed does nothing, and is timed as such)."""
    with page.open("a", encoding="utf-8") as file:
        file.write(f"\nA line added for run {run}.\n")


def peak_rss_kib(cmd: list[str]) -> int:
    """Peak resident memory of one run, measured by wrapping it in its own process."""
    code = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
            "capture_output=True); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    done = subprocess.run([sys.executable, "-c", code, *cmd], capture_output=True, text=True,
                          check=True, env=user_env())
    return int(done.stdout.strip())


def middle_half(times: list[float]) -> str:
    """The first to the third quartile: how much the machine moved the runs."""
    if len(times) < 2:
        return f"{times[0]:.3f} to {times[0]:.3f}"
    low, _, high = statistics.quantiles(times, n=4, method="inclusive")
    return f"{low:.3f} to {high:.3f}"


def table(rows: list[tuple[str, ...]]) -> str:
    """Rows as an aligned plain-text table (the first row is the header)."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
