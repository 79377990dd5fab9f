"""XML written as ElementTree writes it, indented, without loading ElementTree.

Every build writes the Atom feeds, and loading xml.etree costs a cold build about 8 ms
for what is a few nested elements with text. This writes the same bytes as
`ET.indent(root); ET.tostring(root, encoding="utf-8", xml_declaration=True)` for a tree
of elements that hold either text or elements (tests/test_xmlwrite.py compares them).
Names are written as given: the root declares its namespace itself (`xmlns=...`).
"""

from __future__ import annotations

DECLARATION = "<?xml version='1.0' encoding='utf-8'?>\n"
INDENT = "  "


def escape_text(text: str) -> str:
    """Text between tags, escaped as ElementTree escapes it."""
    if "&" in text or "<" in text or ">" in text:  # most texts have none: no copies
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text


def escape_attribute(text: str) -> str:
    """An attribute's value, escaped as ElementTree escapes it."""
    return (escape_text(text).replace('"', "&quot;").replace("\r", "&#13;")
            .replace("\n", "&#10;").replace("\t", "&#09;"))


class Element:
    """An element with attributes, and text or child elements (never both)."""

    def __init__(self, tag: str, attributes: dict[str, str] | None = None,
                 text: str | None = None) -> None:
        self.tag = tag
        self.attributes = attributes or {}
        self.text = text
        self.children: list[Element] = []

    def add(self, tag: str, text: str | None = None, **attributes: str) -> Element:
        """A new child element, returned."""
        child = Element(tag, attributes, text)
        self.children.append(child)
        return child

    def write(self, out: list[str], depth: int = 0) -> None:
        """Append the element's XML, its children indented one level deeper."""
        start = self.tag
        if self.attributes:
            start += "".join([f' {name}="{escape_attribute(value)}"'
                              for name, value in self.attributes.items()])
        if self.children:
            out.append(f"<{start}>")
            inner = "\n" + INDENT * (depth + 1)
            for child in self.children:
                out.append(inner)
                child.write(out, depth + 1)
            out.append(f"\n{INDENT * depth}</{self.tag}>")
        elif self.text:
            out.append(f"<{start}>{escape_text(self.text)}</{self.tag}>")
        else:
            out.append(f"<{start} />")

    def document(self) -> bytes:
        """The whole document: the declaration, then this element as the root."""
        out = [DECLARATION]
        self.write(out)
        return "".join(out).encode("utf-8")
