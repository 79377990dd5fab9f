"""Heading ids (`## Title {#id}`) that the attribute syntax refuses: told where they are
written, rather than printed after the heading's words without a word."""

from __future__ import annotations

import re

from progress_site.errors import Problem
from progress_site.load.pages import Page
from progress_site.load.text import LineIndex
from progress_site.render.located import located
from progress_site.render.markdown import page_tokens, slugify

# What is left of a `{#...}` at a heading's end once the ids the syntax takes are taken
# (render/markdown.EXPLICIT_ID): one that starts with no letter, or holds other signs.
REFUSED = re.compile(r"\{#[^{}\n]*\}[ \t]*$")
ALLOWED = "an id starts with a letter (A to Z), then letters, digits, '-' and '_'"


def heading_id_problems(text: str, page: Page, start: int, strict: bool) -> list[Problem]:
    """A warning (an error when `strict`) at each refused `{#id}` ending a heading of a
    Markdown chunk at offset `start` of the page's body."""
    if "{#" not in text:
        return []
    tokens = page_tokens(text, page)
    lines = LineIndex(text)
    problems = []
    for i, token in enumerate(tokens):
        match = REFUSED.search(tokens[i + 1].content) if token.type == "heading_open" \
            else None
        if match is None or token.map is None:
            continue
        first = lines.start(token.map[0])
        written = match.group(0).rstrip()
        at = text.rfind(written, first, lines.start(token.map[1]))
        problems.append(located(page, start + max(at, first), f"heading id "
                                f"'{written}' is printed as words: {ALLOWED}",
                                f"write {{#{suggested(written[2:-1])}}}, or leave it out: "
                                "the heading's words make one", warning=not strict))
    return problems


def suggested(refused: str) -> str:
    """An id the syntax takes, made from a refused one's words."""
    slug = slugify(refused)
    return slug if slug[0].isascii() and slug[0].isalpha() else f"part-{slug}"
