"""`progress-site import go-test` of a large `go test -bench` output, beside its floor.

The output is generated (fixed seed): N lines, `--count` lines a benchmark (go test's
`-count`), with the header lines go test prints (goos, goarch, pkg, cpu) and its closing
`PASS`/`ok`. Each run imports it into a new site (`progress-site new`, then the site's
machine named with `--machine`), in a new process, as a user's CI step does: every
benchmark becomes a figure with a history file of its own (data/history/), checked
with the whole site before anything is written.

The floor is what any import of that output must at least do, in plain Python in a new
process: read the lines, group each benchmark's readings, and write one JSON line a
benchmark into a file of its own. The target (issue #25): 100,000 lines in a few seconds.

    python bench/import_scale.py [--lines 100000] [--count 5] [--runs 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import BUILD, Timed, run_timed, table, user_env

TARGET_S, TARGET_LINES = 5.0, 100_000

# The floor: the same file read and written as history files, nothing checked.
FLOOR = """
import json, re, sys
from pathlib import Path
line = re.compile(r"(Benchmark\\S*?)(?:-\\d+)?\\s+(\\d+)\\s+([0-9.]+) ns/op")
readings = {}
for text in open(sys.argv[1], encoding="utf-8"):
    found = line.match(text)
    if found:
        readings.setdefault(found.group(1), []).append(float(found.group(3)))
out = Path(sys.argv[2])
out.mkdir(parents=True)
for name, values in readings.items():
    point = {"commit": "abcdef1", "date": "2026-12-03", "machine": "laptop",
             "value": sorted(values)[len(values) // 2], "unit": "ns", "samples": values}
    (out / f"measurements.{name}.jsonl").write_text(json.dumps(point) + "\\n", "utf-8")
"""


def go_output(path: Path, lines: int, count: int) -> int:
    """Write `lines` benchmark lines as go test prints them; the number of benchmarks."""
    rng = random.Random(25)
    benchmarks = max(1, lines // count)
    out = ["goos: linux", "goarch: amd64", "pkg: example.com/m", "cpu: Bench CPU @ 2.0GHz"]
    for i in range(benchmarks):
        for _ in range(count):
            out.append(f"BenchmarkThing{i}-8   \t{rng.randint(1000, 99999)}\t"
                       f"{rng.uniform(10, 9999):.1f} ns/op\t{rng.randint(0, 500)} B/op\t"
                       "3 allocs/op")
    out += ["PASS", "ok  \texample.com/m\t12.345s"]
    path.write_text("\n".join(out) + "\n", "utf-8")
    return benchmarks


def new_site(folder: Path) -> None:
    """A site as `progress-site new` starts it."""
    subprocess.run([*BUILD, "new", str(folder)], check=True, capture_output=True,
                   env=user_env())


def time_runs(lines: int, count: int, runs: int) -> tuple[int, list[Timed], list[Timed]]:
    """The output generated once; each run imports it into a new site, and the floor
    writes it out beside (runs alternate)."""
    imported: list[Timed] = []
    floor: list[Timed] = []
    with tempfile.TemporaryDirectory() as tmp:
        output = Path(tmp) / "bench.txt"
        benchmarks = go_output(output, lines, count)
        for run in range(runs):
            site = Path(tmp) / f"site{run}"
            new_site(site)
            imported.append(run_timed(
                [*BUILD, "import", "go-test", str(output), "--source", str(site), "--yes",
                 "--commit", "abcdef1", "--machine", "laptop"]))
            floor.append(run_timed([sys.executable, "-c", FLOOR, str(output),
                                    str(Path(tmp) / f"floor{run}")]))
    return benchmarks, imported, floor


def main() -> None:
    """Generate, time, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=TARGET_LINES)
    parser.add_argument("--count", type=int, default=5)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    benchmarks, imported, floor = time_runs(args.lines, args.count, args.runs)
    judged = args.lines == TARGET_LINES
    wall = statistics.median(r.seconds for r in imported)
    cpu = statistics.median(r.cpu for r in imported)
    floor_cpu = statistics.median(r.cpu for r in floor)
    target = f"<= {TARGET_S:.0f}" if judged else "-"
    met = ("yes" if wall <= TARGET_S else "NO") if judged else "-"
    print(table([
        ("what", "wall (s)", "cpu (s)", "cpu / floor", "target (s)", "met"),
        ("import go-test", f"{wall:.2f}", f"{cpu:.2f}", f"{cpu / floor_cpu:.1f}", target, met),
        ("floor: read, group, write", f"{statistics.median(r.seconds for r in floor):.2f}",
         f"{floor_cpu:.2f}", "1.0", "-", "-"),
    ]))
    print(f"\n{args.lines:,} lines, {benchmarks:,} benchmarks (-count {args.count}), "
          f"medians of {args.runs} run(s), each into a new site")


if __name__ == "__main__":
    main()
