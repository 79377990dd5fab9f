"""A reference and a repository's address make no markup of their own, in any context.

The example site is built with a hostile repository address and a reference in every
Markdown construct and every block option that takes text, in pages and in data texts.
Each construct's reference is led by a marker word, so the test finds where it landed:
as a link and words in text, as plain words in an attribute (alt, title), in code, in a
fence's info string or a chart's title. No element may carry an event handler, no
`<script>` may appear, no address may be `javascript:` or `data:`, and each reference's
words must be there. tests/test_injection_browser.py loads the same site in Chromium.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from progress_site.model.links import repository_link
from progress_site.pipeline import BuildConfig, make_site
from progress_site.render.markdown import inline_html, markdown_html
from progress_site.render.references import Printed

from .conftest import REPO, TEMPLATES, TODAY, copy_example
from .dom import Node
from .dom import parse as parse_html

# Addresses that pass the http(s) check: each ends an attribute, or starts a handler,
# if a link made from it is not quoted and escaped.
HOSTILE_URLS = [
    "https://example.org/onerror=window.x=1//x",
    'https://example.org/x"onmouseover="window.x=1"',
    "https://example.org/'><img/src=x/onerror=window.x=1>",
]
# A commit with a pull request, one without, and a number.
REFERENCE = "{{ commits.c38a01e }} and {{ commits.57930e6 }} at {{ headlines.processor }}"
PRINTED = re.compile(r"pull request #160 and 57930e6 at \d")
FOUR_WAY = ("{{ max(1 - min(four-way.chunks_per_s, by=bots) / "
            "max(four-way.chunks_per_s, by=bots)) | percent }}")

# Every Markdown construct that takes text, each with a reference after its marker.
CONSTRUCTS = {
    # `#picture`: an address that is no file, as the site publishes none of this name.
    "alt": "![alt-mark R](#picture)",
    "image-title": '![picture](#picture "image-title-mark R")',
    "remote-image": '![remote-alt-mark R](https://example.org/x.png "remote-title-mark R")',
    "link-words": "[link-words-mark R](https://example.org/page)",
    "link-title": '[words](https://example.org/page "link-title-mark R")',
    "definition-title": '[words][def]\n\n[def]: https://example.org/def "definition-mark R"',
    "code": "`code-mark R`",
    "fence": "``` R\nfence-mark R\n```",  # the info string's first word is a class
    "indented": "    indented-mark R",
    "heading": "## heading-mark R",
    "setext": "setext-mark R\n-------------",
    "table": f"| a | b |\n|---|---|\n| cell-mark R | piped-mark {FOUR_WAY} |",
    "emphasis": "*em-mark R* and **strong-mark R**",
    "quote": "> quote-mark R",
    "list": "- item-mark R\n  1. nested-mark R",
}
# Every option of templates/blocks/ that takes words, with a reference after its marker.
BLOCKS = {
    ("table", "caption"): '{{< table four-way rows=bots,server columns=mspt '
                          'caption="caption-mark R" >}}',
    ("agreement", "caption"): '{{< agreement four-way by=bots fields=chunks_per_s '
                              'tolerance=10% floor=1 caption="agreement-mark R" '
                              'verdict="verdict-mark R" >}}',
    ("agreement", "verdict"): "",  # in the line above
    ("chart", "title"): '{{< chart four-way x=bots y=mspt series=server kind=line '
                        'title="chart-title-mark R" >}}',
}
# The options of the blocks of docs/data-format.md, by what they take: only TEXT holds
# words a reader reads (a new option must be placed here, and tested above if it is TEXT).
FIELDS = {"rows", "columns", "sort", "group", "by", "fields", "across", "x", "y", "series"}
SETTINGS = {"kind", "rule", "zero", "width", "height", "tolerance", "floor", "require", "id",
            "all", "form"}
TEXT = {"caption", "verdict", "title"}
# Data texts (inline Markdown) with a reference: the footer of every page, a proof's words.
FOOTER = ('Footer ![footer-alt-mark R](picture.png "footer-title-mark R") '
          '[footer-link-mark R](https://example.org/f "footer-link-title-mark R") '
          '`footer-code-mark R` *footer-em-mark R*')
PROOF = "proof-words-mark R"


def make_hostile(source: Path, url: str) -> None:
    """Edit a copy of the example: the hostile address, and a reference everywhere."""
    site = source / "data" / "site.yaml"
    text = site.read_text("utf-8")
    text = text.replace("url: https://github.com/meridian-proxy/meridian",
                        f"url: {json.dumps(url)}")
    footer = "The optimisation is merged ({{ commits.c38a01e }})."
    line = next(ln for ln in text.splitlines() if footer in ln and ln.lstrip().startswith("en:"))
    text = text.replace(line, "    en: " + json.dumps(
        line.split("en: ", 1)[1] + " " + FOOTER.replace("R", REFERENCE)))
    site.write_text(text, "utf-8")
    roadmaps = source / "data" / "roadmaps.yaml"
    roadmaps.write_text(roadmaps.read_text("utf-8").replace(
        '"the results, posted on the issue"', json.dumps(PROOF.replace("R", REFERENCE))),
        "utf-8")
    body = "\n\n".join([*CONSTRUCTS.values(), *filter(None, BLOCKS.values())])
    for lang in ("en", "fr"):
        (source / "content" / lang / "injection.md").write_text(
            f"---\ntitle: Injection\n---\n{body.replace(' R', ' ' + REFERENCE)}\n", "utf-8")


def build(source: Path) -> dict[str, bytes]:
    """The site built in memory (every language), failing the test on any error."""
    return make_site(BuildConfig(source=source, out=source.parent / "site", today=TODAY,
                                 strict=True, compiled=TEMPLATES)).files


@pytest.fixture(scope="module", params=HOSTILE_URLS)
def hostile(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
            example_files: dict[str, bytes]) -> tuple[str, dict[str, bytes]]:
    """The hostile site's address and files (the example's warm caches come along)."""
    source = copy_example(tmp_path_factory.mktemp("injection") / "src")
    make_hostile(source, request.param)
    return request.param, build(source)


def pages(files: dict[str, bytes]) -> dict[str, Node]:
    """Every HTML page, parsed."""
    return {name: parse_html(data) for name, data in files.items() if name.endswith(".html")}


@pytest.fixture(scope="module")
def parsed(hostile: tuple[str, dict[str, bytes]]) -> dict[str, Node]:
    """Every HTML page of the hostile site, parsed once for the tests that read it."""
    return pages(hostile[1])


def strings(page: Node) -> list[str]:
    """Every attribute value and every element's text."""
    return [s for node in page.iter() for s in (*node.attrs.values(), node.text())]


