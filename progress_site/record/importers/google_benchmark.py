"""Google Benchmark's JSON output (`--benchmark_format=json` or `--benchmark_out`)."""

from __future__ import annotations

import datetime as dt
import statistics
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
    read_json,
    summarise,
)


def google_benchmark(doc: Any, display: str, stat: Stat) -> Iterator[Result]:
    """Google Benchmark's JSON: `benchmarks[]`, repetitions summarised by their aggregates."""
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list):
        raise fail(display, "not Google Benchmark JSON: no `benchmarks` list",
                   "write it with `--benchmark_format=json` or `--benchmark_out=FILE`")
    day = day_of((doc.get("context") or {}).get("date"))
    runs: dict[str, list[dict[str, Any]]] = {}
    aggregates: dict[str, dict[str, dict[str, Any]]] = {}
    for bench in doc["benchmarks"]:
        if bench.get("error_occurred"):
            continue
        if bench.get("aggregate_name") != "cv":  # a ratio, not a time
            not_negative(display, bench.get("name"), bench)
        name = bench.get("run_name") or bench["name"]
        if bench.get("run_type") == "aggregate":
            aggregates.setdefault(name, {})[bench.get("aggregate_name", "")] = bench
        else:
            runs.setdefault(name, []).append(bench)
    for name in dict.fromkeys([*runs, *aggregates]):
        yield google_result(name, runs.get(name, []), aggregates.get(name, {}), stat, day)


def google_result(name: str, runs: list[dict[str, Any]], agg: dict[str, dict[str, Any]],
                  stat: Stat, day: dt.date | None) -> Result:
    """One Google benchmark: its repetitions, or their aggregates when only those exist."""
    first = runs[0] if runs else next(iter(agg.values()))
    unit = first.get("time_unit", "ns")
    times = [float(r["real_time"]) for r in runs]
    if times and (stat == "min" or stat not in agg):
        value = summarise(times, stat)
    else:
        value = float(agg[stat]["real_time"])
    if "cv" in agg:
        cv: float | None = float(agg["cv"]["real_time"])
    elif "stddev" in agg and "mean" in agg:
        cv = cv_of(agg["stddev"]["real_time"], agg["mean"]["real_time"])
    else:
        cv = cv_of(statistics.stdev(times), statistics.fmean(times)) if len(times) > 1 \
            else None
    count = len(times) or int(first.get("repetitions", 1))
    return Result(name, number(value), unit, cv, count, day)


def read(path: Path, display: str, stat: Stat) -> list[Result]:
    """Every benchmark of the file."""
    return list(google_benchmark(read_json(path, display), display, stat))
