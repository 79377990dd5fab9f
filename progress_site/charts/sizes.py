"""What a chart's size decides in its Vega-Lite and Vega specs (the plot's size, the
ticks of an x axis of numbers, the legend's columns, rows and label limit), set into a
shape compiled at another size (`resize`), and the words vega need not measure to cut
(`uncut`). `vega.py` writes and compiles the specs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from progress_site.charts.measure import width
from progress_site.charts.style import LABEL_PX

if TYPE_CHECKING:
    from progress_site.charts.spec import ChartSpec

PAD = 5  # vega's padding around a chart, kept around the title too
# vega's default width past which an axis label is cut short with an ellipsis. To cut,
# vega measures each label or title once more; words that all fit are drawn the same
# without that measuring (`uncut`).
AXIS_LABEL_LIMIT_PX = 180
LEGEND_SYMBOL_PX = 24
_LEGEND_ROW_PX = 35
# What the axes take beside and under the plot, about: a chart's `width` and `height`
# are its SVG's, give or take the width of its numbers (see `vega._altair_spec`).
_AXES_PX = (55, 46)
SLANT = 0.7071  # sin(45 degrees): how far apart labels turned by 45 degrees stand


def resize(vega: dict[str, Any], spec: ChartSpec, columns: int) -> None:
    """Set what a chart's size and its legend's `columns` decide into its shape's Vega
    spec (see `vega._altair_spec`): the plot's size, the ticks of an x axis of numbers, the
    legend's columns and label limit."""
    vega["width"] = plot_width(spec.width)
    vega["height"] = plot_height(spec, columns)
    for axis in vega.get("axes", []):
        if axis.get("scale") == "x" and isinstance(axis.get("tickCount"), int):
            axis["tickCount"] = x_ticks(spec.width)
    for legend in vega.get("legends", []):
        if "columns" in legend:
            legend["columns"] = columns
        if "labelLimit" in legend:
            legend["labelLimit"] = legend_label_limit(spec.width)


def uncut(vega: dict[str, Any], spec: ChartSpec) -> None:
    """No limit on the words none of which reaches it: the axis titles (stand-ins, whose
    language's words go in after drawing), axis labels that are numbers (a float's
    digits, grouped, stay far below it) or words measured to fit, legend labels measured
    to fit; each is drawn whole, as it was."""
    words = [x for series in spec.series for x, _ in series.points if isinstance(x, str)]
    labels_fit = _fit(words, AXIS_LABEL_LIMIT_PX)
    for axis in vega.get("axes", []):
        axis["titleLimit"] = 0
        if axis.get("scale") != "x" or labels_fit:
            axis["labelLimit"] = 0
    names = [series.name for series in spec.series]
    for legend in vega.get("legends", []):
        if _fit(names, legend.get("labelLimit", 0)):
            legend["labelLimit"] = 0


def turn_labels(vega: dict[str, Any], spec: ChartSpec, gap: float) -> None:
    """Turn an x axis of words whose labels do not fit side by side in their bands (a
    phone's narrow drawing of a bar chart of benchmarks): at 45 degrees while the bands
    keep turned labels a line apart, else upright; every label is then drawn, where
    vega would leave out every other one. Many categories in little room keep vega's
    choice (the table under the chart has them all), and so do lines over dates, thinned
    on purpose."""
    if spec.kind != "bar":
        return
    words = list(dict.fromkeys(x for series in spec.series for x, _ in series.points
                               if isinstance(x, str)))
    if not words:
        return
    band = plot_width(spec.width) / len(words)
    widest = min(max(width(word, LABEL_PX) for word in words), AXIS_LABEL_LIMIT_PX)
    if widest + gap <= band:
        return
    line = LABEL_PX + 2  # a label's height, with room between two
    if band * SLANT >= line:
        turned = {"labelAngle": -45, "labelAlign": "right", "labelBaseline": "top"}
    elif band >= line:
        turned = {"labelAngle": -90, "labelAlign": "right", "labelBaseline": "middle"}
    else:
        return
    for axis in vega.get("axes", []):
        if axis.get("scale") == "x" and axis.get("labelOverlap") == "greedy":
            axis.update(turned, labelOverlap=False)


def _fit(words: list[str], limit: float) -> bool:
    """Whether each word is narrower than `limit` px at the labels' size."""
    # Measured without kerning, which only narrows a word: a word that fits here fits.
    return all(width(word, LABEL_PX) < limit for word in words)


def plot_width(chart_width: int) -> int:
    """The plot's width in a chart of this width, axes aside."""
    return max(chart_width - _AXES_PX[0], 40)


def plot_height(spec: ChartSpec, columns: int) -> int:
    """The plot's height, axes and a legend of `columns` aside."""
    return max(spec.height - _AXES_PX[1] - _legend_px(len(spec.series), columns), 40)


def x_ticks(chart_width: int) -> int:
    """The ticks of an x axis of numbers: vega's default of one every 40 px crowds
    labels like "1.5"."""
    return max(2, chart_width // 80)


def legend_label_limit(chart_width: int) -> int:
    """How wide a legend name may be drawn: vega's 160 px would cut names short."""
    return chart_width - LEGEND_SYMBOL_PX - 40


def _legend_px(count: int, columns: int) -> int:
    """The height a legend of `count` entries in `columns` takes above the plot."""
    return 0 if count < 2 else _LEGEND_ROW_PX * -(-count // columns)


def legend_columns(names: list[str], chart_width: int) -> int:
    """As many legend entries a row as fit in the width, as measured: vega would not
    wrap them. vega sizes each column to its widest entry; the widest of all is used."""
    if len(names) < 2:
        return 1
    widest = LEGEND_SYMBOL_PX + 24 + max(width(name, LABEL_PX) for name in names)
    return max(1, min(len(names), int((chart_width - 2 * PAD) // widest)))
