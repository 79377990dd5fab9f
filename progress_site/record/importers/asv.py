"""airspeed velocity (asv): `results/<machine>/<commit>-<env>.json`, with `machine.json`
beside it (the machine's facts) and `results/benchmarks.json` above it (each benchmark's
unit) when present. The FILE may also be `results/` or `results/<machine>/`: every
results file in it, oldest first, so one import migrates a history.

A parameterised benchmark gives one result per combination, named as asv prints it
(`bench.TimeSuite.time_sum(10)`). A null result (a failed or skipped combination) is
left out: asv records no number for it.
"""

from __future__ import annotations

import itertools
import math
import posixpath
from collections.abc import Iterator, Mapping
from pathlib import Path, PurePosixPath
from types import MappingProxyType
from typing import Any

from progress_site.record.importers.base import (
    Result,
    day_of_ms,
    fail,
    fail_in,
    not_negative,
    number,
    quoted,
)
from progress_site.record.importers.places import Place, ToolFile
from progress_site.record.importers.reading import read_located, within
from progress_site.record.importers.shape import (
    Each,
    Format,
    Mistake,
    Obj,
    Spec,
    mistakes,
    what,
)

# asv's `stats_*` columns, under our names; ci_99 is its 99 % interval of the median.
STATS = MappingProxyType({"stats_ci_99_a": "ci_99_low", "stats_ci_99_b": "ci_99_high",
                          "stats_q_25": "q1", "stats_q_75": "q3"})
UNITS = MappingProxyType({"seconds": "s", "bytes": "B"})
HINT = "give results/MACHINE/COMMIT-ENV.json as `asv run` wrote it (asv 0.5+)"
# Each column of a benchmark's row that is read (a column may be null: nothing measured).
STATISTIC = Each("a statistic", "number", nulls=True)
COLUMNS: Mapping[str, Spec] = MappingProxyType({
    "result": Each("a result", "number", nulls=True),
    "params": Each("a parameter's values", Each("a value", "any")),
    "samples": Each("a combination's readings", Each("a reading", "number"), nulls=True),
    "stats_repeat": STATISTIC, **{column: STATISTIC for column in STATS}})
MACHINE = Format(Obj("machine.json", {key: ("text", False) for key in ("machine", "cpu")}),
                 "not asv's machine.json: not an object", "give the machine.json `asv "
                 "machine` wrote, or none")


def read(path: Path, display: str) -> list[Result]:
    """Every result of one results file, or of every results file of a folder (asv's
    `results/`, or one machine's folder in it), oldest first."""
    if not path.is_dir():
        return read_file(path, display, *read_located(path, display, RESULTS))
    files = [(file, f"{display}/{file.relative_to(path).as_posix()}") for file in
             sorted([*path.glob("*.json"), *path.glob("*/*.json")])
             if file.name not in ("machine.json", "benchmarks.json")]
    if not files:
        raise fail(display, "no asv results file (MACHINE/COMMIT-ENV.json) in this folder",
                   "give asv's results folder, a machine's folder in it, or one results file")
    docs = [(file, shown, *read_located(within(file, path, shown), shown, RESULTS))
            for file, shown in files]
    # File names start with the commit's hash: a history is written in date order.
    docs.sort(key=lambda found: run_date(found[2]))
    return [r for file, shown, doc, tool_file in docs
            for r in read_file(file, shown, doc, tool_file)]


def run_date(doc: Any) -> float:
    """When asv's results file says its commit was made (ms since 1970), else 0."""
    date = doc.get("date") if isinstance(doc, dict) else None
    return date if isinstance(date, (int, float)) and not isinstance(date, bool) else 0


def rows(doc: dict[str, Any]) -> Iterator[Mistake]:
    """The mistakes of each benchmark's row: one value a column of `result_columns`."""
    for key, row in doc["results"].items():
        if not isinstance(row, list):
            yield ("results", key), f"`{key}` is {what(row)}, not a list of the columns"
            continue
        for i, (column, value) in enumerate(zip(doc["result_columns"], row, strict=False)):
            if column in COLUMNS and value is not None:
                yield from mistakes(("results", key, i), value, COLUMNS[column],
                                    f"`{column}`")


RESULTS = Format(Obj("the file", {"results": ("object", True),
                                  "result_columns": (Each("a column", "text"), True)}),
                 "not asv results JSON: no `results` with `result_columns`", HINT, rows)


