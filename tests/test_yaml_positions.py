"""Where a key or a value of a YAML file was written: a file read in one pass keeps only
where its mappings start, and finds every other place when a problem asks, at the same
line and column as a file read by composing its nodes."""

from __future__ import annotations

import datetime as dt

import pytest

from progress_site.errors import Location
from progress_site.load.comments import GLUED, glued
from progress_site.load.yaml import parse

TEXT = """\
site:
  title: {en: T, fr: "T fr"}
  count: 3
  items:
    - 1.50
    - two
"""
# The same values, with an anchor that only the composed path reads.
COMPOSED = TEXT.replace("count: 3", "count: &c 3")

PLACES = [
    (("site",), False, (2, 3)),
    (("site",), True, (1, 1)),
    (("site", "title"), False, (2, 10)),
    (("site", "title", "fr"), False, (2, 22)),
    (("site", "title", "fr"), True, (2, 18)),
    (("site", "count"), False, (3, 10)),
    (("site", "count"), True, (3, 3)),
    (("site", "items", 0), False, (5, 7)),
    (("site", "items", 1), False, (6, 7)),
    (("site", "missing"), False, (2, 3)),  # an absent key: its mapping's place
]


@pytest.mark.parametrize("text", [TEXT, COMPOSED], ids=["one pass", "composed"])
@pytest.mark.parametrize(("path", "key", "place"), PLACES)
def test_every_key_and_value_is_located(text: str, path: tuple[str | int, ...], key: bool,
                                        place: tuple[int, int]) -> None:
    doc, problems = parse(text, "data/x.yaml")
    assert problems == []
    assert doc.locate(path, key=key) == Location("data/x.yaml", *place)


def test_one_pass_and_composed_read_the_same_values_and_written_numbers() -> None:
    one, _ = parse(TEXT, "data/x.yaml")
    composed, _ = parse(COMPOSED, "data/x.yaml")
    assert one.data == composed.data
    assert one.raw == composed.raw == {("site", "count"): "3", ("site", "items", 0): "1.50"}


MIXED = """\
a: 3
b: "3"
c: [3, '3', 2026-11-08, "2026-11-08", 0x1f, yes]
383: {d: 3, e: {f: '3'}}
"""


def test_a_written_form_reads_by_its_style_in_both_paths() -> None:
    """A text read once is remembered by its style: `3` is a number, `"3"` a word, in a
    mapping's values as in a list's items and keys, as the composed path reads them."""
    one, _ = parse(MIXED, "data/x.yaml")
    composed, _ = parse(MIXED.replace("a: 3", "a: &n 3"), "data/x.yaml")
    assert one.data == composed.data == {
        "a": 3, "b": "3", "c": [3, "3", dt.date(2026, 11, 8), "2026-11-08", 31, "yes"],
        "383": {"d": 3, "e": {"f": "3"}}}
    assert one.raw == composed.raw


def test_a_problem_quotes_its_line() -> None:
    doc, _ = parse(TEXT, "data/x.yaml")
    problem = doc.problem(("site", "count"), "wrong")
    assert (str(problem.location), problem.source_line) == ("data/x.yaml:3:10", "  count: 3")


@pytest.mark.parametrize(("text", "cut"), [
    ("title: Issue #42 fixed\n", True),
    ("title: Issue\u00a0#42\n", False),  # a no-break space is a blank too
    ("title: Issue # a comment\n", False),
    ("title: Issue  #42\n", False),  # two blanks: a comment, as YAML spaces them
    ("title: Issue ##42\n", False),
    ("#heading #42\n", True),
    (" #42\n", False),
    ("value: 1 #\n", False),
    ("a #b", True),
])
def test_a_comment_glued_to_a_word_is_found_as_the_pattern_finds_it(text: str,
                                                                   cut: bool) -> None:
    assert glued(text) is cut
    assert bool(GLUED.search(text)) is cut