def test_every_construct_and_text_option_is_walked() -> None:
    docs = (REPO / "docs" / "data-format.md").read_text("utf-8")
    written = set(re.findall(r"\b([a-z]+)=", "\n".join(
        ln for ln in docs.splitlines() if ln.startswith("| `{{<"))))
    assert written <= FIELDS | SETTINGS | TEXT, written - (FIELDS | SETTINGS | TEXT)
    assert {option for _, option in BLOCKS} == TEXT


def test_no_handler_script_or_unsafe_address(parsed: dict[str, Node]) -> None:
    for name, page in parsed.items():
        for node in page.iter():
            assert node.tag != "script", name
            assert not [a for a in node.attrs if a.lower().startswith("on")], (name, node)
            for attr in ("href", "src", "xlink:href", "action", "formaction"):
                address = re.sub(r"\s", "", node.attrs.get(attr, "")).lower()
                if node.tag == "link" and node.attrs.get("rel") == "icon":
                    continue  # the theme's own `href="data:,"`: no icon, and no request
                assert not address.startswith(("javascript:", "data:")), (name, node)
            ancestors = []
            up = node.parent
            while up is not None:
                ancestors.append(up.tag)
                up = up.parent
            assert not (node.tag == "a" and "a" in ancestors), (name, "a link in a link")


@pytest.mark.parametrize("mark", [
    *(m for c in CONSTRUCTS.values() for m in re.findall(r"([a-z-]+-mark) R", c)),
    *(m for c in BLOCKS.values() for m in re.findall(r"([a-z-]+-mark) R", c)),
])
def test_the_reference_is_printed_in_each_construct(
        mark: str, parsed: dict[str, Node]) -> None:
    for name in ("injection/index.html", "fr/injection/index.html"):
        found = [s for s in strings(parsed[name]) if mark in s]
        assert found, (name, mark)
        assert not [s for s in found if "{{" in s], (name, mark, found)
        assert any("160" in s and "57930e6" in s for s in found), (name, mark, found)
    assert any(PRINTED.search(s) for s in strings(parsed["injection/index.html"])
               if mark in s)


@pytest.mark.parametrize("mark", re.findall(r"([a-z-]+-mark) R", FOOTER + " " + PROOF))
def test_the_reference_is_printed_in_data_texts(
        mark: str, parsed: dict[str, Node]) -> None:
    found = [s for s in strings(parsed["index.html"]) if mark in s]
    assert any(PRINTED.search(s) for s in found), (mark, found)
    assert not [s for s in found if "{{" in s], (mark, found)


