"""Which addresses a page may link to; everything else is refused at validation."""

from __future__ import annotations

import re
import unicodedata
import urllib.parse

SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
# Patterns are strings, compiled on first use (re keeps them): most texts hold no link
# at all, and a build that meets none compiles none.
_SCHEME = r"^([a-zA-Z][a-zA-Z0-9+.-]*):"
_ESCAPED = r"\\([!-/:-@\[-`{-~])"  # Markdown's escapes: any ASCII punctuation


def normalised(url: str) -> str:
    """The address as a browser reads it: entities decoded, controls and spaces dropped;
    and as Markdown writes it: a backslash before punctuation (`javascript\\:`) dropped."""
    text = urllib.parse.unquote(url)
    if "\\" in text:
        text = re.sub(_ESCAPED, r"\1", text)
    if "&" in text:  # only then can it hold an entity (and html's 2,000 of them load)
        import html

        text = html.unescape(text)
    return "".join(ch for ch in text if not ch.isspace()
                   and unicodedata.category(ch) not in ("Cc", "Cf"))


def check_url(url: str) -> str:
    """Why an address is refused, or '' when it is safe to publish."""
    if any(unicodedata.category(ch) in ("Cc", "Cf") for ch in url):
        return "the address holds invisible or control characters"
    match = re.match(_SCHEME, normalised(url))
    if match and match.group(1).lower() not in SAFE_SCHEMES:
        return f"'{match.group(1)}:' addresses are not allowed"
    return ""


# Where Markdown takes a link's address: `[text](URL "title")`, `![alt](URL)`,
# `[label]: URL` definitions, and `<scheme:...>` autolinks.
_INLINE = r"\]\(\s*<?((?:[^\s()<>]|\([^\s()<>]*\))*)"  # one level of (...)
# A label holds no bracket but an escaped one, as in Markdown: one that ran to the
# text's next `]` was looked for from each line's start over the lines between (a text
# of 200,000 lines of `[` after a `]:` took minutes).
_DEFINITION = r"(?m)^ {0,3}\[(?:[^\[\]\\]|\\.)+\]:\s*<?(\S*?)>?(?:\s|$)"
_AUTOLINK = r"<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*)>"


# Each pattern with the characters it cannot match without: a text is searched only
# for the links it may hold (a page's prose has few, and a definition would otherwise be
# looked for at every line start).
_PATTERNS = ((_INLINE, "]("), (_DEFINITION, "]:"), (_AUTOLINK, "<"))


def markdown_links(text: str) -> list[tuple[int, str]]:
    """The addresses a Markdown text links to, with their offsets, in order."""
    found = {(m.start(1), m.group(1)) for rx, mark in _PATTERNS if mark in text
             for m in re.finditer(rx, text)}  # `[x](<a:b>)` is seen twice: report it once
    return sorted(found)


def unsafe_links(text: str) -> list[tuple[int, str, str]]:
    """(offset, address, why) for each address in Markdown that may not be published."""
    return [(at, url, why) for at, url in markdown_links(text) if (why := check_url(url))]


# What a repository's address may hold in its path as it is: RFC 3986's path characters
# (`%` for what is quoted already) but the quote, which could end an attribute written
# with quotes; anything else is quoted when a link is made from it.
_PATH_SAFE = "/%:@!$&()*+,;=~"
# A host: words joined by dots and hyphens (in any script), or an IPv6 address.
_HOST = r"[\w-]+(?:\.[\w-]+)*\.?|[0-9a-f:.]+"


def repository_problem(url: str) -> str:
    """Why a repository's address cannot start links (what follows "the address"), or
    '' when it can: an http(s) address with a host and a path, and nothing a link could
    not be added to."""
    if any(ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf") for ch in url):
        return "holds spaces, invisible or control characters"
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 (read for its check: a port that is not a number raises)
    except ValueError as exc:
        return f"cannot be read ({exc})"
    if parts.scheme.lower() not in ("http", "https"):
        return f"is not an http(s) address (it starts with '{parts.scheme or url[:8]}')"
    if not parts.hostname:
        return "names no host"
    if not re.fullmatch(_HOST, parts.hostname):
        return f"names '{parts.hostname}', which is not a host name"
    if parts.username is not None or parts.password is not None:
        return "holds a user name before its host (`name@`)"
    if parts.query or parts.fragment or url.endswith(("?", "#")):
        return "holds a query (`?`) or a fragment (`#`): links add /pull/N to its path"
    return ""


def repository_link(base: str, *parts: str) -> str:
    """The address of `base`'s pull, issue or commit (`/pull/12`): the base's path kept
    as a path, each part added quoted, so no part can end the path or the attribute."""
    split = urllib.parse.urlsplit(base)
    path = urllib.parse.quote(split.path.rstrip("/"), safe=_PATH_SAFE)
    path += "".join("/" + urllib.parse.quote(part, safe="") for part in parts)
    return urllib.parse.urlunsplit((split.scheme, split.netloc, path, "", ""))
