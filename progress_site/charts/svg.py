"""Drawing a chart: Altair writes its Vega-Lite spec, vl-convert draws the SVG, and the
SVG is finished for a page (its title wrapped to fit, stable prefixed ids, colours the
page can theme).

A chart is drawn once for all its languages (see bench/charts.py): vl-convert draws its
language-neutral form (`neutral`: no title, stand-ins for the axis titles, numbers in
English), and each language's words go in afterwards, into the drawing's tree: the
title, wrapped to the width, above the drawing; the axis titles; the axis numbers with
the language's symbols. What else is in words (legend names, category labels) decides
the layout, so it stays in the drawing and keys it: a chart whose legend is translated
is drawn per language.

Only a chart missing from the cache is drawn: `cache.py` imports this module then, and
Altair and vl-convert are imported inside the functions that use them. What a chart
shows is `spec.py`'s; the markers and axis formats it is drawn with are `style.py`'s.
"""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from babel.numbers import get_decimal_symbol, get_group_symbol, get_minus_sign_symbol
from markupsafe import escape

from progress_site.charts.allowed import allowed_svg
from progress_site.charts.measure import wrap
from progress_site.charts.sizes import PAD
from progress_site.charts.style import SVG_NS
from progress_site.charts.vega import TITLE_LINE_PX, TITLE_PX, vega_spec

if TYPE_CHECKING:
    from progress_site.charts.shapes import Shapes
    from progress_site.charts.spec import ChartSpec

# Text is measured with the Liberation Sans that vl-convert bundles, so the layout does
# not depend on the fonts of the machine that builds; the page shows it in a font of the
# same metrics (Arial and Helvetica share them), so every word fits where it was measured
# (an interface font such as DejaVu Sans is wider, and ran past the chart's edge).
FONT = "Arial, Liberation Sans, Arimo, Helvetica, sans-serif"
# Stand-ins for the words a language puts in after drawing (see `neutral`): the axis
# titles' tell which axis is which (`_put_axis_words`), and no word is ever replaced as
# text, so a label that reads like one of these is drawn as itself.
_X_TITLE, _Y_TITLE, _ONE_SERIES = "@x-title@", "@y-title@", "@series@"

# Attributes for an interactive Vega view, or for assistive technology inside a graphic
# that is already one `role="img"`: dropped from every element but the root.
_DROPPED_ATTRIBUTES = ("role", "pointer-events")
_GEOMETRY_ATTRIBUTES = ("d", "transform")
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


class ForeignDrawing(Exception):
    """A shape read from the cache folder drew what our charts never hold."""


# A chart drawn (or a shape compiled) afresh or not, and what came of it: its SVG (or
# Vega spec, as JSON), and whether its shape was read from the cache folder.
Made = dict[tuple["ChartSpec", bool], tuple[str, bool]]


@dataclass(frozen=True, slots=True)
class Drawn:
    """What one cache of charts drew (`cache.ChartCache`): a chart's languages share its
    neutral drawing, cleaned, and the charts of a shape its Vega spec (bench/charts.py)."""

    neutral: Made = field(default_factory=dict)
    shapes: Made = field(default_factory=dict)
    cleaned: dict[tuple[str, str], Cleaned] = field(default_factory=dict)  # by SVG and id


def render_svg(spec: ChartSpec, shapes: Shapes | None = None, fresh: bool = False,
               drawn: Drawn | None = None) -> str:
    """One chart in one language: its neutral drawing (drawn and cleaned once for all
    languages), with the language's words set into its axes; its shape's Vega spec from `shapes` if
    kept there (unless `fresh`: compiled again). ForeignDrawing when a kept shape drew
    anything but what a chart read back from the cache may hold (`allowed.py`)."""
    drawn = drawn or Drawn()
    raw, kept = drawing(neutral(spec), shapes, fresh, drawn)
    if (raw, spec.id) not in drawn.cleaned:
        drawn.cleaned[raw, spec.id] = cleaned(raw, f"chart-{spec.id}", FONT)
    clean = drawn.cleaned[raw, spec.id]
    heading = wrap(spec.title, clean.width - 2 * PAD, TITLE_PX, bold=True)
    root = copy.deepcopy(clean.root)  # the cleaned drawing is shared by the languages
    _put_axis_words(root, spec)
    markup = _compose(clean, _serialized(root), spec.title, heading)
    if kept and allowed_svg(markup.encode("utf-8")) is None:
        raise ForeignDrawing(spec.id)
    return markup


def neutral(spec: ChartSpec) -> ChartSpec:
    """What decides a chart's drawing, without the words a language puts in afterwards:
    no title, stand-in axis titles, English numbers, and a one-series chart's name
    (which it shows nowhere: its y axis names it)."""
    series = spec.series
    if len(series) == 1:
        series = (replace(series[0], name=_ONE_SERIES),)
    return replace(spec, id="neutral", title="", x_title=_X_TITLE, y_title=_Y_TITLE,
                   locale="en", series=series)


def drawing(spec: ChartSpec, shapes: Shapes | None, fresh: bool,
            drawn: Drawn) -> tuple[str, bool]:
    """vl-convert's SVG of a neutral spec, its numbers in d3's default (English) format:
    every language's signs are put in afterwards (`_put_axis_words`), and vl-convert
    draws faster without a locale to set up on each call (see bench/charts.py). True
    beside it when its shape was read from the cache folder (`vega_spec`). Drawn once
    into `drawn`."""
    import vl_convert  # here, not at the top: a build of cached charts never starts it

    if (spec, fresh) not in drawn.neutral:
        vega, kept = vega_spec(spec, shapes, fresh, drawn.shapes)
        # The data is inline: nothing may be fetched while drawing.
        drawn.neutral[spec, fresh] = vl_convert.vega_to_svg(vega, allowed_base_urls=[]), kept
    return drawn.neutral[spec, fresh]


