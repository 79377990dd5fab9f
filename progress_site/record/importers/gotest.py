"""`go test -bench` text output: `BenchmarkX-8  1000  1234 ns/op  56 B/op  2 allocs/op`.

A result is named as benchstat names it, without `Benchmark` (`SortInts`). With
`-count N` a benchmark has N lines: they make ONE result with N readings. Only the
time per operation becomes the figure; `B/op`, `allocs/op`, `MB/s` and custom metrics
are read past (a figure has one unit; measure memory as a benchmark of its own).
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from pathlib import Path
from types import MappingProxyType

from progress_site.errors import visible_path
from progress_site.load.text import lines_of
from progress_site.record.importers.base import Result, fail, quoted, read_text

LINE = re.compile(r"(Benchmark\S*?)(?:-\d+)?\s+(\d+)\s+(.*)")
TIME_UNITS = MappingProxyType({"ns/op": "ns", "us/op": "us", "µs/op": "us", "ms/op": "ms",
                               "s/op": "s"})
MACHINE_KEYS = ("goos", "goarch", "cpu")


def read(path: Path, display: str) -> list[Result]:
    """One result per benchmark, its lines' times as readings; a failed run is refused.
    With several packages (`go test -bench . ./...`), a name is `pkg/path.X`."""
    readings: dict[tuple[str, str], list[Decimal]] = {}
    units: dict[tuple[str, str], str] = {}
    facts: dict[str, str] = {}
    pkg = ""
    for line_no, text in enumerate(lines_of(read_text(path, display)), start=1):
        refuse_failure(text, display, line_no)
        key, _, rest = text.partition(":")
        if key == "pkg":
            pkg = rest.strip()
        elif key in MACHINE_KEYS and rest.strip():
            facts.setdefault(key, rest.strip())
        found = LINE.fullmatch(text.strip())
        if found:
            name, value, unit = time_of(found, display, line_no)
            if units.setdefault((pkg, name), unit) != unit:
                raise fail(display, f"benchmark {quoted(visible_path(name))} changes its unit",
                           "give the output of one `go test` run", line_no)
            readings.setdefault((pkg, name), []).append(value)
    if not readings:
        raise fail(display, "not `go test -bench` output: no `BenchmarkX  N  T ns/op` line",
                   "write it with `go test -bench . -count 5 -run '^$' > FILE`")
    system = "/".join(facts[k] for k in ("goos", "goarch") if k in facts)
    machine = tuple(fact for fact in (facts.get("cpu"), system) if fact)
    several = len({p for p, _ in readings}) > 1
    return [Result(f"{p}.{short(name)}" if several else short(name), units[p, name], {},
                   tuple(values), len(values), facts=machine,
                   former=f"{p}.{name}" if several else name)
            for (p, name), values in readings.items()]


def short(name: str) -> str:
    """A benchmark's name as go's own tools print it (benchstat's `SortInts` for
    `BenchmarkSortInts`); `Benchmark` alone, a name go allows, stays."""
    return name.removeprefix("Benchmark") or name


PROCS = re.compile(r"-\d+$")


def benchstat_name(name: str) -> str:
    """A go benchmark's name as another tool kept it (github-action-benchmark's
    `BenchmarkSortInts-8`, `BenchmarkSortInts - B/op`) named as `read` names it: without
    `Benchmark` and the -GOMAXPROCS suffix, a metric after ` - ` kept."""
    base, dash, metric = name.partition(" - ")
    return short(PROCS.sub("", base)) + dash + metric


def refuse_failure(text: str, display: str, line: int) -> None:
    """`--- FAIL: BenchmarkX` or a lone `FAIL`: the run failed, its times are no figure."""
    if text.startswith("--- FAIL") or text.strip() == "FAIL" or text.startswith("FAIL\t"):
        raise fail(display, f"the run failed: {visible_path(text.strip())}",
                   "fix the failing benchmark or test and run again; nothing was written",
                   line)


def time_of(found: re.Match[str], display: str, line: int) -> tuple[str, Decimal, str]:
    """A benchmark line's name (without its -GOMAXPROCS), time per operation and unit."""
    fields = found.group(3).split()
    pairs = dict(zip(fields[1::2], fields[0::2], strict=False))
    unit = next((u for u in TIME_UNITS if u in pairs), None)
    if unit is None:
        raise fail(display, f"benchmark {quoted(visible_path(found.group(1)))} has no time per "
                   "operation (ns/op)", "give the output as `go test -bench` wrote it", line)
    try:
        value = Decimal(pairs[unit])
    except InvalidOperation:
        raise fail(display, f"benchmark {quoted(visible_path(found.group(1)))}: "
                   f"{quoted(visible_path(pairs[unit]))} is not a number", line=line) from None
    if not value.is_finite() or value < 0:
        raise fail(display, f"benchmark {quoted(visible_path(found.group(1)))}: {value} is not a "
                   "time", "give the output as `go test -bench` wrote it", line)
    return found.group(1), value, TIME_UNITS[unit]
