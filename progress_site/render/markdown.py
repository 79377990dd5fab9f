"""Markdown for content pages and data texts: no raw HTML, only safe links.

Content pages may hold blocks, one per line, that the site's templates render from the
data (`{{< roadmap meridian >}}`), and every text may name a derived number
(`{{ comparisons.cpu-500.ratio }}`). A reference is a token of the parse, printed by the
renderer where it stands, with the renderer's escaping: a link and words in a text,
plain words in an attribute or in code. No HTML is ever put into finished HTML.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline, autolink, image, link
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from markupsafe import escape

from progress_site.derive.namespace import REFERENCE
from progress_site.render.blocklines import Block, site_block
from progress_site.render.safelinks import Refused, accept, located, refuse, refused_in

EXPLICIT_ID = re.compile(r"\s*\{#([A-Za-z][\w-]*)\}\s*$")
# Direction overrides that an entity (`&#x202e;`) can still write: they would make the
# words and numbers after them on the page read backwards.
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")
# An address with a scheme (`https:`) or a host (`//`): another site.
REMOTE = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")
# What may make make_parser()'s inline output differ from markupsafe.escape's: where its
# inline rules start (a newline, `\\`, a backtick, `*` `_` emphasis, `[` links and images,
# `<` autolinks, `&` entities), what its `normalize` rule (`\r`, NUL) and our `harmless`
# rule (direction overrides) rewrite, and the quotes, which it prints as they are. Linkify,
# typographer and strikethrough are off; a `{{ reference }}` without words to print reads
# as written; tests/test_markdown.py compares both on any text.
PARSED = re.compile(r"""[\n\r\x00\\`*_\[<&'"\u202a-\u202e\u2066-\u2069]""")


@dataclass(frozen=True, slots=True)
class Printed:
    """What a reference prints: its words and, for a commit, the address they link to."""

    text: str
    href: str = ""
    code: bool = False  # a commit's hash, printed as code


# Words for an expression (`comparisons.cpu-500.ratio`), or None for one that has none
# (its error is reported where the text is checked): the renderer's env["refer"].
Refer = Callable[[str], Printed | None]


def slugify(text: str) -> str:
    """An anchor id from a heading: lower case, words joined by '-', accents dropped."""
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    words = re.findall(r"[\w]+", plain.lower())
    return "-".join(words) or "section"


def heading_ids(state: StateCore) -> None:
    """Give each heading an id: `{#id}` at its end, else one made from its words (a
    reference's number is no part of it: the id stays when the number changes)."""
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
            anchor = slugify(REFERENCE.sub("", inline.content))
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


def _harmless(token: Token) -> list[Token]:
    """The token, cleaned; a remote image as the link that replaces it."""
    if token.type == "text":
        token.content = BIDI_CONTROLS.sub("", token.content)
    for name, value in list(token.attrs.items()):
        token.attrs[name] = BIDI_CONTROLS.sub("", str(value))
    if token.children:
        token.children = [part for child in token.children for part in _harmless(child)]
    if token.type != "image" or not REMOTE.match(str(token.attrs.get("src", ""))):
        return [token]
    link = Token("link_open", "a", 1, attrs={"href": token.attrs["src"]})
    if token.attrs.get("title"):
        link.attrs["title"] = token.attrs["title"]
    words = [t for t in token.children or [] if t.type not in ("link_open", "link_close")]
    return [link, *words, Token("link_close", "a", -1)]


def reference(state: StateInline, silent: bool) -> bool:
    """`{{ name }}` as one `reference` token: the renderer prints it where it stands, so
    Markdown never reads inside it (`*`, `_`, `[` in an expression are its own)."""
    if not state.src.startswith("{{", state.pos):
        return False
    match = REFERENCE.match(state.src, state.pos)
    if match is None:
        return False
    if not silent:
        token = state.push("reference", "", 0)
        token.content = match.group(0)
        token.meta = {"expression": unpiped(match.group(1))}
    state.pos = match.end()
    return True


def piped(source: str) -> str:
    """A page's Markdown with each `|` inside a reference escaped (`\\|`), as a table
    cell writes one: a table row splits at the others only."""
    if "|" not in source:
        return source
    return REFERENCE.sub(lambda m: m.group(0).replace("|", "\\|"), source)


def unpiped(expression: str) -> str:
    """An expression as written, its pipes as `piped` found them."""
    return expression.replace("\\|", "|")


class Renderer(RendererHTML):
    """markdown-it's HTML, with the words of each reference put in as tokens: as a link
    and words in a text, as plain words in an attribute (alt, title), in code or in a
    link's words. Every piece goes through the renderer's own escaping."""

    def definition(self, tokens: Sequence[Token], idx: int, options: OptionsDict,
                   env: EnvType) -> str:
        """A `[label]: url` line prints nothing (its links print the address)."""
        return ""

    def refused_link(self, tokens: Sequence[Token], idx: int, options: OptionsDict,
                     env: EnvType) -> str:
        """Where a link to an unsafe address was: nothing (its words follow)."""
        return ""

    def site_block(self, tokens: Sequence[Token], idx: int, options: OptionsDict,
                   env: EnvType) -> str:
        """A block line left in a chunk of prose (split_blocks takes them all out): its
        words, never its block."""
        return f"<p>{escapeHtml(tokens[idx].content)}</p>\n"

    def reference(self, tokens: Sequence[Token], idx: int, options: OptionsDict,
                  env: EnvType) -> str:
        """A reference among a text's tokens; as written where env has no words."""
        token = tokens[idx]
        refer: Refer | None = env.get("refer")
        if refer is None:
            return escapeHtml(token.content)
        printed = refer(token.meta["expression"])
        if printed is None:
            return ""
        words = Token("code_inline" if printed.code else "text", "code" if printed.code
                      else "", 0, content=printed.text)
        if not printed.href or linked(tokens, idx):
            return self.renderInline([words], options, env)
        return self.renderInline([Token("link_open", "a", 1, attrs={"href": printed.href}),
                                  words, Token("link_close", "a", -1)], options, env)

    def renderInlineAsText(self, tokens: Sequence[Token] | None, options: OptionsDict,
                           env: EnvType) -> str:
        """An image's alt text: a reference as its plain words."""
        out = []
        for token in tokens or []:
            if token.type == "reference":
                out.append(plain(token.content, env))
            else:
                out.append(super().renderInlineAsText([token], options, env))
        return "".join(out)

    def image(self, tokens: Sequence[Token], idx: int, options: OptionsDict,
              env: EnvType) -> str:
        """An image, its alt and title as plain words (the parsed token is kept as it is:
        it is rendered again in the other language)."""
        token = tokens[idx]
        alt = self.renderInlineAsText(token.children, options, env)
        shown = token.copy(attrs=attributes({**token.attrs, "alt": alt}, env))
        return self.renderToken([shown], 0, options, env)

    def link_open(self, tokens: Sequence[Token], idx: int, options: OptionsDict,
                  env: EnvType) -> str:
        """A link, a reference in its title as plain words."""
        token = tokens[idx]
        shown = token.copy(attrs=attributes(token.attrs, env))
        return self.renderToken([shown], 0, options, env)

    def code_inline(self, tokens: Sequence[Token], idx: int, options: OptionsDict,
                    env: EnvType) -> str:
        """Code, a reference in it as plain words."""
        shown = tokens[idx].copy(content=plain(tokens[idx].content, env))
        return super().code_inline([shown], 0, options, env)

    def code_block(self, tokens: Sequence[Token], idx: int, options: OptionsDict,
                   env: EnvType) -> str:
        """An indented code block, a reference in it as plain words."""
        shown = tokens[idx].copy(content=plain(tokens[idx].content, env))
        return super().code_block([shown], 0, options, env)

    def fence(self, tokens: Sequence[Token], idx: int, options: OptionsDict,
              env: EnvType) -> str:
        """A fenced code block, a reference in it or in its info string as plain words."""
        token = tokens[idx]
        shown = token.copy(content=plain(token.content, env), info=plain(token.info, env))
        return super().fence([shown], 0, options, env)


def linked(tokens: Sequence[Token], idx: int) -> bool:
    """Whether the token at `idx` is among a link's words (a link holds no link)."""
    depth = 0
    for token in tokens[:idx]:
        depth += token.type == "link_open"
        depth -= token.type == "link_close"
    return depth > 0


def plain(text: str, env: EnvType) -> str:
    """A text with each reference as its plain words (an attribute's or code's)."""
    refer: Refer | None = env.get("refer")
    if refer is None or "{{" not in text:
        return text

    def words(match: re.Match[str]) -> str:
        printed = refer(unpiped(match.group(1)))
        return printed.text if printed is not None else ""

    return REFERENCE.sub(words, text)


def attributes(attrs: dict[str, str | int | float], env: EnvType
               ) -> dict[str, str | int | float]:
    """A token's attributes, a reference in its alt or title as plain words."""
    return {name: plain(value, env) if name in ("alt", "title") and isinstance(value, str)
            else value for name, value in attrs.items()}


def make_parser() -> MarkdownIt:
    """CommonMark with tables and references; raw HTML off; unsafe link schemes refused;
    no remote image."""
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False,
                                   "inline_definitions": True}, renderer_cls=Renderer)
    md.enable("table")
    # Every address makes a token, so that an unsafe one is found where it is written
    # (safelinks.py) instead of left as text unseen; `refuse` turns it into words.
    md.validateLink = accept  # type: ignore[method-assign]
    for name, rule in (("link", link), ("image", image), ("autolink", autolink)):
        md.inline.ruler.at(name, located(rule))
    md.core.ruler.after("inline", "refuse", refuse)
    md.block.ruler.before("table", "site_block", site_block)
    md.inline.ruler.before("text", "reference", reference)
    md.core.ruler.push("heading_ids", heading_ids)
    md.core.ruler.push("harmless", harmless)
    return md


