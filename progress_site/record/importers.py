"""Read what benchmark tools write, as one `Result` per benchmark.

Formats: pytest-benchmark (`--benchmark-json`), hyperfine (`--export-json`), Google
Benchmark (`--benchmark_format=json` or `--benchmark_out`), and JSON lines of run
records of your own (docs/ecosystem.md). Nothing here writes: `record.py` turns results
into measurements.

A tool's file keeps to the data's limits (docs/data-format.md): JSON nested at most
MAX_DEPTH levels, whole numbers of at most MAX_DIGITS digits, each result finite and at
most LARGEST, and no time, size or rate negative; anything else is a located error, never
a traceback.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import statistics
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from progress_site.errors import Location, Problem, UsageError
from progress_site.load.convert import LARGEST
from progress_site.load.records import MAX_DIGITS
from progress_site.load.text import MAX_BYTES
from progress_site.load.yaml import MAX_DEPTH
from progress_site.model.units import CLDR_UNITS, SYMBOL_UNITS
from progress_site.regular import read_regular

Stat = str  # "mean", "median" or "min": commands.STATS
# Durations, sizes and rates: no tool measures a negative one (a percentage may be).
NOT_NEGATIVE = frozenset(CLDR_UNITS) | frozenset(SYMBOL_UNITS)
# What the tools report in their time unit (or a run record in its unit): summaries and
# readings alike.
READINGS = ("mean", "median", "min", "max", "stddev", "user", "system", "times",
            "real_time", "cpu_time", "value", "samples")
TOO_DEEP: Any = object()  # JSON nested past what Python's reader can hold


@dataclass(frozen=True)
class Result:
    """One benchmark's figure, in the tool's terms, and what says how noisy it was."""

    name: str
    value: Decimal  # the chosen statistic, in `unit`
    unit: str | None
    cv: float | None  # coefficient of variation (stddev / mean); None when unknown
    runs: int  # how many readings the statistic summarises
    date: dt.date | None = None
    commit: str | None = None
    title: str | None = None
    machine: str | None = None
    status: str | None = None


class ImportFailed(UsageError):
    """The tool's file is not what its format promises; nothing was written."""

    exit_code = 1

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__(self.render())

    def render(self) -> str:
        """Each problem, located in the tool's file."""
        return "\n".join(p.render() for p in self.problems)


def fail(display: str, message: str, hint: str = "", line: int = 0) -> ImportFailed:
    """An import error at a place of the tool's file."""
    return ImportFailed([Problem(Location(display, line, 1 if line else 0), message,
                                 hint=hint)])


def not_negative(display: str, name: Any, found: dict[str, Any], line: int = 0) -> None:
    """Refuse a benchmark whose time or size is negative: the run or the file is broken,
    and a figure made from it would be a lie."""
    for key in READINGS:
        values = found.get(key)
        for value in values if isinstance(values, list) else [values]:
            if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool) \
                    and value < 0:
                raise fail(display, f"benchmark '{name}': {key} is {value}, a negative time "
                           "or size", "give the file exactly as the tool wrote it, from a "
                           "run that worked; nothing was written", line)


def number(value: float) -> Decimal:
    """A float as the Decimal of its shortest repr (no binary noise in the YAML)."""
    return Decimal(repr(float(value)))


def pick(stats: dict[str, Any], stat: Stat) -> float:
    """One statistic of a tool's summary."""
    return float(stats[stat])


def summarise(values: list[float], stat: Stat) -> float:
    """The mean, median or smallest of some readings."""
    if stat == "min":
        return min(values)
    return statistics.median(values) if stat == "median" else statistics.fmean(values)


def cv_of(stddev: Any, mean: Any) -> float | None:
    """stddev / mean, when both are known and the mean is not zero."""
    if stddev is None or mean in (None, 0):
        return None
    return abs(float(stddev) / float(mean))


def day_of(text: Any) -> dt.date | None:
    """The day of an ISO date or timestamp, if there is one."""
    if not isinstance(text, str) or len(text) < 10:
        return None
    try:
        return dt.date.fromisoformat(text[:10])
    except ValueError:
        return None


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


def hyperfine(doc: Any, display: str, stat: Stat) -> Iterator[Result]:
    """hyperfine's --export-json: `results[]`, in seconds, one per command."""
    if not isinstance(doc, dict) or not isinstance(doc.get("results"), list):
        raise fail(display, "not hyperfine JSON: no `results` list",
                   "write it with `hyperfine --export-json FILE ...`")
    for run in doc["results"]:
        not_negative(display, run["command"], run)
        times = run.get("times") or [run["mean"]]
        yield Result(run["command"], number(pick(run, stat)), "s",
                     cv_of(run.get("stddev"), run.get("mean")), len(times))


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


