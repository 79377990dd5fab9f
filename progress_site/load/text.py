"""A source file's text: read within its size, decoded as UTF-8, and the characters that
no text of the site may hold (controls, direction overrides, lone surrogates), named.

Data files, pages and run records are all read through here before any parser sees them.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from progress_site.errors import Location, Problem

# Large enough for 100,000 measurements; a bigger file is almost surely a mistake.
MAX_BYTES = 32 * 1024 * 1024
# Characters that reorder how the text around them is shown ("Trojan Source"): a reader
# would see something else than what is stored, in the page and in the terminal.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# What a value must not hold: controls, direction overrides, lone surrogates.
_UNWANTED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
                       "\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


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
    return decode(data, display)


def decode(data: bytes, display: str) -> tuple[str | None, list[Problem]]:
    """A file's bytes as text, or the problems that refuse them (encoding, controls)."""
    where = Location(display)
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
    # Every such character is encoded as E2 80 xx or E2 81 xx: a search of the bytes
    # spares looking at each character of a large file.
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


def unwanted(text: str) -> str:
    """The first character a value must not hold, named; '' when there is none. Only an
    escape in double quotes ("\\e", "\\u202e") puts one in a value: libyaml and
    `decode` refuse a file holding one raw."""
    found = _UNWANTED.search(text)
    if found is None:
        return ""
    ch = found.group()
    what = ("a direction override" if ch in BIDI_CONTROLS else
            "half of a character" if "\ud800" <= ch <= "\udfff" else "a control character")
    return f"U+{ord(ch):04X} ({what})"
