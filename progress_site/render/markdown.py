"""Markdown for content pages and data texts: no raw HTML, only safe links.

Content pages may hold blocks, one per line, that the site's templates render from the
data (`{{< roadmap meridian >}}`), and every text may name a derived number
(`{{ comparisons.cpu-500.ratio }}`).
"""

from __future__ import annotations

import functools
import re
import shlex
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markupsafe import escape

from progress_site.model.links import is_safe

BLOCK = re.compile(r"^\{\{<\s*([a-z][a-z0-9-]*)(.*?)>\}\}\s*$")
EXPLICIT_ID = re.compile(r"\s*\{#([A-Za-z][\w-]*)\}\s*$")
# Private-use characters: they survive Markdown untouched, so a reference can be swapped
# for its printed number after Markdown has run (and HTML in the number is impossible).
OPEN, CLOSE = "\ue000", "\ue001"
PLACEHOLDER = re.compile(OPEN + r"(\d+)" + CLOSE)
# Raw ones are removed from a text before Markdown; entities (`&#xe000;`) could still
# forge a placeholder, which would print another number, or put HTML in an attribute.
FORGED = re.compile(f"[{OPEN}{CLOSE}]")
# Direction overrides that an entity (`&#x202e;`) can still write: they would make the
# words and numbers after them on the page read backwards.
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")
# An address with a scheme (`https:`) or a host (`//`): another site.
REMOTE = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")
# What may make make_parser()'s inline output differ from markupsafe.escape's: where its
# inline rules start (a newline, `\\`, a backtick, `*` `_` emphasis, `[` links and images,
# `<` autolinks, `&` entities), what its `normalize` rule (`\r`, NUL) and our `harmless`
# rule (direction overrides) rewrite, and the quotes, which it prints as they are. Linkify,
# typographer and strikethrough are off; tests/test_markdown.py compares both on any text.
PARSED = re.compile(r"""[\n\r\x00\\`*_\[<&'"\u202a-\u202e\u2066-\u2069]""")


@dataclass(frozen=True, slots=True)
class Block:
    """A `{{< name arg key=value >}}` line of a content page."""

    name: str
    args: tuple[str, ...]
    options: tuple[tuple[str, str], ...]
    line: int


def slugify(text: str) -> str:
    """An anchor id from a heading: lower case, words joined by '-', accents dropped."""
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    words = re.findall(r"[\w]+", plain.lower())
    return "-".join(words) or "section"


def heading_ids(state: StateCore) -> None:
    """Give each heading an id: `{#id}` at its end, else one made from its words."""
    used: set[str] = set()
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        inline = tokens[i + 1]
        match = EXPLICIT_ID.search(inline.content)
        if match:
            anchor = match.group(1)
            inline.content = inline.content[: match.start()]
            if inline.children:
                last = inline.children[-1]
                last.content = EXPLICIT_ID.sub("", last.content)
        else:
            anchor = slugify(PLACEHOLDER.sub("", inline.content))
        base, n = anchor, 2
        while anchor in used:
            anchor, n = f"{base}-{n}", n + 1
        used.add(anchor)
        token.attrSet("id", anchor)


def harmless(state: StateCore) -> None:
    """Pages ask no other host for anything: an image from another site becomes a link to
    it. Direction overrides written as entities are dropped from texts and attributes."""
    for token in state.tokens:
        if token.children:
            token.children = [part for child in token.children for part in _harmless(child)]


def unforged(state: StateCore) -> None:
    """Drop placeholder characters that entities wrote (before texts are joined, while
    an entity is still its own token: a real placeholder is in a plain text token)."""
    for token in state.tokens:
        for child in token.children or []:
            if child.type == "text_special":
                child.content = FORGED.sub("", child.content)


