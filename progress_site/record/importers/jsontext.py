"""Where in a tool's JSON text a value the decoder refused was written.

Python's decoder hands its hooks a number's digits or an object's pairs, never their
offset; it calls them in the order the text closes them. So a refusal says which call it
was (the 3rd whole number, the 2nd object closed) and the text, walked again only then,
says where that is: a good file pays a count a hook, nothing more.
"""

from __future__ import annotations

import json
import re

# A string whole (so that nothing inside one counts), a brace, or a number with its
# fraction and exponent: the tokens the hooks are called for, in the text's order.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[{}]|-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?')
_DECODER = json.JSONDecoder()
_SPACE = " \t\n\r"


class Refused(Exception):
    """A hook's refusal: of which call of its kind (`whole`, `fraction`, `object`, from 1)
    and what is wrong; `key`, the key an object holds twice."""

    def __init__(self, kind: str, nth: int, message: str, key: str = "") -> None:
        super().__init__(message)
        self.kind, self.nth, self.message, self.key = kind, nth, message, key


def offset_of(text: str, refused: Refused) -> int:
    """Where the refused value begins in `text`: the number, or the key written again."""
    seen = 0
    opened: list[int] = []
    for token in _TOKENS.finditer(text):
        first = token.group()[0]
        if first == '"':
            continue
        if first == "{":
            opened.append(token.start())
            continue
        if first == "}":
            start = opened.pop() if opened else 0
            seen += refused.kind == "object"
            if seen == refused.nth:
                return second_key(text, start, refused.key)
            continue
        fraction = token.group(1) is not None or token.group(2) is not None
        seen += refused.kind == ("fraction" if fraction else "whole")
        if seen == refused.nth:
            return token.start()
    return 0


def second_key(text: str, start: int, key: str) -> int:
    """Where `key` is written the second time in the object that begins at `start`."""
    pos, found = _skip(text, start + 1), 0
    while pos < len(text) and text[pos] == '"':
        name, end = _DECODER.raw_decode(text, pos)
        if name == key:
            found += 1
            if found == 2:
                return pos
        value = _skip(text, _skip(text, end) + 1)  # past ':'
        pos = _skip(text, _skip(text, _DECODER.raw_decode(text, value)[1]) + 1)  # past ','
    return start


def _skip(text: str, pos: int) -> int:
    """The offset of the next character that is not JSON white space."""
    while pos < len(text) and text[pos] in _SPACE:
        pos += 1
    return pos


def line_and_column(text: str, offset: int) -> tuple[int, int, str]:
    """The line and column (from 1) of an offset in `text`, and that line."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return (text.count("\n", 0, offset) + 1, offset - start + 1,
            text[start:end if end >= 0 else len(text)])
