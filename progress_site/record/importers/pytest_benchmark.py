"""pytest-benchmark's `--benchmark-json` output."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from progress_site.record.importers.base import (
    Result,
    Stat,
    cv_of,
    day_of,
    fail,
    not_negative,
    number,
    pick,
    read_json,
)


def pytest_benchmark(doc: Any, display: str, stat: Stat) -> Iterator[Result]:
    """pytest-benchmark's --benchmark-json: `benchmarks[].stats`, in seconds."""
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list):
        raise fail(display, "not pytest-benchmark JSON: no `benchmarks` list",
                   "write it with `pytest --benchmark-json=FILE`")
    commit = (doc.get("commit_info") or {}).get("id")
    commit = commit[:7] if isinstance(commit, str) and commit != "unversioned" else None
    for bench in doc["benchmarks"]:
        stats = bench["stats"]
        not_negative(display, bench["name"], stats)
        yield Result(bench["name"], number(pick(stats, stat)), "s",
                     cv_of(stats.get("stddev"), stats.get("mean")), int(stats["rounds"]),
                     day_of(doc.get("datetime")), commit, bench["name"])


def read(path: Path, display: str, stat: Stat) -> list[Result]:
    """Every benchmark of the file."""
    return list(pytest_benchmark(read_json(path, display), display, stat))
