"""Drawing a chart: Altair writes its Vega-Lite spec, vl-convert draws the SVG, and the
SVG is finished for a page (stable prefixed ids, a title, colours the page can theme).

Only a chart missing from the cache is drawn: `cache.py` imports this module then, and
Altair and vl-convert are imported inside the functions that use them. What a chart
shows is `spec.py`'s; the markers and axis formats it is drawn with are `style.py`'s.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from progress_site.charts.style import FORMAT_LOCALES, MARKERS, SVG_NS

if TYPE_CHECKING:
    import xml.etree.ElementTree as ET

    import altair as alt

    from progress_site.charts.spec import ChartSpec

# Text is measured with the Liberation Sans that vl-convert bundles (metric-compatible with
# Arial), so the layout does not depend on the fonts of the machine that builds; the
# page then shows the reader's own interface font, which no request has to fetch.
_MEASURE_FONT = "Liberation Sans"
_FONT = "system-ui, sans-serif"

# Mid-tone colours with at least 3:1 contrast on white and on #121212 alike. Each is the
# fallback of a custom property, so a page's CSS can retune them (dark mode, print).
_PALETTE = ("#3b7dd8", "#d9641e", "#2a9d5c", "#8a6fd1", "#c2569e", "#b8860b")
_DASHES = ((1, 0), (6, 3), (2, 2), (8, 3, 2, 3), (12, 4), (10, 2, 2, 2, 2, 2))
_LEGEND_SYMBOL_PX = 24
_RULE_DASH = (5, 4)

# Attributes for an interactive Vega view, or for assistive technology inside a graphic
# that is already one `role="img"`: dropped from every element but the root.
_DROPPED_ATTRIBUTES = ("role", "pointer-events")
_GEOMETRY_ATTRIBUTES = ("d", "transform")
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def render_svg(spec: ChartSpec) -> str:
    """Draw one chart: Altair writes the Vega-Lite spec, vl-convert draws it."""
    import vl_convert  # here, not at the top: a build of cached charts never starts it

    raw = vl_convert.vegalite_to_svg(
        _vega_lite(spec),
        format_locale=FORMAT_LOCALES[spec.locale],
        allowed_base_urls=[],  # the data is inline: nothing may be fetched while drawing
    )
    return finish_svg(raw, prefix=f"chart-{spec.id}", title=spec.title, font=_FONT)


# Vega-Lite specs by shape (a chart spec with its y values set to 0), with the name of
# the dataset that holds the points: re-measuring a value redraws a chart of the same
# shape, whose spec differs only in that dataset, so Altair is not asked again for it
# (in watch mode, an edited value's charts are redrawn after every save).
_SHAPES: dict[ChartSpec, tuple[dict[str, Any], str]] = {}
_MAX_SHAPES = 256


def _vega_lite(spec: ChartSpec) -> dict[str, Any]:
    """The Vega-Lite spec of a chart: Altair's for its shape, with its own points."""
    rows = _rows(spec)
    shape = _shape(spec)
    known = _SHAPES.get(shape)
    if known is not None:
        skeleton, name = known
        return {**skeleton, "datasets": {**skeleton["datasets"], name: rows}}
    built = _altair_spec(spec)
    names = [n for n, values in built.get("datasets", {}).items() if values == rows]
    if rows and len(names) == 1 and len(_SHAPES) < _MAX_SHAPES:
        _SHAPES[shape] = (built, names[0])
    return built


def _shape(spec: ChartSpec) -> ChartSpec:
    """The spec with every y at 0: what decides the spec but for the points' heights."""
    from dataclasses import replace

    series = tuple(replace(s, points=tuple((x, 0.0) for x, _ in s.points))
                   for s in spec.series)
    return replace(spec, series=series)


