"""A chart's Vega spec: Altair writes its Vega-Lite (layers, series styles, legend, a
rule), vl-convert compiles it to Vega, once a shape (see `vega_spec`). `svg.py` draws it.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from progress_site.charts.measure import MEASURE_FONT
from progress_site.charts.sizes import (
    LEGEND_SYMBOL_PX,
    legend_columns,
    legend_label_limit,
    plot_height,
    plot_width,
    resize,
    turn_labels,
    uncut,
    x_ticks,
)
from progress_site.charts.style import LABEL_PX, MARKERS

if TYPE_CHECKING:
    import altair as alt

    from progress_site.charts.shapes import Shapes
    from progress_site.charts.spec import ChartSpec

# Text sizes, in px, that the layout is measured with.
TITLE_PX, TITLE_LINE_PX = 14, 18
# The least room between two labels of an axis of categories: vega's default of none
# kept labels that touched ("October 1October 15" read as one).
LABEL_GAP_PX = 8

# Mid-tone colours with at least 3:1 contrast on white and on #121212 alike. Each is the
# fallback of a custom property, so a page's CSS can retune them (dark mode, print).
_PALETTE = ("#3b7dd8", "#d9641e", "#2a9d5c", "#8a6fd1", "#c2569e", "#b8860b")
_DASHES = ((1, 0), (6, 3), (2, 2), (8, 3, 2, 3), (12, 4), (10, 2, 2, 2, 2, 2))
_RULE_DASH = (5, 4)

# Charts of one shape (a site's trends, a value measured again in watch mode) differ
# only in their words and points, so Altair writes and Vega-Lite compiles each shape
# once a build (see `vega_spec`). A shape holds none of a chart's words: its series are named
# by their place, its x labels too, and every y is 0. A chart's own words and points are
# then set into a copy of its shape's Vega spec at the places Vega reads them from (its
# datasets, its scales' domains, its axes' and its title's text), never by replacing
# text, so no word of a chart can be read as anything but itself.
# A shape is compiled at one width, its legend in one column, whatever the chart's:
# Vega-Lite's spec differs from one size to another only at the places `resize` sets,
# so a chart and its phone's narrow drawing (`spec.narrow`) share one compiled shape.
_SHAPE_WIDTH = 560


def vega_spec(spec: ChartSpec, shapes: Shapes | None, fresh: bool,
              compiled: dict[tuple[ChartSpec, bool], tuple[str, bool]]) -> tuple[str, bool]:
    """The Vega spec of a chart, as JSON: its shape's, with its own words and points; the
    shape read from `shapes` if kept there (unless `fresh`), else compiled and kept.
    True beside it when the shape was read from `shapes`. Each shape is compiled once
    into `compiled` (JSON text, copied by each json.loads)."""
    columns = legend_columns([s.name for s in spec.series], spec.width)
    shape = _shape(spec)
    if (shape, fresh) not in compiled:
        compiled[shape, fresh] = _compiled(shape, shapes, fresh)
    text, kept = compiled[shape, fresh]
    vega = json.loads(text)
    resize(vega, spec, columns)
    _fill(vega, shape, spec)
    return json.dumps(vega, ensure_ascii=False), kept


def _compiled(shape: ChartSpec, shapes: Shapes | None, fresh: bool) -> tuple[str, bool]:
    """Vega's spec of a shape as JSON text (see `vega_spec`), and whether it was read
    from `shapes`."""
    kept = None if shapes is None or fresh else shapes.read(shape)
    if kept is not None:
        return kept, True
    import vl_convert
    from altair.utils.schemapi import debug_mode

    # Altair checks each part of a chart against its schema as the part is made (its
    # debug mode): the parts are ours, not a user's, so it would find nothing, as the
    # validation of the whole spec would (`_altair_spec`), on every shape compiled.
    with debug_mode(False):
        vega_lite = _altair_spec(shape, 1)
    text = json.dumps(vl_convert.vegalite_to_vega(vega_lite), ensure_ascii=False)
    if shapes is not None:
        shapes.store(shape, text)
    return text, False


def _shape(spec: ChartSpec) -> ChartSpec:
    """The spec without its words and its values, as _SHAPE_WIDTH's comment says: the
    titles named by what they are, the rule at 0."""
    labels: dict[float | str, float | str] = {
        x: str(i) for i, x in enumerate(_categories(spec)) if isinstance(x, str)}
    series = tuple(replace(s, name=str(i), points=tuple((labels.get(x, x), 0.0)
                                                        for x, _ in s.points))
                   for i, s in enumerate(spec.series))
    return replace(spec, id="shape", title="title" if spec.title else "", x_title="x",
                   y_title="y", series=series, rule=None if spec.rule is None else 0.0,
                   width=_SHAPE_WIDTH)


def _fill(vega: dict[str, Any], shape: ChartSpec, spec: ChartSpec) -> None:
    """Set a chart's words and points into its shape's Vega spec, each at its place."""
    # Vega-Lite names a dataset by a hash of its values: it is found by them.
    placed = ((_rows(shape), _rows(spec)), ([{"rule": 0.0}], [{"rule": spec.rule}]))
    for data in vega.get("data", []):
        for theirs, mine in placed:
            if "values" in data and data["values"] == theirs:
                data["values"] = mine
                break
    shape_names = [s.name for s in shape.series]
    for scale in vega.get("scales", []):
        if scale.get("domain") == shape_names:
            scale["domain"] = [s.name for s in spec.series]
    for axis in vega.get("axes", []):
        if "title" in axis:
            axis["title"] = spec.x_title if axis["orient"] in ("bottom", "top") \
                else spec.y_title
    if spec.title:
        vega["title"]["text"] = spec.title
    uncut(vega, spec)
    turn_labels(vega, spec, LABEL_GAP_PX)


def _altair_spec(spec: ChartSpec, columns: int) -> dict[str, Any]:
    """The Vega-Lite spec of a chart, written by Altair; `columns` of legend entries.

    A chart of one series has no legend: its y axis names what it shows."""
    import altair as alt  # here, not at the top: it takes a while to import

    names = [series.name for series in spec.series]
    colours, dashes, legend = _series_style(names, spec.width, columns)
    shown = legend if len(names) > 1 else None
    color = alt.Color("series:N", scale=colours, legend=shown)
    dash = alt.StrokeDash("series:N", scale=dashes, legend=shown)
    stroke = alt.Stroke("series:N", scale=colours, legend=shown)  # bar outlines
    layers = _plot_layers(spec, color, dash, stroke)
    if len(names) > 1:
        layers.append(_legend_layer(names, color, dash, legend))
    if spec.rule is not None:
        layers.append(_rule_layer(spec.rule, spec.y_title))
    chart = alt.LayerChart(
        layer=layers,
        width=plot_width(spec.width),
        height=plot_height(spec, columns),
        # The SVG grows to hold every axis, label and legend: nothing is cut at its edge,
        # and vega lays the chart out once (to fit a size, it lays it out twice).
        autosize={"type": "pad"},
        title=spec.title or alt.Undefined,
    )
    # The spec is built here, not typed by a user: Altair's schema validation of it would
    # find nothing, on every rebuild that redraws a chart.
    return _configured(chart).to_dict(validate=False)


def _plot_layers(
    spec: ChartSpec, color: alt.Color, dash: alt.StrokeDash, stroke: alt.Stroke
) -> list[alt.Chart]:
    """The data: lines or bars styled by series, with each series' marker on its points."""
    import altair as alt

    data = alt.Chart(alt.InlineData(values=_rows(spec)))
    x, y = _x(spec), alt.Y("y:Q", title=spec.y_title, scale=alt.Scale(zero=spec.y_zero))
    marker = alt.Shape("marker:N", scale=None)  # each row names its marker: no legend here
    points = data.mark_point(filled=True, size=40, opacity=1)
    if spec.kind == "line":
        lines: alt.Chart = data.mark_line(strokeWidth=2).encode(
            x=x, y=y, color=color, strokeDash=dash
        )
        return [lines, points.encode(x=x, y=y, color=color, shape=marker)]
    offset = alt.XOffset("series:N", scale=alt.Scale(domain=[s.name for s in spec.series]))
    bars: alt.Chart = data.mark_bar(fillOpacity=0.3, strokeWidth=1.5).encode(
        x=x, xOffset=offset, y=y, color=color, stroke=stroke, strokeDash=dash
    )
    return [bars, points.encode(x=x, xOffset=offset, y=y, color=color, shape=marker)]


