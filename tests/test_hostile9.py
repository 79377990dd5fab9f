"""Hostile input, ninth round: what earlier rounds did not try (footnote-like marks in
bulk, a catalog's header, keys that are not words, series told apart by case alone).
Each hole found has its test here: a located error or a page built in time, never a
traceback or a hang, the previous site untouched."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import copy_hostile_base
from .test_hostile import within


@pytest.fixture
def base(tmp_path: Path) -> Path:
    copy_hostile_base(tmp_path / "src")
    return tmp_path / "src"


def page(base: Path, body: str) -> None:
    """The English and French home pages, both holding `body`."""
    for lang in ("en", "fr"):
        (base / "content" / lang / "index.md").write_text(f"---\ntitle: Base\n---\n{body}\n")


@pytest.mark.parametrize("body", [
    "[^" * 70_000,  # no `]`: each `[^` looked for one up to the page's end
    " ".join(f"x[^{i}]" for i in range(60_000)),  # each mark searched for in the prose
], ids=["unclosed", "distinct"])
def test_many_footnote_marks_are_told_in_time(base: Path, tmp_path: Path, body: str) -> None:
    """A page of 140 KB of `[^` took minutes (a pattern that scanned to the page's end
    from each of them), and one of 60,000 distinct marks as long (each mark searched for
    in the whole of the page's words): the build ends in seconds, the marks still told."""
    page(base, body)
    result = within(60, "--source", base, "--out", tmp_path / "out")
    assert result.code == 0, result.err
    assert ("footnote mark" in result.err) == ("]" in body)


def test_a_footnote_mark_with_a_bracket_in_its_label_is_words(
        base: Path, tmp_path: Path) -> None:
    page(base, "A note[^a] and [^b[c] here.\n\n[^a]: the note")
    result = within(60, "--source", base, "--out", tmp_path / "out")
    assert result.code == 0, result.err
    assert "content/en/index.md:4:7: warning: footnote mark '[^a]'" in result.err
    assert "content/en/index.md:6:1: warning: footnote '[^a]:'" in result.err
    assert "[^b" not in result.err.replace("    A note[^a] and [^b[c] here.", "")
