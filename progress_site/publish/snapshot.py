"""What a site shows, as words by key: each figure's printed number and status, each task's
status and proofs. Made from the document a data.json holds: a published one parsed
(untrusted), or a build's own as its model makes it (`datajson.plain`), by the same
path, so that two sites compare (changes.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from progress_site.derive.kinds.distribution import PARTS
from progress_site.derive.quantity import significant_decimals
from progress_site.model.history import SPREAD_DIGITS, SPREAD_NAMES
from progress_site.model.keys import published
from progress_site.model.limits import MAX_PRINTED_DECIMALS
from progress_site.publish.datasetrows import Records, records_of
from progress_site.publish.titles import SIDES, items, part, titles

TASK_STATUSES = frozenset({"done", "in-progress", "planned"})
WIDTHS = ("sd", "iqr")  # a distribution's parts that are spreads, not places


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The figures and tasks of one site, by a path made of the data's ids."""

    figures: dict[str, tuple[str, str]]  # key (`measurements.ID`) -> (printed number, status)
    tasks: dict[str, tuple[str, int]]  # path -> (status, number of proofs)
    # key -> (value, decimals, unit) of each single-valued figure: for its change in %
    values: dict[str, tuple[float, int, str]] = field(default_factory=dict)
    # key -> the contender its side names (`cargo test 1.66.0`), for figures of contenders
    sides: dict[str, str] = field(default_factory=dict)
    # key -> the spread of a distribution's headline, named: ("IQR", 0.998) beside a
    # median, ("σ", 2.8) beside a mean
    spreads: dict[str, tuple[str, float]] = field(default_factory=dict)
    # dataset id -> its records by name (`four-way[bots=1, server=paper]`) -> field ->
    # printed value (datasetrows.py); None for a dataset written without them
    records: dict[str, Records | None] = field(default_factory=dict)
    # key or task path -> the English title of what holds it (titles.py)
    titles: dict[str, str] = field(default_factory=dict)

    def named(self, key: str) -> str:
        """A figure or task by its title, then its key (`Memory at rest
        (measurements.memory)`); by its key, with its contender, when it has no title."""
        title = self.titles.get(key)
        if title is not None:
            return f"{title} ({key})"
        side = self.sides.get(key)
        return f"{key} ({side})" if side else key


def number(quantity: Any) -> str:
    """`7.92 us`, `12.5 to 17.1 packets`, `56 of 56` (ValueError for what no build
    publishes: the old side may be any file)."""
    if not quantity or quantity.get("kind") == "none":
        return "no number"
    decimals = int(quantity.get("decimals") or 0)
    if not 0 <= decimals <= MAX_PRINTED_DECIMALS:
        raise ValueError(f"{decimals} decimals")
    if not all(finite(quantity[k]) for k in ("low", "high")):
        # JSON's reader takes NaN and Infinity, which no build publishes: a planted old
        # site's would print as no number a reader could compare.
        raise ValueError("a figure's number is not a finite number")
    low, high = (f"{quantity[k]:.{decimals}f}" for k in ("low", "high"))
    unit = f" {quantity['unit']}" if quantity.get("unit") else ""
    if quantity["kind"] == "count":
        return f"{float(quantity['low']):.0f} of {float(quantity['high']):.0f}"
    if quantity["kind"] == "range":
        return f"{low} to {high}{unit}"
    if quantity["kind"] == "distribution":
        return spread(quantity.get("parts"), decimals, unit)
    return f"{low}{unit}"


def spread(parts: Any, decimals: int, unit: str) -> str:
    """A distribution's parts in their order, so a tail that moved shows:
    `p50 19.03 us · p99 65.00 us (n = 1000)` (ValueError for what no build writes)."""
    if type(parts) is not dict or not all(finite(v) for v in parts.values()):
        raise ValueError("a distribution's parts are numbers by name")
    shown = " · ".join(f"{name} {parts[name]:.{part_decimals(name, parts[name], decimals)}f}"
                       f"{unit}" for name in PARTS if name in parts and name != "n")
    return shown + (f" (n = {parts['n']:.0f})" if "n" in parts else "")


def finite(value: Any) -> bool:
    """Whether a parsed value is a number a build publishes (OverflowError for a whole
    number no float holds)."""
    return type(value) in (int, float) and math.isfinite(value)


def part_decimals(name: str, value: float, decimals: int) -> int:
    """A place's decimals are the headline's (a column of them lines up); a width's (sd,
    iqr) are at least its third significant digit: an IQR of 0.998 beside 24.1 is not 1.0."""
    if name not in WIDTHS:
        return decimals
    return max(decimals, width_decimals(value))


def width_decimals(width: float) -> int:
    """The decimals that show a spread's third significant digit."""
    return min(MAX_PRINTED_DECIMALS, significant_decimals(width, SPREAD_DIGITS)) if width > 0 else 0


