"""A content page's blocks: `{{< name arg key=value >}}` lines, read into `Block`s, and
found by a block rule of markdown-it (`site_block`), so that only a line at the top of a
page's tree is one: never in code, a quote, a list or a paragraph."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from markdown_it.rules_block import StateBlock

BLOCK = re.compile(r"^\{\{<\s*([a-z][a-z0-9-]*)(.*?)>\}\}\s*$")


@dataclass(frozen=True, slots=True)
class Block:
    """A `{{< name arg key=value >}}` line of a content page."""

    name: str
    args: tuple[str, ...]
    options: tuple[tuple[str, str], ...]
    line: int


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


def site_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """A `{{< name ... >}}` line at the top of a page's tree, as one `site_block` token:
    never in code (fenced or indented), a quote, a list or a paragraph (whose lines may
    be inline code or words that only look like a block)."""
    if state.level > 0 or state.is_code_block(start):
        return False
    line = state.src[state.bMarks[start] + state.tShift[start]:state.eMarks[start]]
    block = parse_block(line, start)
    if block is None:
        return False
    if not silent:
        token = state.push("site_block", "", 0)
        token.map = [start, start + 1]
        token.meta = {"block": block}
        token.content = line
        state.line = start + 1
    return True
