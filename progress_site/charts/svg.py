"""Drawing a chart: Altair writes its Vega-Lite spec, vl-convert draws the SVG, and the
SVG is finished for a page (its title wrapped to fit, stable prefixed ids, colours the
page can theme).

A chart is drawn once for all its languages (see bench/charts.py): vl-convert draws its
language-neutral form (`neutral`: no title, placeholders for the axis titles, numbers in
English), and each language's words go in afterwards: the title, wrapped to the width,
above the drawing; the axis titles; the axis numbers with the language's symbols. What
else is in words (legend names, category labels) decides the layout, so it stays in
the drawing and keys it: a chart whose legend is translated is drawn per language.

Only a chart missing from the cache is drawn: `cache.py` imports this module then, and
Altair and vl-convert are imported inside the functions that use them. What a chart
shows is `spec.py`'s; the markers and axis formats it is drawn with are `style.py`'s.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from markupsafe import escape

from progress_site.charts.measure import MEASURE_FONT, width, wrap
from progress_site.charts.style import FORMAT_LOCALES, MARKERS, SVG_NS

if TYPE_CHECKING:
    import xml.etree.ElementTree as ET

    import altair as alt

    from progress_site.charts.spec import ChartSpec

# Text is measured with the Liberation Sans that vl-convert bundles, so the layout does
# not depend on the fonts of the machine that builds; the page shows it in a font of the
# same metrics (Arial and Helvetica share them), so every word fits where it was measured
# (an interface font such as DejaVu Sans is wider, and ran past the chart's edge).
FONT = "Arial, Liberation Sans, Arimo, Helvetica, sans-serif"
TITLE_PX, TITLE_LINE_PX, LABEL_PX = 14, 18, 11
_PAD = 5  # vega's padding around a chart, kept around the title too
# Placeholders for the words a language puts in after drawing (see `neutral`).
_X_TITLE, _Y_TITLE, _ONE_SERIES = "@x-title@", "@y-title@", "@series@"

# Mid-tone colours with at least 3:1 contrast on white and on #121212 alike. Each is the
# fallback of a custom property, so a page's CSS can retune them (dark mode, print).
_PALETTE = ("#3b7dd8", "#d9641e", "#2a9d5c", "#8a6fd1", "#c2569e", "#b8860b")
_DASHES = ((1, 0), (6, 3), (2, 2), (8, 3, 2, 3), (12, 4), (10, 2, 2, 2, 2, 2))
_LEGEND_SYMBOL_PX = 24
_LEGEND_ROW_PX = 35
# What the axes take beside and under the plot, about: a chart's `width` and `height`
# are its SVG's, give or take the width of its numbers (see `_altair_spec`).
_AXES_PX = (55, 46)
_RULE_DASH = (5, 4)

# Attributes for an interactive Vega view, or for assistive technology inside a graphic
# that is already one `role="img"`: dropped from every element but the root.
_DROPPED_ATTRIBUTES = ("role", "pointer-events")
_GEOMETRY_ATTRIBUTES = ("d", "transform")
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def render_svg(spec: ChartSpec) -> str:
    """One chart in one language: its neutral drawing, cleaned once for all languages,
    with the language's words."""
    drawn = cleaned(drawing(neutral(spec)), f"chart-{spec.id}", FONT)
    words = frozenset(x for s in spec.series for x, _ in s.points if isinstance(x, str))
    heading = wrap(spec.title, drawn.width - 2 * _PAD, TITLE_PX, bold=True)
    inner = drawn.inner.replace(f">{_X_TITLE}<", f">{escape(spec.x_title)}<")
    inner = inner.replace(f">{_Y_TITLE}<", f">{escape(spec.y_title)}<")
    inner = _translate_numbers(inner, FORMAT_LOCALES[spec.locale], words)
    return _compose(drawn, inner, spec.title, heading)


def neutral(spec: ChartSpec) -> ChartSpec:
    """What decides a chart's drawing, without the words a language puts in afterwards:
    no title, placeholder axis titles, English numbers, and a one-series chart's name
    (which it shows nowhere: its y axis names it)."""
    series = spec.series
    if len(series) == 1:
        series = (replace(series[0], name=_ONE_SERIES),)
    return replace(spec, id="neutral", title="", x_title=_X_TITLE, y_title=_Y_TITLE,
                   locale="en", series=series)


