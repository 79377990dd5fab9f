"""Read YAML with the position of every key and value, refusing what would hurt the build.

Plain data is read in one pass over libyaml's events (yamlevents); a file holding
anchors, tags, odd keys or errors is read by composing its nodes (yamlnodes), which
words every refusal. Both fill the same Document (yamldoc).
"""

from __future__ import annotations

import functools
import unicodedata
from pathlib import Path

from progress_site.errors import Location, Problem
from progress_site.load.parse_cache import parse_stored
from progress_site.load.yamldoc import BIDI_CONTROLS as BIDI_CONTROLS
from progress_site.load.yamldoc import MAX_BYTES as MAX_BYTES
from progress_site.load.yamldoc import MAX_DEPTH as MAX_DEPTH
from progress_site.load.yamldoc import Document as Document


def read_text(path: Path, display: str) -> tuple[str | None, list[Problem]]:
    """A file's text, or the problems that stop it being read (size, encoding, links)."""
    where = Location(display)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            return None, [Problem(where, f"file is {size // (1024 * 1024)} MiB, over the "
                                         f"{MAX_BYTES // (1024 * 1024)} MiB limit",
                                  hint="split it into several files under the same folder")]
        data = path.read_bytes()
    except OSError as exc:
        return None, [Problem(where, f"cannot read the file: {exc.strerror}")]
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None, [Problem(where, "the file is UTF-16, not UTF-8", hint="save it as UTF-8")]
    if b"\0" in data:
        return None, [Problem(where, "this is a binary file, not text",
                              hint="remove it from the folder")]
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, [Problem(Location(display, line, col), "the file is not valid UTF-8",
                              hint="save it as UTF-8")]
    # Every such character is encoded as E2 80 xx or E2 81 xx: looking for those bytes
    # is a memchr, where looking at each character of a large file takes ~10 ms.
    maybe = b"\xe2\x80" in data or b"\xe2\x81" in data
    problems = bidi_problems(text, display) if maybe else []
    return (None, problems) if problems else (text, [])


def bidi_problems(text: str, display: str, limit: int = 10) -> list[Problem]:
    """Each bidirectional control character, located (the first `limit` of them)."""
    if BIDI_CONTROLS.isdisjoint(text):
        return []
    problems: list[Problem] = []
    for number, line in enumerate(text.split("\n"), start=1):
        for col, ch in enumerate(line, start=1):
            if ch in BIDI_CONTROLS and len(problems) < limit:
                name = unicodedata.name(ch, "").lower()
                problems.append(Problem(
                    Location(display, number, col),
                    f"invisible control character U+{ord(ch):04X} ({name}): it makes the "
                    "text read otherwise than it is written", (),
                    "delete it; right-to-left words need no control characters", line))
    return problems


def parse(text: str, display: str) -> tuple[Document, list[Problem]]:
    """Parse YAML text into a Document, with positions; syntax errors become problems."""
    # Here: a build whose files are all in the parse cache never loads the YAML parser.
    from progress_site.load.yamlevents import read_events
    from progress_site.load.yamlnodes import compose_and_build

    doc = Document(display, text.splitlines())
    problems = read_events(text, doc)
    if problems is None:  # the careful path reads it afresh, into a clean Document
        doc = Document(display, doc.lines)
        problems = compose_and_build(text, doc)
    return doc, problems


@functools.lru_cache(maxsize=256)
def _parse_remembered(text: str, display: str, folder: Path | None
                      ) -> tuple[Document, tuple[Problem, ...]]:
    doc, problems = parse(text, display) if folder is None else parse_stored(
        text, display, folder, parse)
    return doc, tuple(problems)


def parse_once(text: str, display: str, folder: Path | None = None
               ) -> tuple[Document, list[Problem]]:
    """`parse`, remembered by content: a rebuild in the same process (--watch) parses only
    the files that changed, and a new process only those changed since the last build
    (kept in `folder`, see parsecache). Callers get their own Document (its tables are
    only read)."""
    doc, problems = _parse_remembered(text, display, folder)
    return doc.copy(), list(problems)
