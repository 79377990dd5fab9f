"""A source file's text: read within its size, only from a regular file, decoded as
UTF-8, and the characters that no text of the site may hold (`characters`) located.

Data files, pages and run records are all read through here before any parser sees them:
a character refused here never reaches a parser, a chart, a feed or the terminal.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from pathlib import Path

from progress_site.characters import BIDI_CONTROLS, maybe_in, named, offsets
from progress_site.errors import Location, Problem
from progress_site.regular import NotRegular, TooBig, read_regular

# Large enough for 100,000 measurements; a bigger file is almost surely a mistake.
MAX_BYTES = 32 * 1024 * 1024
# A page is read by people: a megabyte is a long book. Markdown costs far more a byte than
# data, so a page has a limit far below a data file's.
MAX_PAGE_BYTES = 1024 * 1024
# A site's catalog holds the words of its templates (the engine's, 13 KB): Babel reads one
# of 32 MiB (950,000 entries) in a minute, so a catalog has a page's limit.
MAX_CATALOG_BYTES = 1024 * 1024
MIB = 1024 * 1024
SPLIT = "split it into several files under the same folder"
# Forbidden characters told a file (not a reader's stop, errors.MAX_SHOWN): more are not
# worth reading, the file needs an editor's search and replace anyway.
MAX_CHARACTERS = 10
_NEWLINE = re.compile("\n")
# What Windows' editors and shells start a UTF-16 text with (PowerShell's `>` writes one).
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def read_text(path: Path, display: str, limit: int = MAX_BYTES, hint: str = SPLIT
              ) -> tuple[str | None, list[Problem]]:
    """A file's text, or the problems that stop it being read (size, kind, encoding);
    `hint` says what to do with a file over `limit`."""
    where = Location(display)
    try:
        data = read_regular(path, limit)
    except TooBig as exc:
        return None, [Problem(where, f"file is {exc.size / MIB:.1f}".removesuffix(".0")
                              + f" MiB, over the {limit // MIB} MiB limit", hint=hint)]
    except NotRegular as exc:
        return None, [Problem(where, f"this is {exc.what}, not a regular file: the build "
                                    "reads nothing else", hint="remove it from the folder")]
    except OSError as exc:
        return None, [Problem(where, f"cannot read the file: {exc.strerror or exc}")]
    return decode(data, display)


def decode(data: bytes, display: str) -> tuple[str | None, list[Problem]]:
    """A file's bytes as text, or the problems that refuse them (encoding, characters)."""
    where = Location(display)
    if data.startswith(UTF16_BOMS):
        return None, [Problem(where, "the file is UTF-16, not UTF-8", hint="save it as UTF-8")]
    if b"\0" in data:
        return None, [Problem(where, "this is a binary file, not text",
                              hint="remove it from the folder")]
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        return None, [not_utf8(data, exc.start, display, "save it as UTF-8")]
    problems = forbidden_problems(text, display) if maybe_in(data) else []
    return (None, problems) if problems else (text, [])


def lines_of(text: str) -> list[str]:
    """A text's lines as JSON lines and every position count them, and as an editor shows
    them: each ended by a newline (or "\r\n") alone. str.splitlines also ends one at a
    U+2028, which a JSON string may hold as it is (`json.dumps(..., ensure_ascii=False)`
    writes it): a valid line was cut in two broken ones, and the next ones misnumbered."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines] if "\r" in text else lines


def not_utf8(data: bytes, start: int, display: str, hint: str) -> Problem:
    """The first byte of `data` that is not UTF-8 (at offset `start`), at its line and
    column."""
    line = data[:start].count(b"\n") + 1
    col = start - (data.rfind(b"\n", 0, start) + 1) + 1
    return Problem(Location(display, line, col), "the file is not valid UTF-8", hint=hint)


def forbidden_problems(text: str, display: str) -> list[Problem]:
    """Each character of `text` that no page may hold, located (the first MAX_CHARACTERS)."""
    problems = []
    for offset in offsets(text, line_ends=True)[:MAX_CHARACTERS]:
        start = text.rfind("\n", 0, offset) + 1
        end = text.find("\n", offset)
        problems.append(located_character(text[offset], display, text.count("\n", 0, start)
                                          + 1, offset - start + 1,
                                          text[start:end if end >= 0 else None]))
    return problems


def located_character(ch: str, display: str, line: int, col: int, source: str) -> Problem:
    """One forbidden character written in a file, at its line and column."""
    where = Location(display, line, col)
    if ch in BIDI_CONTROLS:
        name = unicodedata.name(ch, "").lower()
        return Problem(where, f"invisible control character U+{ord(ch):04X} ({name}): it "
                              "makes the text read otherwise than it is written", (),
                       "delete it; right-to-left words need no control characters", source)
    return Problem(where, f"this file holds {named(ch)}, which no page can hold", (),
                   f"delete it (an editor's 'show invisibles' reveals U+{ord(ch):04X})",
                   source)


class LineIndex:
    """Where each line of a text starts, found the first time a place in it is asked for
    and kept: a page of many problems places each by a bisection, not by counting its
    lines again for each."""

    __slots__ = ("_starts", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._starts: list[int] | None = None

    def starts(self) -> list[int]:
        """Where each line starts."""
        if self._starts is None:
            self._starts = [0, *(m.end() for m in _NEWLINE.finditer(self._text))]
        return self._starts

    def start(self, number: int) -> int:
        """Where line `number` (counted from 0) starts; past the last line, past the
        text's end (a range to its last line then holds the whole of it)."""
        starts = self.starts()
        return starts[number] if number < len(starts) else len(self._text) + 1

    def line(self, at: int) -> tuple[int, int, int]:
        """The line holding offset `at` (counted from 0), where it starts and where it
        ends (its newline, or the text's end)."""
        starts = self.starts()
        number = bisect.bisect_right(starts, at) - 1
        end = starts[number + 1] - 1 if number + 1 < len(starts) else len(self._text)
        return number, starts[number], end
