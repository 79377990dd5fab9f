"""Links in Markdown, read from markdown-it's tokens: an unsafe address never becomes a
link, and each one written in a page is found with the place it was written.

markdown-it's own `validateLink` drops a link to an unsafe address silently, leaving
its text, so a page could hold one no check had seen (in a quote's or a list's
`[label]: url`, with an escaped colon `javascript\\:`). Here the parser accepts every
address; its link, image and autolink rules are wrapped to note where the address is
written (`located`); a core rule then turns every link and image to an unsafe address
into its words plus a `refused_link` token that prints nothing (`refuse`); and
`refused_in` lists them, with `[label]: url` definitions, for the page's check.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator
from typing import Any

from markdown_it.helpers import parseLinkDestination, parseLinkLabel
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from progress_site.model.links import check_url

InlineRule = Callable[[StateInline, bool], bool]
NEWLINE = re.compile(r"\r\n?|\n")
# A refused address: its offset in the parsed text, the address as written, and why.
Refused = tuple[int, str, str]


def accept(url: str) -> bool:
    """markdown-it's validateLink: every address makes a token, `refuse` judges it."""
    return True


def located(rule: InlineRule) -> InlineRule:
    """markdown-it's link, image or autolink rule, its first token holding where its
    address is written in the inline text, and how (`meta["written"]`)."""

    def wrapped(state: StateInline, silent: bool) -> bool:
        """The rule, then the place of the address on the token it made."""
        start, count = state.pos, len(state.tokens)
        if not rule(state, silent):
            return False
        # The first new token may be the words before the link, which pushing flushes.
        first = next((t for t in state.tokens[count:] if t.type in ("link_open", "image")),
                     None)
        if not silent and first is not None:
            first.meta["written"] = written_address(state, start)
        return True

    return wrapped


def written_address(state: StateInline, start: int) -> tuple[int, str] | None:
    """Where the address of the link that starts at `start` is, and its text; None for
    a reference (`[x][y]`), whose definition is where its address is written."""
    src = state.src
    if src[start] == "<":
        return start + 1, src[start + 1:state.pos - 1]
    image = src[start] == "!"
    end = parseLinkLabel(state, start + 1 if image else start, not image)
    if end < 0 or src[end + 1:end + 2] != "(":
        return None
    return destination(src, end + 2)


def destination(text: str, pos: int) -> tuple[int, str] | None:
    """The address written from `pos` on, past blanks: its offset and text."""
    while pos < len(text) and text[pos] in " \t\n":
        pos += 1
    found = parseLinkDestination(text, pos, len(text))
    if not found.ok:
        return None
    written = text[pos:found.pos]
    if written.startswith("<"):
        return pos + 1, written[1:-1]
    return pos, written


def refuse(state: StateCore) -> None:
    """Each link and image to an unsafe address as its words and a `refused_link`."""
    for token in state.tokens:
        if token.type == "definition" and (why := check_url(str(token.meta["url"]))):
            token.meta["why"] = why
        elif token.children:
            token.children = refused(token.children)


def refused(tokens: list[Token]) -> list[Token]:
    """The tokens, each unsafe link's or image's replaced by a `refused_link` token
    (links do not nest: the next link_close is the refused link's)."""
    out: list[Token] = []
    closing = False
    for token in tokens:
        address = str(token.attrs.get("src" if token.type == "image" else "href", ""))
        why = check_url(address) if token.type in ("link_open", "image") else ""
        if why:
            out.append(Token("refused_link", "", 0, meta={**token.meta, "why": why}))
            closing = token.type == "link_open"
            if token.type == "image":  # its alt text, as plain words
                words = "".join(t.content for t in token.children or []
                                if t.type in ("text", "code_inline"))
                out.append(Token("text", "", 0, content=words))
        elif token.type == "link_close" and closing:
            closing = False
        else:
            out.append(token)
    return out


def refused_in(tokens: tuple[Token, ...], text: str, piped: Callable[[str], str]
               ) -> list[Refused]:
    """Every refused address of a parsed text, with its offset in `text`, in order;
    `piped` escapes the pipes of references as `text` has them (references.piped)."""
    lines, starts = lines_of(text)
    found = [(at, written, child.meta["why"]) for child, at, written
             in placed_in(tokens, lines, starts, piped, ("refused_link",))]
    for token in tokens:
        if token.type == "definition" and "why" in token.meta and token.map is not None:
            at, written = definition_at(token, lines)
            found.append((starts[token.map[0]] + at, written, token.meta["why"]))
    return sorted(found)


