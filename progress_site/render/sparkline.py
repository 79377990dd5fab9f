"""Small line charts of a series, drawn by hand as SVG with ElementTree (no vl-convert:
a dashboard has hundreds of them); every coordinate rounded, so the output is stable."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from markupsafe import Markup

SVG = "http://www.w3.org/2000/svg"


def sparkline(values: Sequence[float], label: str, *, width: int = 100, height: int = 20,
              marks: Sequence[int] = ()) -> Markup:
    """`values` as a polyline in a `width` x `height` box, labelled for screen readers;
    `marks` are indexes where a step starts, drawn as vertical lines."""
    svg = ET.Element("svg", {"xmlns": SVG, "viewBox": f"0 0 {width} {height}",
                             "width": str(width), "height": str(height), "role": "img",
                             "class": "sparkline"})
    ET.SubElement(svg, "title").text = label
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = width / max(len(values) - 1, 1)
    pad = 1.5  # the line's half width, so the extremes are not cut

    # Whole numbers in a small box, a decimal in a large one: 200 rows stay small.
    digits = 0 if width <= 100 else 1

    def x(i: int) -> str:
        return f"{i * step:.{digits}f}"

    def y(v: float) -> str:
        return f"{height - pad - (v - low) / span * (height - 2 * pad):.{digits}f}"

    for index in marks:
        ET.SubElement(svg, "line", {"x1": x(index), "x2": x(index), "y1": "0",
                                    "y2": str(height), "class": "step-mark",
                                    "stroke": "currentColor", "stroke-opacity": "0.5",
                                    "stroke-dasharray": "2 2"})
    points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))
    ET.SubElement(svg, "polyline", {"points": points, "fill": "none",
                                    "stroke": "currentColor", "stroke-width": "1.5"})
    # ElementTree escapes the label and every attribute.
    return Markup(ET.tostring(svg, encoding="unicode", short_empty_elements=True))
