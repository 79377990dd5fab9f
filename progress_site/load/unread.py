"""What a data file that could not be read whole may have held: the collections whose
records are then unknown in this build, so that what names one of them is not told as
a mistake of its own (all errors at once, without a flood of consequences)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Sequence
from pathlib import Path

from progress_site.errors import Problem, closest
from progress_site.load.text import MAX_BYTES
from progress_site.regular import read_regular

# A key at the start of a line: a collection, as a file that does not parse still shows
# it (a tab, an unclosed quote spoil a line further down, not the key above it).
TOP_KEY = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:", re.MULTILINE)


def held(text: str, known: Collection[str]) -> tuple[str, ...]:
    """The collections a file that did not read may hold: those its top-level keys name
    (a misspelt one read as the collection it is closest to), else every one (no key
    can be read from it: its records may be of any collection)."""
    found = []
    for key in TOP_KEY.findall(text):
        meant = key if key in known else closest(key, known)
        if meant is not None and meant not in found:
            found.append(meant)
    return tuple(found) if found else tuple(known)


def lossy_text(path: Path) -> str:
    """A file that is not UTF-8 (or holds what no text may) as far as its keys can be
    read: only to find what it may hold, never its records; nothing when it cannot be
    read at all."""
    try:
        return read_regular(path, MAX_BYTES).decode("utf-8", "replace")
    except (OSError, ValueError):
        return ""


def with_note(problems: list[Problem], display: str, names: Sequence[str]) -> list[Problem]:
    """The file's first error told with what follows from it: what texts cite of the
    collections `names` it holds is not checked until it reads (said once, there, rather
    than at every name). Not for a file none of whose keys read (refused unread, or not
    data at all): its records may be of any kind, and no name a text cites is checked."""
    if not names:
        return problems
    listed = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
    note = (f"Until it reads, what texts cite of the {listed} it may hold is not checked, "
            "and an id no other file declares is told once.")
    out, done = [], False
    for p in problems:
        if not done and not p.warning and p.location.file == display:
            hint = p.hint if not p.hint or p.hint.endswith((".", "?", "!")) else p.hint + "."
            p = dataclasses.replace(p, hint=f"{hint} {note}" if hint else note)
            done = True
        out.append(p)
    return out