def gather(value: Any, parts: tuple[str, ...], snap: Snapshot) -> None:
    """Record every figure and task under `value` (parsed JSON, at the path `parts`), with
    an explicit stack: a site of 10,000 figures nests a few levels, but holds a million
    values."""
    figures, tasks = snap.figures, snap.tasks
    stack: list[tuple[Any, tuple[str, ...]]] = [(value, parts)]
    while stack:
        value, parts = stack.pop()
        if type(value) is list:
            for i, item in enumerate(value):
                if type(item) is dict or type(item) is list:
                    # A list item's part of a path: its id when it has one, else its place.
                    name = item.get("id", i) if type(item) is dict else i
                    stack.append((item, (*parts, str(name))))
            continue
        derived = value.get("derived")
        if type(derived) is dict and "quantity" in derived:
            name = figure_name(derived, parts)
            figures[name] = (number(derived["quantity"]), str(derived.get("status")))
            single(derived["quantity"], name, snap)
        if value.get("status") in TASK_STATUSES and "proofs" in value:
            tasks[".".join(parts)] = (value["status"], len(value.get("proofs") or ()))
        for key, child in value.items():
            # A dataset's rows are records of its file, read by datasetrows.py: a field
            # named `status` there is no task.
            rows = key == "rows" and parts[:1] == ("datasets",)
            if key != "derived" and not rows and (type(child) is dict or type(child) is list):
                stack.append((child, (*parts, key)))


def figure_name(derived: dict[str, Any], parts: tuple[str, ...]) -> str:
    """A figure's key as texts cite it (`measurements.startup`): written in `derived` by
    this engine; an older data.json's figure is named by where it stands
    (`measurements.startup.figure`), which gives the same key."""
    key = derived.get("key")
    if type(key) is str:
        return key
    found = published(parts)
    return str(found) if found is not None else ".".join(parts)


def single(quantity: Any, key: str, snap: Snapshot) -> None:
    """Keep a single-valued figure's number (`number` has checked its decimals)."""
    if quantity and quantity.get("kind") not in ("none", "count", "range"):
        snap.values[key] = (float(quantity["low"]), int(quantity.get("decimals") or 0),
                             str(quantity.get("unit") or ""))
        found = headline_spread(quantity.get("parts"))
        if found is not None:
            snap.spreads[key] = found


def headline_spread(parts: Any) -> tuple[str, float] | None:
    """The spread of the same family as a distribution's headline: the interquartile
    range of its median, the standard deviation of its mean (none of the median: a few
    slow rounds make it many times the median)."""
    if type(parts) is not dict:
        return None
    name, label = (("iqr", SPREAD_NAMES["iqr"]) if "p50" in parts
                   else ("sd", SPREAD_NAMES["stddev"]))
    width: Any = parts.get(name)
    if not finite(width) or width < 0:
        return None
    return label, float(width)


def snapshot(document: dict[str, Any]) -> Snapshot:
    """What a parsed data.json shows."""
    snap = Snapshot({}, {})
    for key, value in document.items():
        if key not in ("site", "version", "today") and type(value) in (dict, list):
            gather(value, (key,) if key else (), snap)
        if type(value) is list:
            snap.titles.update(titles(key, value))
    studies = document.get("studies")
    for study in studies if type(studies) is list else ():
        snap.sides.update(contenders(study))
    datasets = document.get("datasets")
    for dataset in datasets if type(datasets) is list else ():
        add_records(dataset, snap)
    return snap


def add_records(dataset: Any, snap: Snapshot) -> None:
    """Keep a dataset's records (None when its data.json writes none)."""
    if type(dataset) is dict:
        snap.records[str(dataset.get("id"))] = records_of(dataset)


def of_records(collection: str, first: int, records: list[Any]) -> Snapshot:
    """The figures and tasks of some records of a parsed data.json's collection, the first
    at index `first`: what `snapshot` finds in them (edited.py reads no other record)."""
    snap = Snapshot({}, {})
    snap.titles.update(titles(collection, records))
    for i, item in enumerate(records, first):
        if type(item) is dict or type(item) is list:
            gather(item, (collection, str(item.get("id", i) if type(item) is dict else i)),
                   snap)
        if collection == "studies":
            snap.sides.update(contenders(item))
        if collection == "datasets":
            add_records(item, snap)
    return snap


def contenders(study: Any) -> dict[str, str]:
    """`comparisons.C.before` -> `cargo test 1.66.0` for each side of a study that names a
    contender (in English, as the summary is); nothing for sides that are commits."""
    out: dict[str, str] = {}
    for which in SIDES:
        side = part(study, which)
        words = side_words(part(side, "name"), part(side, "version"))
        for c in items(study, "comparisons"):
            if words and type(part(c, "id")) is str:
                out[f"comparisons.{c['id']}.{which}"] = words
    return out


def side_words(name: Any, version: Any) -> str | None:
    """A contender as the summary names it (`cargo test 1.66.0`), from its name as
    data.json writes it (one text, or one per language: the English one); None for none."""
    words = name.get("en", next(iter(name.values()), None)) if type(name) is dict else name
    if type(words) is not str:
        return None
    return f"{words} {version}" if type(version) is str else words
