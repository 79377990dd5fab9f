"""An old-style figure moved into its history file: a measurement whose YAML has its own
`value:` (and `history:` points) gives them to the series as its first points, oldest
first, and keeps its title, unit, note and method; every other byte of the YAML stays.

A figure takes its value from its history file once it has one (docs/history-format.md),
so writing the first point of a series without this would leave two values for it.
"""

from __future__ import annotations

import statistics
from decimal import Decimal
from typing import Any

from ruamel.yaml.comments import CommentedMap

from progress_site.errors import visible_path
from progress_site.record.datafiles import DataFiles
from progress_site.record.history import Point, make
from progress_site.record.recorder import Refused
from progress_site.record.series import date_of
from progress_site.record.yamledit import flow

# What a point holds: these leave the YAML figure when it moves.
MOVED = ("value", "samples", "machine", "date", "commit", "run", "status")
NOT_A_POINT = ("range", "ok", "of")


def old_points(rec: DataFiles, ident: str) -> list[Point]:
    """The points an old-style figure gives its series (none for a figure without a
    value), its YAML edited to keep the rest; refused when a point cannot be made."""
    found = rec.find("measurements", ident)
    if found is None:
        return []
    file, entry = found
    figure = entry.get("figure")
    figure = figure if isinstance(figure, CommentedMap) else CommentedMap()
    history = entry.get("history") or []
    if not history and "value" not in figure and "samples" not in figure:
        return []
    where = rec.where(file, entry)
    label = f"measurement '{visible_path(ident)}' ({where})"
    if rec.history(ident).count():
        raise Refused(f"{label} has a value in YAML and a history file "
                      f"({rec.history(ident).display}); remove `value:` and `history:` from "
                      "its figure, or move them into the history file, then again")
    refuse_unmovable(label, figure)
    machine, unit = figure.get("machine"), figure.get("unit")
    if machine is None:
        raise Refused(f"{label}: its figure names no machine, which each point of a "
                      "history needs; add `machine:` to it, then again")
    points = [point_of(label, p, machine, unit, p.lc.line + 1) for p in history]
    if "value" in figure or "samples" in figure:
        points.append(point_of(label, figure, machine, unit, entry.lc.line + 1))
    if "history" in entry:
        file.remove(entry, "history")
    kept = CommentedMap((k, v) for k, v in figure.items() if k not in MOVED)
    file.set(entry, "figure", flow(kept) if figure.fa.flow_style() else kept)
    rec.notes.append(f"moved measurements.{visible_path(ident)}'s figure and history "
                     f"({len(points)} point{'s' if len(points) != 1 else ''}) from "
                     f"{file.display} into {rec.history(ident).display}")
    return points


def refuse_unmovable(label: str, figure: CommentedMap) -> None:
    """A range, a count or an estimate is no point of a history: say so, move nothing."""
    kind = next((k for k in NOT_A_POINT if k in figure), None)
    status = str(figure.get("status", "measured"))
    if kind or status not in ("measured", "watch"):
        what = f"`{kind}:`" if kind else f"status {visible_path(status)}"
        raise Refused(f"{label}: a figure with {what} is no point of a history; keep it "
                      "in the YAML (record without --history), or give it a measured "
                      "`value:` first")


def point_of(label: str, found: CommentedMap, machine: Any, unit: Any,
             line: int) -> Point:
    """One point from a YAML figure or `history:` point, its evidence required."""
    missing = [k for k in ("commit", "date") if found.get(k) is None]
    if missing:
        raise Refused(f"{label}: the point at line {line} has no "
                      f"{' and no '.join(missing)}, which each point of a history needs; "
                      "add them (a commit declared under `commits:`), then again")
    note = found.get("label")
    if note is not None and not isinstance(note, str):
        raise Refused(f"{label}: the point at line {line} has a label in several languages; "
                      "a point's note is one text: write one, then again")
    samples = [Decimal(str(x)) for x in found.get("samples") or ()]
    value = statistics.median(samples) if samples else Decimal(str(found["value"]))
    return make({"commit": str(found["commit"]),
                 "date": date_of(found).isoformat(),
                 "machine": str(machine), "value": value,
                 "unit": str(unit) if unit is not None else "", "n": len(samples) or None,
                 "samples": samples,
                 "status": "watch" if found.get("status") == "watch" else None,
                 "note": note})
