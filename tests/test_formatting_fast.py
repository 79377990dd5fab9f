"""The fast paths of text formatting print exactly what the slow ones print.

Inline Markdown skips the parser for texts with no character it could act on, and the
words of HTML without tags or entities skip striptags: each is compared here with the
full path, on hand-picked and on generated inputs, so that a divergence fails a test
rather than changes a published page.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it.common.utils import escapeHtml
from markupsafe import Markup

from progress_site.render.markdown import (
    CLOSE,
    OPEN,
    InlineRenderer,
    escape_html,
    inline_html,
    make_parser,
    markdown_active,
    text_of,
)

# Every ASCII character, the whitespace and bidi controls the parser or `harmless` may
# treat apart, placeholders, and a few letters and punctuation beyond ASCII.
ALPHABET = (
    [chr(c) for c in range(32, 127)]
    + ["\n", "\r", "\t", "\x00", "\x0b", "\x0c", "\u00a0", "\u202f", "\u2028", "\u3000"]
    + ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"]
    + [OPEN, CLOSE, "é", "œ", "ß", "«", "»", "’", "“", "—", "…", "µ", "€", "中", "😀"]
)
# Words that look like Markdown, links, entities or HTML, and some that only look close.
PIECES = [
    "Measure 12", "Tâche 3", "a", " ", "  ", "*", "**", "_", "__", "`", "``", "[", "]", "(",
    ")", "!", "<", ">", "&", ";", "#", "\\", "~", "~~", "\n", "\r\n", "|", "-", "+", "1.",
    "http://x.org", "https://example.org/a_b", "javascript:alert(1)", "www.example.org",
    "&amp;", "&copy;", "&#x202e;", "&#0;", "&nosuch;", "<b>", "<script>", "<https://a.b>",
    "<mailto:a@b.c>", "a@b.c", "[x](y)", "[x](javascript:alert(1))", "![i](https://a/b.png)",
    "![i](b.png)", "[x]: /y", "(c)", "--", "...", '"q"', "'q'", "50%", "p99: 3 ms", "{{ x }}",
    "\u202e", "\u2066", OPEN + "0" + CLOSE, "snake_case", "2*3*4", "\\*",
]
PLAIN = [c for c in ALPHABET if not markdown_active(c)]
# One parser for the full path, and one renderer (with its memory) for the fast one.
FULL = make_parser()
FAST = InlineRenderer()


def test_the_parser_has_only_the_rules_the_fast_path_knows() -> None:
    md = make_parser()
    assert md.get_active_rules() == {
        "core": ["normalize", "block", "inline", "unforged", "text_join", "heading_ids",
                 "harmless"],
        "block": ["table", "code", "fence", "blockquote", "hr", "list", "reference",
                  "html_block", "heading", "lheading", "paragraph"],
        "inline": ["text", "newline", "escape", "backticks", "emphasis", "link", "image",
                   "autolink", "html_inline", "entity"],
        "inline2": ["balance_pairs", "emphasis", "fragments_join"],
    }
    assert not md.options["linkify"]
    assert not md.options["typographer"]
    assert not md.options["html"]


@pytest.mark.parametrize("text", [
    "", "Measure 123", "Tâche 7", "  spaced  out  ", "50% - p99: 3 ms (max)", 'He said "no"',
    "a > b", "it's", "x ] y", "Done!", "~tilde~", "# not a heading", "1. not a list",
    "{{ x }}", "| a | b |", "\t", OPEN + "0" + CLOSE + " ms",
])
def test_plain_texts_take_the_fast_path_and_read_the_same(text: str) -> None:
    assert not markdown_active(text)
    assert InlineRenderer()(text) == FULL.renderInline(text)


@pytest.mark.parametrize("text", [
    "*em*", "**strong**", "_em_", "`code`", "[x](https://a.org)", "[x](javascript:alert(1))",
    "![i](https://a.org/i.png)", "<https://a.org>", "<b>bold</b>", "&copy;", "&#x202e;x",
    "a\\*b", "a\nb", "a  \nb", "a\r\nb", "a\x00b", "x\u202ey", "x\u2066y", "Done![x](y)",
])
def test_texts_with_markdown_take_the_full_path(text: str) -> None:
    assert markdown_active(text)
    assert InlineRenderer()(text) == FULL.renderInline(text)


def test_a_markdown_text_is_parsed_once_and_then_remembered() -> None:
    parsed: list[str] = []

    def full(text: str) -> str:
        parsed.append(text)
        return inline_html(text)

    render = InlineRenderer(full)
    assert render("*a*") == render("*a*") == "<em>a</em>"
    assert render("plain") == "plain"
    assert parsed == ["*a*"]


@settings(max_examples=2000, derandomize=True, deadline=None)
@given(st.text(alphabet=st.sampled_from(PLAIN), max_size=40))
def test_escaping_plain_text_is_what_the_parser_prints(text: str) -> None:
    assert escape_html(text) == escapeHtml(text) == FULL.renderInline(text)


@settings(max_examples=2000, derandomize=True, deadline=None)
@given(st.text(alphabet=st.sampled_from(ALPHABET), max_size=30))
def test_any_text_reads_the_same_on_both_paths(text: str) -> None:
    assert FAST(text) == FULL.renderInline(text)


@settings(max_examples=2000, derandomize=True, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=8).map("".join))
def test_markdown_like_texts_read_the_same_on_both_paths(text: str) -> None:
    assert FAST(text) == FULL.renderInline(text)


@pytest.mark.parametrize("html", [
    "", "plain words", "  spaced \t out\n ", "a\u00a0b\u2028c\u3000d", "<em>x</em> y",
    "Tom &amp; Jerry", "&#39;q&#39;", "a < b", "<!-- c --> d", "\x1c\x1d\x1e\x1f\x85",
])
def test_the_words_of_html_are_what_striptags_leaves(html: str) -> None:
    assert text_of(Markup(html)) == Markup(html).striptags()
    assert type(text_of(Markup(html))) is str


@settings(max_examples=2000, derandomize=True, deadline=None)
@given(st.text(alphabet=st.sampled_from(ALPHABET), max_size=30))
def test_the_words_of_any_html_are_what_striptags_leaves(html: str) -> None:
    assert text_of(Markup(html)) == Markup(html).striptags()
