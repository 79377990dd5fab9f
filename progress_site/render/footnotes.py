"""Footnotes (`[^1]` and `[^1]: ...`), which a page's Markdown does not make: told where
they are written, rather than printed as they were typed without a word.

Hugo and MkDocs (with its extension) make them; here a page is rendered in pieces
between its blocks, so a note and its mark may lie in two pieces, and neither the
parser nor the ids of the page could join them.
"""

from __future__ import annotations

import re

from progress_site.errors import Problem
from progress_site.load.pages import Page
from progress_site.render.located import located
from progress_site.render.markdown import page_tokens

# A mark `[^label]`, and a note `[^label]:` (the colon tells them apart). A label holds
# no `[`, as in Markdown's own labels: a search from each `[^` of `[^[^[^...` to the
# page's end for a `]` took minutes on a page of 140 KB.
FOOTNOTE = re.compile(r"\[\^([^\[\]\s]+)\](:?)")
HINT = ("footnotes are not made here: put the note in parentheses where it belongs, or "
        "under a heading at the end of the page, with a link to it (see docs/data-format.md)")


def footnote_problems(text: str, page: Page, start: int, strict: bool) -> list[Problem]:
    """A warning (an error when `strict`) at each footnote mark and note of a Markdown
    chunk at offset `start` of the page's body; none for those in code, which stay
    words."""
    if "[^" not in text:
        return []
    prose = "\n".join(c.content for t in page_tokens(text, page) if t.type == "inline"
                      for c in t.children or () if c.type == "text")
    # The marks of the words, looked up rather than each searched for in all of them (a
    # page of 60,000 marks took minutes); a note `[^a]:` of the words holds a mark `[^a]`.
    words = {m.group(0) for m in FOOTNOTE.finditer(prose)}
    words |= {w.removesuffix(":") for w in words}
    problems = []
    for match in FOOTNOTE.finditer(text):
        if match.group(0) not in words:
            continue
        what = "footnote" if match.group(2) else "footnote mark"
        problems.append(located(page, start + match.start(), f"{what} '{match.group(0)}' "
                                "is printed as it is written", HINT, warning=not strict))
    return problems
