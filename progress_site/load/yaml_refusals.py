"""What a YAML text is refused for, worded at the place to fix: nesting and aliases past
the limits, PyYAML's syntax errors and the characters its reader refuses."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import yaml

from progress_site.errors import Location, Problem
from progress_site.load.text import located_character

# Aliases can make a small file expand without bound ("billion laughs"): cap the nodes.
MAX_NODES = 5_000_000
# Real data nests a dozen levels; far deeper nesting only crashes parsers (C recursion).
MAX_DEPTH = 64
TOO_DEEP = (f"lists and mappings nested more than {MAX_DEPTH} levels deep",
            "flatten the data: no format here nests that deep")

At = Callable[[Any, str, str], Problem]  # a problem at a node's place: (node, message, hint)
LineOf = Callable[[int], str]  # a line of the text, by its number


def too_big(root: yaml.Node, at: At) -> Problem | None:
    """A document whose aliases expand it past MAX_NODES values or MAX_DEPTH levels,
    or make a value hold itself, refused before any of it is built (no recursion)."""
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    open_: set[int] = set()  # nodes whose children are being measured: the path from root
    while stack:
        node, measured = stack.pop()
        kids = ([n for pair in node.value for n in pair] if isinstance(node, yaml.MappingNode)
                else list(node.value) if isinstance(node, yaml.SequenceNode) else [])
        if measured:
            open_.discard(id(node))
            size[id(node)] = 1 + sum(size[id(k)] for k in kids)
            depth[id(node)] = 1 + max((depth[id(k)] for k in kids), default=0)
            if size[id(node)] > MAX_NODES:
                return at(node, f"this expands to more than {MAX_NODES:,} values "
                               "(anchors and aliases?)",
                               "write the values out instead of repeating an alias")
            if depth[id(node)] > MAX_DEPTH:
                return at(node, f"aliases nest this more than {MAX_DEPTH} levels "
                               "deep", "write the values out instead")
        elif id(node) in open_:
            return at(node, "an anchor holds an alias of itself",
                           "a value cannot contain itself: remove the alias")
        elif id(node) not in size:
            open_.add(id(node))
            stack.append((node, True))
            stack.extend((k, False) for k in kids if id(k) not in size)
    return None


def syntax_error(exc: yaml.MarkedYAMLError, display: str, line_of: LineOf) -> Problem:
    """PyYAML's syntax error, at the place to fix: a `{` or `[` left open is found
    only lines later, where the parser gives up, so the caret goes to the bracket."""
    where = exc.problem_mark or exc.context_mark
    opened = exc.context_mark
    if (opened is not None and where is not None and where.line > opened.line
            and (exc.context or "").startswith("while parsing a flow")):
        line, col = opened.line + 1, opened.column + 1
        bracket = line_of(line)[opened.column:opened.column + 1]
        closing = {"{": "}", "[": "]"}.get(bracket, "")
        return Problem(Location(display, line, col),
                       f"YAML syntax error: this '{bracket}' is not closed ({exc.problem} "
                       f"on line {where.line + 1})", (),
                       f"close it with '{closing}', and quote a text that holds a ',', "
                       "':' or a bracket", line_of(line))
    line, col = (where.line + 1, where.column + 1) if where else (0, 0)
    # PyYAML 6.0.4's scanner has a nesting limit of its own, which it can reach
    # while reading ahead, before the events say how deep they are.
    message, hint = (TOO_DEEP if "nesting depth" in (exc.problem or "") else
                     (f"YAML syntax error: {exc.problem or exc.context}",
                      "check the indentation and the quotes on this line or the "
                      "one above"))
    return Problem(Location(display, line, col), message, (), hint,
                   line_of(line))

def unacceptable(text: str, exc: yaml.reader.ReaderError, display: str, line_of: LineOf
                 ) -> Problem:
    """PyYAML's refusal of a character, at that character's line and column. The
    reader stops at the first character it refuses, so that character's first
    place in the text is where it stopped (libyaml counts bytes, not characters)."""
    ch = chr(exc.character) if isinstance(exc.character, int) else str(exc.character)
    offset = text.find(ch)
    offset = offset if offset >= 0 else min(exc.position, len(text))
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return located_character(ch, display, line, col, line_of(line))
