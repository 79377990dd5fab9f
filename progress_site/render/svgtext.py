"""Words in SVG written as text, escaped as ElementTree escapes them, so that a chart
written as text has the bytes ElementTree wrote (render/serieschart.py, sparkline.py)."""

from __future__ import annotations


def escape(words: str) -> str:
    """A text as ElementTree writes an element's text: `&`, `<` and `>` escaped."""
    return words.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def attribute(words: str) -> str:
    """A text as ElementTree writes an attribute's value: quotes and the white space
    a parser would fold escaped too."""
    return (escape(words).replace('"', "&quot;").replace("\r", "&#13;")
            .replace("\n", "&#10;").replace("\t", "&#09;"))