def _harmless(token: Token) -> list[Token]:
    """The token, cleaned; a remote image as the link that replaces it."""
    if token.type == "text":
        token.content = BIDI_CONTROLS.sub("", token.content)
    for name, value in list(token.attrs.items()):  # attributes hold no placeholder
        token.attrs[name] = FORGED.sub("", BIDI_CONTROLS.sub("", str(value)))
    if token.children:
        token.children = [part for child in token.children for part in _harmless(child)]
    if token.type != "image" or not REMOTE.match(str(token.attrs.get("src", ""))):
        return [token]
    link = Token("link_open", "a", 1, attrs={"href": token.attrs["src"]})
    if token.attrs.get("title"):
        link.attrs["title"] = token.attrs["title"]
    words = [t for t in token.children or [] if t.type not in ("link_open", "link_close")]
    return [link, *words, Token("link_close", "a", -1)]


def make_parser() -> MarkdownIt:
    """CommonMark with tables; raw HTML off; unsafe link schemes refused; no remote image."""
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    md.validateLink = is_safe  # type: ignore[method-assign]
    md.core.ruler.push("heading_ids", heading_ids)
    md.core.ruler.push("harmless", harmless)
    md.core.ruler.before("text_join", "unforged", unforged)
    return md


# One parser a process, for pages and inline texts: it keeps nothing between calls.
shared_parser = functools.cache(make_parser)


# The parser keeps nothing between calls, so the same text gives the same HTML: a text is
# parsed once a process (references are placeholders by then, so a new number is not a
# new text), and a watch rebuild parses only the prose a save changed. Bounded: a large
# site's texts are mostly distinct, and memory counts too.
@functools.lru_cache(maxsize=1024)
def markdown_html(source: str) -> str:
    """A chunk of a page's Markdown as HTML."""
    html: str = shared_parser().render(source)
    return html


def inline_html(source: str) -> str:
    """An inline text's Markdown as HTML (a data text: a title, a label, a note). Words
    the parser would only escape are escaped without it: a large site's labels are mostly
    plain words, and parsing each is much of its build (see bench/scale.py)."""
    if PARSED.search(source) is None:
        return str(escape(source))
    return parsed_inline(source)


@functools.lru_cache(maxsize=4096)
def parsed_inline(source: str) -> str:
    """An inline text's Markdown as HTML, by the parser."""
    html: str = shared_parser().renderInline(source)
    return html


def parse_block(line: str, number: int) -> Block | None:
    """A block line's name, arguments and key=value options; None for any other line."""
    match = BLOCK.match(line.strip())
    if not match:
        return None
    try:
        words = shlex.split(match.group(2))
    except ValueError:  # a quote left open: the words between blanks
        words = match.group(2).split()
    args = tuple(w for w in words if "=" not in w)
    options = tuple(tuple(w.split("=", 1)) for w in words if "=" in w)
    return Block(match.group(1), args, options, number)  # type: ignore[arg-type]


@functools.lru_cache(maxsize=256)  # a page's body between watch rebuilds: split once
def split_blocks(body: str, first_line: int) -> tuple[str | Block, ...]:
    """The body as Markdown chunks and block lines, in order (not inside code fences)."""
    parts: list[str | Block] = []
    chunk: list[str] = []
    fence = ""
    for offset, line in enumerate(body.split("\n")):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fence = "" if fence and stripped.startswith(fence) else (fence or stripped[:3])
        block = None if fence else parse_block(line, first_line + offset)
        if block is None:
            chunk.append(line)
            continue
        parts.append("\n".join(chunk))
        chunk = []
        parts.append(block)
    parts.append("\n".join(chunk))
    return tuple(p for p in parts if not isinstance(p, str) or p.strip())


def substitute(text: str, pattern: re.Pattern[str],
               render: Callable[[re.Match[str]], str]) -> tuple[str, list[str]]:
    """Swap each match for a placeholder; return the text and the rendered pieces."""
    pieces: list[str] = []

    def swap(match: re.Match[str]) -> str:
        pieces.append(render(match))
        return f"{OPEN}{len(pieces) - 1}{CLOSE}"

    return pattern.sub(swap, text.replace(OPEN, "").replace(CLOSE, "")), pieces


def restore(html: str, pieces: list[str]) -> str:
    """Put the rendered pieces back where their placeholders are."""
    return PLACEHOLDER.sub(lambda m: pieces[int(m.group(1))], html)
