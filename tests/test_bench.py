"""The benchmark scripts run and print their tables (with tiny settings: no figure here is
a speed claim; the README's come from full runs). Page weight is a size, not a time: its
target is checked here on the example as built."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from .conftest import REPO


def bench(script: str, *args: str | Path) -> str:
    """What `python bench/SCRIPT ARGS` prints; the run must succeed."""
    done = subprocess.run([sys.executable, str(REPO / "bench" / script), *map(str, args)],
                          capture_output=True, text=True, timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stderr
    return done.stdout


def rows(output: str) -> dict[str, list[str]]:
    """A printed table's rows by their first cell (columns are two spaces apart or more)."""
    cells = [re.split(r"\s{2,}", line.strip()) for line in output.splitlines()]
    return {c[0]: c[1:] for c in cells if len(c) > 1 and not set(c[0]) <= {"-"}}


def test_cold_build_prints_both_medians_and_their_ratio() -> None:
    out = bench("cold_build.py", "--runs", "2", "--no-empty-caches")
    table = rows(out)
    for name in ("progress-site build (warm caches)", "floor: jinja2 + yaml + babel"):
        median, fastest, middle, runs = table[name]
        assert 0 < float(fastest) <= float(median) and runs == "2"
        low, high = map(float, middle.split(" to "))
        assert low <= high
    ratio = re.search(r"ratio build / floor: (\d+\.\d\d) \(target: <= 1\.00\)", out)
    assert ratio is not None and float(ratio.group(1)) > 0, out


def test_scale_prints_a_row_per_size_and_the_growth() -> None:
    table = rows(bench("scale.py", "--sizes", "20", "40", "--tasks", "5"))
    first, second = table["20"], table["40"]
    assert first[0] == second[0] == "5"  # tasks
    assert all(float(x) > 0 for x in first[1:5] + second[1:5])  # times and memory
    assert second[5].startswith("x") and second[6] == "x2"


def test_the_example_pages_weigh_under_the_target(tmp_path: Path) -> None:
    site = tmp_path / "site"
    built = subprocess.run([sys.executable, str(REPO / "build.py"), "--out", str(site)],
                           capture_output=True, text=True, timeout=300, cwd=REPO)
    assert built.returncode == 0, built.stderr
    table = rows(bench("page_weight.py", site))
    for page in ("index.html", "fr/index.html"):
        requests, raw, packed = table[page]
        assert int(requests) <= 2 and float(packed) < 25 < float(raw), (page, table[page])
    assert {"horizon-four-way/index.html", "fr/horizon-four-way/index.html"} <= table.keys()


def test_watch_latency_prints_each_step_of_a_rebuild() -> None:
    table = rows(bench("watch_latency.py", "--edits", "2", "--pause", "0.5"))
    for step in ("new files on disk (the open page)", "reloaded page (Chromium)",
                 "the whole site on disk", "(the rebuild alone)"):
        median, fastest, slowest, _target = table[step]
        assert 0 < float(fastest) <= float(median) <= float(slowest)
