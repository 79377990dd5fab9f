"""Edit a YAML data file in place, leaving every byte outside the edited entry as it was.

ruamel.yaml reads the file (round-trip mode: positions, comments, flow or block style of
each mapping) and writes the new values; the new text is then spliced into the original
at the edited entry only. Dumping the whole tree instead would rewrite what ruamel does
not reproduce exactly (indentation, some flow sequences), which a reviewer then has to
read past in the diff.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from progress_site.errors import UsageError


class Raw(str):
    """A number written exactly as given (`12.50` keeps its two decimals)."""


class EditError(UsageError):
    """The file cannot be read or edited as asked; nothing was written."""

    exit_code = 1


def _yaml() -> YAML:
    """A round-trip reader and writer in the house style: no line wrapping, 2-space maps."""
    y = YAML()
    y.width = 4096
    y.preserve_quotes = True
    y.indent(mapping=2, sequence=4, offset=2)
    # The same date object in several figures must be written out each time, not aliased.
    y.representer.ignore_aliases = lambda data: True
    y.representer.add_representer(Raw, lambda rep, data: rep.represent_scalar(
        "tag:yaml.org,2002:float" if "." in data else "tag:yaml.org,2002:int", str(data)))
    return y


def dump(value: Any) -> str:
    """A value (a mapping of one key, usually) as YAML text at column 0."""
    out = io.StringIO()
    _yaml().dump(value, out)
    return out.getvalue()


def indent_of(line: str) -> int:
    """How many spaces a line starts with."""
    return len(line) - len(line.lstrip(" "))


def is_filler(line: str) -> bool:
    """A blank line or a comment line: it belongs to no entry."""
    return not line.strip() or line.lstrip().startswith("#")


@dataclass(frozen=True)
class Splice:
    """Replace the text between two offsets of the original."""

    start: int
    end: int
    text: str


class YamlFile:
    """One data file being edited: its original text, its tree, the splices to apply."""

    def __init__(self, path: Path, display: str) -> None:
        self.path = path
        self.display = display
        self.text = path.read_text("utf-8") if path.exists() else ""
        self.lines = self.text.splitlines(keepends=True)
        try:
            tree = _yaml().load(self.text)
        except YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f"{display}:{mark.line + 1}:{mark.column + 1}" if mark else display
            what = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            raise EditError(f"{where}: cannot read it as YAML: {what}; fix it (`python "
                            "build.py` shows the problems), then record again") from exc
        if tree is None:
            tree = CommentedMap()
        if not isinstance(tree, CommentedMap):
            raise EditError(f"{display}: a data file must be a mapping of collections")
        self.tree = tree  # as read: edits go to the text, not to the tree
        self.splices: list[Splice] = []
        self.appended: dict[str, list[CommentedMap]] = {}

    def offset(self, line: int, col: int) -> int:
        """The character offset of a 0-based (line, column)."""
        return sum(len(x) for x in self.lines[:line]) + col

    def line_end(self, line: int) -> int:
        """The offset just before a line's newline."""
        return self.offset(line, len(self.lines[line].rstrip("\r\n")))

    def block_end(self, first: int, column: int, indentless: bool = False) -> int:
        """The last line of what starts on line `first` at `column`: the lines after it
        indented past `column` (and, for a list written under its key without indent,
        its `- ` lines); blank and comment lines after the last of them are not part of it.
        """
        last = first
        for number in range(first + 1, len(self.lines)):
            line = self.lines[number]
            if is_filler(line):
                continue
            inside = indent_of(line) > column or (
                indentless and indent_of(line) == column and line.lstrip().startswith("-"))
            if not inside:
                break
            last = number
        return last

    def flow_end(self, line: int, col: int) -> int:
        """The offset just after the bracket that closes the flow collection at (line, col)."""
        depth, quote, previous = 0, "", "{"
        pos, text = self.offset(line, col), self.text
        while pos < len(text):
            ch = text[pos]
            if quote:
                doubled = ch == quote == "'" and text[pos + 1:pos + 2] == "'"
                if doubled or (ch == "\\" and quote == '"'):  # an escaped character
                    pos += 1
                elif ch == quote:
                    quote = ""
            elif ch in "'\"" and previous in "{[,:":
                quote = ch
            elif ch in "{[":
                depth += 1
            elif ch in "}]":
                depth -= 1
                if depth == 0:
                    return pos + 1
            elif ch == "#" and text[pos - 1] in " \t\n":
                pos = text.find("\n", pos)
                pos = len(text) if pos < 0 else pos
            if not ch.isspace():
                previous = ch
            pos += 1
        raise EditError(f"{self.display}:{line + 1}: an unclosed flow collection")

    def value_span(self, mapping: CommentedMap, key: str) -> tuple[int, int]:
        """The offsets of `key: value` in the text, from the key to the value's end."""
        key_line, key_col = mapping.lc.key(key)
        value_line, value_col = mapping.lc.value(key)
        start = self.offset(key_line, key_col)
        first = self.lines[value_line][value_col:value_col + 1]
        if first in ("{", "["):
            return start, self.flow_end(value_line, value_col)
        if value_line == key_line and first not in ("|", ">"):
            rest = self.lines[key_line].rstrip("\r\n")
            cut = rest.find(" #", value_col)
            return start, self.offset(key_line, len(rest if cut < 0 else rest[:cut].rstrip()))
        indentless = isinstance(mapping[key], CommentedSeq)
        return start, self.line_end(self.block_end(key_line, key_col, indentless))

    def splice_value(self, mapping: CommentedMap, key: str, value: Any) -> Splice:
        """The splice that writes `key: value` in place of the key's current value."""
        start, end = self.value_span(mapping, key)
        column = mapping.lc.key(key)[1]
        lines = dump({key: value}).rstrip("\n").split("\n")
        # ruamel gives the comments after a value to its last key; they stay where they
        # are in the text (outside the span), so they are not written twice.
        while len(lines) > 1 and is_filler(lines[-1]):
            lines.pop()
        text = "\n".join([lines[0], *(" " * column + x if x else x for x in lines[1:])])
        return Splice(start, end, text)

    def set(self, mapping: CommentedMap, key: str, value: Any) -> None:
        """Write `key: value` in place of the key's current value."""
        self.splices.append(self.splice_value(mapping, key, value))

    def append(self, collection: str, item: CommentedMap) -> None:
        """Add an item at the end of a top-level list (made when the file has none)."""
        self.appended.setdefault(collection, []).append(item)

    @property
    def changed(self) -> bool:
        """Whether anything is to be written."""
        return bool(self.splices or self.appended)

    def append_splice(self, collection: str, new: list[CommentedMap]) -> Splice:
        """The splice that adds items after a list's last one, or makes the list."""
        items = self.tree.get(collection)
        if isinstance(items, CommentedSeq) and items and not items.fa.flow_style():
            return self.after_last(items, new)
        if collection in self.tree:  # `name:` with nothing, or a flow list like []
            return self.splice_value(self.tree, collection, CommentedSeq([*(items or []), *new]))
        body = dump({collection: CommentedSeq(new)})
        sep = "" if not self.text or self.text.endswith("\n") else "\n"
        gap = "\n" if self.text.strip() else ""
        return Splice(len(self.text), len(self.text), sep + gap + body)

    def after_last(self, items: CommentedSeq, new: list[CommentedMap]) -> Splice:
        """Items after the last one of a block list, in the same indentation."""
        line, col = items.lc.item(len(items) - 1)
        dash = self.lines[line].rfind("-", 0, col)
        last = self.block_end(line, dash)
        text = ""
        for item in new:
            lines = dump(item).rstrip("\n").split("\n")
            text += (" " * dash + "-" + " " * (col - dash - 1) + lines[0] + "\n"
                     + "".join(" " * col + x + "\n" if x else "\n" for x in lines[1:]))
        end = self.offset(last + 1, 0) if last + 1 < len(self.lines) else len(self.text)
        if end == len(self.text) and not self.text.endswith("\n"):
            text = "\n" + text
        return Splice(end, end, text)

    def result(self) -> str:
        """The original text with every edit applied (the rest byte for byte)."""
        splices = self.splices + [self.append_splice(c, new) for c, new in self.appended.items()]
        text = self.text
        for splice in sorted(splices, key=lambda s: s.start, reverse=True):
            text = text[:splice.start] + splice.text + text[splice.end:]
        return text
