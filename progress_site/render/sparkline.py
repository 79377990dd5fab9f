"""Small line charts of a series, written as SVG text (no vl-convert: a dashboard has
hundreds of them); every coordinate rounded, so the output is stable. The bytes are those
ElementTree wrote when it built them: the same attributes in the same order, the label
escaped as it escapes an element's text (saxutils' `escape`)."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from markupsafe import Markup

SVG = "http://www.w3.org/2000/svg"


def sparkline(values: Sequence[float], label: str, *, width: int = 100, height: int = 20,
              marks: Sequence[int] = ()) -> Markup:
    """`values` as a polyline in a `width` x `height` box, labelled for screen readers;
    `marks` are indexes where a step starts, drawn as vertical lines."""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = width / max(len(values) - 1, 1)
    pad = 1.5  # the line's half width, so the extremes are not cut

    # Whole numbers in a small box, a decimal in a large one: 200 rows stay small.
    digits = 0 if width <= 100 else 1

    def x(i: int) -> str:
        return f"{i * step:.{digits}f}"

    out = [f'<svg xmlns="{SVG}" viewBox="0 0 {width} {height}" width="{width}" '
           f'height="{height}" role="img" class="sparkline">',
           f"<title>{escape(label)}</title>" if label else "<title />"]
    out += [f'<line x1="{x(index)}" x2="{x(index)}" y1="0" y2="{height}" class="step-mark" '
            'stroke="currentColor" stroke-opacity="0.5" stroke-dasharray="2 2" />'
            for index in marks]
    # Each point's x (as `x` writes it) and y, written out in one expression a point.
    inner = height - 2 * pad
    points = " ".join([f"{i * step:.{digits}f},{height - pad - (v - low) / span * inner:.{digits}f}"
                       for i, v in enumerate(values)])
    out.append(f'<polyline points="{points}" fill="none" stroke="currentColor" '
               'stroke-width="1.5" /></svg>')
    return Markup("".join(out))
