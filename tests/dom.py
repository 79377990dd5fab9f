"""A small DOM built with the standard library's HTML parser, for checks of built pages."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

# A number and what goes with it, parted by a space a line may break at: `n = 10`,
# `p < 0.0001`, `± 2.8`, `2.46 times`, `p99 65`, `mean 9`, `30 days`. The page binds each
# pair with a no-break space, so `(n =` never ends a line above its number.
BREAKABLE = re.compile(r"\S [=<±]|[=<±] \S|\d (?:times|fois|days|jours)\b"
                       r"|\bp\d+(?:[.,]\d+)? \d|\b(?:mean|moyenne|noise|bruit) \d")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


@dataclass
class Node:
    """An element: its tag, attributes, children (elements and text) and parent."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)
    parent: Node | None = field(default=None, repr=False)

    def text(self) -> str:
        """All the text inside, with runs of white space folded to one space."""
        parts: list[str] = []
        for child in self.children:
            parts.append(child if isinstance(child, str) else child.text())
        # Fold only ASCII white space: no-break spaces are part of what is checked.
        return re.sub(r"[ \t\n\r\f]+", " ", "".join(parts)).strip()

    def iter(self) -> list[Node]:
        """This element and every element inside it, in document order."""
        out = [self]
        for child in self.children:
            if isinstance(child, Node):
                out += child.iter()
        return out

    def find_all(self, tag: str | None = None, *, class_: str | None = None,
                 id: str | None = None, **attrs: str) -> list[Node]:
        """Elements matching a tag, a class, an id and attribute values."""
        found = []
        for node in self.iter():
            if tag and node.tag != tag:
                continue
            if class_ and class_ not in node.attrs.get("class", "").split():
                continue
            if id and node.attrs.get("id") != id:
                continue
            if any(node.attrs.get(k.rstrip("_")) != v for k, v in attrs.items()):
                continue
            found.append(node)
        return found

    def find(self, tag: str | None = None, **kwargs: str) -> Node:
        """The one element matching; fails the test when there is none."""
        found = self.find_all(tag, **kwargs)
        assert found, f"no <{tag or '*'}> matching {kwargs}"
        return found[0]


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document")
        self.current = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, parent=self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data: str) -> None:
        self.current.children.append(data)


def parse(html: str | bytes) -> Node:
    """The document tree of an HTML page."""
    builder = _Builder()
    builder.feed(html.decode("utf-8") if isinstance(html, bytes) else html)
    builder.close()
    return builder.root


def breakable(nodes: list[Node]) -> list[str]:
    """Each number parted from its label or unit by a breakable space, in these
    elements' text (see BREAKABLE), with the text it is in."""
    return [f"{m.group()!r} in {node.text()!r}" for node in nodes
            for m in BREAKABLE.finditer(node.text())]
