"""A block line's words are what shlex.split reads, without shlex for plain lines."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from progress_site.render.markdown import block_words, parse_block


def shlex_or_error(text: str) -> list[str] | str:
    """What shlex.split reads, or the error it raises."""
    try:
        return shlex.split(text)
    except ValueError as exc:
        return f"ValueError: {exc}"


def ours_or_error(text: str) -> list[str] | str:
    """What block_words reads, or the error it raises."""
    try:
        return block_words(text)
    except ValueError as exc:
        return f"ValueError: {exc}"


@pytest.mark.parametrize("text", [
    "", " ", "four-way x=bots y=mspt", '  title="Average tick (MSPT)" kind=line ',
    "caption='Results: each server'", 'a"b c"d', "a'b c'd", 'x="" y', '""', "''", 'a""',
    '"a\'b"', "'a\"b'", "a\tb\r\nc", "tolerance=10% floor=1", "é=ü «x»", "a\u00a0b\u3000c",
    # shlex reads these itself: a backslash, a quote left open.
    'a\\ b', '"a\\"b"', "'a\\b'", 'a "b', "a 'b", 'title="x', "\\",
])
def test_block_words_are_shlex_words(text: str) -> None:
    assert ours_or_error(text) == shlex_or_error(text)


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet=list(" \t\r\n\"'\\=ab-é\u00a0"), max_size=16))
def test_block_words_are_shlex_words_on_any_line(text: str) -> None:
    assert ours_or_error(text) == shlex_or_error(text)


def test_a_block_line() -> None:
    block = parse_block('{{< chart four-way x=bots title="Slow ticks (P99)" >}}', 7)
    assert block is not None
    assert (block.name, block.args, block.options, block.line) == (
        "chart", ("four-way",), (("x", "bots"), ("title", "Slow ticks (P99)")), 7)


def test_a_block_line_with_a_quote_left_open_is_split_at_blanks() -> None:
    block = parse_block('{{< chart four-way title="Slow >}}', 1)
    assert block is not None
    assert (block.args, block.options) == (("four-way",), (("title", '"Slow'),))
