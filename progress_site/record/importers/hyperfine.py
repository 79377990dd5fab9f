"""hyperfine's `--export-json` output."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from progress_site.record.importers.base import (
    Result,
    Stat,
    cv_of,
    fail,
    not_negative,
    number,
    pick,
    read_json,
)


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


def read(path: Path, display: str, stat: Stat) -> list[Result]:
    """Every benchmark of the file."""
    return list(hyperfine(read_json(path, display), display, stat))
