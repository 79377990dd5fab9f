"""github-action-benchmark's `data.js` (`window.BENCHMARK_DATA = {...}`): a whole history.

Every bench of every entry of every suite is a result with its entry's own commit and
date, oldest first, so one import can migrate a history. A bench's name is its `name`
when the file has one suite, `SUITE/name` when it has several; a go bench's name is
written as `import go-test` writes it (`Join`, not `BenchmarkJoin-8`).

The action writes (src/write.ts of benchmark-action/github-action-benchmark):

    {"lastUpdate": ..., "repoUrl": ..., "entries": {SUITE: [ENTRY, ...], ...}}
    ENTRY: {"commit": {"id": ..., "timestamp": ..., ...}, "date": MS, "tool": ...,
            "benches": [{"name": ..., "value": ..., "unit": ..., "range": ..., "extra": ...}]}

Every mistake of that structure is told at its line and column, all at once, before a
bench is read; the text is walked again only to place one (`shape.offset`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from types import MappingProxyType
from typing import Any

from progress_site.model.limits import in_range
from progress_site.record.importers.base import (
    ImportFailed,
    Result,
    day_of,
    day_of_ms,
    fail,
    fail_in,
    not_negative,
    number,
    quoted,
)
from progress_site.record.importers.gotest import benchstat_name
from progress_site.record.importers.places import Places, ToolFile, Under
from progress_site.record.importers.reading import loads, read_text
from progress_site.record.importers.shape import Mistake, Obj, located, record, what

PREFIX = "window.BENCHMARK_DATA ="
# A number as a tool may write one, exponent, sign, inf and nan included: each is read
# (and refused when no page can print it), none read past as a range of other words.
NUMBER = r"([-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|[-+]?(?:inf(?:inity)?|nan))"
RANGE = re.compile(r"(?:±|\+/-)\s*" + NUMBER, re.IGNORECASE)
# Units as the action writes them, per tool: a time per iteration is a time.
TIMES = MappingProxyType({"ns": "ns", "us": "us", "µs": "us", "ms": "ms", "s": "s", "sec": "s"})
# go's bytes and allocations an operation (a count: no unit), rates a second.
OTHERS = MappingProxyType({"B/op": "B", "allocs/op": None, "ops/sec": "ops/s", "iter/sec": "ops/s"})
# What the action's `pytest` tool keeps beside 1 / mean: the stddev (seconds), the rounds.
STDDEV = re.compile(r"stddev:\s*" + NUMBER, re.IGNORECASE)
ROUNDS = re.compile(r"^rounds:\s*([0-9]{1,9})$", re.MULTILINE)
# The action's two custom tools say which way is good (its own alert compares that way);
# their units are the user's own, so the unit's default direction may be wrong.
# Where a bench's values are, by our name of each: the action's key.
KEYS = MappingProxyType({"value": "value", "mean": "value", "title": "name", "range": "range",
                         "plus_minus": "range", "stddev": "range"})
BETTER = MappingProxyType({"customBiggerIsBetter": "higher", "customSmallerIsBetter": "lower"})
HINT = ("give the data.js as github-action-benchmark wrote it (its gh-pages branch's "
        "dev/bench/data.js)")
# What each object of the format holds: key -> (what it must be, whether it is needed).
ENTRY = Obj("an entry", {"commit": ("object", False), "date": ("number", False),
                         "tool": ("text", False), "benches": ("list", True)})
COMMIT = Obj("a commit", {"id": ("text", False), "timestamp": ("text", False)})
BENCH = Obj("a bench", {"name": ("text", True), "value": ("number", True),
                        "unit": ("text", False), "range": ("text", False),
                        "extra": ("text", False)})


def read(path: Path, display: str) -> list[Result]:
    """Every bench of every entry, with its entry's commit and date."""
    whole = read_text(path, display)
    text = whole.strip()
    if not text.startswith(PREFIX):
        raise fail(display, f"not github-action-benchmark data.js: it does not start with "
                   f"`{PREFIX}`", "give the data.js of the gh-pages branch (dev/bench/data.js)",
                   1)
    start = len(whole) - len(whole.lstrip()) + len(PREFIX)
    doc = loads(json_of(whole, start), display, shown=whole)
    problems = located(mistakes(doc), whole, start, display, HINT)
    if problems:
        raise ImportFailed(problems)
    suites = doc["entries"]
    tool_file = ToolFile(display, whole, start)
    results = []
    for suite, entries in suites.items():
        for i, entry in enumerate(entries):
            prefix = f"{suite}/" if len(suites) > 1 else ""
            at = ("entries", suite, i)
            commit = {"commit": (tool_file, (*at, "commit", "id"))}
            results += [bench_result(prefix, bench, entry, display,
                                     Under(tool_file, (*at, "benches", j), KEYS, commit))
                        for j, bench in enumerate(entry["benches"])]
    return results