@functools.lru_cache(maxsize=1024)  # a chart's languages share it: drawn once a process
def drawing(spec: ChartSpec) -> str:
    """vl-convert's SVG of a neutral spec, its numbers in d3's default (English) format:
    every language's signs are put in afterwards (`_translate_numbers`), and vl-convert
    draws faster without a locale to set up on each call (see bench/charts.py)."""
    import vl_convert  # here, not at the top: a build of cached charts never starts it

    _start_engine()
    # The data is inline: nothing may be fetched while drawing.
    raw: str = vl_convert.vega_to_svg(_vega(spec), allowed_base_urls=[])
    return raw


@functools.cache  # once a process
def _start_engine() -> None:
    """Start vl-convert's JavaScript engine in a thread and import Altair meanwhile: the
    engine lets go of the interpreter while it starts (see bench/charts.py)."""
    import threading

    import vl_convert

    blank = {"width": 1, "height": 1}
    threading.Thread(target=vl_convert.vega_to_svg, args=(blank,), daemon=True).start()
    import altair  # noqa: F401  (imported now, while the engine starts)


# Vega specs by shape (a chart spec with placeholders for its series names and labels,
# every y at 0), as JSON text with placeholders for its points: charts of one shape (a
# site's trends, a value measured again in watch mode) differ only in those, so Altair
# writes and Vega-Lite compiles each shape once.
_SHAPES: dict[tuple[ChartSpec, int], str] = {}
_MAX_SHAPES = 256
_ROWS, _RULE = '"@rows@"', '"@rule@"'
# Words that may go into the JSON text as they are, inside a string or an expression's.
_PLAIN_WORD = re.compile(r"[^\"\\'\x00-\x1f\u2028\u2029]*")


def _vega(spec: ChartSpec) -> str:
    """The Vega spec of a chart, as JSON: its shape's, with its own words and points."""
    import vl_convert

    shape, words = _shape(spec)
    columns = _legend_columns([s.name for s in spec.series], spec.width)
    if not all(_PLAIN_WORD.fullmatch(word) for word in words.values()):
        return json.dumps(vl_convert.vegalite_to_vega(_altair_spec(spec, columns)))
    text = _SHAPES.get((shape, columns))
    if text is None:
        text = _compiled(shape, columns)
        if len(_SHAPES) < _MAX_SHAPES:
            _SHAPES[(shape, columns)] = text
    for placeholder, word in words.items():
        text = text.replace(placeholder, word)
    text = text.replace(_ROWS, json.dumps(_rows(spec), ensure_ascii=False))
    return text.replace(_RULE, json.dumps([{"rule": spec.rule}]))


def _compiled(shape: ChartSpec, columns: int) -> str:
    """Vega's spec of a shape, its points and rule as placeholders."""
    import vl_convert

    built = _altair_spec(shape, columns)
    rows = {name for name, values in built["datasets"].items() if values == _rows(shape)}
    rules = {name for name, values in built["datasets"].items()
             if values == [{"rule": 0.0}]}
    vega = vl_convert.vegalite_to_vega(built)
    for data in vega["data"]:
        if data["name"] in rows:
            data["values"] = _ROWS[1:-1]
        elif data["name"] in rules:
            data["values"] = _RULE[1:-1]
    return json.dumps(vega, ensure_ascii=False)


def _shape(spec: ChartSpec) -> tuple[ChartSpec, dict[str, str]]:
    """The spec with placeholders for its series names and x labels and every y at 0,
    and the words those placeholders stand for."""
    words: dict[str, str] = {}

    def placeholder(word: float | str) -> float | str:
        if not isinstance(word, str):
            return word
        key = f"@{len(words)}@"
        for known, value in words.items():
            if value == word:
                return known
        words[key] = word
        return key

    series = tuple(replace(s, name=str(placeholder(s.name)),
                           points=tuple((placeholder(x), 0.0) for x, _ in s.points))
                   for s in spec.series)
    return replace(spec, series=series, rule=None if spec.rule is None else 0.0), words


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
        width=max(spec.width - _AXES_PX[0], 40),
        height=max(spec.height - _AXES_PX[1] - _legend_px(len(names), columns), 40),
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


def _series_style(names: list[str], chart_width: int,
                  columns: int) -> tuple[alt.Scale, alt.Scale, alt.Legend]:
    """Colour and dash scales by series, in the given order, and the legend they share."""
    import altair as alt

    colours = [f"var(--chart-{i + 1}, {colour})" for i, colour in enumerate(_PALETTE)]
    dashes = [list(dash) for dash in _DASHES]
    legend = alt.Legend(
        title=None,
        columns=columns,
        labelLimit=chart_width - _LEGEND_SYMBOL_PX - 40,  # vega's 160 px would cut names short
        symbolSize=_LEGEND_SYMBOL_PX**2,
        symbolStrokeWidth=2,
        symbolOpacity=1,
    )
    return (
        alt.Scale(domain=names, range=colours[: len(names)]),
        alt.Scale(domain=names, range=dashes[: len(names)]),
        legend,
    )


