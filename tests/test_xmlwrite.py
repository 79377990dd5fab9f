"""The feeds' XML writer writes what ElementTree writes, byte for byte."""

from __future__ import annotations

from xml.etree import ElementTree as ET

import pytest

from progress_site.publish.xmlwrite import Element

NS = "http://www.w3.org/2005/Atom"
TEXTS = ["plain", "", "a & b < c > d", 'quote " and \' apostrophe', "line\nbreak\ttab\rreturn",
         "café — 7,90\u202fμs", "<p>html &amp; entities</p>", "]]> cdata end", "  spaced  "]


def by_element_tree(text: str, attribute: str) -> bytes:
    """A small feed-like tree, written by ElementTree."""
    ET.register_namespace("", NS)
    root = ET.Element(f"{{{NS}}}feed", {"{http://www.w3.org/XML/1998/namespace}lang": "fr"})
    ET.SubElement(root, f"{{{NS}}}title").text = text
    ET.SubElement(ET.SubElement(root, f"{{{NS}}}author"), f"{{{NS}}}name").text = text
    ET.SubElement(root, f"{{{NS}}}link", rel="alternate", href=attribute)
    entry = ET.SubElement(root, f"{{{NS}}}entry")
    ET.SubElement(entry, f"{{{NS}}}content", type="html").text = text
    ET.SubElement(entry, f"{{{NS}}}empty")
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def by_writer(text: str, attribute: str) -> bytes:
    """The same tree, written by xmlwrite."""
    root = Element("feed", {"xmlns": NS, "xml:lang": "fr"})
    root.add("title", text)
    root.add("author").add("name", text)
    root.add("link", rel="alternate", href=attribute)
    entry = root.add("entry")
    entry.add("content", text, type="html")
    entry.add("empty")
    return root.document()


@pytest.mark.parametrize("text", TEXTS)
def test_the_same_bytes_as_element_tree(text: str) -> None:
    assert by_writer(text, text) == by_element_tree(text, text)


def test_a_lone_root_is_written_empty() -> None:
    ET.register_namespace("", NS)
    expected = ET.tostring(ET.Element(f"{{{NS}}}feed"), encoding="utf-8", xml_declaration=True)
    assert Element("feed", {"xmlns": NS}).document() == expected
