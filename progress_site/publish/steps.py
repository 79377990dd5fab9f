"""The regression steps a site's data.json holds, and which of them are new.

data.json holds them under `series[*].steps`, each with its series' `key` (written by
publish/regressions.py); this module reads them through `steps_in` alone, so that a
change of those names is a change of one function.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from progress_site.model.limits import LARGEST

STATUSES = ("regressed", "improved", "pending")


@dataclass(frozen=True, slots=True)
class StepRow:
    """One step of a series: where it happened, how large, against what noise."""

    series: str
    status: str  # regressed, improved or pending (not yet judged: too few points after)
    last_before: str  # the last commit before the step
    first_after: str  # the first commit after it
    before: float
    after: float
    percent: float
    noise: float  # a fraction: 0.02 for 2 %
    unit: str = ""  # the series' unit, as data.json writes it

    @property
    def key(self) -> tuple[str, str, str, str]:
        """What makes a step the same in two sites: its series, range and verdict."""
        return self.series, self.last_before, self.first_after, self.status


def steps_in(data_json: dict[str, Any]) -> list[StepRow]:
    """The steps of a parsed data.json's series; none when it has none, and an entry that
    is not a step is passed over (the old side may be any file)."""
    series = data_json.get("series")
    if type(series) is not list:
        return []
    found = [(step, one.get("unit")) for one in series
             if type(one) is dict and type(one.get("steps")) is list for step in one["steps"]]
    rows = [step_row(step, unit if type(unit) is str else "") for step, unit in found]
    return [row for row in rows if row is not None]


def step_row(entry: Any, unit: str = "") -> StepRow | None:
    """One entry of the list as a step of a series in `unit`, or None when it is not one."""
    if type(entry) is not dict or entry.get("status") not in STATUSES:
        return None
    texts = [entry.get(k) for k in ("key", "last_before", "first_after")]
    numbers: list[Any] = [entry.get(k) for k in ("before", "after", "percent", "noise")]
    words = [t for t in texts if type(t) is str]
    values = [float(n) for n in numbers if type(n) in (int, float)
              and math.isfinite(n) and abs(n) < LARGEST]  # larger: no measurement
    if len(words) < len(texts) or len(values) < len(numbers):
        return None
    before, after, percent, noise = values
    return StepRow(words[0], entry["status"], words[1], words[2], before, after, percent,
                   noise, unit)


def new_steps(old: list[StepRow], new: list[StepRow]) -> list[StepRow]:
    """The steps of the new site that the old one did not have with the same verdict (a
    step pending before and regressed now is news), in the new site's order."""
    known = {row.key for row in old}
    return [row for row in new if row.key not in known]


def new_regressions(old: list[StepRow], new: list[StepRow]) -> list[StepRow]:
    """The new steps judged regressions."""
    return [row for row in new_steps(old, new) if row.status == "regressed"]


def regressions_between(old: dict[str, Any] | None, new: dict[str, Any]) -> list[StepRow]:
    """The new regressions; none without an old site (a first build knows nothing new)."""
    return [] if old is None else new_regressions(steps_in(old), steps_in(new))


def told(row: StepRow) -> str:
    """One step as plain text: `series: +25.0 % between a1b2 and c3d4 (noise 2.0 %)`."""
    return (f"{row.series}: {row.percent:+.1f} % between {row.last_before} and "
            f"{row.first_after} (noise {row.noise * 100:.1f} %)")


def off_level(old: dict[str, Any], new: dict[str, Any]) -> frozenset[str]:
    """The series whose newest commit is an outlier of the new site the old one did not
    have: a pull request's own run lying far off its series' level (never a step: one
    commit is never enough, docs/regressions.md)."""
    before = {key: set(found) for key, _, found in newest_and_outliers(old)}
    return frozenset(key for key, newest, found in newest_and_outliers(new)
                     if newest in found and newest not in before.get(key, set()))


def newest_and_outliers(data_json: dict[str, Any]) -> list[tuple[str, str, list[str]]]:
    """Each series of a parsed data.json: its key, its newest commit, its outliers; a
    series that is not one as a build writes it is passed over."""
    series = data_json.get("series")
    found = []
    for one in series if type(series) is list else []:
        points = one.get("points") if type(one) is dict else None
        outliers = one.get("outliers") if type(one) is dict else None
        if type(points) is not list or not points or type(points[-1]) is not dict \
                or type(outliers) is not list or type(one.get("key")) is not str:
            continue
        newest = points[-1].get("commit")
        if type(newest) is str:
            found.append((one["key"], newest, [c for c in outliers if type(c) is str]))
    return found
