"""What changed between two published sites: figures, task statuses, proofs.

The old side is read from its `data.json` (the validated, derived data every build
publishes), through the one JSON reader with limits: the previous `site/` before a
build, or any old copy for a pull request (`build.py --changes OLD_SITE`). The new side
is the build's model, made into the document its data.json holds (`datajson.plain`, or
`datajson.written` for the records an edit changed): the file just made is not parsed
again, and both sides are read by one path, as plain JSON values (snapshot.py).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from progress_site.collector import collector_paused
from progress_site.derive.site import Model
from progress_site.errors import Location, Problem
from progress_site.load.jsonfiles import TooDeep, parse_json
from progress_site.model.declare import declared, hints
from progress_site.model.schema import Data
from progress_site.model.walk import record_fields
from progress_site.publish.datajson import VERSION, plain, written
from progress_site.publish.datasetrows import record_lines
from progress_site.publish.edited import edited
from progress_site.publish.snapshot import Snapshot, of_records, snapshot
from progress_site.regular import NotRegular, read_regular

PAGES_NAMED = 5  # pages a summary names before it counts the rest
NOT_PUBLISHED = "it is not a data.json that a build published"
# What a snapshot of a file no build wrote may raise: a figure that is not one, numbers
# no float holds.
UNREAD = (ValueError, TypeError, KeyError, AttributeError, RecursionError, OverflowError)


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


def frame_problem(document: dict[str, Any]) -> str | None:
    """Why a parsed data.json is not one a build published, judged by its frame (its
    `version`, its `today`, the shape of each collection); None when it could be one.
    Without this, any object (`{}`) would read as a site with nothing on it."""
    version = document.get("version")
    if type(version) is not int or version != VERSION:
        found = json.dumps(version)[:40] if "version" in document else "missing"
        return f"version: expected {VERSION}, got {found}"
    today = document.get("today")
    if type(today) is not str or not is_date(today):
        found = json.dumps(today)[:40] if "today" in document else "missing"
        return f"today: expected a date (YYYY-MM-DD), got {found}"
    types = hints(Data)
    for name in (*record_fields(Data), "series"):
        many = name == "series" or declared(types[name]).kind == "sequence"
        if name in document and type(document[name]) is not (list if many else dict):
            return f"{name}: expected {'a list' if many else 'an object'}, got " \
                   f"{type(document[name]).__name__}"
    return None


def is_date(text: str) -> bool:
    """Whether `text` is a day as data.json writes it (`2026-11-08`)."""
    try:
        return datetime.date.fromisoformat(text).isoformat() == text
    except ValueError:
        return False


def published_document(data_json: bytes) -> dict[str, Any]:
    """A data.json's bytes parsed, when they are one a build published (ValueError that
    says why not: the old side of `--changes` is a user's argument)."""
    document = parse_document(data_json)
    if document is None:
        raise ValueError(NOT_PUBLISHED)
    why = frame_problem(document)
    if why is not None:
        raise ValueError(f"{NOT_PUBLISHED} ({why})")
    return document


def published(data_json: bytes) -> tuple[dict[str, Any], Snapshot]:
    """`published_document`, and its snapshot (the same ValueError when the figures in it
    are not as a build writes them)."""
    document = published_document(data_json)
    with collector_paused():
        try:
            return document, snapshot(document)
        except UNREAD:
            raise ValueError(NOT_PUBLISHED) from None


def parse_snapshot(data_json: bytes) -> Snapshot | None:
    """The snapshot of a data.json's bytes, or None when they are not one a build published
    (the old side of a comparison may be any file)."""
    try:
        return published(data_json)[1]
    except ValueError:
        return None


