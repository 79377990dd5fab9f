"""How wide a text is drawn, as vl-convert measures it: what wraps a chart's title and
sizes its legend, so that no word is drawn past the chart's edge.

vl-convert lays text out with the Liberation Sans it bundles, and the charts are shown
with fonts of the same metrics (`svg.FONT`), so these widths are the page's too. Vega
reports no text's width, but a mark's items carry their bounds, which a second mark can
read: one call measures many texts. The widths of the common characters are measured
once a process for each size and weight (the bundled font's, the same for every build), so
that wrapping a title needs no call unless it holds other letters.
"""

from __future__ import annotations

import functools
from types import MappingProxyType
from typing import Any

MEASURE_FONT = "Liberation Sans"


def text_widths(texts: list[str], size: float, bold: bool = False) -> list[float]:
    """The drawn width of each text, in px, in one call to vl-convert."""
    import vl_convert  # here: a build of cached charts measures nothing

    text = {"type": "text", "name": "measured", "from": {"data": "texts"},
            "encode": {"enter": {"text": {"field": "t"}, "font": {"value": MEASURE_FONT},
                                 "fontSize": {"value": size},
                                 "fontWeight": {"value": "bold" if bold else "normal"}}}}
    widths = {"type": "rect", "from": {"data": "measured"},
              "encode": {"enter": {"x": {"value": 0}, "height": {"value": 1},
                                   "width": {"signal": "datum.bounds.x2 - datum.bounds.x1"}}}}
    spec = {"width": 1, "height": 1, "padding": 0,
            "data": [{"name": "texts", "values": [{"t": t} for t in texts]}],
            "marks": [text, widths]}
    scene: dict[str, Any] = vl_convert.vega_to_scenegraph(spec)
    rects = scene["scenegraph"]["items"][0]["items"][1]["items"]
    return [float(item.get("width", 0.0)) for item in rects]


# Measured together on first use, so that most titles need no further call.
_COMMON = ("".join(chr(c) for c in range(0x20, 0x7F)) + "\u00a0\u202f«»–—’…×μ°"
           + "àâäçéèêëîïôöùûüÿœæÀÂÄÇÉÈÊËÎÏÔÖÙÛÜŸŒÆ")


@functools.cache  # one table a size and weight, never changed
def _letters(size: float, bold: bool) -> MappingProxyType[str, float]:
    """The widths of the common characters at this size and weight."""
    return _alone("".join(sorted(set(_COMMON))), size, bold)


def _alone(letters: str, size: float, bold: bool) -> MappingProxyType[str, float]:
    """Each character's advance, spaces included: a text's bounds end at its last ink,
    so each is measured between two letters, whose own width is then taken off."""
    *widths, both = text_widths([f"H{c}H" for c in letters] + ["HH"], size, bold)
    return MappingProxyType({c: w - both for c, w in zip(letters, widths, strict=True)})


def width(text: str, size: float, bold: bool = False) -> float:
    """A text's width as the sum of its characters' advances (kerning, which narrows
    pairs such as "Te", aside: tests/test_chart_fit.py measures the lines as drawn)."""
    known = _letters(size, bold)
    new = "".join(sorted(set(text) - known.keys()))
    other = _alone(new, size, bold) if new else known
    return sum(known[c] if c in known else other[c] for c in text)


def wrap(text: str, limit: float, size: float, bold: bool = False) -> tuple[str, ...]:
    """The text in lines of at most `limit` px, broken between words; a word longer
    than a line is broken between letters."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if width(candidate, size, bold) <= limit:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        for letter in word:
            if line and width(line + letter, size, bold) > limit:
                lines.append(line)
                line = ""
            line += letter
    if line:
        lines.append(line)
    return tuple(lines)
