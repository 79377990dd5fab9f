"""bench/charts.py runs and prints its table: the first builds (empty cache) of a
generated site and of the example beside their warm builds and targets, then the example
redrawing an edited chart with its shape kept and without (tiny settings:
no time is asserted, bench/README.md has the figures of full runs)."""

from __future__ import annotations

import re

from .test_bench import bench, table


def test_charts_bench_prints_first_and_warm_builds_beside_the_targets() -> None:
    out = bench("charts.py", "--charts", "6", "--runs", "1")
    header, rows = table(out)
    assert header == ["site", "charts a language", "first build (s)", "cpu (s)",
                      "warm build (s)", "target first (s)"]
    assert list(rows) == ["generated site", "example site"]
    assert rows["generated site"][0] == "6" and rows["example site"][0] == "3"
    assert rows["generated site"][-1] == "<= 6.0" and rows["example site"][-1] == "<= 1.2"
    for _charts, first, cpu, warm, _target in rows.values():
        assert float(first) > 0 and float(cpu) > 0 and float(warm) > 0
    verdict = re.search(r"^targets: a first build \(empty cache, every chart drawn\) of 6 "
                        r"charts within 6\.0 s \(at 200 charts\) and of the example within "
                        r"1\.2 s: generated (met|MISSED), example (met|MISSED)$", out, re.M)
    assert verdict is not None, out
    header, rows = table(out.split("\n\n", 2)[2])
    assert header == ["example, one chart edited", "build (s)", "cpu (s)"]
    assert list(rows) == ["shape kept", "shape compiled again"]
    assert all(float(cell) > 0 for row in rows.values() for cell in row)
