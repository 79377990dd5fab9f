"""A `{{ reference }}` in Markdown: read as one token, printed where it stands.

markdown-it reads each `{{ name }}` as one `reference` token (Markdown never reads inside
it), and the Renderer prints its words with its own escaping: a link and words in a text,
plain words in an attribute (alt, title), in code or among a link's words. In a table
row, the pipes inside a reference are escaped first (`piped`), so the row splits at the
others only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from progress_site.derive.namespace import REFERENCE
from progress_site.render.nobreak import french_spaces, whole_dates


@dataclass(frozen=True, slots=True)
class Printed:
    """What a reference prints: its words and, for a commit, the address they link to."""

    text: str
    href: str = ""
    code: bool = False  # a commit's hash, printed as code


# Words for an expression (`comparisons.cpu-500.ratio`), or None for one that has none
# (its error is reported where the text is checked): the renderer's env["refer"].
Refer = Callable[[str], Printed | None]


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


def unpiped_at(source: str, at: int) -> int:
    """An offset in `piped(source)` as an offset in `source`."""
    shift = 0
    for match in REFERENCE.finditer(source) if "|" in source else ():
        for pipe in (i for i, ch in enumerate(match.group(0)) if ch == "|"):
            if match.start() + pipe + shift >= at:
                return at - shift
            shift += 1
    return at - shift


def header_words(tokens: Sequence[Token], idx: int) -> list[str]:
    """The words of each heading cell of the table that opens at `idx` (their text and
    code; a reference's number is no part of a name that should not change with it)."""
    words: list[str] = []
    for token in tokens[idx + 1:]:
        if token.type == "thead_close" or token.type == "tbody_open":
            break
        if token.type == "inline":
            text = "".join(c.content for c in token.children or ()
                           if c.type in ("text", "code_inline")).strip()
            if text:
                words.append(text)
    return words


class Renderer(RendererHTML):
    """markdown-it's HTML, with the words of each reference put in as tokens: as a link
    and words in a text, as plain words in an attribute (alt, title), in code or in a
    link's words. Every piece goes through the renderer's own escaping."""

    def definition(self, tokens: Sequence[Token], idx: int, options: OptionsDict,
                   env: EnvType) -> str:
        """A `[label]: url` line prints nothing (its links print the address)."""
        return ""

    def table_open(self, tokens: Sequence[Token], idx: int, options: OptionsDict,
                   env: EnvType) -> str:
        """A table of a page's prose, in a region that scrolls sideways on its own: a
        table wider than a phone (four columns of French headings) pushed the whole page
        sideways. The region takes the keyboard's focus to scroll, and is named by its
        columns, so that two tables of a page are two regions of their own names."""
        label: Callable[[str], str] | None = env.get("table_label")
        columns = ", ".join(header_words(tokens, idx))
        named = (f' role="region" aria-label="{escapeHtml(label(columns))}"'
                 if label and columns else "")
        return f'<div class="table-wrap"{named} tabindex="0">\n<table>\n'

    def table_close(self, tokens: Sequence[Token], idx: int, options: OptionsDict,
                    env: EnvType) -> str:
        """The end of a prose table's scrolling region."""
        return "</table>\n</div>\n"

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

    def text(self, tokens: Sequence[Token], idx: int, options: OptionsDict,
             env: EnvType) -> str:
        """Words, escaped, each ISO date in them held on one line, and in French the
        space before `:` `;` `?` `!` one no line breaks at (nobreak.py)."""
        words = escapeHtml(tokens[idx].content)
        if env.get("french"):
            words = french_spaces(words)
        return whole_dates(words)

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
    return sum((t.type == "link_open") - (t.type == "link_close") for t in tokens[:idx]) > 0


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
