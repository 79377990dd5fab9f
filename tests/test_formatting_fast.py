"""The fast paths of text and number formatting print exactly what the slow ones print.

Inline Markdown skips the parser for texts with no character it could act on, numbers
skip Babel's general pattern code, units look their pattern up once, and the words of
HTML without tags or entities skip striptags: each is compared here with the full
path, on hand-picked and on generated inputs, so that a divergence fails a test rather
than changes a published page.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from babel.dates import format_date
from babel.units import format_unit
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it.common.utils import escapeHtml
from markupsafe import Markup

from progress_site.model.units import CLDR_UNITS
from progress_site.render import formatting
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


# The site's languages, and others whose symbols or plural rules differ: a `'` that Babel
# strips (de_CH, fr_CH), other symbols (hi, ar, sv), three to six plural forms (ru, pl, cy).
LANGS = ["en", "fr", "de_CH", "fr_CH", "hi", "ar", "sv", "ru", "pl", "cy"]
VALUES = ["0", "1", "1.0", "1.5", "2", "3", "5", "11", "21", "101", "999.995", "1000",
          "1234567.891", "1000000", "-1", "-0.5", "-1234.5", "0.001", "1e6", "12345678901234"]


def babel_number(fixed: Decimal, decimals: int, lang: str) -> str:
    """What formatting.number printed before its fast path: Babel's pattern, applied."""
    text: str = formatting.decimal_pattern(lang, decimals).apply(fixed, formatting.locale(lang))
    return text


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("decimals", [0, 1, 2, 3, 6])
def test_grouped_numbers_read_as_babel_prints_them(lang: str, decimals: int) -> None:
    for value in VALUES:
        fixed = formatting.rounded(Decimal(value), decimals)
        assert formatting.grouped(fixed, decimals, lang) == babel_number(fixed, decimals, lang)


@settings(max_examples=2000, derandomize=True, deadline=None)
@given(st.decimals(allow_nan=False, allow_infinity=False, places=None,
                   min_value=-10**15, max_value=10**15),
       st.integers(0, 6), st.sampled_from(LANGS))
def test_any_number_reads_as_babel_prints_it(value: Decimal, decimals: int, lang: str) -> None:
    fixed = formatting.rounded(value, decimals)
    assert formatting.grouped(fixed, decimals, lang) == babel_number(fixed, decimals, lang)


@settings(max_examples=2000, derandomize=True, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12),
       st.integers(0, 4), st.sampled_from(["en", "fr"]))
def test_numbers_from_floats_read_as_before(value: float, decimals: int, lang: str) -> None:
    fixed = formatting.rounded(value, decimals)
    assert formatting.number(value, decimals, lang) == babel_number(fixed, decimals, lang)


def babel_percent(fixed: Decimal, decimals: int, lang: str, sign: bool) -> str:
    """What formatting.percent_amount printed before its fast path."""
    pattern = formatting.percent_pattern(lang, decimals, sign)
    text: str = pattern.apply(fixed / 100, formatting.locale(lang))
    return text


@settings(max_examples=2000, derandomize=True, deadline=None)
@given(st.decimals(allow_nan=False, allow_infinity=False, places=None,
                   min_value=-10**12, max_value=10**12),
       st.integers(0, 4), st.sampled_from([*LANGS, "tr", "hi", "fa"]), st.booleans())
def test_any_percentage_reads_as_babel_prints_it(value: Decimal, decimals: int, lang: str,
                                                 sign: bool) -> None:
    fixed = formatting.rounded(value, decimals)
    assert formatting.percent_text(fixed, decimals, lang, sign) == babel_percent(
        fixed, decimals, lang, sign)


@pytest.mark.parametrize("lang", [*LANGS, "tr", "hi"])
def test_percentages_read_as_babel_prints_them(lang: str) -> None:
    for sign in (False, True):
        for decimals in (0, 1, 2):
            for value in VALUES:
                fixed = formatting.rounded(Decimal(value), decimals)
                assert formatting.percent_text(fixed, decimals, lang, sign) == babel_percent(
                    fixed, decimals, lang, sign), (value, decimals, sign)


def babel_unit(fixed: Decimal, decimals: int, cldr: str, lang: str) -> str:
    """What formatting.with_unit printed before: format_unit on each call."""
    fmt = "#,##0" + ("." + "0" * decimals if decimals else "")
    text: str = format_unit(fixed, cldr, length="short", format=fmt,
                            locale=formatting.locale(lang))
    return text.replace(" ", formatting.NBSP)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("cldr", sorted(set(CLDR_UNITS.values())))
def test_units_read_as_format_unit_prints_them(cldr: str, lang: str) -> None:
    for decimals in (0, 1, 2):
        for value in VALUES:
            fixed = formatting.rounded(Decimal(value), decimals)
            assert formatting.cldr_unit(fixed, decimals, cldr, lang) == babel_unit(
                fixed, decimals, cldr, lang), (value, decimals)


@settings(max_examples=2000, derandomize=True, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e9, max_value=1e9),
       st.integers(0, 3), st.sampled_from(sorted(CLDR_UNITS)), st.sampled_from(LANGS))
def test_with_unit_reads_as_before(value: float, decimals: int, unit: str, lang: str) -> None:
    fixed = formatting.rounded(value, decimals)
    assert formatting.with_unit(value, decimals, unit, lang, {}) == babel_unit(
        fixed, decimals, CLDR_UNITS[unit], lang)


def test_units_whose_words_follow_the_number_still_do() -> None:
    assert formatting.same_pattern("duration-millisecond", "cy") is None  # 0 is "milieil"
    for value in ("0", "1", "2", "3", "6", "1.5"):
        fixed = Decimal(value)
        decimals = 1 if "." in value else 0
        assert formatting.cldr_unit(fixed, decimals, "duration-millisecond", "cy") == (
            babel_unit(fixed, decimals, "duration-millisecond", "cy"))
    assert formatting.cldr_unit(Decimal(0), 0, "duration-millisecond", "cy") == "0\xa0milieil"


def test_an_unknown_unit_falls_back_to_format_unit() -> None:
    assert formatting.unit_patterns("length-horse", "en") is None


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_remembered_dates_are_the_dates(lang: str) -> None:
    day = dt.date(2026, 11, 8)
    for _ in range(2):
        assert formatting.date(day, lang) == format_date(day, "long", locale=lang)