def written_in(tokens: tuple[Token, ...], text: str, piped: Callable[[str], str],
               images: bool = True) -> list[tuple[int, str, str]]:
    """Every published link's and image's (unless not `images`) address as written, with
    its offset in `text`, and as the page links it (escapes read, `<...>` taken off); a
    reference `[x][y]` is left out: its address is written in its definition."""
    kinds = ("link_open", "image") if images else ("link_open",)
    return [(at, written, str(child.attrs.get("src" if child.type == "image" else "href", "")))
            for child, at, written in placed_in(tokens, *lines_of(text), piped, kinds)]


def placed_in(tokens: tuple[Token, ...], lines: list[str], starts: list[int],
              piped: Callable[[str], str], kinds: tuple[str, ...]
              ) -> Iterator[tuple[Token, int, str]]:
    """(token, offset in the text, address as written) for each link, image or refused
    link of `kinds` whose rule noted where its address is written."""
    for token in tokens:
        if token.map is None:
            continue
        where = InlineLines(token, lines, piped)
        for child in token.children or []:
            if child.type in kinds and child.meta.get("written"):
                offset, written = child.meta["written"]
                line, column = where.at(offset)
                yield child, starts[line] + column, written


def lines_of(text: str) -> tuple[list[str], list[int]]:
    """The lines of a text as markdown-it counts them (its `normalize` reads `\r` as a
    line break too), and the offset each starts at."""
    breaks = list(NEWLINE.finditer(text))
    starts = [0, *(b.end() for b in breaks)]
    lines = [text[start:end] for start, end in
             zip(starts, [b.start() for b in breaks] + [len(text)], strict=True)]
    return lines, starts


class InlineLines:
    """Where the lines of an inline token's content are written, found once for all its
    links, rather than each link searching its whole line again (a time that grows
    with the square of a line's links)."""

    def __init__(self, token: Token, lines: list[str], piped: Callable[[str], str]) -> None:
        assert token.map is not None
        self.token, self.first, self.lines, self.piped = token, token.map[0], lines, piped
        self.breaks = [m.start() for m in re.finditer("\n", token.content)]
        self.placed: dict[int, tuple[int, int] | None] = {}  # by line of the content

    def at(self, offset: int) -> tuple[int, int]:
        """The line and column in the text of an offset in the token's content (a line
        of the content is its source line without a container's marks or indent)."""
        content, k = self.token.content, bisect.bisect_left(self.breaks, offset)
        begin = self.breaks[k - 1] + 1 if k else 0
        end = self.breaks[k] if k < len(self.breaks) else len(content)
        line = min(self.first + k, len(self.lines) - 1)
        if k not in self.placed:
            self.placed[k] = placed(content[begin:end], self.lines[line])
        found = self.placed[k]
        if found is not None:
            return line, max(found[0] - found[1] + offset - begin, 0)
        # A table cell's words lost the `\|` of their references, and a tab before a
        # list's line may come back as spaces: the line as written is then found without
        # them.
        again = placed(self.piped(content[begin:end]), self.lines[line])
        if again is not None:
            before = len(self.piped(content[begin:offset]))
            return line, max(again[0] - again[1] + before, 0)
        return line, offset - begin


def placed(words: str, line: str) -> tuple[int, int] | None:
    """The column where `words` (or they without their leading spaces) are written in
    `line`, and how many spaces were left off; None when neither is."""
    bare = words.lstrip(" ")
    for candidate, lead in ((words, 0), (bare, len(words) - len(bare))):
        column = line.rfind(candidate) if candidate else -1
        if column >= 0:
            return column, lead
    return None


def definition_at(token: Token, lines: list[str]) -> tuple[int, str]:
    """The offset, from its first line, and the text of a definition's address."""
    meta: dict[str, Any] = token.meta
    assert token.map is not None
    text = "\n".join(lines[token.map[0]:token.map[1]])
    label = text.find(f"[{meta['label']}]:")
    place = destination(text, label + len(meta["label"]) + 3) if label >= 0 else None
    return place if place is not None else (len(text) - len(text.lstrip()), meta["url"])
