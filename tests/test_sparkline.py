"""The dashboard's sparklines are written as text: the bytes ElementTree wrote when it
built them, attribute for attribute, the label escaped as it escapes a text."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

import pytest

from progress_site.render.sparkline import SVG, sparkline


def built(values: Sequence[float], label: str, width: int = 100, height: int = 20,
          marks: Sequence[int] = ()) -> str:
    """The sparkline as ElementTree builds it (how the engine once drew it)."""
    svg = ET.Element("svg", {"xmlns": SVG, "viewBox": f"0 0 {width} {height}",
                             "width": str(width), "height": str(height), "role": "img",
                             "class": "sparkline"})
    ET.SubElement(svg, "title").text = label
    low, high = min(values), max(values)
    span, step, pad = (high - low) or 1.0, width / max(len(values) - 1, 1), 1.5
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
    return ET.tostring(svg, encoding="unicode", short_empty_elements=True)


@pytest.mark.parametrize(("values", "label", "size", "marks"), [
    ([1.0], "one point", (100, 20), ()),
    ([5.0, 5.0, 5.0], "", (100, 20), ()),
    ([10.5, 11.25, 9.75, 10.0], "Case 1: the last 4 points", (100, 20), (2,)),
    ([0.001, 1e6, 3.5, 77.7, 1e-9], 'x & y < z > "q" \'a\'\t\n\r', (101, 40), (1, 3)),
    ([float(i % 7) for i in range(30)], "ü ✓ &amp;", (300, 10), (0, 29)),
])
def test_written_as_elementtree_wrote_it(values: list[float], label: str,
                                         size: tuple[int, int], marks: tuple[int, ...]) -> None:
    width, height = size
    assert sparkline(values, label, width=width, height=height, marks=marks) == built(
        values, label, width, height, marks)
