"""Read what benchmark tools write, as one `Result` per benchmark.

One module per tool, each with `read(path, display) -> results`; FORMATS is the
one registry of them (the `import` command's choices come from it). Nothing here
writes: `record.commands` turns results into measurements.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType

from progress_site.model.limits import LARGEST, in_range
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
from progress_site.record.importers.base import ImportFailed, Result, fail

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
        if not isinstance(result.name, str) or not isinstance(result.unit, (str, type(None))):
            raise fail(display, f"a benchmark's name or unit is not text: {result.name!r}, "
                       f"{result.unit!r}", f"give the file exactly as {fmt} wrote it")
        if not result.stats and not result.samples:
            raise fail(display, f"benchmark '{result.name}' has no number in it",
                       f"give the file exactly as {fmt} wrote it")
        for value in (*result.stats.values(), *result.samples):
            if not in_range(value):
                raise fail(display, f"benchmark '{result.name}': {float(value):g} is out "
                           "of range", f"a result is finite and at most {LARGEST:.0e}")
    return results
