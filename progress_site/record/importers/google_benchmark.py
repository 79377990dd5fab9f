"""Google Benchmark's JSON output (`--benchmark_format=json` or `--benchmark_out=FILE`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import MappingProxyType
from typing import Any

from progress_site.errors import visible_path
from progress_site.record.importers.base import (
    READINGS,
    Result,
    day_of,
    fail_in,
    is_count,
    not_negative,
    number,
    quoted,
)
from progress_site.record.importers.places import Places, ToolFile, Under
from progress_site.record.importers.reading import read_located
from progress_site.record.importers.shape import Each, Format, Mistake, Obj

Runs = dict[str, list[tuple[int, dict[str, Any]]]]  # name -> (index, benchmark), in order
HINT = "write it with `--benchmark_format=json` or `--benchmark_out=FILE`"
# The aggregates kept as statistics (a BigO or RMS one has no `real_time`).
KEPT = ("mean", "median", "stddev", "cv")
# Where a benchmark's values are, by our name of each: its key.
KEYS = MappingProxyType({**{key: key for key in READINGS}, "error": "error_message"})
# What Google Benchmark writes (src/json_reporter.cc), as far as a result is read from it.
BENCH = Obj("a benchmark", {
    "name": ("text", True), "run_name": ("text", False), "run_type": ("text", False),
    "aggregate_name": ("text", False), "real_time": ("number", False),
    "time_unit": ("text", False), "repetitions": ("number", False),
})
CONTEXT = Obj("`context`", {"caches": (Each("a cache", Obj("a cache", {
    "size": ("number", False)})), False)})


def read(path: Path, display: str) -> list[Result]:
    """Every benchmark: its repetitions as readings, its aggregates as statistics; a
    benchmark that reported an error is refused."""
    doc, tool_file = read_located(path, display, FORMAT)
    context = doc.get("context") or {}
    runs: Runs = {}
    aggregates: Runs = {}
    for i, bench in enumerate(doc["benchmarks"]):
        at = Under(tool_file, ("benchmarks", i), KEYS)
        refuse_error(bench, display, at)
        if bench.get("aggregate_name") != "cv":  # a ratio, not a time
            not_negative(display, bench.get("name"), bench, places=at)
        name = bench.get("run_name") or bench["name"]
        kind = aggregates if bench.get("run_type") == "aggregate" else runs
        kind.setdefault(name, []).append((i, bench))
    day, facts = day_of(context.get("date")), machine_facts(context)
    return [one(name, runs.get(name, []), aggregates.get(name, []), day, facts, tool_file)
            for name in dict.fromkeys([*runs, *aggregates])]


def untimed(doc: dict[str, Any]) -> Iterator[Mistake]:
    """A run or a kept aggregate without its time (only an error's, and a BigO or RMS
    aggregate, have none)."""
    for i, bench in enumerate(doc["benchmarks"]):
        if bench.get("real_time") is None and not bench.get("error_occurred") and (
                bench.get("run_type") != "aggregate" or bench.get("aggregate_name") in KEPT):
            yield ("benchmarks", i), "a benchmark without `real_time`"


FORMAT = Format(Obj("the file", {"context": (CONTEXT, False),
                                 "benchmarks": (Each("a benchmark", BENCH), True)}),
                "not Google Benchmark JSON: no `benchmarks` list", HINT, untimed)


def refuse_error(bench: dict[str, Any], display: str, places: Places) -> None:
    """A benchmark that called SkipWithError measured nothing: say which and why."""
    if bench.get("error_occurred"):
        why = visible_path(str(bench.get("error_message", "")))
        at = "error" if "error_message" in bench else ""  # its message, else the benchmark
        raise fail_in(places, at, display, f"benchmark "
                      f"{quoted(visible_path(str(bench.get('name'))))} reported an error: "
                      f"{why}", "fix the benchmark (its SkipWithError) and run it again; "
                      "nothing was written")


def one(name: str, runs: list[tuple[int, dict[str, Any]]],
        aggregates: list[tuple[int, dict[str, Any]]], day: Any, facts: tuple[str, ...],
        tool_file: ToolFile) -> Result:
    """One benchmark: each repetition's real time, the aggregates it computed."""
    first_at, first = runs[0] if runs else aggregates[0]
    time = "real_time"
    places = {"": (tool_file, ("benchmarks", first_at)),
              "runs": (tool_file, ("benchmarks", first_at, "repetitions")),
              "facts": (tool_file, ("context",)),
              **{f"samples[{k}]": (tool_file, ("benchmarks", i, time))
                 for k, (i, _) in enumerate(runs)},
              **{a["aggregate_name"]: (tool_file, ("benchmarks", i, time))
                 for i, a in aggregates if a.get("aggregate_name") in KEPT}}
    stats = {a["aggregate_name"]: number(a[time]) for _, a in aggregates
             if a.get("aggregate_name") in KEPT}
    samples = tuple(number(r[time]) for _, r in runs)
    if len(samples) == 1:
        stats["value"] = samples[0]
        places["value"] = places["samples[0]"]
    repetitions = first.get("repetitions")
    count = len(samples) or (int(repetitions) if is_count(repetitions) else 1)
    return Result(name, first.get("time_unit", "ns"), stats,
                  samples if len(samples) > 1 else (), count, day, facts=facts,
                  places=places)


def machine_facts(context: dict[str, Any]) -> tuple[str, ...]:
    """The host, its processors and caches, as the benchmark's context reports them."""
    facts = []
    cpus, mhz = context.get("num_cpus"), context.get("mhz_per_cpu")
    if isinstance(cpus, int):
        facts.append(f"{cpus} CPUs" + (f" at {mhz} MHz" if isinstance(mhz, int) else ""))
    caches = [c for c in context.get("caches") or () if isinstance(c, dict)]
    if caches:
        facts.append("caches: " + ", ".join(
            f"L{c.get('level')} {c.get('type', '')} {int(c.get('size') or 0) // 1024} KiB"
            for c in caches))
    if isinstance(context.get("host_name"), str):
        facts.append(f"host {context['host_name']}")
    return tuple(facts)