# One parser a process, for pages and inline texts: it keeps nothing between calls.
shared_parser = functools.cache(make_parser)


# The parser keeps nothing between calls, so the same text gives the same tokens: a text
# is parsed once a process (a reference is a token whose words are printed at rendering,
# so a new number is not a new text), and a watch rebuild parses only the prose a save
# changed. Bounded: a large site's texts are mostly distinct, and memory counts too.
@functools.lru_cache(maxsize=1024)
def page_tokens(source: str) -> tuple[Token, ...]:
    """A chunk of a page's Markdown, parsed."""
    return tuple(shared_parser().parse(piped(source)))


def refused_links(source: str) -> list[Refused]:
    """(offset, address as written, why) for each address in a chunk of a page's
    Markdown that may not be published: links, images, autolinks, definitions."""
    return [(unpiped_at(source, at), written, why)
            for at, written, why in refused_in(page_tokens(source), piped(source), piped)]


def unpiped_at(source: str, at: int) -> int:
    """An offset in `piped(source)` as an offset in `source`."""
    shift = 0
    for match in REFERENCE.finditer(source) if "|" in source else ():
        for pipe in (i for i, ch in enumerate(match.group(0)) if ch == "|"):
            if match.start() + pipe + shift >= at:
                return at - shift
            shift += 1
    return at - shift


