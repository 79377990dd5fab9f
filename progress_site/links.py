"""Which addresses a page may link to; everything else is refused at validation."""

from __future__ import annotations

import html
import re
import unicodedata
import urllib.parse

SAFE_SCHEMES = {"http", "https", "mailto"}
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")


def normalised(url: str) -> str:
    """The address as a browser reads it: entities decoded, controls and spaces dropped."""
    text = html.unescape(urllib.parse.unquote(url))
    return "".join(ch for ch in text if not ch.isspace()
                   and unicodedata.category(ch) not in ("Cc", "Cf"))


def check_url(url: str) -> str:
    """Why an address is refused, or '' when it is safe to publish."""
    if any(unicodedata.category(ch) in ("Cc", "Cf") for ch in url):
        return "the address holds invisible or control characters"
    match = _SCHEME.match(normalised(url))
    if match and match.group(1).lower() not in SAFE_SCHEMES:
        return f"'{match.group(1)}:' addresses are not allowed"
    return ""


def is_safe(url: str) -> bool:
    """True for http(s), mailto and relative addresses (markdown-it's validateLink)."""
    return not check_url(url)