@dataclass(frozen=True, slots=True)
class Cleaned:
    """A drawing made ready for a page but for its words: its size and its content."""

    prefix: str
    width: float
    height: float
    root: ET.Element  # never changed: copy it to change it


def cleaned(raw: str, prefix: str, font: str) -> Cleaned:
    """vl-convert's SVG without what a page does not need, ids under `prefix`."""
    root = _without_namespace(ET.fromstring(raw))
    _drop_invisible(root)
    _tidy_attributes(root, font)
    _rename_ids(root, prefix)
    return Cleaned(prefix, float(root.get("width", "0")), float(root.get("height", "0")),
                   root)


def _serialized(root: ET.Element) -> str:
    """The content of a drawing's root, as markup."""
    return "".join(ET.tostring(child, encoding="unicode") for child in root)


def _compose(drawn: Cleaned, inner: str, title: str, heading: tuple[str, ...]) -> str:
    """The page's SVG: one image named by its `<title>` (for screen readers and
    tooltips), the title's lines above the drawing, which they move down."""
    below = PAD + TITLE_LINE_PX * len(heading) if heading else 0
    width, height = f"{drawn.width:g}", f"{drawn.height + below:g}"
    name = f"{drawn.prefix}-title"
    parts = [f'<svg xmlns="{SVG_NS}" class="chart" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-labelledby="{name}">'
             f'<title id="{name}">{escape(title)}</title>']
    if heading:
        parts.append('<g class="chart-title">')
        parts.extend(f'<text x="{PAD}" y="{PAD + TITLE_PX + TITLE_LINE_PX * i}" '
                     f'font-family="{escape(FONT)}" font-size="{TITLE_PX}px" '
                     f'font-weight="bold" fill="currentColor">{escape(line)}</text>'
                     for i, line in enumerate(heading))
        parts.append(f'</g><g transform="translate(0,{below})">')
    parts.append(inner)
    parts.append("</g></svg>" if heading else "</svg>")
    return "".join(parts)


# An axis number as d3-format writes it by default: "1,250.5", "0.25", and with its
# minus sign U+2212.
_AXIS_NUMBER = re.compile(r"\u2212?[\d,]*\.?\d+")


def _put_axis_words(root: ET.Element, spec: ChartSpec) -> None:
    """Each axis's title in the language, and its numbers with the language's signs, as
    Babel writes the page's numbers. An axis is told by the stand-in title it was
    drawn with (`neutral`); the labels of an axis of words are left as they are."""
    titles = {_X_TITLE: spec.x_title, _Y_TITLE: spec.y_title}
    signs = str.maketrans({".": get_decimal_symbol(spec.locale),
                           ",": get_group_symbol(spec.locale),
                           "\u2212": get_minus_sign_symbol(spec.locale)})
    words_on_x = any(isinstance(x, str) for s in spec.series for x, _ in s.points)
    for axis in _marks(root, "role-axis"):
        title = [text for group in _marks(axis, "role-axis-title")
                 for text in group.iter("text")]
        drawn_as = title[0].text if title else None  # the grid's axis has none
        for text in title:
            text.text = titles.get(drawn_as or "", text.text)
        if drawn_as == _X_TITLE and words_on_x:
            continue
        for label in _marks(axis, "role-axis-label"):
            for text in label.iter("text"):
                if _AXIS_NUMBER.fullmatch(text.text or ""):
                    text.text = (text.text or "").translate(signs)


def _marks(root: ET.Element, role: str) -> Iterator[ET.Element]:
    """The groups below `root` that vega drew for one role (`role-axis`, ...)."""
    return (g for g in root.iter("g") if role in g.get("class", "").split())


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
    """Whether vega drew this path only for pointer events, or hid this text (an axis
    label that would overlap another): nothing of it shows on the page."""
    if element.tag == "text":
        return element.get("opacity") == "0"
    if element.tag != "path":
        return False
    classes = element.get("class", "").split()
    if "foreground" in classes:
        return element.get("display") == "none"
    # Vega writes a background's own fill and stroke when it has any: none means unpainted.
    painted = "fill" in element.attrib or "stroke" in element.attrib
    return "background" in classes and not painted


def _drop_invisible(root: ET.Element) -> None:
    """Remove the unpainted background and foreground paths vega adds to every group,
    and the labels it hid."""
    doomed = [(parent, child) for parent in root.iter() for child in parent if _is_invisible(child)]
    for parent, child in doomed:
        parent.remove(child)


def _tidy_attributes(root: ET.Element, font: str) -> None:
    """Below the root, no roles, aria-*, pointer events nor `opacity="1"`; the page's
    font; coordinates rounded to 1/100 px: `30.00000000000003` is noise, and bytes on
    every page."""
    for element in root.iter():
        for name, value in list(element.attrib.items()):
            if name in _GEOMETRY_ATTRIBUTES:
                element.set(name, _NUMBER.sub(_compact_number, value))
            elif name == "font-family":
                element.set(name, font)
            elif element is not root and (name in _DROPPED_ATTRIBUTES or name.startswith("aria-")
                                          or (name == "opacity" and value == "1")):
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


def _compact_number(match: re.Match[str]) -> str:
    """One number rounded to two decimals, without trailing zeros or a negative zero."""
    text = f"{round(float(match.group()), 2):.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text
