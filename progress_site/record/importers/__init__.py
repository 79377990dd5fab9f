"""Read what benchmark tools write, as one `Result` per benchmark.

One module per tool, each with `read(path, display) -> results`; FORMATS is the
one registry of them (the `import` command's choices come from it). Nothing here
writes: `record.importing` turns results into points of each figure's history.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from decimal import Decimal
from pathlib import Path
from types import MappingProxyType

from progress_site.characters import first_forbidden
from progress_site.errors import shorten, visible
from progress_site.record.importers import (
    asv,
    criterion,
    gab,
    google_benchmark,
    gotest,
    hyperfine,
    pytest_benchmark,
    runrecords,
)
from progress_site.record.importers.base import (
    ImportFailed,
    Result,
    fail,
    fail_in,
    is_count,
    out_of_range,
    printable,
    quoted,
)

__all__ = ["FORMATS", "ImportFailed", "Importer", "Result", "read_results"]

Importer = Callable[[Path, str], list[Result]]  # (file, its name in messages) -> results

# The one table of formats: name -> the function reading a file of it.
FORMATS: Mapping[str, Importer] = MappingProxyType({
    "pytest-benchmark": pytest_benchmark.read,
    "hyperfine": hyperfine.read,
    "google-benchmark": google_benchmark.read,
    "jsonl": runrecords.read,
    "asv": asv.read,
    "criterion": criterion.read,
    "go-test": gotest.read,
    "github-action-benchmark": gab.read,
})


def read_results(fmt: str, path: Path, display: str) -> list[Result]:
    """Every result of a tool's output file; a malformed file is a located error."""
    try:
        results = FORMATS[fmt](path, display)
    except (KeyError, TypeError, ValueError, IndexError, StopIteration, OverflowError,
            AttributeError, ZeroDivisionError) as exc:
        # A KeyError names a key that is missing or not what the format says; the
        # others say what is wrong with a value.
        what = f"missing or wrong {exc}" if isinstance(exc, KeyError) else str(exc)
        raise fail(display, f"not {fmt} output as expected: {what}",
                   f"give the file exactly as {fmt} wrote it") from exc
    for result in results:
        if not result.stats and not result.samples:
            raise fail_in(result.places, "", display, f"benchmark {quoted(result.name)} has "
                          "no number in it", f"give the file exactly as {fmt} wrote it")
        check_numbers(result, fmt, display)
        check_words(result, fmt, display)
    return [dataclasses.replace(r, stats={k: unsigned(v) for k, v in r.stats.items()},
                                samples=tuple(unsigned(v) for v in r.samples))
            for r in results]


def check_words(result: Result, fmt: str, display: str) -> None:
    """Refuse a text `import` writes into data/ as it is (a title, a machine, a commit,
    the machine's facts) holding a character no page can hold: written, it was told at a
    line of a YAML file the user never wrote. (The unit is checked, and spelled out,
    where it is converted.)"""
    for key, what, text in [("title", "title", result.title),
                            ("machine", "machine", result.machine),
                            ("commit", "commit", result.commit),
                            *(("facts", "machine's description", fact)
                              for fact in result.facts)]:
        found = first_forbidden(text) if text else ""
        if found:
            raise fail_in(result.places, key, display, f"benchmark "
                          f"{quoted(visible(result.name))}: its {what} holds {found}, which "
                          "no page can hold", f"delete it from what {fmt} measured or ran "
                          "on, then run it again")


# The tool's name of each statistic kept under a name of ours: a message quotes the file.
WORDS: Mapping[str, str] = MappingProxyType(
    {"plus_minus": "range (±)", "ci_99_low": "ci_99_a", "ci_99_high": "ci_99_b"})


def check_numbers(result: Result, fmt: str, display: str) -> None:
    """Refuse a result whose numbers a page cannot print: infinite, not a number, past
    LARGEST, too close to 0 to hold, or a count of runs that is none."""
    for name, value in result.stats.items():
        if not printable(value):
            raise fail_in(result.places, name, display,
                          *out_of_range(result.name, WORDS.get(name, name), value, fmt))
    for i, value in enumerate(result.samples):
        if not printable(value):
            raise fail_in(result.places, "samples", display,
                          *out_of_range(result.name, "a reading", value, fmt), index=i)
    if not is_count(result.runs):
        raise fail_in(result.places, "runs", display, f"benchmark {quoted(result.name)}: "
                      f"{shorten(str(result.runs), 40)} runs",
                      f"give the file exactly as {fmt} wrote it")


def unsigned(value: Decimal) -> Decimal:
    """-0 as 0: no tool measures a time of minus nothing, and a page would print `-0`."""
    return value.copy_abs() if value.is_zero() else value
