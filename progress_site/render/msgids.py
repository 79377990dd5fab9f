"""A catalog's entries as written: each msgid (in its context) given once.

Babel's reader keeps the first translation of a msgid given twice and drops the other
without a word; GNU msgfmt refuses such a file. A translator who edits the second sees
nothing change, so a site's catalog is refused at it. Babel keeps no line of the entry it
dropped: the text is read again, its entries' keys only, with Babel's own unescaping.
"""

from __future__ import annotations

import re

from babel.messages.pofile import denormalize

from progress_site.errors import Location, Problem, shorten

# An entry's keyword and the string after it; a `"..."` line goes on the string before.
KEYWORD = re.compile(r'(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+(".*")\s*$')
CONTINUED = re.compile(r'\s*(".*")\s*$')


def repeated_msgids(text: str, display: str) -> list[Problem]:
    """An error at each msgid given a second time in its context (obsolete `#~` entries
    and the header aside)."""
    seen: dict[tuple[str | None, str], int] = {}
    problems = []
    for key, line, source in entries(text):
        first = seen.setdefault(key, line)
        if first != line and key[1]:
            problems.append(Problem(
                Location(display, line, 1), f"msgid {shorten(key[1], 60)!r} is given twice "
                f"(first on line {first}): Babel keeps the first translation, and GNU "
                "msgfmt refuses the file", hint="keep one entry, the translation you mean "
                "(`msguniq` finds them)", source_line=source))
    return problems


def entries(text: str) -> list[tuple[tuple[str | None, str], int, str]]:
    """Each entry's (context, msgid), the line its msgid starts on and that line."""
    found = []
    context: str | None = None
    keyword, parts, start = "", [], 0
    lines = text.split("\n")
    for number, line in enumerate([*lines, "msgid \"\""], start=1):
        match = KEYWORD.match(line)
        more = None if match else CONTINUED.match(line)
        if more and keyword:
            parts.append(more.group(1))
            continue
        if keyword == "msgctxt":
            context = denormalize("\n".join(parts))
        elif keyword == "msgid":
            found.append(((context, denormalize("\n".join(parts))), start,
                          lines[start - 1].rstrip("\r")))
            context = None
        keyword, parts, start = (match.group(1), [match.group(2)], number) if match \
            else ("", [], 0)
    return found
