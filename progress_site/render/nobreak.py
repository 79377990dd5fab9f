"""Words a line must not break inside: an ISO date (`2026-10-19`), which a browser may
break after each hyphen, leaving `2026-10-` at a line's end like a number cut in two.
Each one is wrapped in a `nowrap` span (style.css); the text around it is untouched, so
what a reader copies or finds is what was written.

In French, `:` `;` `?` `!` stand after a space that no line breaks at; typed with a plain
space (as a keyboard types it), a French page's prose put `; une première relecture` at
the start of a line on a phone. The space is made the one French typography sets.
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape

# A plain space before the French high punctuation: U+00A0 before `:`, U+202F before the
# others, as the catalogs set them (README, "Translating").
FRENCH_COLON = re.compile(r" (?=:)")
FRENCH_HIGH = re.compile(r" (?=[;?!])")

# A whole ISO date, not a part of a longer word, version or id (`26.3-2026-10-19-b`).
ISO_DATE = re.compile(r"(?<![\w.-])\d{4}-\d{2}-\d{2}(?![\w-]|\.\d)")


def whole_dates(escaped: str) -> str:
    """Escaped text (no markup in it) with each ISO date held on one line."""
    return ISO_DATE.sub(r'<span class="nowrap">\g<0></span>', escaped)


def whole_dates_markup(text: str) -> Markup:
    """Plain text (a page's title), escaped, with each ISO date held on one line."""
    return Markup(whole_dates(str(escape(text))))


def french_spaces(escaped: str) -> str:
    """Escaped French words with the space before `:` `;` `?` `!` one no line breaks at."""
    if " " not in escaped:
        return escaped
    return FRENCH_HIGH.sub("\u202f", FRENCH_COLON.sub("\u00a0", escaped))
