"""The addresses a Markdown text links to are found wherever Markdown takes one."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from progress_site.model.links import markdown_links, unsafe_links

# Every pattern on every text: what markdown_links found before it skipped the patterns
# whose characters a text does not hold.
EVERY = tuple(re.compile(p) for p in (
    r"\]\(\s*<?((?:[^\s()<>]|\([^\s()<>]*\))*)",
    r"(?m)^ {0,3}\[(?:[^\[\]\\]|\\.)+\]:\s*<?(\S*?)>?(?:\s|$)",
    r"<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*)>",
))


def every_pattern(text: str) -> list[tuple[int, str]]:
    """The links found by searching the text with every pattern."""
    return sorted({(m.start(1), m.group(1)) for rx in EVERY for m in rx.finditer(text)})


@pytest.mark.parametrize(("text", "links"), [
    ("Plain words, no link.", []),
    ("See [the study](studies/x.html) and [a](<b c>).", [(16, "studies/x.html"), (41, "b")]),
    ("[label]: https://example.org/a\n\nText [label].", [(9, "https://example.org/a")]),
    ("An autolink <https://example.org> here.", [(13, "https://example.org")]),
    ("[x](<javascript:alert(1)>)", [(5, "javascript:alert(1)")]),
    # A label holds no bracket but an escaped one, as in Markdown.
    ("[[]: x", []),
    ("[a\\[b]: x", [(8, "x")]),
])
def test_markdown_links(text: str, links: list[tuple[int, str]]) -> None:
    assert markdown_links(text) == links == every_pattern(text)


def test_an_unsafe_link_is_found() -> None:
    assert unsafe_links("[x](javascript:alert(1)) [y](https://a.org)") == [
        (4, "javascript:alert(1)", "'javascript:' addresses are not allowed")]


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet=list("[]()<>: \n\tab/.#"), max_size=24))
def test_markdown_links_are_those_of_every_pattern(text: str) -> None:
    assert markdown_links(text) == every_pattern(text)
