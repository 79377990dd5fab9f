"""The shape of github-action-benchmark's `data.js`, checked before a bench is read: every
mistake of structure (a number where a list is, a list where an object is, a key left
out) told at its line and column, in the format's words, all of them at once.

The action writes (src/write.ts of benchmark-action/github-action-benchmark):

    {"lastUpdate": ..., "repoUrl": ..., "entries": {SUITE: [ENTRY, ...], ...}}
    ENTRY: {"commit": {"id": ..., "timestamp": ..., ...}, "date": MS, "tool": ...,
            "benches": [{"name": ..., "value": ..., "unit": ..., "range": ..., "extra": ...}]}

The decoded value says what is wrong; the text is walked again only to place a mistake
(`shape.offset`), so a good file pays one walk of its decoded entries.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from progress_site.errors import Problem
from progress_site.record.importers.shape import Mistake, Obj, located, record, what

HINT = ("give the data.js as github-action-benchmark wrote it (its gh-pages branch's "
        "dev/bench/data.js)")
# What each object of the format holds: key -> (what it must be, whether it is needed).
ENTRY = Obj("an entry", {"commit": ("object", False), "date": ("number", False),
                         "tool": ("text", False), "benches": ("list", True)})
COMMIT = Obj("a commit", {"id": ("text", False), "timestamp": ("text", False)})
BENCH = Obj("a bench", {"name": ("text", True), "value": ("number", True),
                        "unit": ("text", False), "range": ("text", False),
                        "extra": ("text", False)})


def shape_problems(doc: Any, text: str, start: int, display: str) -> list[Problem]:
    """Every mistake of structure of a decoded data.js (`text`: the file, its JSON from
    offset `start`), located; the first MAX_SHOWN told, the rest counted."""
    return located(_mistakes(doc), text, start, display, HINT)


def _mistakes(doc: Any) -> Iterator[Mistake]:
    """Each mistake: the key path of the value at fault (or of the object lacking a key),
    and what is wrong."""
    if not isinstance(doc, dict):
        yield (), f"the data is {what(doc)}, not an object {{\"entries\": ...}}"
        return
    suites = doc.get("entries")
    if not isinstance(suites, dict):
        yield ((), "no `entries`: the object of each suite's entries") if suites is None \
            else (("entries",), f"`entries` is {what(suites)}, not an object of suites")
        return
    for suite, entries in suites.items():
        if not isinstance(entries, list):
            yield ("entries", suite), f"suite is {what(entries)}, not a list of entries"
            continue
        for i, entry in enumerate(entries):
            yield from record(("entries", suite, i), entry, ENTRY)
            if not isinstance(entry, dict):
                continue
            if isinstance(entry.get("commit"), dict):
                yield from record(("entries", suite, i, "commit"), entry["commit"], COMMIT)
            if isinstance(entry.get("benches"), list):
                for j, bench in enumerate(entry["benches"]):
                    yield from record(("entries", suite, i, "benches", j), bench, BENCH)

