"""The social preview: a PNG card of the headline figures, one per language.

The card is drawn as SVG from the model (numbers printed by `Words`, so each language
formats its own), then converted to PNG by vl-convert. PNGs are entries of the build
cache, named by the hash of their SVG and of the converter's version: a build whose
headlines did not change reads the PNG back without converting it again (bench/caches.py
measured what that saves). An entry is served only if it is a whole PNG of the card's
size (`whole_png`); anything else is converted again.
"""

from __future__ import annotations

import hashlib
import struct
import textwrap
import zlib
from pathlib import Path

from markupsafe import escape

from progress_site import cache
from progress_site.derive.site import Model
from progress_site.derive.views import HeadlineView
from progress_site.render.words import Words

WIDTH, HEIGHT = 1200, 630  # what Open Graph and Twitter cards show without cropping
MAX_HEADLINES = 3
FONT = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"
INK, MUTED, ACCENT, PAPER = "#14213d", "#4a5568", "#1d4ed8", "#ffffff"
PNG = b"\x89PNG\r\n\x1a\n"  # how every PNG file starts
LIMIT = 8 * 1024 * 1024  # bytes; a card is far smaller


def headline_number(words: Words, view: HeadlineView) -> str:
    """The big number of a headline, as the page prints it (`2.5×`, `1,000 players`)."""
    q = view.quantity
    if view.headline.unit == "times":
        return words.gettext("%(n)s×") % {"n": words.number(q.low, q.decimals)}
    return words.quantity(q.bare())


def lines(text: str, size: int, width: int) -> list[str]:
    """Text broken into lines that fit `width` pixels at a font size (an estimate)."""
    per_line = max(10, int(width / (size * 0.55)))
    wrapped = textwrap.wrap(text, per_line)
    if len(wrapped) > 2:  # two lines at most; the page has the rest
        wrapped = [wrapped[0], textwrap.shorten(" ".join(wrapped[1:]), per_line, placeholder=" …")]
    return wrapped


def text_element(x: int, y: int, size: int, fill: str, words: str, bold: bool = False) -> str:
    """One line of SVG text."""
    weight = ' font-weight="700"' if bold else ""
    return (f'<text x="{x}" y="{y}" font-size="{size}" fill="{fill}"{weight}>'
            f"{escape(words)}</text>")


def card_svg(model: Model, words: Words) -> str:
    """The card: the site's title and tagline, then up to three headline figures."""
    site = model.data.site
    parts = [f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{PAPER}"/>',
             f'<rect width="{WIDTH}" height="12" fill="{ACCENT}"/>',
             text_element(60, 100, 56, INK, words.text(site.title).striptags(), bold=True)]
    y = 150
    for line in lines(words.text(site.tagline).striptags(), 30, WIDTH - 120)[:1]:
        parts.append(text_element(60, y, 30, MUTED, line))
    shown = [(headline_number(words, v), words.text(v.headline.label).striptags())
             for v in model.headlines[:MAX_HEADLINES]]
    # The labels line up in one column, after the widest number (an estimate of it).
    offset = 60 + int(max((len(n) for n, _ in shown), default=0) * 64 * 0.62) + 24
    y = 250
    for number, label in shown:
        parts.append(text_element(60, y, 64, ACCENT, number, bold=True))
        for i, line in enumerate(lines(label, 28, WIDTH - offset - 60)):
            parts.append(text_element(offset, y - 24 + i * 34, 28, INK, line))
        y += 120
    body = "\n".join(parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT}">\n{body}\n</svg>\n')


def card_png(model: Model, words: Words, directory: Path | None) -> bytes:
    """The card of one language, as PNG bytes: from the cache `directory` when drawn
    before (by the hash of its SVG), else converted."""
    svg = card_svg(model, words)
    made_by = cache.library_version("vl-convert-python")
    key = hashlib.sha256(f"{made_by}\n{svg}".encode()).hexdigest()
    path = directory / f"{key}.png" if directory else None
    kept = cache.read(path, LIMIT) if path is not None else None
    if kept is not None and whole_png(kept):  # else damaged or foreign: drawn again
        return kept
    import vl_convert  # only on a cache miss: it starts a JavaScript engine

    data: bytes = vl_convert.svg_to_png(svg)
    if path is not None:
        cache.store(path, data)
    return data


def whole_png(data: bytes) -> bool:
    """Whether `data` is one whole PNG image of the card's size: its signature, then
    chunks each with a right CRC, IHDR first, IEND last and nothing after it."""
    if not data.startswith(PNG):
        return False
    at, first = len(PNG), True
    while at + 12 <= len(data):
        length: int = struct.unpack(">I", data[at:at + 4])[0]
        kind = data[at + 4:at + 8]
        end = at + 12 + length
        body = data[at + 8:end - 4]
        if end > len(data) or not kind.isalpha() or struct.unpack(
                ">I", data[end - 4:end])[0] != zlib.crc32(kind + body):
            return False
        if first and (kind != b"IHDR" or struct.unpack(">II", body[:8]) != (WIDTH, HEIGHT)):
            return False
        at, first = end, False
        if kind == b"IEND":
            return at == len(data)
    return False
