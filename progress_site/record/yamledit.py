"""Edit YAML data files in place, leaving every byte outside the edited entries as it was.

ruamel.yaml reads each file (round-trip mode: positions, comments, flow or block style
of each mapping) and writes the new values; the new text is then spliced into the
original at the edited entry only. Dumping the whole tree instead would rewrite what
ruamel does not reproduce exactly (indentation, some flow sequences), which a reviewer
then has to read past in the diff.

ruamel reads plain scalars as the build does (load.yaml_scalars.plain_tag), not as YAML 1.2
does: `57930e6` is a text to both, `0x1f` and `010` numbers kept as written, so an id
is found where the build finds it, and a text the build would read otherwise is quoted.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.error import YAMLError
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.representer import RoundTripRepresenter
from ruamel.yaml.resolver import VersionedResolver
from ruamel.yaml.tag import Tag

from progress_site.errors import UsageError
from progress_site.load.yaml_scalars import YAML_TAG, plain_tag
from progress_site.record.recorder import Raw
from progress_site.regular import read_regular


class EditError(UsageError):
    """The file cannot be read or edited as asked; nothing was written."""

    exit_code = 1


def _read(path: Path, display: str) -> str:
    """A data file's text, '' for one not written yet; a FIFO or a device among the data
    files is refused, never waited on."""
    try:
        return read_regular(path).decode("utf-8")
    except FileNotFoundError:
        return ""
    except OSError as exc:
        raise EditError(f"{display}: cannot read it: {exc.strerror or exc}; remove it "
                        "(`python build.py` shows the problems), then record again") from exc


def made_tag(tags: dict[str, Tag], name: str) -> Tag:
    """Each tag made once a dump: ruamel decodes a new Tag's name character by character
    when the writer compares it, twice a scalar written."""
    found = tags.get(name)
    if found is None:
        found = tags[name] = Tag(suffix=name)
    return found


class BuildResolver(VersionedResolver):
    """Tags plain scalars as the build's reader does, when a file is read and when a value
    is written (which decides whether it needs quotes)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tags: dict[str, Tag] = {}

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        """The tag of a node: the build's for a plain scalar."""
        if kind is ScalarNode and implicit[0]:
            return made_tag(self.tags, plain_tag(value))
        return super().resolve(kind, value, implicit)


class WrittenConstructor(RoundTripConstructor):
    """Reads numbers as written (`Raw`), as the build keeps a number given for a text:
    an id `0x1f` is '0x1f', and a number copied into an edit is written back unchanged."""

    def construct_written(self, node: Any) -> Raw:
        """A number's written form."""
        return Raw(node.value)


class WrittenRepresenter(RoundTripRepresenter):
    """Writes a `Raw` number as it was given, unquoted when the build reads it so."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tags: dict[str, Tag] = {}

    def represent_scalar(self, tag: Any, value: Any, style: Any = None,
                         anchor: Any = None) -> Any:
        """A scalar's node, its tag made once a dump."""
        if isinstance(tag, str):
            tag = made_tag(self.tags, tag)
        return super().represent_scalar(tag, value, style, anchor)

    def represent_raw(self, data: Raw) -> Any:
        """A number, plain."""
        return self.represent_scalar(plain_tag(data), str(data))

    def ignore_aliases(self, data: Any) -> bool:
        """Write a value every time it appears (the same date in several figures), never
        as an alias, which the build would read but a reader of the file would not."""
        return True


for _tag in ("int", "float"):
    WrittenConstructor.add_constructor(YAML_TAG + _tag, WrittenConstructor.construct_written)
WrittenRepresenter.add_representer(Raw, WrittenRepresenter.represent_raw)


# Where a top-level list's item starts, as `_yaml` writes it (its dash at 2, the key at 4).
ITEM = "  - "
# Line breaks of YAML 1.1 that ruamel's writer indents after inside a quoted scalar, by
# the column it writes at (as it folds a line at WIDTH): an item dumped inside a list
# would not be byte for byte the same.
WIDTH = 4096
OTHER_BREAKS = ("\u2028", "\u2029", "\x85")


