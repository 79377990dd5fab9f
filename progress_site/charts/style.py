"""What every chart shares, drawn or read from the cache: the SVG namespace, the markers
that tell series apart (one for each series a chart may have), and the languages whose
number signs the axes take. `spec.py` checks a spec against these without loading the
drawing code (`svg.py`), which a build whose charts are all cached never needs.
"""

from __future__ import annotations

SVG_NS = "http://www.w3.org/2000/svg"
# The size of a chart's axis and legend words, in px of its drawing.
LABEL_PX = 11

# Per series (model/limits.MAX_SERIES of them): vega's name for the marker on the plot,
# and the same marker drawn in the legend's [-1, 1] box, where a line through it also
# shows the series' dash.
MARKERS = (
    ("circle", "M0.3,0A0.3,0.3,0,1,1,-0.3,0A0.3,0.3,0,1,1,0.3,0"),
    ("square", "M-0.26,-0.26H0.26V0.26H-0.26Z"),
    ("triangle-up", "M0,-0.33L0.3,0.2H-0.3Z"),
    ("diamond", "M0,-0.36L0.36,0L0,0.36L-0.36,0Z"),
    ("triangle-down", "M0,0.33L0.3,-0.2H-0.3Z"),
    ("cross", "M-0.3,-0.1H-0.1V-0.3H0.1V-0.1H0.3V0.1H0.1V0.3H-0.1V0.1H-0.3Z"),
)

# The languages whose number signs the axes take, as Babel writes them for the page
# around them (`svg._put_axis_words`); a chart in any other language has English numbers.
FORMAT_LOCALES = frozenset({"en", "fr"})
