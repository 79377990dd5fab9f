"""A site of benchmark history at the scale of issue #23: 500 commits x 200 benchmarks
(100,000 points in data/history/), generated with a fixed seed, built in a new process,
each figure beside its target: the build in <= 5 s and <= 400 MiB, the dashboard page
<= 60 KB gzipped, and the same bytes from two builds.

The series are what CI leaves: one point a commit, a day apart, Gaussian noise at a CV of
2.66 % (REGRESSIONS.md's shared runners), a 10 % step in one series of ten, a few
releases labelled in data/commits.yaml. With `--samples N`, each point also holds its N
readings, its value their median, as `import` writes a harness's samples. The first build
has an empty cache folder, as on a fresh CI runner; the next ones find it warm. Wall
time, processor time (the build and any child it forks) and peak memory are those of
each build process.

    python bench/history_scale.py [--commits 500] [--benchmarks 200] [--runs 3] [--samples N]
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

from common import BUILD, table, user_env

TARGET_S, TARGET_MIB, TARGET_KB = 5.0, 400, 60
SEED = 23
CV = 0.0266
GROUPS = ("parse", "render", "load", "store", "net", "query", "index", "codec", "sched", "io")

SITE = """site:
  title: {en: History at scale, fr: Historique à l'échelle}
  tagline: {en: Generated, fr: Généré}
  repository: own
  repositories:
    - {id: own, name: Own, url: "https://example.org/own"}
"""
MACHINES = """machines:
  - {id: ci, name: {en: The CI runner, fr: Le serveur de CI}}
"""
PAGE = """---
title: {title}
---
{{{{< dashboard group=parse >}}}}
"""

# What one build printed about itself: wall and processor seconds, peak resident KiB.
USAGE = ("import resource, subprocess, sys, time; start = time.perf_counter(); "
         "done = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
         "wall = time.perf_counter() - start; u = resource.getrusage(resource.RUSAGE_CHILDREN); "
         "sys.stderr.write(done.stderr); "
         "print(wall, u.ru_utime + u.ru_stime, u.ru_maxrss, done.returncode)")


class Run(NamedTuple):
    """One build: wall and processor seconds, peak resident memory in MiB."""

    seconds: float
    cpu: float
    mib: float


def commit_id(i: int) -> str:
    """The i-th commit's short hash: the same on every run."""
    return hashlib.sha1(f"commit {i}".encode()).hexdigest()[:7]


def day(i: int) -> str:
    """The i-th commit's date: one a day from 2025-01-01."""
    year_days = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
    year, left = 2025, i
    while left >= 365:
        year, left = year + 1, left - 365
    month = 0
    while left >= year_days[month]:
        left -= year_days[month]
        month += 1
    return f"{year}-{month + 1:02d}-{left + 1:02d}"


def series_lines(rng: random.Random, commits: int, unit: str, stepped: bool,
                 samples: int = 0) -> str:
    """One benchmark's history file: a point a commit, a 10 % step when `stepped`; with
    `samples`, each point's readings and their median."""
    base = rng.uniform(1, 1000)
    at = rng.randrange(commits // 5, commits - commits // 5) if stepped else commits
    lines = []
    for i in range(commits):
        level = base * (1.10 if i >= at else 1.0)
        value = level * (1 + rng.gauss(0, CV))
        obj: dict[str, object] = {
            "commit": commit_id(i), "date": day(i), "machine": "ci", "value": round(value, 3),
            "unit": unit, "spread": round(value * CV, 3), "n": samples or 10}
        if samples:
            readings = [round(level * (1 + rng.gauss(0, CV)), 3) for _ in range(samples)]
            obj["value"] = statistics.median(readings)
            obj["samples"] = readings
        obj["tool"] = "pytest-benchmark"
        lines.append(json.dumps(obj, separators=(", ", ": ")) + "\n")
    return "".join(lines)


def generate(out: Path, commits: int, benchmarks: int, seed: int = SEED, samples: int = 0
             ) -> None:
    """Write the site's data/ and content/ under `out`."""
    rng = random.Random(seed)
    data, history = out / "data", out / "data" / "history"
    history.mkdir(parents=True)
    (data / "site.yaml").write_text(SITE, "utf-8")
    labels = "".join(f"  - {{id: {commit_id(i)}, label: v{1 + i // 50}.0}}\n"
                     for i in range(0, commits, 50))
    (data / "machines.yaml").write_text(MACHINES + "commits:\n" + labels, "utf-8")
    entries = ["measurements:"]
    for b in range(benchmarks):
        ident = f"{GROUPS[b % len(GROUPS)]}-case{b:03d}"
        entries.append(f"  - id: {ident}\n    title: {{en: Case {b}, fr: Cas {b}}}")
        (history / f"measurements.{ident}.jsonl").write_text(
            series_lines(rng, commits, "ms", b % 10 == 3, samples), "utf-8")
    (data / "measurements.yaml").write_text("\n".join(entries) + "\n", "utf-8")
    for lang, title in (("en", "History"), ("fr", "Historique")):
        (out / "content" / lang).mkdir(parents=True)
        (out / "content" / lang / "index.md").write_text(PAGE.format(title=title), "utf-8")


def build(cmd: list[str]) -> Run:
    """One build in a new process, timed from a process of its own."""
    done = subprocess.run([sys.executable, "-c", USAGE, *cmd], capture_output=True,
                          text=True, env=user_env())
    wall, cpu, kib, code = done.stdout.split()
    if code != "0":
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stderr}")
    return Run(float(wall), float(cpu), int(kib) / 1024)


def digest(out: Path) -> str:
    """One hash of every file of a built site, by path."""
    h = hashlib.sha256()
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        h.update(str(path.relative_to(out)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def main() -> None:
    """Generate, build, and print each figure beside its target."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commits", type=int, default=500)
    parser.add_argument("--benchmarks", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3, help="warm builds")
    parser.add_argument("--samples", type=int, default=0, help="readings a point")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "src", Path(tmp) / "out"
        generate(src, args.commits, args.benchmarks, samples=args.samples)
        # --force: the same build again would find nothing changed, and do nothing.
        cmd = [*BUILD, "--source", str(src), "--out", str(out),
               "--cache-dir", str(Path(tmp) / "cache"), "--force"]
        first = build(cmd)
        first_digest = digest(out)
        warm = [build(cmd) for _ in range(args.runs)]
        same = digest(out) == first_digest
        page = (out / "benchmarks" / "index.html").read_bytes()
        kb = len(gzip.compress(page, mtime=0)) / 1000
        files = sum(1 for p in out.rglob("*") if p.is_file())
    median = statistics.median(r.seconds for r in warm)
    rows = [("what", "measured", "target", "met"),
            ("first build, empty cache (s)", f"{first.seconds:.2f} (cpu {first.cpu:.2f})",
             f"<= {TARGET_S:.0f}", yes(first.seconds <= TARGET_S)),
            (f"warm build, median of {args.runs} (s)",
             f"{median:.2f} (cpu {statistics.median(r.cpu for r in warm):.2f})",
             f"<= {TARGET_S:.0f}", yes(median <= TARGET_S)),
            ("peak memory (MiB)", f"{max(r.mib for r in (first, *warm)):.0f}",
             f"<= {TARGET_MIB}", yes(max(r.mib for r in (first, *warm)) <= TARGET_MIB)),
            ("dashboard page, gzipped (KB)", f"{kb:.1f} ({len(page) / 1000:.0f} raw)",
             f"<= {TARGET_KB}", yes(kb <= TARGET_KB)),
            ("same bytes, two builds", yes(same), "yes", yes(same)),
            ("files published", f"{files:,}", "-", "-")]
    print(table(rows))
    print(f"\n{args.commits:,} commits x {args.benchmarks:,} benchmarks "
          f"= {args.commits * args.benchmarks:,} points; cpu: the processor time of the "
          "build and any child it forks")


def yes(met: bool) -> str:
    """A target's verdict."""
    return "yes" if met else "NO"


if __name__ == "__main__":
    main()