def _altair_spec(spec: ChartSpec) -> dict[str, Any]:
    """The Vega-Lite spec of a chart, written by Altair."""
    import altair as alt  # here, not at the top: it takes a while to import

    names = [series.name for series in spec.series]
    colours, dashes, legend = _series_style(names, spec.width)
    color = alt.Color("series:N", scale=colours, legend=legend)
    dash = alt.StrokeDash("series:N", scale=dashes, legend=legend)
    stroke = alt.Stroke("series:N", scale=colours, legend=legend)  # bar outlines
    layers = _plot_layers(spec, color, dash, stroke)
    layers.append(_legend_layer(names, color, dash, legend))
    if spec.rule is not None:
        layers.append(_rule_layer(spec.rule, spec.y_title))
    chart = alt.LayerChart(
        layer=layers,
        width=spec.width,
        height=spec.height,
        title=spec.title,
        autosize={"type": "fit", "contains": "padding"},  # the whole SVG is width x height
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
    """One row per point, naming its series and the marker that series is drawn with."""
    return [
        {"series": series.name, "marker": MARKERS[index][0], "x": x, "y": y}
        for index, series in enumerate(spec.series)
        for x, y in series.points
    ]


def _x(spec: ChartSpec) -> alt.X:
    """The x channel: a number line, or categories in the order the points give them."""
    import altair as alt

    if spec.kind == "line" and spec.x_kind == "quantitative":
        # Vega's default of a tick every 40 px crowds labels like "1.5"; counts (players,
        # threads) get no ticks between whole numbers.
        whole = all(float(x).is_integer() for series in spec.series for x, _ in series.points)
        axis = alt.Axis(tickCount=max(2, spec.width // 80), tickMinStep=1 if whole else 0)
        return alt.X("x:Q", title=spec.x_title, scale=alt.Scale(zero=False), axis=axis)
    categories = list(dict.fromkeys(x for series in spec.series for x, _ in series.points))
    labels = [x for x in categories if isinstance(x, str)]
    if labels:
        return alt.X("x:O", title=spec.x_title, sort=labels, axis=alt.Axis(labelAngle=0))
    # Numbers as categories still take the locale's decimal sign, but no grouping: 2026.
    numbers = [x for x in categories if not isinstance(x, str)]
    axis = alt.Axis(labelAngle=0, format="~f", formatType="number")
    return alt.X("x:O", title=spec.x_title, sort=numbers, axis=axis)


def _series_style(names: list[str], width: int) -> tuple[alt.Scale, alt.Scale, alt.Legend]:
    """Colour and dash scales by series, in the given order, and the legend they share."""
    import altair as alt

    colours = [f"var(--chart-{i + 1}, {colour})" for i, colour in enumerate(_PALETTE)]
    dashes = [list(dash) for dash in _DASHES]
    legend = alt.Legend(
        title=None,
        columns=_legend_columns(names, width),
        labelLimit=width - _LEGEND_SYMBOL_PX - 40,  # vega's 160 px would cut names short
        symbolSize=_LEGEND_SYMBOL_PX**2,
        symbolStrokeWidth=2,
        symbolOpacity=1,
    )
    return (
        alt.Scale(domain=names, range=colours[: len(names)]),
        alt.Scale(domain=names, range=dashes[: len(names)]),
        legend,
    )


def _legend_columns(names: list[str], width: int) -> int:
    """As many legend entries a row as fit in the width: vega would not wrap them."""
    widest = _LEGEND_SYMBOL_PX + 24 + 7 * max(len(name) for name in names)  # ~7 px a letter
    return max(1, min(len(names), width // widest))


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
    """A look that follows the page: its text colour, its font, no background of its own."""
    text = "currentColor"  # the page's colour, so the chart follows a dark theme
    configured: alt.LayerChart = (
        chart.configure(background="transparent", font=_MEASURE_FONT, aria=False)
        .configure_view(stroke=None)
        .configure_axis(
            labelColor=text,
            titleColor=text,
            domainColor=text,
            tickColor=text,
            gridColor=text,
            gridOpacity=0.15,
            labelFontSize=11,
            titleFontSize=11,
        )
        .configure_legend(orient="top", labelColor=text, labelFontSize=11)
        .configure_title(color=text, anchor="start", fontSize=14)
    )
    return configured


def finish_svg(raw: str, *, prefix: str, title: str, font: str) -> str:
    """Turn vl-convert's SVG into markup ready to inline in a page."""
    import xml.etree.ElementTree as ET  # here: a build with every chart drawn has none

    root = _without_namespace(ET.fromstring(raw))
    _drop_invisible(root)
    _drop_unused_attributes(root)
    _rename_ids(root, prefix)
    for element in root.iter():
        if "font-family" in element.attrib:
            element.set("font-family", font)
    _round_geometry(root)
    _label(root, prefix, title)
    return ET.tostring(root, encoding="unicode")


def _without_namespace(root: ET.Element) -> ET.Element:
    """Plain tag names, and the namespace as a plain root attribute.

    ElementTree would otherwise write `ns0:` prefixes (its `default_namespace` option
    refuses attributes without a namespace, which is nearly all of them in SVG).
    """
    for element in root.iter():
        element.tag = _local(element.tag)
        # `xlink:href` becomes SVG 2's plain `href`, so no other namespace is needed.
        element.attrib = {_local(name): value for name, value in element.attrib.items()}
    root.attrib = {"xmlns": SVG_NS, **root.attrib}
    return root


def _local(name: str) -> str:
    """A tag or attribute name without its `{namespace}`."""
    return name.rpartition("}")[2]


def _is_invisible(element: ET.Element) -> bool:
    """Whether vega drew this path only for pointer events (nothing shows on the page)."""
    if element.tag != "path":
        return False
    classes = element.get("class", "").split()
    if "foreground" in classes:
        return element.get("display") == "none"
    # Vega writes a background's own fill and stroke when it has any: none means unpainted.
    painted = "fill" in element.attrib or "stroke" in element.attrib
    return "background" in classes and not painted


def _drop_invisible(root: ET.Element) -> None:
    """Remove the unpainted background and foreground paths vega adds to every group."""
    doomed = [(parent, child) for parent in root.iter() for child in parent if _is_invisible(child)]
    for parent, child in doomed:
        parent.remove(child)


def _drop_unused_attributes(root: ET.Element) -> None:
    """Strip roles, aria-* and pointer events below the root, and `opacity="1"`."""
    for element in root.iter():
        if element is root:
            continue
        for name in list(element.attrib):
            dropped = name in _DROPPED_ATTRIBUTES or name.startswith("aria-")
            if dropped or (name == "opacity" and element.get(name) == "1"):
                del element.attrib[name]


def _rename_ids(root: ET.Element, prefix: str) -> None:
    """Number ids in document order under the chart's prefix, and follow the references.

    Vega numbers clip paths with a counter that lives as long as the JavaScript engine, so
    its ids depend on what else the process rendered, and two charts can share one.
    """
    renamed: dict[str, str] = {}
    for element in root.iter():
        old = element.get("id")
        if old is not None:
            renamed[old] = f"{prefix}-{len(renamed) + 1}"
            element.set("id", renamed[old])
    if not renamed:
        return
    for element in root.iter():
        for name, value in list(element.attrib.items()):
            element.set(name, _renamed_references(name, value, renamed))


def _renamed_references(name: str, value: str, renamed: dict[str, str]) -> str:
    """An attribute value with `url(#old)` and `href="#old"` pointing at the new ids."""
    if name.endswith("href") and value.startswith("#") and value[1:] in renamed:
        return "#" + renamed[value[1:]]
    for old, new in renamed.items():
        value = value.replace(f"url(#{old})", f"url(#{new})")
    return value


def _round_geometry(root: ET.Element) -> None:
    """Round coordinates to 1/100 px: `30.00000000000003` is noise, and bytes on every page."""
    for element in root.iter():
        for name in _GEOMETRY_ATTRIBUTES:
            value = element.get(name)
            if value is not None:
                element.set(name, _NUMBER.sub(_compact_number, value))


def _compact_number(match: re.Match[str]) -> str:
    """One number rounded to two decimals, without trailing zeros or a negative zero."""
    text = f"{round(float(match.group()), 2):.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _label(root: ET.Element, prefix: str, title: str) -> None:
    """Make the root one image named by a `<title>`, for screen readers and tooltips."""
    root.attrib.pop("version", None)
    root.set("class", "chart")
    root.set("role", "img")
    root.set("aria-labelledby", f"{prefix}-title")
    name = root.makeelement("title", {"id": f"{prefix}-title"})
    name.text = title
    root.insert(0, name)
