"""Inline texts print what markdown-it prints for them, whether they are parsed or only
escaped (markdown.inline_html skips the parser for plain words), and block lines are
split into words as the shell splits them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from progress_site.render.blocklines import parse_block
from progress_site.render.markdown import (
    PARSED,
    inline_html,
    make_parser,
    markdown_html,
    refused_links,
    split_blocks,
)

# Every ASCII character, the whitespace and bidi controls the parser or `harmless` may
# treat apart, braces (references), and a few letters and punctuation beyond ASCII.
ALPHABET = (
    [chr(c) for c in range(32, 127)]
    + ["\n", "\r", "\t", "\x00", "\x0b", "\x0c", "\u00a0", "\u202f", "\u2028", "\u3000"]
    + ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"]
    + ["{", "}", "é", "œ", "ß", "«", "»", "’", "“", "—", "…", "µ", "€", "中", "😀"]
)
# Words that look like Markdown, links, entities or HTML, and some that only look close.
PIECES = [
    "Measure 12", "Tâche 3", "a", " ", "  ", "*", "**", "_", "__", "`", "``", "[", "]", "(",
    ")", "!", "<", ">", "&", ";", "#", "\\", "~", "~~", "\n", "\r\n", "|", "-", "+", "1.",
    "http://x.org", "https://example.org/a_b", "javascript:alert(1)", "www.example.org",
    "&amp;", "&copy;", "&#x202e;", "&#0;", "&nosuch;", "<b>", "<script>", "<https://a.b>",
    "<mailto:a@b.c>", "a@b.c", "[x](y)", "[x](javascript:alert(1))", "![i](https://a/b.png)",
    "![i](b.png)", "[x]: /y", "(c)", "--", "...", '"q"', "'q'", "50%", "p99: 3 ms", "{{ x }}",
    "\u202e", "\u2066", "{{ a_b }}", "{{ *x* }}", "\\{{ x }}", "snake_case", "2*3*4", "\\*",
    "l'équipe",
]
PARSER = make_parser()


def test_the_parser_has_only_the_rules_that_plain_words_skip() -> None:
    md = make_parser()
    assert md.get_active_rules() == {
        "core": ["normalize", "block", "inline", "refuse", "text_join", "heading_ids",
                 "harmless"],
        "block": ["site_block", "table", "code", "fence", "blockquote", "hr", "list", "reference",
                  "html_block", "heading", "lheading", "paragraph"],
        "inline": ["reference", "text", "newline", "escape", "backticks", "emphasis", "link",
                   "image", "autolink", "html_inline", "entity"],
        "inline2": ["balance_pairs", "emphasis", "fragments_join"],
    }
    assert not md.options["linkify"]
    assert not md.options["typographer"]
    assert not md.options["html"]


@pytest.mark.parametrize("text", [
    "", "Measure 123", "Tâche 7", "  spaced  out  ", "50% - p99: 3 ms (max)", "a > b",
    "x ] y", "Done!", "~tilde~", "# not a heading", "1. not a list", "{{ x }}", "| a | b |",
    "\t", "{{ x }} ms",
])
def test_plain_words_are_escaped_as_the_parser_prints_them(text: str) -> None:
    assert PARSED.search(text) is None
    assert inline_html(text) == PARSER.renderInline(text)


@pytest.mark.parametrize("text", [
    "*em*", "**strong**", "_em_", "`code`", "[x](https://a.org)", "[x](javascript:alert(1))",
    "![i](https://a.org/i.png)", "<https://a.org>", "<b>bold</b>", "&copy;", "&#x202e;x",
    "a\\*b", "a\nb", "a  \nb", "a\r\nb", "a\x00b", "x\u202ey", "x\u2066y", "Done![x](y)",
    'He said "no"', "it's",
])
def test_texts_with_markdown_or_quotes_are_parsed(text: str) -> None:
    assert PARSED.search(text) is not None
    assert inline_html(text) == PARSER.renderInline(text)


@pytest.mark.slow  # fuzzing, 2,000 texts: CI runs it
@settings(max_examples=2000, derandomize=True, deadline=None)
@given(st.text(alphabet=st.sampled_from(ALPHABET), max_size=30))
def test_any_text_reads_as_the_parser_prints_it(text: str) -> None:
    assert inline_html(text) == PARSER.renderInline(text)


@pytest.mark.slow  # fuzzing, 2,000 texts: CI runs it
@settings(max_examples=2000, derandomize=True, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=8).map("".join))
def test_markdown_like_texts_read_as_the_parser_prints_them(text: str) -> None:
    assert inline_html(text) == PARSER.renderInline(text)


def test_a_block_line() -> None:
    block = parse_block('{{< chart four-way x=bots title="Slow ticks (P99)" >}}', 7)
    assert block is not None
    assert (block.name, block.args, block.options, block.line) == (
        "chart", ("four-way",), (("x", "bots"), ("title", "Slow ticks (P99)")), 7)


def test_a_block_line_with_quotes_joined_to_words() -> None:
    block = parse_block("""{{< table a"b c"d caption='Results: each' x="" >}}""", 1)
    assert block is not None
    assert (block.args, block.options) == (("ab cd",), (("caption", "Results: each"),
                                                        ("x", "")))


def test_a_block_line_with_a_quote_left_open_is_split_at_blanks() -> None:
    block = parse_block('{{< chart four-way title="Slow >}}', 1)
    assert block is not None
    assert (block.args, block.options) == (("four-way",), (("title", '"Slow'),))


def test_a_line_that_is_not_a_block() -> None:
    assert parse_block("Some {{< words >}} in a sentence", 1) is None


def test_blocks_are_the_lines_markdown_it_finds_at_the_top_of_the_page() -> None:
    body = ("Intro.\n\n{{< legend >}}\n````\n```\n{{< a >}}\n```\n````\n\n    {{< b >}}\n\n"
            "  {{< machines x >}}\nAfter.\n> {{< c >}}\n\n- {{< d >}}\n")
    parts = split_blocks(body, 10)
    assert [p if isinstance(p, str) else (p.name, p.args, p.line) for p in parts] == [
        "Intro.\n", ("legend", (), 12), "````\n```\n{{< a >}}\n```\n````\n\n    {{< b >}}\n",
        ("machines", ("x",), 21), "After.\n> {{< c >}}\n\n- {{< d >}}\n"]


def test_a_block_left_in_prose_is_its_words() -> None:
    """No chunk of prose holds a block line; were one to, it would print as words."""
    assert markdown_html("{{< legend >}}") == "<p>{{&lt; legend &gt;}}</p>\n"


JS = "'javascript:' addresses are not allowed"


@pytest.mark.parametrize(("text", "refused"), [
    ("[x](javascript:alert(1))", [(4, "javascript:alert(1)", JS)]),
    ("[x](JAVASCRIPT:alert(1))", [(4, "JAVASCRIPT:alert(1)",
                                  "'JAVASCRIPT:' addresses are not allowed")]),
    ("A <javascript:alert(1)> autolink", [(3, "javascript:alert(1)", JS)]),
    ("[x]\n\n[x]: javascript:alert(1)", [(10, "javascript:alert(1)", JS)]),
    ("[x][y] and [y] unused\n\n[y]: <javascript:a b>", [(29, "javascript:a b", JS)]),
    ("[x](vbscript:msgbox(1))", [(4, "vbscript:msgbox(1)",
                                 "'vbscript:' addresses are not allowed")]),
    ("![i](data:text/html,hi)", [(5, "data:text/html,hi", "'data:' addresses are not allowed")]),
    ("[x](&#106;avascript:alert(1))", [(4, "&#106;avascript:alert(1)", JS)]),
    ("[x](java&#x09;script:alert(1))", [(4, "java&#x09;script:alert(1)", JS)]),
    ("| a | [b](javascript:x) |\n|---|---|\n| c | d |", [(10, "javascript:x", JS)]),
    ("## T [x](javascript:a) {#id}", [(9, "javascript:a", JS)]),
    ("{{ a | b }} [x](javascript:a)", [(16, "javascript:a", JS)]),
    ("| {{ a | b }} [x](javascript:a) |\n|---|", [(18, "javascript:a", JS)]),
    ("- |\r\n\t<javascript:x>", [(7, "javascript:x", JS)]),  # the tab read as spaces
    # Carriage returns end lines for markdown-it, as newlines do.
    ("a\r\r\r\r\n\n[x]: javascript:q\r\n\r\n[x] <data:x>", [(12, "javascript:q", JS), (
        33, "data:x", "'data:' addresses are not allowed")]),
    # Dropped by markdown-it's validateLink, and unseen by the patterns once used instead
    # of its tokens: an escaped colon, definitions in a quote and in a list, a blank
    # before the address in angle brackets.
    ("[x](javascript\\:alert(1))", [(4, "javascript\\:alert(1)", JS)]),
    ("> [x]: javascript:alert(1)\n>\n> [x]", [(7, "javascript:alert(1)", JS)]),
    ("- [x]: javascript:alert(1)\n\n[x]", [(7, "javascript:alert(1)", JS)]),
    ("[x](< javascript:alert(1)>)", [(5, " javascript:alert(1)", JS)]),
    # What markdown-it does not read as a link is words, and no error.
    ("`[x](javascript:a)`", []),
    ("    [x](javascript:a)", []),
    ("```\n[x]: javascript:a\n```", []),
    ("\\[x](javascript:a)", []),
    ("[ok](https://a.org) <mailto:a@b.c> [p](report/index.html) ![i](i.png)", []),
])
def test_an_unsafe_address_is_found_where_markdown_it_reads_it(
        text: str, refused: list[tuple[int, str, str]]) -> None:
    assert refused_links(text) == refused
    assert all(text[at:at + len(written)] == written for at, written, _ in refused)
    page = markdown_html(text)  # each refused link or image is its words only
    assert not refused or ("<a " not in page and "<img" not in page)


TABLE = """| Category | Passed | `p99` |
|---|--:|--:|
| Literals | 500 | 2 |
"""


def test_a_prose_table_scrolls_in_a_region_named_by_its_columns() -> None:
    """A table of a page's prose wider than a phone pushed the whole page sideways: it is
    wrapped in a region that scrolls on its own, takes the focus, and is named by its
    columns' headings (two tables of a page, two names)."""
    html = markdown_html(TABLE, None, lambda columns: f"Tableau\u00a0: {columns}")
    assert html.startswith('<div class="table-wrap" role="region" aria-label='
                           '"Tableau\u00a0: Category, Passed, p99" tabindex="0">\n<table>\n')
    assert html.endswith("</table>\n</div>\n")
    assert html.count("<table>") == 1 and "<td>Literals</td>" in html


