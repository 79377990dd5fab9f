"""hyperfine's `--export-json` output: one result per command, in seconds."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Any

from progress_site.errors import visible_path
from progress_site.record.importers.base import (
    Result,
    not_negative,
    number,
    stats_of,
)
from progress_site.record.importers.places import ToolFile, Under
from progress_site.record.importers.reading import read_located
from progress_site.record.importers.shape import Each, Format, Obj

STATS = MappingProxyType({"mean": "mean", "median": "median", "min": "min", "max": "max",
                          "stddev": "stddev"})
HINT = "write it with `hyperfine --export-json FILE ...`"
# Where a result's values are, by our name of each: hyperfine's key.
KEYS = MappingProxyType({**STATS, "user": "user", "system": "system", "times": "times",
                         "samples": "times"})
# What hyperfine writes (src/export/json.rs), as far as a result is read from it.
RESULT = Obj("a result", {
    "command": ("text", True),
    **{key: ("number", False) for key in (*STATS, "user", "system")},
    "times": (Each("a time", "number"), False),
    "exit_codes": (Each("an exit code", "maybe-number"), False),
}, either=("mean", "times"))
FORMAT = Format(Obj("the file", {"results": (Each("a result", RESULT), True)}),
                "not hyperfine JSON: no `results` list", HINT)


def read(path: Path, display: str) -> list[Result]:
    """Every command of the file with its `times`; a non-zero exit code marks it failed."""
    doc, tool_file = read_located(path, display, FORMAT)
    return [one(run, display, tool_file, i) for i, run in enumerate(doc["results"])]


def one(run: dict[str, Any], display: str, tool_file: ToolFile, index: int) -> Result:
    """One command: its times, the statistics hyperfine reports, and how it exited."""
    places = Under(tool_file, ("results", index), KEYS)
    not_negative(display, run["command"], run, places=places)
    times = tuple(number(t) for t in run.get("times") or ())
    stats = stats_of(run, STATS)
    return Result(run["command"], "s", stats, times, len(times) or 1,
                  failed=failure(run.get("exit_codes")), places=places)


def failure(codes: Any) -> str | None:
    """What says the command failed: the exit codes hyperfine recorded, when any is not 0
    (it only keeps going past them under `-i`)."""
    if not isinstance(codes, list):
        return None
    bad = [c for c in codes if c not in (0, None)]
    if not bad:
        return None
    shown = ", ".join(visible_path(str(c)) for c in dict.fromkeys(bad))
    return f"the command exited with code {shown} in {len(bad)} of {len(codes)} runs"
