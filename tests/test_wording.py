"""How a message tells words that YAML cut at a comma, and quotes them back."""

from __future__ import annotations

from typing import Any

import pytest

from progress_site.load.wording import comma_split_words, quoted


@pytest.mark.parametrize(("value", "key", "split"), [
    ({"en": "Tests by category", "run by run": None, "fr": "Tests"}, "run by run",
     ("en", "Tests by category, run by run")),
    ({"en": "a", "b": None, "c d": None}, "c d", ("en", "a, b, c d")),
    ({"en": "a", "b": None, "c d": None}, "b", ("en", "a, b, c d")),  # each piece, whole
    ({"en": "a", "fe": None}, "fe", None),  # a mistyped code, not words
    ({"en": "a", "fr": "b", "fe": "c"}, "fe", None),  # a key with words of its own
    ({"en": 12, "x y": None}, "x y", None),  # no words before it
    ({"x y": None}, "x y", None),
])
def test_words_cut_at_a_comma_are_found_whole(value: dict[str, Any], key: str,
                                             split: tuple[str, str] | None) -> None:
    assert comma_split_words(value, key) == split


@pytest.mark.parametrize(("words", "written"), [
    ("Tests, run by run", '"Tests, run by run"'),
    ('The "fast" path, again', "'The \"fast\" path, again'"),
    ("l'index, puis", '"l\'index, puis"'),
    ("a \\ b, c", "'a \\ b, c'"),
])
def test_words_are_quoted_as_yaml_keeps_them(words: str, written: str) -> None:
    assert quoted(words) == written
