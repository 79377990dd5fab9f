"""The characters no text of the site may hold, named; one definition for every reader.

A text read from the source can end up in a page, an SVG chart, an XML feed or sitemap,
a social card and the terminal. XML 1.0 cannot hold C0 controls (tab and newline aside)
nor U+FFFE and U+FFFF, and a chart library that meets one gives up the whole process.
Beside those the set holds what would deceive a reader or a terminal: DEL and the C1
controls (U+009B starts a terminal escape as ESC [ does), the direction controls of
"Trojan Source", halves of a character (lone surrogates), and every Unicode
noncharacter (U+FDD0 to U+FDEF, and the last two code points of each plane), which
markdown-it also refuses to write from an entity. A carriage return ends a line only
before a newline (CRLF, which the readers take as one line end); anywhere else, and in
any value, it is refused too.
"""

from __future__ import annotations

import re
import unicodedata

# The forbidden code points, as ranges: the one definition the patterns below are made of.
RANGES = ((0x00, 0x08), (0x0b, 0x1f), (0x7f, 0x9f), (0x202a, 0x202e), (0x2066, 0x2069),
          (0xd800, 0xdfff), (0xfdd0, 0xfdef), (0xfffe, 0xffff),
          *((plane + 0xfffe, plane + 0xffff) for plane in range(0x10000, 0x110000, 0x10000)))
# Characters that reorder how the text around them is shown ("Trojan Source").
BIDI_CONTROLS = frozenset(map(chr, [*range(0x202a, 0x202f), *range(0x2066, 0x206a)]))


def _pattern(ranges: tuple[tuple[int, int], ...]) -> re.Pattern[str]:
    """A class of the characters in `ranges`."""
    return re.compile("[" + "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}"
                                    for a, b in ranges) + "]")


# Two patterns, as one with the planes above the first is many times slower on every
# character; the second only runs on texts that hold a character above U+FFFF.
_BASIC = _pattern(tuple(r for r in RANGES if r[1] <= 0xffff))
_ASTRAL = _pattern(tuple(r for r in RANGES if r[0] > 0xffff))
# What a file's bytes hold wherever one of them is written in UTF-8: C0 controls and
# DEL; a C1 control; a direction control; U+FDD0..U+FDEF; `BF BE`/`BF BF`, the end of
# U+xFFFE/U+xFFFF in every plane. Most files hold none of them, and are read no further.
_CONTROL_BYTES = bytes([*range(0x00, 0x09), 0x0b, 0x0c, 0x0d, *range(0x0e, 0x20), 0x7f])
_OTHER_BYTES = bytes(b for b in range(256) if b not in _CONTROL_BYTES)
# Each with a byte it cannot be without: a search for one byte is many times quicker
# than any pattern's, and most files lack the byte.
_MULTIBYTE = tuple((lead, re.compile(re.escape(lead) + rest)) for lead, rest in (
    (b"\xc2", rb"[\x80-\x9f]"), (b"\xe2", rb"\x80[\xaa-\xae]"), (b"\xe2", rb"\x81[\xa6-\xa9]"),
    (b"\xef", rb"\xb7[\x90-\xaf]"), (b"\xbf", rb"[\xbe\xbf]")))


def is_forbidden(ch: str) -> bool:
    """Whether one character is forbidden in any text (a carriage return included)."""
    return bool(_BASIC.match(ch) or _ASTRAL.match(ch))


def maybe_in(data: bytes) -> bool:
    """Whether UTF-8 `data` may hold a forbidden character (False: it surely holds none;
    a CRLF line end is not one)."""
    controls = data.translate(None, _OTHER_BYTES)
    if controls and (controls.count(b"\r") < len(controls)
                     or data.count(b"\r") != data.count(b"\r\n")):
        return True
    return any(lead in data and pattern.search(data) for lead, pattern in _MULTIBYTE)


def offsets(text: str, line_ends: bool = False) -> list[int]:
    """Where the forbidden characters of `text` are; with `line_ends`, a carriage return
    before a newline is a line end, not one of them."""
    found = [m.start() for m in _BASIC.finditer(text)]
    if line_ends:
        found = [i for i in found if text[i] != "\r" or text[i + 1:i + 2] != "\n"]
    if not text.isascii() and max(text) > "\uffff":
        found = sorted(found + [m.start() for m in _ASTRAL.finditer(text)])
    return found


def kind(ch: str) -> str:
    """What a forbidden character is, in a few words."""
    code = ord(ch)
    if ch in BIDI_CONTROLS:
        return "a direction override"
    if 0xd800 <= code <= 0xdfff:
        return "half of a character"
    if code < 0x20 or 0x7f <= code <= 0x9f:
        return "a control character"
    return "a noncharacter"


def named(ch: str) -> str:
    """A forbidden character as messages name it: `U+FFFE (a noncharacter)`."""
    return f"U+{ord(ch):04X} ({kind(ch)})"


def first_forbidden(value: str) -> str:
    """The first forbidden character of a value, named; '' when there is none."""
    if value.isprintable():  # no character of the set is printable: the common case
        return ""
    found = offsets(value)
    return named(value[found[0]]) if found else ""


def blank(text: str) -> bool:
    """Whether a text shows nothing: blanks, and characters that take no place
    (a zero-width space, a format or control character) or draw none."""
    return all(c.isspace() or unicodedata.category(c) in ("Cf", "Cc", "Zs", "Zl", "Zp")
               or c in "\u2800\u3164\u115f\u1160\uffa0" for c in text)