def _legend_px(count: int, columns: int) -> int:
    """The height a legend of `count` entries in `columns` takes above the plot."""
    return 0 if count < 2 else _LEGEND_ROW_PX * -(-count // columns)


def _legend_columns(names: list[str], chart_width: int) -> int:
    """As many legend entries a row as fit in the width, as measured: vega would not
    wrap them. vega sizes each column to its widest entry; the widest of all is used."""
    if len(names) < 2:
        return 1
    widest = _LEGEND_SYMBOL_PX + 24 + max(width(name, LABEL_PX) for name in names)
    return max(1, min(len(names), int((chart_width - 2 * _PAD) // widest)))


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


@dataclass(frozen=True, slots=True)
class Cleaned:
    """A drawing made ready for a page but for its words: its size and its content."""

    prefix: str
    width: float
    height: float
    inner: str  # the root's content, serialized


def finish_svg(raw: str, *, prefix: str, title: str, font: str,
               heading: tuple[str, ...] = ()) -> str:
    """Turn vl-convert's SVG into markup ready to inline in a page, with `heading`, the
    lines of the title, drawn above it."""
    return _compose(cleaned(raw, prefix, font), None, title, heading)


@functools.lru_cache(maxsize=1024)  # a chart's languages share it
def cleaned(raw: str, prefix: str, font: str) -> Cleaned:
    """vl-convert's SVG without what a page does not need, ids under `prefix`."""
    import xml.etree.ElementTree as ET  # here: a build with every chart drawn has none

    root = _without_namespace(ET.fromstring(raw))
    _drop_invisible(root)
    _drop_unused_attributes(root)
    _rename_ids(root, prefix)
    for element in root.iter():
        if "font-family" in element.attrib:
            element.set("font-family", font)
    _round_geometry(root)
    inner = "".join(ET.tostring(child, encoding="unicode") for child in root)
    return Cleaned(prefix, float(root.get("width", "0")), float(root.get("height", "0")),
                   inner)


def _compose(drawn: Cleaned, inner: str | None, title: str, heading: tuple[str, ...]) -> str:
    """The page's SVG: one image named by its `<title>` (for screen readers and
    tooltips), the title's lines above the drawing, which they move down."""
    below = _PAD + TITLE_LINE_PX * len(heading) if heading else 0
    width, height = f"{drawn.width:g}", f"{drawn.height + below:g}"
    name = f"{drawn.prefix}-title"
    parts = [f'<svg xmlns="{SVG_NS}" class="chart" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-labelledby="{name}">'
             f'<title id="{name}">{escape(title)}</title>']
    if heading:
        parts.append('<g class="chart-title">')
        parts.extend(f'<text x="{_PAD}" y="{_PAD + TITLE_PX + TITLE_LINE_PX * i}" '
                     f'font-family="{escape(FONT)}" font-size="{TITLE_PX}px" '
                     f'font-weight="bold" fill="currentColor">{escape(line)}</text>'
                     for i, line in enumerate(heading))
        parts.append(f'</g><g transform="translate(0,{below})">')
    parts.append(drawn.inner if inner is None else inner)
    parts.append("</g></svg>" if heading else "</svg>")
    return "".join(parts)


# An axis number as d3-format writes it by default: "1,250.5", "0.25", and with its
# minus sign U+2212. The axis labels are the texts of these groups (which hold no other).
_AXIS_NUMBER = re.compile(r"\u2212?[\d,]*\.?\d+")
_AXIS_LABELS = re.compile(r'(<g class="mark-text role-axis-label">)(.*?)(</g>)')
_TEXT = re.compile(r"(>)([^<]*)(</text>)")


def _translate_numbers(inner: str, symbols: dict[str, Any], labels: frozenset[str]) -> str:
    """Axis numbers with a language's signs, as d3-format writes them with its locale
    (the same digits, grouped the same way); category labels are words, not these."""
    signs = str.maketrans({".": symbols["decimal"], ",": symbols["thousands"],
                           "\u2212": symbols["minus"]})
    escaped = {str(escape(label)) for label in labels}

    def number(match: re.Match[str]) -> str:
        value = match.group(2)
        if value in escaped or not _AXIS_NUMBER.fullmatch(value):
            return match.group()
        return match.group(1) + value.translate(signs) + match.group(3)

    def group(match: re.Match[str]) -> str:
        return match.group(1) + _TEXT.sub(number, match.group(2)) + match.group(3)

    return _AXIS_LABELS.sub(group, inner)


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
