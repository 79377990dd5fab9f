"""Each chart shape's Vega spec, kept in the cache folder as data once compiled: a chart
redrawn in a shape drawn before (its numbers or its words changed, after an edit) needs
neither Altair, whose import is the largest part of drawing a few charts, nor Vega-Lite's
compiler; only vl-convert's drawing.

A shape (`vega._shape`) holds none of a chart's words or numbers, nor its width; its
entry's name hashes it and what compiles it: the versions of Altair and vl-convert and
the engine's code, as a drawn chart's name does (`cache.py`). An entry is read back only
as JSON within limits; nothing is fetched while drawing (`svg.drawing`), and a chart drawn
from a stored shape is checked as a cached chart is (`allowed.py`) before it reaches a
page (`svg.render_svg`): anything else is compiled again, its entry replaced (`ChartCache._draw`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from progress_site import cache
from progress_site.load.jsonfiles import TooDeep, parse_json

if TYPE_CHECKING:
    from progress_site.charts.spec import ChartSpec

LIMIT = 1024 * 1024  # bytes; a shape's Vega spec is a few kilobytes
# What the shapes Vega-Lite compiles for our charts (lines, bars, points, a rule, a
# legend) call and transform with, and how large their numbers get (sizes, tick counts).
# A kept shape that asks for more (a sequence of a billion numbers, a density estimate,
# a billion ticks) asks for work no chart of ours needs, and is compiled again instead: a
# new kind of chart that needs more is compiled each time until it is listed here,
# slower, never wrong.
CALLS = frozenset({"bandwidth", "ceil", "isFinite", "isValid", "max", "toNumber", "var"})
TRANSFORMS = frozenset({"filter", "formula", "stack"})
LARGEST = 100_000
CALL = re.compile(r"([A-Za-z_$][\w$]*)\s*\(")


@dataclass(frozen=True, slots=True)
class Shapes:
    """The folder of compiled shapes, and what compiles them (hashed into each name)."""

    folder: Path
    renderer: str  # the versions of Altair and vl-convert and the engine's stamp, as JSON

    def path(self, shape: ChartSpec) -> Path:
        """Where a shape's compiled spec is kept."""
        name = digest(shape=dataclasses.asdict(shape), renderer=self.renderer)
        return self.folder / f"{name}.json"

    def read(self, shape: ChartSpec) -> str | None:
        """The shape's Vega spec as JSON text, if kept and a JSON object within limits."""
        data = cache.read(self.path(shape), LIMIT)
        if data is None:
            return None
        try:
            text = data.decode("utf-8")
            value = parse_json(text)
        except (UnicodeDecodeError, ValueError, TooDeep):
            return None
        return text if isinstance(value, dict) and ours(value) else None

    def store(self, shape: ChartSpec, text: str) -> None:
        """Keep a shape's Vega spec, whole or not at all (a folder that cannot be written
        means the next build compiles it again)."""
        cache.store(self.path(shape), text.encode("utf-8"))


def digest(**payload: Any) -> str:
    """The sha256 of the payload's canonical JSON: the name of a chart's or a shape's entry."""
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def ours(value: Any) -> bool:
    """Whether a shape asks only for what the shapes of our charts ask for (CALLS,
    TRANSFORMS, numbers within LARGEST)."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            steps = item.get("transform", [])
            if not isinstance(steps, list) or not all(
                    isinstance(step, dict) and step.get("type") in TRANSFORMS for step in steps):
                return False
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, str):
            if not set(CALL.findall(item)) <= CALLS:
                return False
        elif isinstance(item, bool) or item is None:
            continue
        elif not isinstance(item, (int, float)) or not abs(item) <= LARGEST:
            return False  # a whole number too long to read, or past what ours hold
    return True