def test_a_prose_table_without_words_for_its_name_still_scrolls() -> None:
    """Without the page's words (or headings of no words), the region is left unnamed
    rather than named by nothing."""
    assert markdown_html(TABLE).startswith('<div class="table-wrap" tabindex="0">\n<table>')
    empty = "| | |\n|---|---|\n| 1 | 2 |\n"
    assert markdown_html(empty, None, str).startswith('<div class="table-wrap" tabindex="0">')


@pytest.mark.parametrize(("lang", "source", "html"), [
    ("fr", "Relu 412 sur 430 ; une relecture : 5 h ? Oui !",
     "<p>Relu 412 sur 430\u202f; une relecture\u00a0: 5 h\u202f? Oui\u202f!</p>\n"),
    ("fr", "Déjà\u00a0: bon, `a : b ; c` et *x* : y", "<p>Déjà\u00a0: bon, <code>a : b ; c"
     "</code> et <em>x</em>\u00a0: y</p>\n"),  # code stays as typed
    ("fr", "http://example.org/a:b?c!d", "<p>http://example.org/a:b?c!d</p>\n"),
    ("en", "Read this : it is short ; really ?", "<p>Read this : it is short ; really ?</p>\n"),
])
def test_french_prose_holds_its_high_punctuation_to_the_word(lang: str, source: str,
                                                              html: str) -> None:
    """A French page's `;` typed after a plain space began a line on a phone: in French
    prose the space before `:` is U+00A0 and before `;` `?` `!` U+202F, as the catalogs
    write them; code and other languages keep what was typed."""
    assert markdown_html(source, lang=lang) == html