def loads(text: str, display: str, line: int = 0, parse_float: Any = float) -> Any:
    """A tool's JSON, within the limits: located errors for what is not JSON, nests too
    deep, or writes a whole number too long to read."""
    def whole(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_DIGITS:
            raise fail(display, f"a whole number of {len(digits.lstrip('-'))} digits is too "
                       "large", "check what wrote the file", line)
        return int(digits)

    try:
        doc = json.loads(text, parse_float=parse_float, parse_int=whole)
    except json.JSONDecodeError as exc:
        raise fail(display, f"not JSON: {exc.msg}", line=line or exc.lineno) from exc
    except RecursionError:
        doc = TOO_DEEP
    if doc is TOO_DEEP or _depth(doc) > MAX_DEPTH:
        raise fail(display, f"lists and objects nested more than {MAX_DEPTH} levels",
                   "give the file exactly as the tool wrote it", line)
    return doc


def _depth(value: Any) -> int:
    """How deep lists and objects nest in a parsed JSON value (counted up to one past
    MAX_DEPTH, with a stack of its own)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            deepest = max(deepest, depth + 1)
            if deepest > MAX_DEPTH:
                break
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children)
    return deepest


def jsonl(lines: list[str], display: str, stat: Stat) -> Iterator[Result]:
    """Run records of your own, one JSON object a line (docs/ecosystem.md)."""
    for number_, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        rec = loads(text, display, number_, Decimal)
        if not isinstance(rec, dict) or not isinstance(rec.get("id"), str):
            raise fail(display, "a run record needs an `id` (a word)",
                       'write {"id": "parse", "value": 12.5, "unit": "ms"}', number_)
        if rec.get("unit") in NOT_NEGATIVE:
            not_negative(display, rec["id"], rec, number_)
        yield jsonl_result(rec, display, number_, stat)


def jsonl_result(rec: dict[str, Any], display: str, line: int, stat: Stat) -> Result:
    """One run record: a `value`, or `samples` summarised by the statistic."""
    samples = rec.get("samples")
    if isinstance(samples, list) and samples and all(
            isinstance(s, (int, Decimal)) for s in samples):
        floats = [float(s) for s in samples]
        value = number(summarise(floats, stat))
        mean = statistics.fmean(floats)
        cv = cv_of(statistics.stdev(floats), mean) if len(floats) > 1 else None
        runs = len(floats)
    elif isinstance(rec.get("value"), (int, Decimal)):
        value = Decimal(rec["value"])
        cv = cv_of(rec.get("stddev"), rec["value"])
        runs = int(rec.get("runs", 1))
    else:
        raise fail(display, f"run record '{rec['id']}' has no `value` nor `samples`",
                   "give the number measured, or the list of readings", line)
    if not value.is_finite() or (cv is not None and not math.isfinite(cv)):
        raise fail(display, f"run record '{rec['id']}' has a number that is not finite",
                   line=line)
    if abs(value) > LARGEST:
        raise fail(display, f"run record '{rec['id']}' has a number larger than "
                   f"{LARGEST:.0e}", "check the number of digits", line)

    def word(key: str) -> str | None:
        found = rec.get(key)
        return str(found) if isinstance(found, (str, int)) else None

    return Result(rec["id"], value, word("unit"), cv, runs, day_of(rec.get("date")),
                  word("commit"), word("title"), word("machine"), word("status"))


Reader = Callable[[Any, str, Stat], Iterator[Result]]
FORMATS: dict[str, Reader] = {
    "pytest-benchmark": pytest_benchmark,
    "hyperfine": hyperfine,
    "google-benchmark": google_benchmark,
}


def read_results(fmt: str, path: Path, display: str, stat: Stat = "mean") -> list[Result]:
    """Every result of a tool's output file; a malformed file is a located error."""
    try:
        text = read_regular(path, MAX_BYTES).decode("utf-8")
    except OSError as exc:  # a FIFO is refused, not waited on; a file over the limit too
        raise fail(display, f"cannot read the file: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise fail(display, f"cannot read the file: {exc}") from exc
    try:
        if fmt == "jsonl":
            results = list(jsonl(text.splitlines(), display, stat))
        else:
            results = list(FORMATS[fmt](loads(text, display), display, stat))
    except (KeyError, TypeError, ValueError, IndexError, StopIteration, OverflowError) as exc:
        raise fail(display, f"not {fmt} output as expected: missing or wrong {exc}",
                   f"give the file exactly as {fmt} wrote it") from exc
    for result in results:
        if not result.value.is_finite() or abs(result.value) > LARGEST:
            raise fail(display, f"benchmark '{result.name}': {float(result.value):g} is out "
                       "of range", f"a result is finite and at most {LARGEST:.0e}")
    return results
