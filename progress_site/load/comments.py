"""Texts a ` #` cut short: YAML starts a comment at a `#` after a blank, so
`title: Issue #42 fixed` reads as `Issue`, without a word. A plain text followed on its
line by ` #` and a word (not `# a comment`, spaced as comments are) is refused, at the `#`.
"""

from __future__ import annotations

import re

import yaml

from progress_site.errors import KeyPath, Location, Problem
from progress_site.load.document import Document
from progress_site.load.yaml_scalars import STR_TAG, Loader, plain_tag

# A comment glued to the word after it, right after a word: what a cut text looks like.
GLUED = re.compile(r"[^\s#] #[^\s#]")
# The same without the word before, which `glued` checks: a pattern that starts with a
# literal is scanned for much faster than one that starts with a set (a large data
# file is read once more for it).
COMMENT_GLUED = re.compile(r" #[^\s#]")


def glued(text: str) -> bool:
    """Whether `GLUED` is found in `text`."""
    for found in COMMENT_GLUED.finditer(text):
        before = text[found.start() - 1] if found.start() else " "
        if not before.isspace() and before != "#":  # `\s` is what isspace() says
            return True
    return False


def cut_texts(text: str, doc: Document) -> list[Problem]:
    """Every plain text of a parsed document that a ` #word` cut short."""
    if not glued(text):  # most files: no second parse
        return []
    doc.every_position()
    paths: dict[tuple[int, int], KeyPath] = {pos: path for path, pos in doc.values.items()}
    found = []
    for event in yaml.parse(text, Loader=Loader):
        begin, end = event.start_mark, event.end_mark
        if (not isinstance(event, yaml.ScalarEvent) or not event.implicit[0] or event.style
                or begin is None or end is None or plain_tag(event.value) != STR_TAG):
            continue
        line = doc.line(end.line + 1)
        if not GLUED.match(line, max(end.column - 1, 0)):
            continue
        rest = line[end.column + 1:].strip()
        found.append(Problem(
            Location(doc.display, end.line + 1, end.column + 2),
            f"this text was cut at ' #': YAML reads '{rest}' as a comment",
            paths.get((begin.line + 1, begin.column + 1), ()),
            f"put the text in quotes to keep the '#': \"{event.value} {rest}\"; a comment "
            "is written ' # ...'", line))
    return found
