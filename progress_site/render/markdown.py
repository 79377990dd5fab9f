"""Markdown for content pages and data texts: no raw HTML, only safe links.

Content pages may hold blocks, one per line, that the site's templates render from the
data (`{{< roadmap meridian >}}`), and every text may name a derived number
(`{{ comparisons.cpu-500.ratio }}`).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from progress_site.model.links import is_safe

if TYPE_CHECKING:  # markdown-it loads with the first text or page that needs parsing
    from markdown_it import MarkdownIt
    from markdown_it.rules_core import StateCore
    from markdown_it.token import Token
    from markupsafe import Markup

# Patterns are compiled at import, for every build, ~0.1 ms each: those that only the
# parser's rules use are strings, compiled on first use (re keeps them) when a text
# is parsed, which a build whose prose is all cached does not do.
BLOCK = re.compile(r"^\{\{<\s*([a-z][a-z0-9-]*)(.*?)>\}\}\s*$")
EXPLICIT_ID = r"\s*\{#([A-Za-z][\w-]*)\}\s*$"
# Private-use characters: they survive Markdown untouched, so a reference can be swapped
# for its printed number after Markdown has run (and HTML in the number is impossible).
OPEN, CLOSE = "\ue000", "\ue001"
PLACEHOLDER = re.compile(OPEN + r"(\d+)" + CLOSE)
# Raw ones are removed from a text before Markdown; entities (`&#xe000;`) could still
# forge a placeholder, which would print another number, or put HTML in an attribute.
FORGED = f"[{OPEN}{CLOSE}]"
# Direction overrides that an entity (`&#x202e;`) can still write: they would make the
# words and numbers after them on the page read backwards.
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")
# An address with a scheme (`https:`) or a host (`//`): another site.
REMOTE = r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)"
# The characters that can make make_parser()'s inline output differ from the escaped
# text. Its inline rules start only at: `\n` (newline), `\\` (escape), a backtick
# (code), `*` `_` (emphasis), `[` (link; an image is `![`, so `[` covers it), `<`
# (autolink; raw HTML is off) and `&` (entity); our link check runs only on the links
# these start. `\r` and NUL are rewritten by the `normalize` core rule, and the
# `harmless` rule drops direction overrides (BIDI_CONTROLS: apart, since one class of
# ASCII and other characters takes 0.3 ms to compile, and each alone 0.04). Without
# any of these, every character ends in one text token, which the renderer only escapes.
# Linkify, typographer and strikethrough are off: tests/test_formatting_fast.py fails
# if that changes, and compares both paths on many texts.
ACTIVE_ASCII = re.compile(r"[\n\r\x00\\`*_\[<&]")


def markdown_active(text: str) -> bool:
    """Whether the parser could print the text otherwise than escaped (see above)."""
    return bool(ACTIVE_ASCII.search(text)
                or (not text.isascii() and BIDI_CONTROLS.search(text)))


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
        match = re.search(EXPLICIT_ID, inline.content)
        if match:
            anchor = match.group(1)
            inline.content = inline.content[: match.start()]
            if inline.children:
                last = inline.children[-1]
                last.content = re.sub(EXPLICIT_ID, "", last.content)
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
                child.content = re.sub(FORGED, "", child.content)


def _harmless(token: Token) -> list[Token]:
    """The token, cleaned; a remote image as the link that replaces it."""
    if token.type == "text":
        token.content = BIDI_CONTROLS.sub("", token.content)
    for name, value in list(token.attrs.items()):  # attributes hold no placeholder
        token.attrs[name] = re.sub(FORGED, "", BIDI_CONTROLS.sub("", str(value)))
    if token.children:
        token.children = [part for child in token.children for part in _harmless(child)]
    if token.type != "image" or not re.match(REMOTE, str(token.attrs.get("src", ""))):
        return [token]
    from markdown_it.token import Token  # loaded already: the parser is running

    link = Token("link_open", "a", 1, attrs={"href": token.attrs["src"]})
    if token.attrs.get("title"):
        link.attrs["title"] = token.attrs["title"]
    words = [t for t in token.children or [] if t.type not in ("link_open", "link_close")]
    return [link, *words, Token("link_close", "a", -1)]


def make_parser() -> MarkdownIt:
    """CommonMark with tables; raw HTML off; unsafe link schemes refused; no remote image."""
    from markdown_it import MarkdownIt  # here: 15 ms to import, and not every build parses

    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    md.validateLink = is_safe  # type: ignore[method-assign]
    md.core.ruler.push("heading_ids", heading_ids)
    md.core.ruler.push("harmless", harmless)
    md.core.ruler.before("text_join", "unforged", unforged)
    return md


@functools.lru_cache(maxsize=1024)
def markdown_html(source: str) -> str:
    """A chunk of a page's Markdown as HTML. The parser keeps nothing between calls, so
    the same text gives the same HTML: a watch rebuild re-parses only the prose a save
    changed (references are placeholders here, so a new number is not a new text)."""
    html: str = shared_parser().render(source)
    return html


# One parser a process, for pages and inline texts: it keeps nothing between calls.
shared_parser = functools.cache(make_parser)


def inline_html(source: str) -> str:
    """An inline text's Markdown as HTML (InlineRenderer sends only those that may hold
    Markdown here, and remembers what it returns)."""
    html: str = shared_parser().renderInline(source)
    return html


def escape_html(text: str) -> str:
    """What markdown-it prints for plain words (its escapeHtml: `'` stays as it is)."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


