"""`yamldoc.Document` behaves as the dataclass it was: equality, printing, copies."""

from __future__ import annotations

import pytest

from progress_site.load.yamldoc import Document


def test_defaults_are_fresh_tables() -> None:
    first, second = Document("a.yaml", []), Document("a.yaml", [])
    assert first.values == first.keys == first.raw == {} and first.data is None
    first.values[("k",)] = (1, 1)
    assert second.values == {}


def test_equal_when_every_field_is() -> None:
    doc = Document("a.yaml", ["k: 1"], {"k": 1}, {("k",): (1, 4)}, {}, {("k",): "1"})
    assert doc == Document("a.yaml", ["k: 1"], {"k": 1}, {("k",): (1, 4)}, {}, {("k",): "1"})
    assert doc != Document("b.yaml", ["k: 1"], {"k": 1}, {("k",): (1, 4)}, {}, {("k",): "1"})
    assert doc != Document("a.yaml", ["k: 1"], {"k": 1}, {("k",): (1, 4)}, {}, {},
                           unread="k: 1")
    assert doc.__eq__("a.yaml") is NotImplemented
    with pytest.raises(TypeError, match="unhashable type: 'Document'"):
        hash(doc)


def test_prints_its_fields_but_the_unread_text() -> None:
    doc = Document("a.yaml", ["k: 1"], {"k": 1}, unread="k: 1")
    assert repr(doc) == ("Document(display='a.yaml', lines=['k: 1'], data={'k': 1}, "
                         "values={}, keys={}, raw={})")


def test_a_copy_is_another_document_with_the_same_tables() -> None:
    doc = Document("a.yaml", ["k: 1"], {"k": 1}, {("k",): (1, 4)}, unread="k: 1")
    copy = doc.copy()
    assert copy == doc and copy is not doc
    assert copy.values is doc.values and copy.data is doc.data
    copy.data = None  # what load does to a file that is no mapping: the original keeps it
    assert doc.data == {"k": 1}
