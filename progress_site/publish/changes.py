"""What changed between two published sites: figures, task statuses, proofs.

The old side is read from its `data.json` (the validated, derived data every build
publishes), through the one JSON reader with limits: the previous `site/` before a
build, or any old copy for a pull request (`build.py --changes OLD_SITE`). A build's
own summary takes the new side from its model in memory (`of_model`), as its data.json
holds it: the file just made is not parsed again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from progress_site.collector import collector_paused
from progress_site.derive.kinds.distribution import PARTS
from progress_site.derive.site import Model
from progress_site.errors import Location, Problem
from progress_site.load.jsonfiles import TooDeep, parse_json
from progress_site.model.keys import published
from progress_site.model.schema import Task
from progress_site.model.values import plain
from progress_site.publish.datajson import quantity
from progress_site.regular import NotRegular, read_regular

TASK_STATUSES = {"done", "in-progress", "planned"}
PAGES_NAMED = 5  # pages a summary names before it counts the rest
# More than a build prints; an old data.json asking for a million would print a megabyte.
MAX_DECIMALS = 20


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The figures and tasks of one site, by a path made of the data's ids."""

    figures: dict[str, tuple[str, str]]  # key (`measurements.ID`) -> (printed number, status)
    tasks: dict[str, tuple[str, int]]  # path -> (status, number of proofs)
    # key -> (value, decimals, unit) of each single-valued figure: for its change in %
    values: dict[str, tuple[float, int, str]] = field(default_factory=dict)
    # key -> the contender its side names (`cargo test 1.66.0`), for figures of contenders
    sides: dict[str, str] = field(default_factory=dict)

    def named(self, key: str) -> str:
        """A figure's key, with its contender when its side names one."""
        side = self.sides.get(key)
        return f"{key} ({side})" if side else key


def number(quantity: Any) -> str:
    """A derived quantity as plain text: `7.92 us`, `12.5 to 17.1 packets`, `56 of 56`
    (ValueError for what no build publishes: the old side may be any file)."""
    if not quantity or quantity.get("kind") == "none":
        return "no number"
    decimals = int(quantity.get("decimals") or 0)
    if not 0 <= decimals <= MAX_DECIMALS:
        raise ValueError(f"{decimals} decimals")
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
    if type(parts) is not dict or any(type(v) not in (int, float) for v in parts.values()):
        raise ValueError("a distribution's parts are numbers by name")
    shown = " · ".join(f"{name} {parts[name]:.{decimals}f}{unit}" for name in PARTS
                       if name in parts and name != "n")
    return shown + (f" (n = {parts['n']:.0f})" if "n" in parts else "")


def collect(value: Any, path: str, snap: Snapshot) -> None:
    """Record every figure and task under `value` (parsed JSON), with an explicit stack:
    a site of 10,000 figures nests a few levels, but holds a million values."""
    figures, tasks = snap.figures, snap.tasks
    stack: list[tuple[Any, tuple[str, ...]]] = [(value, (path,) if path else ())]
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
            if key != "derived" and (type(child) is dict or type(child) is list):
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


def snapshot(document: dict[str, Any]) -> Snapshot:
    """The figures and tasks of a parsed data.json."""
    snap = Snapshot({}, {})
    for key, value in document.items():
        if key not in ("site", "version", "today") and type(value) in (dict, list):
            collect(value, key, snap)
    studies = document.get("studies")
    for study in studies if type(studies) is list else ():
        snap.sides.update(contenders(study))
    return snap


def contenders(study: Any) -> dict[str, str]:
    """`comparisons.C.before` -> `cargo test 1.66.0` for each side of a study that names a
    contender (in English, as the summary is); nothing for sides that are commits."""
    out: dict[str, str] = {}
    comps = study.get("comparisons") if type(study) is dict else None
    for part in ("before", "after"):
        side = study.get(part) if type(study) is dict else None
        words = side_words(side.get("name"), side.get("version")) if type(side) is dict \
            else None
        for c in comps if type(comps) is list else ():
            if words and type(c) is dict and type(c.get("id")) is str:
                out[f"comparisons.{c['id']}.{part}"] = words
    return out


