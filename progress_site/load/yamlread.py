"""How libyaml's output becomes values: the loader (YAML 1.2 booleans) and the reading
of one scalar, shared by the one-pass event reader and the composed-node reader.

Only a parse loads this module, and PyYAML with it: a build whose data files are all in
the parse cache (parsecache) reads none.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from progress_site.errors import KeyPath, Location, Problem
from progress_site.load.yamldoc import BIDI_CONTROLS, BOOL_TAG, Document

_BaseLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Loader(_BaseLoader):  # type: ignore[misc]
    """YAML 1.2 booleans only: `no`, `on` and `yes` stay words (`fr: non` is not false)."""


Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != BOOL_TAG]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
Loader.add_implicit_resolver(
    BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)

# What a value must not hold: controls, direction overrides, lone surrogates. Compiled
# here, where only a parse pays for it (0.5 ms), not by every build that reads yamldoc.
_UNWANTED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
                       "\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def unwanted(text: str) -> str:
    """The first character a value must not hold, named; '' when there is none.

    A file holding one raw is refused by libyaml or read_text; only an escape in double
    quotes ("\\e", "\\u202e") puts one in a value."""
    found = _UNWANTED.search(text)
    if found is None:
        return ""
    ch = found.group()
    what = ("a direction override" if ch in BIDI_CONTROLS else
            "half of a character" if "\ud800" <= ch <= "\udfff" else "a control character")
    return f"U+{ord(ch):04X} ({what})"


def mark(node: yaml.Node) -> tuple[int, int]:
    """A node's 1-based line and column."""
    return node.start_mark.line + 1, node.start_mark.column + 1


class ScalarReader:
    """Reads scalar nodes into values for one document, collecting its problems."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.problems: list[Problem] = []
        # Its own constructor: PyYAML's remembers every node it built (a shared one kept
        # each file's nodes alive for the whole process).
        self.constructor = yaml.constructor.SafeConstructor()

    def read(self, node: yaml.Node, path: KeyPath) -> Any:
        """A scalar's value; tags we do not know are refused, never constructed."""
        try:
            value = self.constructor.construct_object(node)
            wrong = unwanted(value) if isinstance(value, str) else ""
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

    def report(self, node: yaml.Node, path: KeyPath, message: str, hint: str = "") -> None:
        """A problem at a node (a key's own place, not its mapping's)."""
        line, col = mark(node)
        self.problems.append(Problem(Location(self.doc.display, line, col), message, path,
                                     hint, self.doc.line(line)))
