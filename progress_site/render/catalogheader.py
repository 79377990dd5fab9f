"""What a site's catalog header may say before Babel reads the catalog: a number of
plural forms a language can have, and the one charset the catalog is read in.

Babel makes a list of `nplurals` translations for each plural message as it reads the
catalog (`nplurals=100000000` ate the memory and never ended), and turns a number that
is not one into Python's ValueError; it encodes the compiled catalog in the header's
charset (`charset=zzz`: LookupError). Both ended the build as internal errors.
"""

from __future__ import annotations

import codecs
import re

from progress_site.errors import Location, Problem

# No language has more plural forms than Arabic's six (gettext's manual, CLDR).
MAX_PLURALS = 6
PLURAL_RULE = "write the rule of the language as gettext's manual gives it"
PLURAL_HINT = f"{PLURAL_RULE}, e.g. `nplurals=2; plural=(n > 1);`"
# gettext joins a string's quoted lines: `"Plural-Forms: npl"` then `"urals=2;"`.
_JOIN = re.compile(r'"[ \t]*\r?\n[ \t]*(?:#~[ \t]*)?"')
# A header's value runs to its `\n` escape or to the string's end.
_PLURAL_FORMS = re.compile(r'plural-forms:((?:[^\\"]|\\[^n])*)', re.IGNORECASE)
_NPLURALS = re.compile(r"\bnplurals\s*=\s*([^;]*)", re.IGNORECASE)


def header_problems(text: str, display: str) -> list[Problem]:
    """A Plural-Forms header of a number of forms no language has, or that is not a
    number, each at its line: found before Babel reads the catalog."""
    lines = [line for line in text.split("\n") if not line.startswith("#")
             or line.startswith("#~")]  # a comment is no header; an obsolete entry is read
    joined = _JOIN.sub("", "\n".join(lines))
    for header in _PLURAL_FORMS.finditer(joined):
        for count in _NPLURALS.finditer(header.group(1)):
            written = count.group(1).strip()
            shown = written if len(written) <= 40 else f"{written[:40]}..."
            if not written.isascii() or not written.isdigit() or not written.strip("0"):
                what = f"{shown!r} plural forms, which is not a number from 1 to " \
                       f"{MAX_PLURALS}"
            elif len(written) > 3 or int(written) > MAX_PLURALS:  # int() of 5,000 digits fails
                what = f"{shown} plural forms; no language has more than {MAX_PLURALS}"
            else:
                continue
            return [Problem(place(text, display, "plural-forms:", "nplurals"),
                            f"the Plural-Forms header asks for {what}", hint=PLURAL_HINT)]
    return []


def charset_problem(charset: str, text: str, display: str) -> list[Problem]:
    """A header naming another charset than UTF-8, which the catalog is read in."""
    try:
        if codecs.lookup(charset).name == "utf-8":
            return []
    except LookupError:
        pass
    return [Problem(place(text, display, "content-type:"), f"the catalog says its charset "
                    f"is {charset!r}, but a catalog is read as UTF-8", hint="write "
                    "`Content-Type: text/plain; charset=UTF-8` and save the file as UTF-8")]


def place(text: str, display: str, header: str, word: str = "") -> Location:
    """Where a header is written (at `word` when its line holds it), else line 1."""
    for number, line in enumerate(text.split("\n"), 1):
        at = line.lower().find(header)
        if at >= 0 and not line.startswith("#"):
            found = line.lower().find(word, at) if word else -1
            return Location(display, number, (found if found >= 0 else at) + 1)
    return Location(display, 1, 1)