def side_words(name: Any, version: Any) -> str | None:
    """A contender as the summary names it (`cargo test 1.66.0`), from its name as
    data.json writes it (one text, or one per language: the English one); None for none."""
    words = name.get("en", next(iter(name.values()), None)) if type(name) is dict else name
    if type(words) is not str:
        return None
    return f"{words} {version}" if type(version) is str else words


def of_model(model: Model) -> Snapshot:
    """The snapshot of the site a model makes, as its data.json would give it: the file
    the build just made is not parsed again."""
    snap = Snapshot({}, {})
    shown = [(str(k), v.quantity, v.status) for k, v in model.figures.items()]
    for name, q, status in shown + [(str(h.key), h.quantity, h.status)
                                     for h in model.headlines]:
        snap.figures[name] = (number(quantity(q)), str(status))
        single(quantity(q), name, snap)
    for roadmap in model.data.roadmaps:
        at = f"roadmaps.{roadmap.id}"
        for i, group in enumerate(roadmap.groups):
            add_tasks(group.tasks, f"{at}.groups.{i}", snap)
        add_tasks(roadmap.tasks, at, snap)
    for study in model.data.studies:
        for part in ("before", "after"):
            side = getattr(study, part)
            words = side_words(plain(side.name), side.version)
            snap.sides.update({f"comparisons.{c.id}.{part}": words
                               for c in study.comparisons if words})
    return snap


def add_tasks(tasks: tuple[Task, ...], at: str, snap: Snapshot) -> None:
    """Each task, and each of its steps, by the path data.json gives it."""
    for task in tasks:
        path = f"{at}.tasks.{task.id}"
        snap.tasks[path] = (task.status, len(task.proofs))
        for i, step in enumerate(task.steps):
            snap.tasks[f"{path}.steps.{i}"] = (step.status, len(step.proofs))


def read_published(site: Path) -> bytes | None:
    """A published site's data.json, or None when it has none (OSError when it has one
    that cannot be read, or that is not a regular file: a FIFO there would hang the
    build, and a link may lead anywhere)."""
    try:
        return read_regular(site / "data.json", follow=False)
    except (FileNotFoundError, NotADirectoryError):
        return None


def parse_document(data_json: bytes) -> dict[str, Any] | None:
    """A data.json's bytes parsed, or None when they are not JSON, or not an object."""
    # A large data.json parses into about a million objects, none in a cycle: the
    # collector would scan them over and over for nothing (see bench/scale.py).
    with collector_paused():
        try:
            # The standard decoder: a whole number of more than 4,300 digits is refused.
            document = parse_json(data_json.decode("utf-8"), json.JSONDecoder())
        # Not text, not JSON, nested too deep: not a data.json.
        except (ValueError, TooDeep):
            return None
    return document if type(document) is dict else None


def parse_snapshot(data_json: bytes) -> Snapshot | None:
    """The snapshot of a data.json's bytes, or None when they are not JSON, or not the
    object a build publishes (the old side of a comparison may be any file)."""
    document = parse_document(data_json)
    return None if document is None else snapshot_or_none(document)


def snapshot_or_none(document: dict[str, Any]) -> Snapshot | None:
    """The snapshot of a parsed data.json, or None when it is not one a build publishes."""
    with collector_paused():
        try:
            return snapshot(document)
        # A figure that is not one, numbers no float holds: not a data.json.
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError,
                OverflowError):
            return None


def between(old: bytes, new: Snapshot) -> list[str] | None:
    """The changes from an old data.json to a new site; None when the old one is
    unreadable."""
    before = parse_snapshot(old)
    return None if before is None else describe(before, new)