def markdown_html(source: str, refer: Refer | None = None) -> str:
    """A chunk of a page's Markdown as HTML, each reference printed by `refer`."""
    md = shared_parser()
    html: str = md.renderer.render(page_tokens(source), md.options, {"refer": refer})
    return html


def inline_html(source: str, refer: Refer | None = None) -> str:
    """An inline text's Markdown as HTML (a data text: a title, a label, a note), each
    reference printed by `refer`. Words the parser would only escape are escaped without
    it: a large site's labels are mostly plain words, and parsing each is much of its
    build (see bench/scale.py)."""
    if refer is None and PARSED.search(source) is None:
        return str(escape(source))
    md = shared_parser()
    html: str = md.renderer.render(inline_tokens(source), md.options, {"refer": refer})
    return html


@functools.lru_cache(maxsize=4096)
def inline_tokens(source: str) -> tuple[Token, ...]:
    """An inline text's Markdown, parsed."""
    return tuple(shared_parser().parseInline(source))


@functools.lru_cache(maxsize=256)  # a page's body between watch rebuilds: split once
def split_blocks(body: str, first_line: int) -> tuple[str | Block, ...]:
    """The body as Markdown chunks and block lines, in order: the blocks markdown-it
    finds at the top of the page's tree (its block rules only: no inline parse here)."""
    md = shared_parser()
    tokens: list[Token] = []
    md.block.parse(body, md, {}, tokens)
    lines = body.split("\n")
    parts: list[str | Block] = []
    start = 0
    for token in tokens:
        if token.type == "site_block" and token.map is not None:
            at = token.map[0]
            parts.append("\n".join(lines[start:at]))
            parts.append(dataclasses.replace(token.meta["block"], line=first_line + at))
            start = at + 1
    parts.append("\n".join(lines[start:]))
    return tuple(p for p in parts if not isinstance(p, str) or p.strip())