def _rows(spec: ChartSpec) -> list[dict[str, Any]]:
    """One row per point, naming its series, the marker that series is drawn with, and
    its x's place among the categories (what orders an axis of labels)."""
    order = {x: i for i, x in enumerate(_categories(spec))}
    return [
        {"series": series.name, "marker": MARKERS[index][0], "x": x, "order": order[x],
         "y": y}
        for index, series in enumerate(spec.series)
        for x, y in series.points
    ]


def _categories(spec: ChartSpec) -> list[float | str]:
    """Every x of a chart once, in the order its points give them."""
    return list(dict.fromkeys(x for series in spec.series for x, _ in series.points))


def _x(spec: ChartSpec) -> alt.X:
    """The x channel: a number line, or categories in the order the points give them."""
    import altair as alt

    if spec.kind == "line" and spec.x_kind == "quantitative":
        # Counts (players, threads) get no ticks between whole numbers.
        whole = all(float(x).is_integer() for series in spec.series for x, _ in series.points)
        axis = alt.Axis(tickCount=x_ticks(spec.width), tickMinStep=1 if whole else 0)
        return alt.X("x:Q", title=spec.x_title, scale=alt.Scale(zero=False), axis=axis)
    # Categories in the order of the points: each row carries its x's place, so no
    # label goes into the spec's expressions. Where labels would overlap, vega keeps
    # every other one until none does (the table under the chart has them all).
    labels = any(isinstance(x, str) for x in _categories(spec))
    # Numbers as categories still take the locale's decimal sign, but no grouping: 2026.
    numbers: dict[str, Any] = {} if labels else {"format": "~f", "formatType": "number"}
    axis = alt.Axis(labelAngle=0, labelOverlap="greedy", labelSeparation=LABEL_GAP_PX,
                    **numbers)
    order = alt.EncodingSortField(field="order", op="min")
    return alt.X("x:O", title=spec.x_title, sort=order, axis=axis)