def test_a_fence_s_info_string_is_plain_words(parsed: dict[str, Node]) -> None:
    fence = next(c for c in parsed["injection/index.html"].find_all("code")
                 if "fence-mark" in c.text())
    assert fence.attrs["class"] == "language-pull"


def test_links_made_from_the_address_are_quoted(hostile: tuple[str, dict[str, bytes]],
                                                parsed: dict[str, Node]) -> None:
    url, _ = hostile
    base = repository_link(url)
    assert not set(base) & set("\"'<> "), base
    made = {repository_link(url, "pull", "160"), repository_link(url, "commit", "57930e6")}
    hrefs = {a.attrs.get("href", "") for page in parsed.values()
             for a in page.find_all("a")}
    assert made <= hrefs
    for href in hrefs:
        if href.startswith("https://example.org/") and re.search(r"/(pull|issues|commit)/",
                                                                 href):
            assert re.fullmatch(re.escape(base) + r"/(pull|issues|commit)/[0-9a-f]+", href), href


def test_a_table_row_does_not_split_at_a_reference_s_pipe(
        parsed: dict[str, Node]) -> None:
    row = next(tr for tr in parsed["injection/index.html"].find_all("tr")
               if "cell-mark" in tr.text())
    cells = row.find_all("td")
    assert len(cells) == 2
    assert re.fullmatch(r"piped-mark [\d.]+\s?%", cells[1].text()), cells[1].text()


def test_a_reference_in_an_image_s_alt_text_of_the_example(example_copy: Path) -> None:
    """The example's own commit reference, in alt text: once it broke the markup."""
    page = example_copy / "content" / "en" / "index.md"
    page.write_text(page.read_text("utf-8") + "\n![Merged as {{ commits.c38a01e }}]"
                    "(assets/a.png)\n", "utf-8")
    (example_copy / "templates" / "assets").mkdir(parents=True)
    (example_copy / "templates" / "assets" / "a.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    html = parse_html(build(example_copy)["index.html"])
    image = html.find("img", src="assets/a.png")
    assert image.attrs["alt"] == "Merged as pull request #160"


@pytest.mark.parametrize("text", [
    "&#123;&#123; commits.c38a01e }}", "\\{{ commits.c38a01e }}", "\\{{ names.nothing }}",
    "[x](https://example.org/{{commits.c38a01e}})",  # an address is never printed into
])
def test_what_is_not_a_reference_is_printed_as_written(text: str, example_copy: Path) -> None:
    page = example_copy / "content" / "en" / "index.md"
    page.write_text(page.read_text("utf-8") + f"\nNot one: {text}\n", "utf-8")
    html = build(example_copy)["index.html"].decode()
    paragraph = next(p for p in parse_html(html).find_all("p") if "Not one:" in p.text())
    assert "pull request #160" not in paragraph.text()
    assert not paragraph.find_all("a", href=repository_link(
        "https://github.com/meridian-proxy/meridian", "pull", "160"))


# Markdown pieces around references, and words for the references that would be markup
# if anything printed them unescaped.
PIECES = ["{{ a }}", "{{ b | c }}", "![", "](x.png", ' "', '")', "[", "](https://e.org/",
          ")", "`", "```", "\n", "\n\n", "# ", "| ", " |", "\n|---|---|\n", "*", "**",
          "_", "> ", "- ", "    ", "\\", "&#123;", "<", ">", '"', "'", "words", " ", "{{",
          "}}", "[d]: https://e.org/d \"", "{#id}"]
HOSTILE = Printed('<img src=x onerror=window.x=1> "\'><script>window.x=1</script>',
                  'https://e.org/"onmouseover="window.x=1"\'><script>')


def markup(html: str) -> list[str]:
    """What in `html` could run: elements that script, and event-handler attributes."""
    found = []
    for node in parse_html(html).iter():
        found += [node.tag] if node.tag == "script" else []
        found += [name for name in node.attrs if name.lower().startswith("on")]
    return found


def test_the_check_sees_what_the_old_placeholders_made() -> None:
    old = '<p><img src="x.png" alt="<a href="https://e.org/onerror=window.x=1//x">"></p>'
    assert markup(old) == ["onerror"]


@pytest.mark.slow  # fuzzing, 1,500 texts: CI runs it
@settings(max_examples=1500, derandomize=True, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14).map("".join))
def test_any_markdown_prints_a_reference_s_words_as_text(source: str) -> None:
    for refer in (lambda expression: HOSTILE,
                  lambda expression: Printed(HOSTILE.text, HOSTILE.href, code=True)):
        assert markup(markdown_html(source, refer)) == [], source
        assert markup(inline_html(source, refer)) == [], source
