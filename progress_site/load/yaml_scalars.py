"""How the build reads a YAML scalar: the tags it accepts, the one `Resolver` of plain
scalars (which record/yamledit asks too, through `plain_tag`, so that what the build reads
as a text is what the editor writes), and `Reader`, which turns a scalar node into its
value or a located problem, never constructing a tag it does not know."""

from __future__ import annotations

import re
from typing import Any

import yaml

from progress_site.characters import first_forbidden
from progress_site.errors import KeyPath, Location, Problem
from progress_site.load.document import Document
from progress_site.model.limits import MAX_INT_BITS

YAML_TAG = "tag:yaml.org,2002:"
STR_TAG = YAML_TAG + "str"
BOOL_TAG = YAML_TAG + "bool"
# The tags of plain values, which the one-pass reader builds; `<<` merge keys and any
# other tag are the composed path's, which refuses every tag but these and `merge`.
SCALAR_TAGS = frozenset(YAML_TAG + n for n in ("str", "int", "float", "bool", "null",
                                                "timestamp"))
PLAIN_TAGS = SCALAR_TAGS | {YAML_TAG + n for n in ("map", "seq", "merge")}


class Resolver(yaml.resolver.BaseResolver):
    """How a plain scalar reads: YAML 1.1's numbers, dates and nulls, and YAML 1.2's
    booleans only (`no`, `on` and `yes` stay words: `fr: non` is not false)."""


Resolver.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != BOOL_TAG]
    for first, resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.items()}
Resolver.add_implicit_resolver(
    BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
_READING: Any = Resolver()  # PyYAML types `resolve` loosely


_BaseLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Loader(_BaseLoader):  # type: ignore[misc]
    """libyaml's parser, reading plain scalars as `Resolver` does."""

    yaml_implicit_resolvers = Resolver.yaml_implicit_resolvers


def plain_tag(text: str) -> str:
    """The tag the build gives `text` written unquoted: `57930e6` is a text, `0x1f` an int."""
    return str(_READING.resolve(yaml.ScalarNode, text, (True, False)))


def mark(node: Any) -> tuple[int, int]:
    """A node's or an event's 1-based line and column."""
    return node.start_mark.line + 1, node.start_mark.column + 1


class Reader:
    """Reads one document's scalars into values, collecting its problems."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.problems: list[Problem] = []
        self.count = 0
        # Its own constructor: PyYAML's remembers every node it built (a shared one kept
        # each file's nodes alive for the whole process).
        self.constructor = yaml.constructor.SafeConstructor()

    def read(self, node: yaml.Node, path: KeyPath) -> Any:
        """A scalar's value; tags we do not know are refused, never constructed."""
        try:
            value = self.constructor.construct_object(node)
            if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
                raise ValueError  # `0xfff...`: read, but too long for Python to write out
            wrong = first_forbidden(value) if isinstance(value, str) else ""
            if wrong:  # reported here; the value is kept so that no other error follows
                self.report(node, path, f"this text holds {wrong}, which no page should show",
                            "remove the escape (\\e, \\x.., \\u....) from the text")
            return value
        except yaml.YAMLError as exc:
            self.report(node, path, f"cannot read this value: {exc}")
        except (ValueError, OverflowError):  # 2026-02-30; an int of 5,000 digits
            kind = node.tag.rsplit(":", 1)[-1]
            if kind == "timestamp":
                self.report(node, path, f"{node.value} is not a day of the calendar",
                            "write a real date")
            elif kind == "int":
                self.report(node, path, f"a whole number of {len(node.value):,} characters "
                            "is too long to read", "check the number of digits")
                return 0  # a stand-in: the build stops at this error
            else:
                self.report(node, path, "cannot read this value", "quote it to keep it a text")
        return None

    def report(self, node: Any, path: KeyPath, message: str, hint: str = "") -> None:
        """A problem at a node (a key's own place, not its mapping's)."""
        self.problems.append(self.at(node, message, hint, path))

    def at(self, node: Any, message: str, hint: str, path: KeyPath = ()) -> Problem:
        """A problem at a node's or a parser mark's place."""
        line, col = mark(node)
        return Problem(Location(self.doc.display, line, col), message, path, hint,
                       self.doc.line(line))
