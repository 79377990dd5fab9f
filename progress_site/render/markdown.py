"""Markdown for content pages and data texts: no raw HTML, only safe links.

Content pages may hold blocks, one per line, that the site's templates render from the
data (`{{< roadmap meridian >}}`), and every text may name a derived number
(`{{ comparisons.cpu-500.ratio }}`). A reference is a token of the parse, printed by the
renderer where it stands, with the renderer's escaping (references.py). No HTML is ever
put into finished HTML.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import unicodedata
from collections.abc import Callable, Iterator

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import autolink, image, link
from markdown_it.token import Token
from markupsafe import escape

from progress_site.derive.namespace import REFERENCE
from progress_site.load.pages import Page
from progress_site.render.blocklines import Block, site_block
from progress_site.render.nobreak import french_spaces
from progress_site.render.references import Refer, Renderer, piped, reference, unpiped_at
from progress_site.render.safelinks import Refused, accept, located, refuse, refused_in, written_in

EXPLICIT_ID = re.compile(r"\s*\{#([A-Za-z][\w-]*)\}\s*$")
# Direction overrides that an entity (`&#x202e;`) can still write: they would make the
# words and numbers after them on the page read backwards.
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")
# An address with a scheme (`https:`) or a host (`//`): another site.
REMOTE = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")
# What may make make_parser()'s inline output differ from markupsafe.escape's: where its
# inline rules start (a newline, `\\`, a backtick, `*` `_` emphasis, `[` links and images,
# `<` autolinks, `&` entities), what its `normalize` rule (`\r`, NUL) and our `harmless`
# rule (direction overrides) rewrite, and the quotes, which it prints as they are, and a
# digit, a hyphen and a digit: an ISO date, which its renderer holds on one line. Linkify,
# typographer and strikethrough are off; a `{{ reference }}` without words to print reads
# as written; tests/test_markdown.py compares both on any text.
PARSED = re.compile(r"""[\n\r\x00\\`*_\[<&'"\u202a-\u202e\u2066-\u2069]|\d-\d""")


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
    # The next number to try after each id: a page of 50,000 headings `# h` tried
    # h-2, h-3 ... afresh for each (a billion tries).
    after: dict[str, int] = {}
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
        base, n = anchor, after.get(anchor, 2)
        while anchor in used:
            anchor, n = f"{base}-{n}", n + 1
        after[base] = n
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


def page_tokens(source: str, page: Page | None = None) -> tuple[Token, ...]:
    """A chunk of a page's Markdown, parsed: once a build when its `page` is given (a
    build reads a chunk's tokens for its references, links, headings and HTML; the
    parser keeps nothing between calls, so the same text gives the same tokens)."""
    if page is None:
        return tuple(shared_parser().parse(piped(source)))
    key = ("tokens", source)
    if key not in page.kept:
        page.kept[key] = page_tokens(source)
    tokens: tuple[Token, ...] = page.kept[key]
    return tokens


def refused_links(source: str, page: Page | None = None) -> list[Refused]:
    """(offset, address as written, why) for each address in a chunk of a page's
    Markdown that may not be published: links, images, autolinks, definitions."""
    return [(unpiped_at(source, at), written, why)
            for at, written, why in refused_in(page_tokens(source, page), piped(source),
                                               piped)]


def written_links(source: str, images: bool = True, page: Page | None = None
                  ) -> list[tuple[int, str, str]]:
    """(offset, address as written, address linked) for each link and image (unless not
    `images`) published from a chunk of a page's Markdown."""
    return [(unpiped_at(source, at), written, address) for at, written, address
            in written_in(page_tokens(source, page), piped(source), piped, images)]


def markdown_html(source: str, refer: Refer | None = None,
                  table_label: Callable[[str], str] | None = None, lang: str = "",
                  page: Page | None = None) -> str:
    """A chunk of a page's Markdown as HTML in language `lang`, each reference printed by
    `refer`, each table in a region that `table_label` names from its columns' headings."""
    md = shared_parser()
    env = {"refer": refer, "table_label": table_label, "french": lang.startswith("fr")}
    html: str = md.renderer.render(page_tokens(source, page), md.options, env)
    return html


def parsed(source: str) -> bool:
    """Whether an inline text holds anything the parser does more with than escape it."""
    return PARSED.search(source) is not None


def inline_html(source: str, refer: Refer | None = None, lang: str = "") -> str:
    """An inline text's Markdown as HTML in language `lang` (a data text: a title, a
    label, a note), each reference printed by `refer`. Words the parser would only
    escape are escaped without it: a large site's labels are mostly plain words, and
    parsing each is much of its build (see bench/scale.py)."""
    if refer is None and not parsed(source):
        escaped = str(escape(source))
        return french_spaces(escaped) if lang.startswith("fr") else escaped
    md = shared_parser()
    html: str = md.renderer.render(inline_tokens(source), md.options,
                                   {"refer": refer, "french": lang.startswith("fr")})
    return html


def inline_tokens(source: str) -> tuple[Token, ...]:
    """An inline text's Markdown, parsed."""
    return tuple(shared_parser().parseInline(source))


def parts(page: Page) -> tuple[str | Block, ...]:
    """The page's body split (`split_blocks`) once a build: a build reads the parts in
    four passes (the charts asked, the languages' blocks, the anchors, the bodies); see
    bench/README.md, "a site of 10,000 series"."""
    if "parts" not in page.kept:
        page.kept["parts"] = split_blocks(page.body, page.body_line)
    split: tuple[str | Block, ...] = page.kept["parts"]
    return split


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


def prose_chunks(page: Page) -> Iterator[tuple[int, str | Block]]:
    """The parts of a page's body in order (`parts`), each Markdown chunk with its
    offset in the body, where what is found in it is located; a block with the offset
    where the prose before it ends."""
    start = 0
    for part in parts(page):
        if isinstance(part, str):
            start = page.body.find(part, start)
            yield start, part
            start += len(part)
        else:
            yield start, part