def read_file(path: Path, display: str, doc: Any, tool_file: ToolFile) -> list[Result]:
    """Every benchmark and parameter combination of one asv results file."""
    machine, machine_file = machine_json(path.with_name("machine.json"),
                                         str(PurePosixPath(display).with_name("machine.json")))
    units = benchmark_units(path.parent.parent / "benchmarks.json", posixpath.normpath(
        posixpath.join(posixpath.dirname(display), "..", "benchmarks.json")))
    commit = doc.get("commit_hash")
    common = {"date": day_of_ms(doc.get("date")), "machine": machine.get("machine"),
              "commit": commit[:7] if isinstance(commit, str) else None,
              "facts": machine_facts(machine)}
    shared = {"commit": (tool_file, ("commit_hash",)),
              **({"machine": (machine_file, ("machine",)), "facts": (machine_file, ())}
                 if machine_file else {})}
    column = {name: i for i, name in reversed(list(enumerate(doc["result_columns"])))}
    results = []
    for key, row in doc["results"].items():
        columns = dict(zip(doc["result_columns"], row, strict=False))
        unit = units.get(key, guessed_unit(key))
        at: dict[str, Place] = {name: (tool_file, ("results", key, i))
                                for name, i in column.items()}
        for index, label in enumerate(combinations(key, columns, display, at)):
            places = {**shared, **placed(at, index)}
            found = result_of(key + label, columns, index, unit, display, common, places)
            if found is not None:
                results.append(found)
    return results


def placed(at: dict[str, Place], index: int) -> dict[str, Place]:
    """Where one combination's values are: its item of each column."""
    ours = {"result": ("", "median", "value"), "samples": ("samples",),
            "stats_repeat": ("runs",), **{theirs: (mine,) for theirs, mine in STATS.items()}}
    return {name: (tool_file, (*path, index)) for column, (tool_file, path) in at.items()
            for name in ours.get(column, ())}


def combinations(key: str, columns: dict[str, Any], display: str, at: dict[str, Place]
                 ) -> Iterator[str]:
    """Each parameter combination as asv names it: `(10, 'a')`; one empty name without.
    asv writes one result a combination: parameters that make more are refused before
    any is named (three lists of 1,000 in a 15 KB file made a billion names)."""
    params = columns.get("params") or []
    if not params:
        return iter([""])
    made = math.prod(len(values) for values in params)
    given = columns.get("result")
    if isinstance(given, list) and made != len(given):
        raise fail_in(at, "params", display, f"benchmark {quoted(key)}: its parameters "
                      f"make {made:,} combinations, its results {len(given):,}",
                      "give the file exactly as asv wrote it")
    return ("(" + ", ".join(map(str, combo)) + ")" for combo in itertools.islice(
        itertools.product(*params), len(given) if isinstance(given, list) else 0))


def result_of(name: str, columns: dict[str, Any], index: int, unit: str | None,
              display: str, common: dict[str, Any], places: dict[str, Place]
              ) -> Result | None:
    """The result of one combination: its value (asv's median), its statistics."""
    def at(column: str) -> Any:
        values = columns.get(column)
        return values[index] if isinstance(values, list) and index < len(values) else None

    value = at("result")
    if value is None:
        return None
    found = {ours: at(theirs) for theirs, ours in STATS.items()}
    stats = {k: number(v) for k, v in found.items() if isinstance(v, (int, float))}
    stats["median"] = number(value)
    if unit in ("s", "B"):
        not_negative(display, name, {"value": value, **found}, places=places)
    samples = tuple(number(s) for s in at("samples") or ())
    repeat = at("stats_repeat")
    return Result(name, unit, stats, samples,
                  len(samples) or (repeat if isinstance(repeat, int) else 1), **common,
                  places=places)


def machine_json(path: Path, display: str) -> tuple[dict[str, Any], ToolFile | None]:
    """machine.json beside the results (and where it is), or nothing when it is absent."""
    if not path.is_file() and not path.is_symlink():
        return {}, None
    doc, tool_file = read_located(within(path, path.parent, display), display, MACHINE)
    return (doc, tool_file) if isinstance(doc, dict) else ({}, None)


def benchmark_units(path: Path, display: str) -> dict[str, str | None]:
    """Each benchmark's unit from results/benchmarks.json (`seconds` -> `s`)."""
    doc = read_located(within(path, path.parent, display), display)[0] if (
        path.is_file() or path.is_symlink()) else {}
    if not isinstance(doc, dict):
        return {}
    return {key: UNITS.get(str(b.get("unit"))) for key, b in doc.items()
            if isinstance(b, dict)}


def guessed_unit(key: str) -> str | None:
    """Without benchmarks.json, the unit asv gives by the benchmark's name."""
    last = key.rsplit(".", 1)[-1]
    if last.startswith("time_"):
        return "s"
    return "B" if last.startswith(("mem_", "peakmem_")) else None


def machine_facts(machine: dict[str, Any]) -> tuple[str, ...]:
    """The processor, system and memory asv recorded (`asv machine`)."""
    facts = []
    if isinstance(machine.get("cpu"), str):
        cores = machine.get("num_cpu")
        facts.append(machine["cpu"] + (f", {cores} CPUs" if cores else ""))
    system = " ".join(str(machine[k]) for k in ("os", "arch") if machine.get(k))
    if system:
        facts.append(system)
    ram = str(machine.get("ram", ""))
    if ram.isdigit():
        facts.append(f"{int(ram) / 2**30:.0f} GiB of memory")
    return tuple(facts)
