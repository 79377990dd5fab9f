"""A copy of the example with three history files: a planted 50 % slowdown, a flat
series within noise, and a series of two points (tests/test_history.py)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from .conftest import copy_example

STEP_AT = 20  # the first commit of the slower level
POINTS = 30
# A fixed pattern of noise, within +-2 %: the same files on every run.
NOISE = (0.0, 0.012, -0.008, 0.015, -0.017, 0.004, -0.011, 0.019, -0.003, 0.009,
         -0.014, 0.006, -0.019, 0.013, -0.006, 0.001, 0.017, -0.012, 0.008, -0.001)


def commit(i: int) -> str:
    """The i-th commit's id."""
    return f"c{i:06x}"


def line(i: int, value: float, **extra: object) -> str:
    """One point as the writer writes it."""
    day = dt.date(2026, 10, 1) + dt.timedelta(days=i)
    obj = {"commit": commit(i), "date": day.isoformat(), "machine": "test-pc",
           "value": round(value, 2), "unit": "ms", **extra}
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


def slowdown() -> str:
    """A series 50 % slower from commit STEP_AT on."""
    return "".join(line(i, 100.0 * (1.5 if i >= STEP_AT else 1.0) * (1 + NOISE[i % 20]),
                        spread=2.8, n=10) + "\n" for i in range(POINTS))


def flat() -> str:
    """A series that only moves within its noise."""
    return "".join(line(i, 55.4 * (1 + NOISE[(i * 7) % 20])) + "\n" for i in range(POINTS))


def short() -> str:
    """Two points: nothing can be judged yet."""
    return line(0, 12.0) + "\n" + line(1, 12.5) + "\n"


MEASUREMENT = """
  - id: startup
    title: {en: Start-up time, fr: Temps de démarrage}
    group: launch
    figure: {method: {en: "hyperfine, 10 runs", fr: "hyperfine, 10 passages"}}
"""


def history_source(root: Path) -> Path:
    """The example's data and content, with the three history files."""
    copy_example(root)
    history = root / "data" / "history"
    history.mkdir()
    (history / "measurements.startup.jsonl").write_text(slowdown(), encoding="utf-8")
    (history / "measurements.parse-small.jsonl").write_text(flat(), encoding="utf-8")
    (history / "measurements.render-new.jsonl").write_text(short(), encoding="utf-8")
    studies = root / "data" / "studies.yaml"
    text = studies.read_text(encoding="utf-8")
    studies.write_text(text.replace("measurements:\n", "measurements:" + MEASUREMENT, 1),
                       encoding="utf-8")
    for lang, words in (("en", "Start-up now takes"), ("fr", "Le démarrage prend")):
        page = root / "content" / lang / "index.md"
        text = page.read_text(encoding="utf-8")
        page.write_text(text + f"\n{words} {{{{ measurements.startup }}}}.\n",
                        encoding="utf-8")
    return root
