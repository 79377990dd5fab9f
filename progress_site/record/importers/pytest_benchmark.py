"""pytest-benchmark's `--benchmark-json` output (with `data` when `--benchmark-save-data`)."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Any

from progress_site.errors import KeyPath
from progress_site.record.importers.base import (
    Result,
    count,
    day_of,
    not_negative,
    number,
    stats_of,
)
from progress_site.record.importers.places import Place, Places, ToolFile
from progress_site.record.importers.reading import read_located
from progress_site.record.importers.shape import Each, Format, Obj

# Its statistics in seconds, under our names (`ops` is a rate, left out).
STATS = MappingProxyType({"mean": "mean", "median": "median", "min": "min", "max": "max",
                          "stddev": "stddev", "iqr": "iqr", "q1": "q1", "q3": "q3"})
HINT = "write it with `pytest --benchmark-json=FILE`"
READINGS = Each("a reading", "number")
# What pytest-benchmark writes (its `as_dict`), as far as a result is read from it.
BENCH = Obj("a benchmark", {
    "name": ("text", True),
    "stats": (Obj("`stats`", {"rounds": ("count", True),
                              **{key: ("number", False) for key in STATS},
                              "data": (READINGS, False)}), True),
    "data": (READINGS, False),
})
FORMAT = Format(Obj("the file", {
    "benchmarks": (Each("a benchmark", BENCH), True),
    "commit_info": (Obj("`commit_info`", {}), False),
    "machine_info": (Obj("`machine_info`", {"cpu": (Obj("`cpu`", {}), False)}), False),
}), "not pytest-benchmark JSON: no `benchmarks` list", HINT)
DIRTY = ("measured with uncommitted changes (commit_info.dirty): the commit does not "
         "name exactly what ran")


def read(path: Path, display: str) -> list[Result]:
    """Every benchmark of the file, in seconds; a dirty tree flags each figure to watch."""
    doc, tool_file = read_located(path, display, FORMAT)
    info = doc.get("commit_info") or {}
    commit = info.get("id")
    commit = commit[:7] if isinstance(commit, str) and commit != "unversioned" else None
    flag = DIRTY if info.get("dirty") is True else None
    facts = machine_facts(doc.get("machine_info") or {})
    results = []
    for j, bench in enumerate(doc["benchmarks"]):
        places = places_of(bench, tool_file, ("benchmarks", j))
        not_negative(display, bench["name"], bench["stats"], places=places)
        results.append(Result(bench["name"], "s", stats_of(bench["stats"], STATS),
                              readings(bench, display, places),
                              count(bench["stats"]["rounds"], "rounds"),
                              day_of(doc.get("datetime")), commit, bench["name"], flag=flag,
                              facts=facts, places=places))
    return results


def places_of(bench: dict[str, Any], tool_file: ToolFile, path: KeyPath) -> dict[str, Place]:
    """Where a benchmark's values are: its statistics, rounds and readings, its name (the
    title), and the file's commit and machine."""
    stats = (*path, "stats")
    data = stats if bench["stats"].get("data") else path
    return {"": (tool_file, path), "title": (tool_file, (*path, "name")),
            "runs": (tool_file, (*stats, "rounds")), "samples": (tool_file, (*data, "data")),
            "commit": (tool_file, ("commit_info", "id")),
            "facts": (tool_file, ("machine_info",)),
            **{ours: (tool_file, (*stats, theirs)) for theirs, ours in STATS.items()}}


def readings(bench: dict[str, Any], display: str, places: Places) -> tuple[Any, ...]:
    """Every round's time, when pytest ran with --benchmark-save-data."""
    data = bench.get("stats", {}).get("data") or bench.get("data") or []
    not_negative(display, bench["name"], {"samples": data}, places=places)
    return tuple(number(x) for x in data)


def machine_facts(info: dict[str, Any]) -> tuple[str, ...]:
    """The processor, its cores and the Python that ran, as pytest-benchmark saw them."""
    cpu = info.get("cpu") or {}
    facts = []
    if isinstance(cpu.get("brand_raw"), str):
        cores = cpu.get("count")
        facts.append(cpu["brand_raw"] + (f", {cores} cores" if isinstance(cores, int) else ""))
    if isinstance(info.get("system"), str):
        facts.append(" ".join(str(info[k]) for k in ("system", "release", "machine")
                              if isinstance(info.get(k), str)))
    if isinstance(info.get("python_version"), str):
        facts.append(f"{info.get('python_implementation', 'Python')} {info['python_version']}")
    return tuple(facts)
