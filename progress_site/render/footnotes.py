"""Footnotes (`[^1]` and `[^1]: ...`), which a page's Markdown does not make: told where
they are written, rather than printed as they were typed without a word.

Hugo and MkDocs (with its extension) make them; here a page is rendered in pieces
between its blocks, so a note and its mark may lie in two pieces, and neither the
parser nor the ids of the page could join them.
"""

from __future__ import annotations

import bisect
import re

from markdown_it.token import Token

from progress_site.errors import Problem
from progress_site.load.pages import Page
from progress_site.render.located import located
from progress_site.render.markdown import page_tokens

# A mark `[^label]`, and a note `[^label]:` (the colon tells them apart). A label holds
# no `[`, as in Markdown's own labels: a search from each `[^` of `[^[^[^...` to the
# page's end for a `]` took minutes on a page of 140 KB.
FOOTNOTE = re.compile(r"\[\^([^\[\]\s]+)\](:?)")
# A note where a link definition may stand: at a line's start, after three spaces at most.
NOTE = re.compile(r" {0,3}(\[\^[^\[\]\s]+\]):")
BACKTICKS = re.compile("`+")
LINE = re.compile(".+")
HINT = ("footnotes are not made here: put the note in parentheses where it belongs, or "
        "under a heading at the end of the page, with a link to it (see docs/data-format.md)")


def footnote_problems(text: str, page: Page, start: int, strict: bool) -> list[Problem]:
    """A warning (an error when `strict`) at each footnote mark and note of a Markdown
    chunk at offset `start` of the page's body; none for those in code, which stay
    words."""
    if "[^" not in text:
        return []
    tokens = page_tokens(text, page)
    inlines = [c for t in tokens if t.type == "inline" for c in t.children or ()]
    prose = "\n".join(c.content for c in inlines if c.type == "text")
    # The marks of the words, looked up rather than each searched for in all of them (a
    # page of 60,000 marks took minutes); a note `[^a]:` of the words holds a mark `[^a]`.
    words = {m.group(0) for m in FOOTNOTE.finditer(prose)}
    words |= {w.removesuffix(":") for w in words}
    defined = definitions(text, tokens) - {w.casefold() for w in words}
    spans = code_spans(text) if defined else []
    linked = {f"[{c.content}]" for i, c in enumerate(inlines[1:-1], 1) if c.type == "text"
              and inlines[i - 1].type == "link_open" and inlines[i + 1].type == "link_close"}
    problems = []
    for match in FOOTNOTE.finditer(text):
        said = told(match, words, defined, linked, text, spans)
        if said:
            what = "footnote" if match.group(2) else "footnote mark"
            problems.append(located(page, start + match.start(), f"{what} "
                                    f"'{match.group(0)}' {said}", HINT, warning=not strict))
    return problems


def told(match: re.Match[str], words: set[str], defined: set[str], linked: set[str],
         text: str, spans: list[tuple[int, int]]) -> str:
    """What a footnote's mark or note becomes on the page, when it is no code: words, or
    (a note that is a link definition) a link; '' for code."""
    mark = match.group(0).removesuffix(":")
    if match.group(0) in words:
        return "is printed as it is written"
    if mark.casefold() not in defined:
        return ""
    if not match.group(2):
        return ("is printed as a link to the address its note gives"
                if mark in linked and not within(spans, match.start()) else "")
    line = text.rfind("\n", 0, match.start()) + 1
    return ("is read as a link definition: the note is not printed, and each of its "
            "marks is a link to the address after it"
            if match.start() - line <= 3 and not text[line:match.start()].strip(" ") else "")


def definitions(text: str, tokens: tuple[Token, ...]) -> set[str]:
    """The marks (`[^a]`, case folded) of the notes `[^a]: address` that Markdown read as
    link definitions, outside code: a note of one word (`[^1]: note`) is one, and turns
    each of its marks into a link to that word as a relative address."""
    code = {line for t in tokens if t.map and t.type in ("fence", "code_block")
            for line in range(*t.map)}
    found = set()
    for number, line in enumerate(text.split("\n")):
        match = NOTE.match(line)
        if match and number not in code:
            found.add(match.group(1).casefold())
    return found



def code_spans(text: str) -> list[tuple[int, int]]:
    """The code spans of `text`'s lines (`` `[^1]` ``), as CommonMark reads one: a run of
    backticks up to the next run of the same length on its line; found in one pass (a
    search from each run for its closing one is quadratic on a line of lone backticks)."""
    spans = []
    for line in LINE.finditer(text):
        runs = [(m.start(), m.end()) for m in BACKTICKS.finditer(text, *line.span())]
        following: dict[int, int] = {}
        closing = [-1] * len(runs)
        for i in range(len(runs) - 1, -1, -1):
            size = runs[i][1] - runs[i][0]
            closing[i] = following.get(size, -1)
            following[size] = i
        i = 0
        while i < len(runs):
            if closing[i] < 0:
                i += 1
                continue
            spans.append((runs[i][0], runs[closing[i]][1]))
            i = closing[i] + 1
    return spans


def within(spans: list[tuple[int, int]], at: int) -> bool:
    """Whether offset `at` lies inside one of `spans` (sorted, apart)."""
    i = bisect.bisect_left(spans, (at, -1)) - 1  # the last span starting before `at`
    return i >= 0 and spans[i][0] < at < spans[i][1]