class Previous:
    """The site a build replaces, read as the build starts: its data.json's bytes (or why
    they cannot be read), compared by `edited_lines`, else parsed whole."""

    def __init__(self, out: Path) -> None:
        self.out, self.data, self.problem = out, None, None
        try:
            self.data = read_published(out)
        except NotRegular as exc:
            self.problem = unreadable(out, f"is {exc.what}, not a regular file")
        except OSError as exc:
            self.problem = unreadable(out, f"cannot be read ({exc.strerror or exc})")

    def lines(self, new_data_json: bytes, model: Model) -> list[str] | None:
        """What changed from the old data.json to the new one (made from `model`); None
        when the old one is not a data.json a build published."""
        assert self.data is not None
        lines = edited_lines(self.data, new_data_json, model)
        if lines is not None:
            return lines
        before = parse_snapshot(self.data)
        return None if before is None else describe(before, snapshot(plain(model)))


def written_day(data: bytes) -> str:
    """The `today` a data.json says it was written on, read from its end, where a build
    writes it (keys sorted: `today`, then `version`); '' when it is not there."""
    at = day_at(data)
    return data[at:at + 10].decode("ascii", "replace") if at >= 0 else ""


def day_at(data: bytes) -> int:
    """Where the day of `written_day` starts in `data`; -1 when it is not there."""
    at = data.rfind(b'"today":"', max(0, len(data) - 64))
    return at + 9 if at >= 0 else -1


def as_of(old: bytes, new: bytes) -> bytes:
    """The old data.json as if written on the new one's day, when it says a day of its
    own (a date, where a build writes it): a new day changes `today`, which no line of a
    summary tells, and often nothing else but the edit."""
    at, day = day_at(old), written_day(new)
    if at < 0 or not day or old[at + 10:at + 11] != b'"' \
            or not is_date(old[at:at + 10].decode("ascii", "replace")):
        return old
    return old[:at] + day.encode("ascii") + old[at + 10:]


def edited_lines(old: bytes, new: bytes, model: Model) -> list[str] | None:
    """What changed, read from the records that differ alone (edited.py), the new ones
    made from `model` (which wrote `new`); None when the files differ otherwise or the old
    records do not read as a build writes them (the old file is then read whole)."""
    old = as_of(old, new)
    if old == new:  # another day, and nothing else
        return []
    found = edited(old, new)
    records = None if found is None else \
        written(model, found.collection, found.first, found.new)
    if found is None or records is None:
        return None
    try:
        before = of_records(found.collection, found.first, found.old)
    except UNREAD:
        return None
    return describe(before, of_records(found.collection, found.first, records))


def before_swap(previous: Previous, files: Mapping[str, bytes], model: Model
                ) -> tuple[list[str] | None, list[Problem]]:
    """What changed since the site `previous` read, before the new one (`files`, made
    from `model`) replaces it: None when there is none yet; a warning (never an error)
    when its data.json cannot be read."""
    if previous.problem is not None:
        return None, [previous.problem]
    if previous.data is None:
        return None, []
    lines: list[str] | None = []
    if previous.data != files["data.json"]:  # else no figure or task changed (a rebuild)
        lines = previous.lines(files["data.json"], model)
    if lines is None:
        return None, [unreadable(previous.out, "is not a data.json that a build published")]
    return lines + pages_line(pages_changed(previous.out, files)), []


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
    """One line per change, figures first, then datasets' records, then tasks; empty when
    nothing changed."""
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
    lines += record_lines(old.records, new.records)
    for path in sorted(old.tasks.keys() | new.tasks.keys()):
        was, now = old.tasks.get(path), new.tasks.get(path)
        if was == now:
            continue
        name = (new if path in new.tasks else old).named(path)
        if was is None and now is not None:
            lines.append(f"new task {name}: {now[0]}")
        elif now is None and was is not None:
            lines.append(f"task removed {name} (was {was[0]})")
        elif was is not None and now is not None:
            if was[0] != now[0]:
                lines.append(f"task {name}: {was[0]} -> {now[0]}")
            if now[1] > was[1]:
                lines.append(f"task {name}: {now[1] - was[1]} new proof(s)")
    return [line for line in lines if line]


def lines_between(old: bytes, new: dict[str, Any]) -> list[str]:
    """The changes from one data.json to a new build's document (`datajson.plain`; the
    ValueError of an old one that is not a data.json)."""
    return describe(published(old)[1], snapshot(new))
