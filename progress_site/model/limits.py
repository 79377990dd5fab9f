"""The limits every stage keeps, in one place: how large and how precise a number may be
(loading, expressions, imports, blocks), and what one chart may hold (`charts/spec.py`
refuses a spec past these, and the chart blocks report them at the block's line first).

Each chart limit keeps a chart drawable in a build's time and readable on a page; the
figures behind them are in docs/security.md.
"""

from __future__ import annotations

import math
from decimal import Decimal

# Beyond these, a number is a typing slip, and Babel's decimal arithmetic would overflow.
LARGEST = 10**15
MAX_DECIMALS = 12
# A whole number written in JSON with more digits is never read as a number: longer than
# any a record may hold (LARGEST), short enough that no reading of it is slow (Python
# refuses to read an integer of more than 4,300 digits).
MAX_DIGITS = 40
# A whole number Python can write out in decimal (at most 4,300 digits): a longer one,
# read from YAML's `0x...`, `0o...` or `0b...`, would fail where a message quotes it.
MAX_INT_BITS = 14_000
# Decimals an old data.json may ask a number printed with (the change summary): more
# than a build prints (MAX_DECIMALS, a spread's third significant digit); one asking for
# a million would print a megabyte.
MAX_PRINTED_DECIMALS = 20
# Unknown keys told one by one in a record or a history line; the rest are counted in one
# more error (each key's hint looks at them all: telling every key of a huge line would
# never end).
MAX_UNKNOWN = 10


def in_range(value: float | Decimal) -> bool:
    """Whether a number is finite and at most LARGEST either way: one a page can print."""
    if isinstance(value, Decimal):
        return value.is_finite() and abs(value) <= LARGEST
    return math.isfinite(value) and abs(value) <= LARGEST


# Every series has a colour, a dash and a marker of its own (charts/style.py): past
# six, two series would look alike to a reader who tells them apart by any one of them.
MAX_SERIES = 6
# Points of a chart, all series together: more than a 560 px chart has pixels across,
# each point with its marker, and the drawing's time and bytes grow with each one.
MAX_POINTS = 2_000
# Values on an axis of categories (labels, or numbers shown as labels): vega hides
# labels that would overlap, but each still costs a place, a tick and its measuring.
MAX_CATEGORIES = 200
# Characters of a chart's words: its title, its axis titles, a series' label, an x
# label. vl-convert measures text a character at a time, and no axis holds more.
MAX_WORDS = 200
# A content page's `title` (or its `nav`) is printed in the navigation of every page of
# its language, so each page's navigation holds every other's: the site grows as a
# title's length times the number of pages squared. A title is a line.
MAX_TITLE = 200
# Pages of one language in content/: each lists all of them in its navigation, so the
# site grows as their number squared (the dashboard's series pages are not listed).
MAX_PAGES = 200
# The site's tagline, description and footer are printed on every page, the series'
# pages too (one a series of the history): the site grows as their length times the
# number of series. Its title is a page's title (MAX_TITLE).
MAX_EVERY_PAGE = 1_000
# Characters of one text of the data, in one language (a note, a title, a study's
# introduction): a text is a paragraph or a few, and a page (content/) holds the long
# ones. Each text is rendered as Markdown, for each page and table that shows it: a
# text at this limit costs a second at most, whatever it holds (brackets never closed).
MAX_DATA_TEXT = 100_000


def too_long(words: str) -> tuple[str, str] | None:
    """What is wrong with a text of the data longer than MAX_DATA_TEXT, and how to fix it
    (every reader of a text tells it in these words, at the text's own place); None for
    one within the limit."""
    if len(words) <= MAX_DATA_TEXT:
        return None
    return (f"{len(words):,} characters, more than the {MAX_DATA_TEXT:,} a text of the data "
            "may have", "say it in fewer words; a long text belongs in a page "
            "(content/<language>/...)")
