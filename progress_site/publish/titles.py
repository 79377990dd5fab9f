"""The words a change summary names a figure or a task by: the English title of what holds
it (`Processor per packet (500 typical players), After`), beside its key.

A reviewer reads a pull request's summary: `comparisons.cpu-per-packet-500.after` says
where to edit, the title says what changed. Read from the document a data.json holds
(dicts: a published one parsed, untrusted, where anything not a text is no title, or a
build's own as its model makes it), one path for both sides of a comparison.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

SIDES = ("before", "after")
MAX_TITLE = 200  # characters of a title the summary prints: a table cell stays one line


def english(text: Any) -> str | None:
    """A text's English words (else its first), or None when it is no text."""
    found = text.get("en", next(iter(text.values()), None)) if type(text) is dict else text
    if type(found) is not str or not found.strip():
        return None
    return found if len(found) <= MAX_TITLE else found[:MAX_TITLE - 1] + "…"


def part(record: Any, name: str) -> Any:
    """A field of a record; None when absent, or when the record is no object."""
    return record.get(name) if type(record) is dict else None


def items(record: Any, name: str) -> list[Any]:
    """A list field of a record; empty when it is not a list."""
    found = part(record, name)
    return found if type(found) is list else []


def joined(*texts: str | None) -> str | None:
    """Titles from the outermost in, `: ` between them; None when the first is none."""
    if not texts or texts[0] is None:
        return None
    return ": ".join(t for t in texts if t)


def titles(collection: str, records: Iterable[Any]) -> Iterator[tuple[str, str]]:
    """(key or task path, title) for each figure and task of a collection's records."""
    named = {"measurements": measurements, "studies": studies, "profiles": profiles,
             "budgets": budgets, "runs": runs, "roadmaps": roadmaps}.get(collection)
    if named is None:
        return
    for record in records:
        if type(record) is dict:
            for key, title in named(record):
                if title is not None and type(key) is str:
                    yield key, title


Found = Iterator[tuple[str, str | None]]


def measurements(m: Any) -> Found:
    """A measurement by its title; none for a series titled by its id (no YAML entry)."""
    ident, title = part(m, "id"), english(part(m, "title"))
    yield f"measurements.{ident}", None if title == ident else title


def studies(study: Any) -> Found:
    """Each side of each comparison: its title, context, and the side's name or label."""
    sides = {s: side_words(part(study, s), s) for s in SIDES}
    for c in items(study, "comparisons"):
        context = english(part(c, "context"))
        what = english(part(c, "title"))
        if what is not None and context:
            what = f"{what} ({context})"
        for s in SIDES:
            yield f"comparisons.{part(c, 'id')}.{s}", \
                None if what is None else f"{what}, {sides[s]}"


def side_words(side: Any, which: str) -> str:
    """A side as the summary names it: the contender and its version, else its label,
    else `before` or `after`."""
    name = english(part(side, "name"))
    if name is not None:
        version = part(side, "version")
        return f"{name} {version}" if type(version) is str else name
    return english(part(side, "label")) or which


def profiles(profile: Any) -> Found:
    """Each claim, under its profile's title (a claim has no title: its id)."""
    for claim in items(profile, "claims"):
        yield (f"profiles.{part(profile, 'id')}.{part(claim, 'id')}",
               joined(english(part(profile, "title")), str(part(claim, "id"))))


def budgets(budget: Any) -> Found:
    """Each item, under its budget's title."""
    for item in items(budget, "items"):
        yield (f"budgets.{part(budget, 'id')}.{part(item, 'id')}",
               joined(english(part(budget, "title")), english(part(item, "title"))))


def runs(run: Any) -> Found:
    """Each test of a run, and each of its details, under the run's title."""
    title = english(part(run, "title"))
    for item in items(run, "items"):
        key = f"runs.{part(run, 'id')}.{part(item, 'id')}"
        what = joined(title, english(part(item, "title")))
        yield key, what
        for i, detail in enumerate(items(item, "details")):
            yield f"{key}.details.{i}", joined(what, english(part(detail, "label")))


def roadmaps(roadmap: Any) -> Found:
    """Each task and step by the path data.json gives it, under the roadmap's title."""
    at = f"roadmaps.{part(roadmap, 'id')}"
    for i, group in enumerate(items(roadmap, "groups")):
        yield from tasks(items(group, "tasks"), f"{at}.groups.{i}")
    yield from tasks(items(roadmap, "tasks"), at)


def tasks(listed: list[Any], at: str) -> Found:
    """A list of tasks, each with its steps."""
    for task in listed:
        path, title = f"{at}.tasks.{part(task, 'id')}", english(part(task, "title"))
        yield path, title
        for i, step in enumerate(items(task, "steps")):
            yield f"{path}.steps.{i}", joined(title, english(part(step, "title")))