def before_swap(out: Path, files: Mapping[str, bytes], model: Model
                ) -> tuple[list[str] | None, list[Problem]]:
    """What changed since the site `out` holds, worked out before the new one (`files`,
    made from `model`) replaces it: None when there is no site there yet; a warning
    when its data.json cannot be read, which never stops the new site from being
    published."""
    try:
        previous = read_published(out)
    except NotRegular as exc:
        return None, [unreadable(out, f"is {exc.what}, not a regular file")]
    except OSError as exc:
        return None, [unreadable(out, f"cannot be read ({exc.strerror or exc})")]
    if previous is None:
        return None, []
    # The same bytes mean no figure or task changed: nothing to parse (a rebuild).
    lines = [] if previous == files["data.json"] else between(previous, of_model(model))
    if lines is None:
        return None, [unreadable(out, "is not a data.json that a build published")]
    return lines + pages_line(pages_changed(out, files)), []


def pages_changed(site: Path, files: Mapping[str, bytes]) -> list[str]:
    """The pages (`.html`) of `files` that `site` lacks or holds otherwise: a text edited
    changes no figure, and is a change all the same."""
    changed = []
    for name, html in sorted(files.items()):
        if not name.endswith(".html"):
            continue
        try:  # no more than the new page's size: a longer old one differs
            same = read_regular(site / name, len(html), follow=False) == html
        except OSError:  # missing, too long, a link, not a file: not this page
            same = False
        if not same:
            changed.append(name)
    return changed


def pages_line(names: list[str]) -> list[str]:
    """The summary's line for the pages that changed; none when none did."""
    if not names:
        return []
    shown = ", ".join(names[:PAGES_NAMED])
    more = f" and {len(names) - PAGES_NAMED} more" if len(names) > PAGES_NAMED else ""
    noun = "page" if len(names) == 1 else "pages"
    return [f"{len(names)} {noun} changed: {shown}{more}"]


def unreadable(out: Path, why: str) -> Problem:
    """The warning of a previous data.json the summary could not read."""
    return Problem(Location(str(out / "data.json")), "no summary of what changed since the "
                   f"previous site: this file {why}", hint="the new site is published all "
                   "the same, and the next build compares with it", warning=True)


def describe(old: Snapshot, new: Snapshot) -> list[str]:
    """One line per change, figures first, then tasks; empty when nothing changed."""
    lines = []
    for path in sorted(old.figures.keys() | new.figures.keys()):
        before, after = old.figures.get(path), new.figures.get(path)
        if before == after:
            continue
        name = (new if path in new.figures else old).named(path)
        if before is None:
            lines.append(f"new figure {name}: {after[0]} ({after[1]})" if after else "")
        elif after is None:
            lines.append(f"figure removed {name} (was {before[0]})")
        elif before[0] != after[0]:
            status = f" ({before[1]} -> {after[1]})" if before[1] != after[1] else ""
            lines.append(f"figure {name}: {before[0]} -> {after[0]}{status}")
        else:
            lines.append(f"figure {name}: {before[1]} -> {after[1]}")
    for path in sorted(old.tasks.keys() | new.tasks.keys()):
        was, now = old.tasks.get(path), new.tasks.get(path)
        if was == now:
            continue
        if was is None and now is not None:
            lines.append(f"new task {path}: {now[0]}")
        elif now is None and was is not None:
            lines.append(f"task removed {path} (was {was[0]})")
        elif was is not None and now is not None:
            if was[0] != now[0]:
                lines.append(f"task {path}: {was[0]} -> {now[0]}")
            if now[1] > was[1]:
                lines.append(f"task {path}: {now[1] - was[1]} new proof(s)")
    return [line for line in lines if line]


def lines_between(old: bytes, new_data_json: bytes) -> list[str]:
    """The changes from one data.json to a new build's (ValueError when the old one is
    not a data.json)."""
    new = parse_snapshot(new_data_json)
    lines = None if new is None else between(old, new)
    if lines is None:
        raise ValueError("it is not a data.json that a build published")
    return lines