class InlineRenderer:
    """Inline Markdown to HTML: plain words skip the parser, Markdown is parsed once."""

    def __init__(self, full: Callable[[str], str] = inline_html) -> None:
        # `full` renders the texts that may hold Markdown; a build passes a disk cache's
        # (prosecache.py), which parses only the texts it has not stored.
        # Bounded: a large site's texts are mostly distinct, and memory counts too.
        self.full = functools.lru_cache(maxsize=4096)(full)

    def __call__(self, source: str) -> str:
        """The HTML of one inline text (escaping plain words is what the parser prints)."""
        if not markdown_active(source):
            return escape_html(source)
        return self.full(source)


def text_of(html: Markup) -> str:
    """The words of inline HTML, as Markup.striptags gives them: tags dropped, entities
    decoded, white space collapsed. Without a tag or an entity only the last is left to
    do, in a tenth of the time (feeds and chart titles ask for hundreds)."""
    if "<" in html or "&" in html:
        return html.striptags()
    return " ".join(str.split(html))


def parse_block(line: str, number: int) -> Block | None:
    """A block line's name, arguments and key=value options; None for any other line."""
    match = BLOCK.match(line.strip())
    if not match:
        return None
    try:
        words = block_words(match.group(2))
    except ValueError:
        words = match.group(2).split()
    args = tuple(w for w in words if "=" not in w)
    options = tuple(tuple(w.split("=", 1)) for w in words if "=" in w)
    return Block(match.group(1), args, options, number)  # type: ignore[arg-type]


# What a block line is made of, as shlex (POSIX) reads it: blanks, runs of plain
# characters, "double" and 'single' quoted strings, or one other character (a quote
# left open, a backslash), for which shlex itself reads the line.
_PIECE = re.compile(r"""[ \t\r\n]+|[^ \t\r\n"'\\]+|"[^"\\]*"|'[^']*'|.""", re.DOTALL)


def block_words(text: str) -> list[str]:
    """The words of a block line, as `shlex.split` splits them (quotes dropped, quoted
    parts joined to the word they touch); ValueError for a quote left open.

    shlex reads a character at a time: ~30 us a block line, a millisecond a build of
    the example; one regular expression does it for every line without a backslash.
    """
    words: list[str] = []
    word: str | None = None  # the word being read; '' for one that is only `""`
    for piece in _PIECE.findall(text):
        first = piece[0]
        if first in " \t\r\n":
            if word is not None:
                words.append(word)
            word = None
        elif first in "\"'\\":
            if len(piece) == 1:
                import shlex  # here: only a line with a backslash or an open quote needs it

                return shlex.split(text)
            word = (word or "") + piece[1:-1]
        else:
            word = (word or "") + piece
    if word is not None:
        words.append(word)
    return words


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
