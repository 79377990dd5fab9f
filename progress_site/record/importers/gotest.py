"""`go test -bench` text output: `BenchmarkX-8  1000  1234 ns/op  56 B/op  2 allocs/op`.

A result is named as benchstat names it, without `Benchmark` (`SortInts`). With
`-count N` a benchmark has N lines: they make ONE result with N readings. Only the
time per operation becomes the figure; `B/op`, `allocs/op`, `MB/s` and custom metrics
are read past (a figure has one unit; measure memory as a benchmark of its own).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from types import MappingProxyType

from progress_site.characters import named, offsets
from progress_site.errors import visible_path
from progress_site.load.text import lines_of
from progress_site.record.importers.base import (
    Result,
    fail,
    out_of_range,
    printable,
    quoted,
    unreadable,
)
from progress_site.record.importers.reading import read_text

# A benchmark's line: its name (with -GOMAXPROCS), iterations, then its metrics. Digits
# are ASCII: Python's \d (and Decimal) would read `१२` too, which go never writes.
LINE = re.compile(r"(Benchmark\S*?)(?:-[0-9]+)?\s+([0-9]+)\s+(.*)")
NUMBER = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|[-+]?(?:Inf|NaN)")
PLAIN = re.compile(r"[0-9]{1,15}(?:\.[0-9]{0,20})?")  # at most LARGEST, and a float holds it
FIELD = re.compile(r"\S+")
TIME_UNITS = MappingProxyType({"ns/op": "ns", "us/op": "us", "µs/op": "us", "ms/op": "ms",
                               "s/op": "s"})
# The first metric that is a time per operation, and the number before it. A search, not
# a list of every field: a line of millions of metrics is read at once.
TIMED = re.compile(r"(?<!\S)(\S+)\s+(" + "|".join(map(re.escape, TIME_UNITS)) + r")(?!\S)")
MACHINE_KEYS = ("goos", "goarch", "cpu")
HINT = "give the output as `go test -bench` wrote it"
Key = tuple[str, str]  # a benchmark's package and name


@dataclass
class Reading:
    """What the lines read so far hold: each benchmark's readings and unit, the machine's
    facts, the package of the lines that follow."""

    readings: dict[Key, list[Decimal]] = field(default_factory=dict)
    units: dict[Key, str] = field(default_factory=dict)
    facts: dict[str, str] = field(default_factory=dict)
    pkg: str = ""


def read(path: Path, display: str) -> list[Result]:
    """One result per benchmark, its lines' times as readings; a failed run is refused.
    With several packages (`go test -bench . ./...`), a name is `pkg/path.X`."""
    state = Reading()
    for line_no, text in enumerate(lines_of(read_text(path, display)), start=1):
        read_line(state, text, display, line_no)
    if not state.readings:
        raise fail(display, "not `go test -bench` output: no `BenchmarkX  N  T ns/op` line",
                   "write it with `go test -bench . -count 5 -run '^$' > FILE`")
    facts = state.facts
    system = "/".join(facts[k] for k in ("goos", "goarch") if k in facts)
    machine = tuple(fact for fact in (facts.get("cpu"), system) if fact)
    several = len({p for p, _ in state.readings}) > 1
    return [Result(f"{p}.{short(name)}" if several else short(name), state.units[p, name], {},
                   tuple(values), len(values), facts=machine,
                   former=f"{p}.{name}" if several else name)
            for (p, name), values in state.readings.items()]


def read_line(state: Reading, text: str, display: str, line_no: int) -> None:
    """One line of the output: a failure refused, a package or a fact kept, a benchmark's
    time added to its readings."""
    refuse_failure(text, display, line_no)
    key, _, rest = text.partition(":")
    if key in ("pkg", *MACHINE_KEYS):
        refuse_hidden(text, f"`{key}:`", display, line_no)
    if key == "pkg":
        state.pkg = rest.strip()
    elif key in MACHINE_KEYS and rest.strip():
        state.facts.setdefault(key, rest.strip())
    found = LINE.fullmatch(text.strip())
    if found is None:
        refuse_garbled(text, display, line_no)
        return
    refuse_hidden(text, "a benchmark's name", display, line_no)
    name, value, unit = time_of(found, text, display, line_no)
    if state.units.setdefault((state.pkg, name), unit) != unit:
        raise fail(display, f"benchmark {quoted(visible_path(name))} changes its unit",
                   "give the output of one `go test` run", line_no, source=text)
    state.readings.setdefault((state.pkg, name), []).append(value)


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


def refuse_hidden(text: str, what: str, display: str, line: int) -> None:
    """A character no page can hold (a control, a direction override) in a name or a
    machine's fact: go test writes none (it spells them out, `\\x1b`), so the file was
    changed since, and what reads it cannot be trusted to show it."""
    if text.replace("\t", " ").isprintable():  # as every line go writes
        return
    found = offsets(text, line_ends=True)
    if found:
        raise fail(display, f"{what} holds {named(text[found[0]])}, which go test never "
                   "writes", HINT, line, found[0] + 1, text)


def refuse_failure(text: str, display: str, line: int) -> None:
    """`--- FAIL: BenchmarkX` or a lone `FAIL`: the run failed, its times are no figure."""
    if text.startswith("--- FAIL") or text.strip() == "FAIL" or text.startswith("FAIL\t"):
        raise fail(display, f"the run failed: {visible_path(text.strip())}",
                   "fix the failing benchmark or test and run again; nothing was written",
                   line, source=text)


def refuse_garbled(text: str, display: str, line: int) -> None:
    """A line that names a benchmark and a time per operation, yet is not one go writes
    (its iterations not a whole number): read past, its time would be lost unsaid."""
    name = FIELD.match(text, len(text) - len(text.lstrip()))
    if name is None or not name.group().startswith("Benchmark") or not TIMED.search(text):
        return
    refuse_hidden(text, "a benchmark's name", display, line)
    after = FIELD.search(text, name.end())
    raise fail(display, f"benchmark {quoted(visible_path(name.group()))}: its line is not "
               "`NAME  ITERATIONS  TIME ns/op` (the iterations a whole number)", HINT,
               line, (after or name).start() + 1, text)


def time_of(found: re.Match[str], text: str, display: str, line: int
            ) -> tuple[str, Decimal, str]:
    """A benchmark line's name (without its -GOMAXPROCS), time per operation and unit;
    a time missing, not a number or not one a page can print, told at its column."""
    name = found.group(1)
    start = len(text) - len(text.lstrip()) + found.start(3)  # where the metrics begin
    timed = TIMED.search(found.group(3))
    if timed is None:
        raise fail(display, f"benchmark {quoted(visible_path(name))} has no time per "
                   "operation (ns/op)", HINT, line, start + 1, text)
    written, column = timed.group(1), start + timed.start(1) + 1
    if not PLAIN.fullmatch(written):  # as go writes a time, it needs no other check
        wrong = time_problem(written)
        if wrong:
            raise fail(display, f"benchmark {quoted(visible_path(name))}: {wrong}", HINT,
                       line, column, text)
        if not printable(Decimal(written)):
            raise fail(display, *out_of_range(short(name), "a reading", Decimal(written),
                                              "go test"), line=line, column=column, source=text)
    return name, Decimal(written), TIME_UNITS[timed.group(2)]


def time_problem(written: str) -> str:
    """What is wrong with a time per operation as written; '' when it is a time."""
    if not NUMBER.fullmatch(written):
        return f"{quoted(visible_path(written))} is not a number"
    too_long = unreadable(written)
    if too_long:
        return too_long
    value = Decimal(written)
    return f"{value} is not a time" if not value.is_finite() or value < 0 else ""
