"""What one chart may hold, in one place: `charts/spec.py` refuses a spec past these, and
the chart blocks (`render/blocks/charts.py`) report them at the block's line first.

Each limit keeps a chart drawable in a build's time and readable on a page; the figures
behind them are in docs/security.md.
"""

from __future__ import annotations

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