def _series_style(names: list[str], chart_width: int,
                  columns: int) -> tuple[alt.Scale, alt.Scale, alt.Legend]:
    """Colour and dash scales by series, in the given order, and the legend they share."""
    import altair as alt

    colours = [f"var(--chart-{i + 1}, {colour})" for i, colour in enumerate(_PALETTE)]
    dashes = [list(dash) for dash in _DASHES]
    legend = alt.Legend(
        title=None,
        columns=columns,
        labelLimit=legend_label_limit(chart_width),
        symbolSize=LEGEND_SYMBOL_PX**2,
        symbolStrokeWidth=2,
        symbolOpacity=1,
    )
    return (
        alt.Scale(domain=names, range=colours[: len(names)]),
        alt.Scale(domain=names, range=dashes[: len(names)]),
        legend,
    )


def _legend_layer(
    names: list[str], color: alt.Color, dash: alt.StrokeDash, legend: alt.Legend
) -> alt.Chart:
    """An empty layer whose only use is a legend showing each series' dash and marker.

    Vega-Lite merges the legends of channels with the same domain, so this shape scale
    (a line through the marker) joins the colour and dash legend.
    """
    import altair as alt

    symbols = [f"M-1,0H1{path}" for _, path in MARKERS[: len(names)]]
    shape = alt.Shape("series:N", scale=alt.Scale(domain=names, range=symbols), legend=legend)
    empty = alt.Chart(alt.InlineData(values=[]))
    layer: alt.Chart = empty.mark_point(filled=True).encode(
        color=color, strokeDash=dash, shape=shape
    )
    return layer


def _rule_layer(value: float, y_title: str) -> alt.Chart:
    """A dashed horizontal line at `value`, in the text colour."""
    import altair as alt

    line = alt.Chart(alt.InlineData(values=[{"rule": value}])).mark_rule(
        color="currentColor", strokeDash=list(_RULE_DASH), strokeWidth=1
    )
    layer: alt.Chart = line.encode(y=alt.Y("rule:Q", title=y_title))
    return layer


def _configured(chart: alt.LayerChart) -> alt.LayerChart:
    """A look that follows the page: its text colour, its font, no background of its own.

    One `alt.Config` given at once: each `configure_*` call would copy the whole chart."""
    import altair as alt

    text = "currentColor"  # the page's colour, so the chart follows a dark theme
    axis = alt.AxisConfig(labelColor=text, titleColor=text, domainColor=text,
                          tickColor=text, gridColor=text, gridOpacity=0.15,
                          labelFontSize=LABEL_PX, titleFontSize=LABEL_PX)
    chart.config = alt.Config(
        background="transparent", font=MEASURE_FONT, aria=False,
        view=alt.ViewConfig(stroke=None), axis=axis,
        legend=alt.LegendConfig(orient="top", labelColor=text, labelFontSize=LABEL_PX),
        title=alt.TitleConfig(color=text, anchor="start", fontSize=TITLE_PX))
    return chart
