"""What a chart read back from the cache may hold: an SVG made only of the elements and
attributes our charts draw with. Anything else is not one of our drawings, and the chart
is drawn again (a miss, never an error).

The cache lives outside the source, but its entries are files someone else may write (a
restored CI cache, another user's folder): a chart goes into the page as markup, so it is
parsed as XML and checked before it is served. The markup served is the entry's text
itself, so that it must read the same to an HTML parser as to the XML one: no comment,
CDATA, doctype or processing instruction (an HTML parser reads them otherwise), no
prefixed element name, and elements only of SVG's namespace, none of which leaves SVG
in an HTML page. Scripts, `<foreignObject>`, `<style>`, event handlers, links other than
to an `#id` of the same drawing, `url()`s other than `url(#id)` and CSS escapes are all
left out.
"""

from __future__ import annotations

import re
from xml.etree import ElementTree as ET

from progress_site.charts.style import SVG_NS

LIMIT = 4 * 1024 * 1024  # bytes; the largest drawing a page could carry is far smaller
XLINK_NS = "http://www.w3.org/1999/xlink"
ELEMENTS = frozenset({
    "svg", "g", "path", "rect", "line", "circle", "ellipse", "polyline", "polygon",
    "text", "tspan", "title", "desc", "defs", "clipPath", "linearGradient",
    "radialGradient", "stop"})
ATTRIBUTES = frozenset({
    "class", "id", "role", "d", "x", "y", "x1", "x2", "y1", "y2", "dx", "dy", "cx", "cy",
    "r", "rx", "ry", "width", "height", "points", "viewBox", "transform", "version",
    "preserveAspectRatio", "fill", "fill-opacity", "fill-rule", "clip-rule", "clip-path",
    "opacity", "stroke", "stroke-width", "stroke-opacity", "stroke-dasharray",
    "stroke-dashoffset", "stroke-linecap", "stroke-linejoin", "stroke-miterlimit",
    "font-family", "font-size", "font-weight", "font-style", "font-variant",
    "text-anchor", "dominant-baseline", "alignment-baseline", "baseline-shift",
    "letter-spacing", "text-decoration", "shape-rendering", "text-rendering",
    "paint-order", "vector-effect", "visibility", "display", "pointer-events",
    "offset", "stop-color", "stop-opacity", "gradientUnits", "gradientTransform",
    "clipPathUnits", "fx", "fy", "fr", "spreadMethod"})
LINKS = frozenset({"href", f"{{{XLINK_NS}}}href"})
# What an HTML parser reads unlike an XML one, and a prefixed element name (`<x:g>`).
FOREIGN = re.compile(rb"<[!?]|<[^\s>/!?]*:")
SAME_DOCUMENT = re.compile(r"#[A-Za-z_][\w.-]*")
URL = re.compile(r"url\(", re.IGNORECASE)
LOCAL_URL = re.compile(r"url\(#[A-Za-z_][\w.-]*\)", re.IGNORECASE)


def allowed_svg(data: bytes) -> str | None:
    """The entry's markup if it is an SVG drawing of the allowed kind, else None."""
    if len(data) > LIMIT or FOREIGN.search(data):
        return None
    try:
        text = data.decode("utf-8")
        root = ET.fromstring(text)
    except (UnicodeDecodeError, ET.ParseError, ValueError):
        return None
    if root.tag != f"{{{SVG_NS}}}svg":
        return None
    return text if all(_allowed(element) for element in root.iter()) else None


def _allowed(element: ET.Element) -> bool:
    """Whether one element and its attributes are of those our charts use."""
    namespace, _, name = element.tag.partition("}")
    if namespace != f"{{{SVG_NS}" or name not in ELEMENTS:
        return False
    for attribute, value in element.attrib.items():
        if attribute in LINKS:
            if not SAME_DOCUMENT.fullmatch(value):
                return False
        elif attribute not in ATTRIBUTES and not attribute.startswith("aria-"):
            return False
        # Values are read as CSS, where a backslash escapes: `\\75 rl(` is `url(`.
        if "\\" in value or URL.search(LOCAL_URL.sub("", value)):
            return False
    return True