def _yaml() -> YAML:
    """A round-trip reader and writer in the house style: no line wrapping, 2-space maps."""
    y = YAML()
    y.Resolver = BuildResolver
    y.Constructor = WrittenConstructor
    y.Representer = WrittenRepresenter
    y.width = WIDTH
    y.preserve_quotes = True
    y.indent(mapping=2, sequence=4, offset=2)
    return y


def dump(value: Any) -> str:
    """A value (a mapping of one key, usually) as YAML text at column 0."""
    out = io.StringIO()
    _yaml().dump(value, out)
    return out.getvalue()


def items_at(items: list[CommentedMap], dash: int, col: int) -> str:
    """Items of a block list whose dashes are at column `dash` and keys at `col`."""
    first = " " * dash + "-" + " " * (col - dash - 1)
    # All of them in one dump, as a list whose items' keys start at ITEM, each line moved
    # over to the list's columns: a dump an item was most of an import of 8,000 series.
    whole = dump(CommentedSeq(items))
    if not any(c in whole for c in OTHER_BREAKS) and \
            max(map(len, whole.split("\n"))) < WIDTH // 2:
        return "".join(first + x[len(ITEM):] + "\n" if x.startswith(ITEM) else
                       " " * col + x[len(ITEM):] + "\n" if x else "\n"
                       for x in whole.rstrip("\n").split("\n"))
    out = ""
    # The writer folds a long line, and indents after these breaks, by its column: each
    # item at column 0, as before.
    for item in items:
        lines = dump(item).rstrip("\n").split("\n")
        out += (first + lines[0] + "\n"
                + "".join(" " * col + x + "\n" if x else "\n" for x in lines[1:]))
    return out


def flow(mapping: CommentedMap) -> CommentedMap:
    """A mapping to write on one line (`{value: 12, unit: ms}`)."""
    mapping.fa.set_flow_style()
    return mapping


def is_flow(value: Any) -> bool:
    """Whether a value as read is a mapping written on one line."""
    return isinstance(value, CommentedMap) and bool(value.fa.flow_style())


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

    def __init__(self, path: Path, display: str, records_ok: bool = False) -> None:
        self.path = path
        self.display = display
        self.text = _read(path, display)
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
        # A YAML list is a dataset's records (the build checks that one claims it): it
        # holds no collection to edit.
        self.records = records_ok and isinstance(tree, CommentedSeq)
        if self.records:
            tree = CommentedMap()
        if not isinstance(tree, CommentedMap):
            raise EditError(f"{display}: a data file must be a mapping of collections "
                            "(a YAML list is a dataset's records: name another file)")
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

    def remove(self, mapping: CommentedMap, key: str) -> None:
        """Take `key: value` out with its lines; the key must start its line."""
        key_line, key_col = mapping.lc.key(key)
        if self.lines[key_line][:key_col].strip():
            raise EditError(f"{self.display}:{key_line + 1}: cannot take `{key}` out: it "
                            "shares its line; put it on a line of its own, then again")
        end = self.value_span(mapping, key)[1]
        newline = self.text.find("\n", end)
        end = len(self.text) if newline < 0 else newline + 1
        self.splices.append(Splice(self.offset(key_line, 0), end, ""))

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
        text = items_at(new, dash, col)
        end = self.offset(last + 1, 0) if last + 1 < len(self.lines) else len(self.text)
        if end == len(self.text) and not self.text.endswith("\n"):
            text = "\n" + text
        return Splice(end, end, text)

    def result(self) -> str:
        """The original text with every edit applied (the rest byte for byte)."""
        splices = self.splices + [self.append_splice(c, new) for c, new in self.appended.items()]
        text = self.text
        crlf = "\r\n" in self.text  # new lines end as the file's do
        for splice in sorted(splices, key=lambda s: s.start, reverse=True):
            new = splice.text.replace("\r\n", "\n").replace("\n", "\r\n") if crlf \
                else splice.text
            text = text[:splice.start] + new + text[splice.end:]
        return text

