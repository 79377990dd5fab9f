"""A tool's file read: its text (UTF-8, within MAX_BYTES, past a BOM), and its JSON within
the data's limits, by `load.jsonfiles.parse_json` (the one JSON reader with limits): every
refusal located in the file, and a format's shape checked before its values are read.

Python's decoder hands its hooks a number's digits or an object's pairs, never their
offset; it calls them in the order the text closes them. So a refusal says which call it
was (the 3rd whole number, the 2nd object closed) and the text, walked again only then,
says where that is (`offset_of`): a good file pays a count a hook, nothing more.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

from progress_site.errors import shorten, visible
from progress_site.load.jsonfiles import TooDeep, parse_json
from progress_site.load.text import MAX_BYTES, UTF16_BOMS, LineIndex, not_utf8
from progress_site.load.yaml_refusals import MAX_DEPTH
from progress_site.model.limits import MAX_DIGITS
from progress_site.record.importers.base import ImportFailed, fail, quoted, underflows
from progress_site.record.importers.places import ToolFile
from progress_site.record.importers.shape import DECODER, Format, after, problem_at, skip
from progress_site.regular import read_regular

# A string whole (so that nothing inside one counts), a brace, or a number with its
# fraction and exponent: the tokens the hooks are called for, in the text's order.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[{}]|-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?')


class Refused(Exception):
    """A hook's refusal: of which call of its kind (`whole`, `fraction`, `object`, from 1)
    and what is wrong; `key`, the key an object holds twice."""

    def __init__(self, kind: str, nth: int, message: str, key: str = "") -> None:
        super().__init__(message)
        self.kind, self.nth, self.message, self.key = kind, nth, message, key


def loads(text: str, display: str, line: int = 0, parse_float: Any = float,
          shown: str = "") -> Any:
    """A tool's JSON, read by `load.jsonfiles.parse_json` within its limits: located errors
    for what is not JSON, nests too deep, writes a whole number too long to read or a
    number too close to 0, or a key twice. `line`: the file's line `text` is (a JSON
    line), else `text` is the whole file, or `shown` is, and `text` the same with what
    is not JSON blanked."""
    calls = {"whole": 0, "fraction": 0, "object": 0}

    def whole(digits: str) -> int:
        calls["whole"] += 1
        if len(digits.lstrip("-")) > MAX_DIGITS:
            raise Refused("whole", calls["whole"], f"a whole number of "
                          f"{len(digits.lstrip('-'))} digits is too large")
        return int(digits)

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        # json keeps the last of a key written twice, quietly: which one the tool meant
        # is not ours to guess.
        calls["object"] += 1
        out: dict[str, Any] = {}
        for key, value in items:
            if key in out:
                raise Refused("object", calls["object"], f"key {quoted(visible(key))} "
                              "appears twice in one object", key)
            out[key] = value
        return out

    def fraction(digits: str) -> Any:
        # A number too close to 0 for a float is read as 0 by json, quietly: 1e-999 s is
        # not a time of 0; one too far from 0 for a Decimal to compute with is no time.
        calls["fraction"] += 1
        value = Decimal(digits)
        if underflows(value) or abs(value.adjusted()) > 9999:
            raise Refused("fraction", calls["fraction"], f"the number {shorten(digits, 40)} "
                          f"is too {'close to 0' if underflows(value) else 'large'} to read")
        return parse_float(digits)

    try:
        return parse_json(text, json.JSONDecoder(parse_float=fraction, parse_int=whole,
                                                 object_pairs_hook=pairs))
    except json.JSONDecodeError as exc:
        raise fail_at(display, f"not JSON: {exc.msg}", "give the file exactly as the tool "
                      "wrote it", shown or text, exc.pos, line) from None
    except Refused as exc:
        hint = ("give the file exactly as the tool wrote it" if exc.kind == "object"
                else "check what wrote the file")
        raise fail_at(display, exc.message, hint, shown or text, offset_of(text, exc),
                      line) from None
    except TooDeep as exc:
        raise fail_at(display, f"lists and objects nested more than {MAX_DEPTH} levels",
                      "give the file exactly as the tool wrote it", shown or text,
                      exc.offset, line) from None


def fail_at(display: str, message: str, hint: str, text: str, offset: int, line: int = 0
            ) -> ImportFailed:
    """An import error at an offset of a JSON text: the whole file's, or one line's."""
    if line:
        return fail(display, message, hint, line, offset + 1, text)
    return ImportFailed([problem_at(LineIndex(text), text, offset, display, message, hint)])


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
    pos, found = skip(text, start + 1), 0
    while pos < len(text) and text[pos] == '"':
        if DECODER.raw_decode(text, pos)[0] == key:
            found += 1
            if found == 2:
                return pos
        pos = after(text, after(text, pos))  # past the key, then past its value
    return start


def within(path: Path, folder: Path, display: str) -> Path:
    """`path`, a file of a tool's `folder`, unless it is a symbolic link or lies under
    one: such a folder is often committed, and a link a pull request adds
    (`estimates.json -> /proc/self/environ`) was read, its first line printed under the
    error in a CI log anyone reads. Only the FILE typed may be a link."""
    if path.is_symlink() or not path.resolve().is_relative_to(folder.resolve()):
        raise fail(display, "this file is a symbolic link (or lies under one), which "
                   "import does not follow in a tool's folder", "give the files as the "
                   "tool wrote them: run it again, or copy the file in place of the link")
    return path


def read_text(path: Path, display: str) -> str:
    """A tool's file as text, past a BOM (Windows' shells and editors write one); one that
    cannot be read, or is not UTF-8, is a located error."""
    try:
        data = read_regular(path, MAX_BYTES)
    except OSError as exc:  # a FIFO is refused, not waited on; a file over the limit too
        raise fail(display, f"cannot read the file: {exc.strerror or exc}") from exc
    if data.startswith(UTF16_BOMS):  # what PowerShell's `>` writes
        raise fail(display, "the file is UTF-16, not UTF-8",
                   "save it as UTF-8 (in PowerShell: `| Out-File -Encoding utf8`)")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise ImportFailed([not_utf8(data, exc.start, display, "give the file exactly as "
                                     "the tool wrote it, saved as UTF-8")]) from None


def read_located(path: Path, display: str, fmt: Format | None = None
                 ) -> tuple[Any, ToolFile]:
    """A tool's file as one JSON document, within the limits, and the file it was read from
    (to place a value in it); with a format, refused unless it has the format's shape,
    every mistake of structure located at once."""
    text = read_text(path, display)
    doc = loads(text, display)
    if fmt is not None:
        if not fmt.is_of(doc):
            raise fail(display, fmt.not_it, fmt.hint)
        problems = fmt.problems(doc, text, display)
        if problems:
            raise ImportFailed(problems)
    return doc, ToolFile(display, text)