def mistakes(doc: Any) -> Iterator[Mistake]:
    """Each mistake of structure: the key path of the value at fault (or of the object
    lacking a key), and what is wrong."""
    if not isinstance(doc, dict):
        yield (), f"the data is {what(doc)}, not an object {{\"entries\": ...}}"
        return
    suites = doc.get("entries")
    if not isinstance(suites, dict):
        yield ((), "no `entries`: the object of each suite's entries") if suites is None \
            else (("entries",), f"`entries` is {what(suites)}, not an object of suites")
        return
    for suite, entries in suites.items():
        if not isinstance(entries, list):
            yield ("entries", suite), f"suite is {what(entries)}, not a list of entries"
            continue
        for i, entry in enumerate(entries):
            yield from record(("entries", suite, i), entry, ENTRY)
            if not isinstance(entry, dict):
                continue
            if isinstance(entry.get("commit"), dict):
                yield from record(("entries", suite, i, "commit"), entry["commit"], COMMIT)
            if isinstance(entry.get("benches"), list):
                for j, bench in enumerate(entry["benches"]):
                    yield from record(("entries", suite, i, "benches", j), bench, BENCH)


def json_of(whole: str, start: int) -> str:
    """The file's JSON where the file has it: the assignment before it and the `;` after
    it blanked, so that a position in one is the same in the other."""
    end = len(whole.rstrip())
    end -= whole[:end].endswith(";")
    return " " * start + whole[start:end] + " " * (len(whole) - end)


def bench_result(prefix: str, bench: dict[str, Any], entry: dict[str, Any],
                 display: str, places: Places) -> Result:
    """One bench of one entry: its value, unit, and the entry's commit and date."""
    tool = entry.get("tool")
    if tool == "pytest" and bench.get("unit") == "iter/sec":
        name, unit, stats, runs = pytest_time(prefix, bench, display, places)
    else:
        # go's as `import go-test` names it (`Join` for `BenchmarkJoin-8`), so a project
        # moving from the action to `go test` imports goes on in the same series.
        name = prefix + (benchstat_name(str(bench["name"])) if tool == "go"
                         else str(bench["name"]))
        unit = unit_of(str(bench.get("unit", "")))
        if unit in TIMES.values():
            not_negative(display, name, {"value": bench["value"]}, places=places)
        stats = {"value": number(bench["value"])}
        spread = plus_minus(bench.get("range"), name, display, places)
        if spread is not None:
            stats["plus_minus"] = spread
        runs = 1
    commit = entry.get("commit") or {}
    ident = commit.get("id")
    when = day_of_ms(entry.get("date")) or day_of(commit.get("timestamp"))
    # go's series go on under the id the name as written made, while they have a history.
    former = prefix + str(bench["name"]) if tool == "go" else None
    return Result(name, unit, stats, (), runs, when,
                  ident[:7] if isinstance(ident, str) else None, name,
                  better=BETTER.get(tool) if isinstance(tool, str) else None,
                  former=former if former != name else None, places=places)


def pytest_time(prefix: str, bench: dict[str, Any], display: str, places: Places
                ) -> tuple[str, str | None, dict[str, Decimal], int]:
    """A bench of the action's `pytest` tool as `import pytest-benchmark` writes it, so a
    migrated history goes on in the same series: the test's name (`test_x`, not the
    action's `tests/test_a.py::test_x`), and its mean time in seconds (the action
    kept 1 / mean as `iter/sec`) with its standard deviation (`stddev: X`, seconds)."""
    name = prefix + str(bench["name"]).rsplit("::", 1)[-1]
    not_negative(display, name, {"value": bench["value"]}, places=places)
    rate = number(bench["value"])
    if not in_range(rate):
        raise fail_in(places, "value", display, f"benchmark {quoted(name)}: {bench['value']} "
                      "iter/sec is out of range", "give the data.js as the action wrote it")
    if not rate:
        raise fail_in(places, "value", display, f"benchmark {quoted(name)}: 0 iter/sec has "
                      "no time per run", "give the data.js as the action wrote it")
    stats = {"mean": Decimal(1) / rate}
    found = STDDEV.fullmatch(str(bench.get("range", "")).strip())
    if found:
        stats["stddev"] = spread_of(found.group(1), name, display, places)
    rounds = ROUNDS.search(str(bench.get("extra", "")))
    return name, "s", stats, int(rounds.group(1)) if rounds else 1


def plus_minus(text: Any, name: str, display: str, places: Places) -> Decimal | None:
    """The number of a `range` such as `± 412` (cargo's deviation), kept beside the
    value; other ranges (`stddev: 0.01`, `± 2%`) are read past, their meaning varies."""
    found = RANGE.fullmatch(text.strip()) if isinstance(text, str) else None
    return spread_of(found.group(1), name, display, places) if found else None


def spread_of(written: str, name: str, display: str, places: Places) -> Decimal:
    """A spread as written (`412`, `1e999`, `nan`): a negative one is refused here, one no
    page can print (infinite, not a number, too large) by the import's number check."""
    value = Decimal(written)
    if value.is_signed() and not value.is_nan() and not value.is_zero():
        raise fail_in(places, "range", display, f"benchmark {quoted(name)}: its spread is "
                      f"{written}, a negative one", "give the data.js as the action wrote it")
    return value


def unit_of(unit: str) -> str | None:
    """`ns/iter` and `ns/op` are nanoseconds, go's `B/op` bytes and `allocs/op` a count,
    benchmark.js's `ops/sec` and pytest's `iter/sec` operations a second; other units
    are kept as written."""
    # go's first metric carries the rest of its line as its unit before the action's
    # v1.18 (`ns/op\t  64 B/op\t  2 allocs/op`): its first word is its own.
    first = unit.split()[0] if unit.strip() else ""
    base = first.removesuffix("/iter").removesuffix("/op")
    if first in OTHERS:
        return OTHERS[first]
    return TIMES.get(base, first or None)
