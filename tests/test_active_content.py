"""A site's own templates may write markup, never active content: no page of theirs may
hold a script, an event handler, a `javascript:` address, a frame, a plugin, a form,
`<base>` or a refresh. Checked on each rendered page, so computed markup is seen too.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from progress_site import cli
from progress_site.render.active import active_content, surely_inert
from progress_site.watch.livereload import SCRIPT_TEXT, inject
from progress_site.watch.livestate import Status

from .conftest import TEMPLATES, copy_hostile_base
from .test_pipeline import run_build

GOLDEN = Path(__file__).parent / "golden"

REFUSED = [
    ("<script>x</script>", "a <script> element"),
    ("<SCRIPT src=x></SCRIPT>", "a <script> element"),
    ("<svg/onload=alert(1)>", "an event handler (onload=)"),
    ('<a href="x"onclick="y">', "an event handler (onclick=)"),
    ('<a href="&#106;avascript:alert(1)">', "a javascript: address in href="),
    ('<a href=" java\tscript:x">', "a javascript: address in href="),
    ('<a xlink:href="VBScript:x">', "a vbscript: address in xlink:href="),
    ('<a href="data:text/html,x">', "a data: address in href="),
    ('<button formaction="javascript:x">', "a javascript: address in formaction="),
    ('<svg><use href="data:image/svg+xml,x"/></svg>', "a data: address in href="),
    ('<svg><set attributeName=href values="https://x;javascript:alert(1)"/>',
     "a javascript: address in values="),
    ("<iframe src=x></iframe>", "a <iframe> element"),
    ("<object data=x></object>", "a <object> element"),
    ("<embed src=x>", "a <embed> element"),
    ("<base href=//evil/>", "a <base> element"),
    ("<form action=x></form>", "a <form> element"),
    ('<meta http-equiv="Refresh" content="0;url=x">', "a <meta http-equiv=refresh>"),
    # Where html.parser and a browser read a text apart, it is read both ways.
    ("<!-- --!><script>x</script> -->", "a <script> element"),
    ("<!--><img src=x onerror=1>-->", "an event handler (onerror=)"),
    ("<![CDATA[><img src=x onerror=1>]]>", "an event handler (onerror=)"),
    ('<title><p title="</title><img src=x onerror=1>"></title>', "an event handler (onerror=)"),
    ("<svg><style><img src=x onerror=1></style></svg>", "an event handler (onerror=)"),
    ("<svg><title><img src=x onerror=1></title></svg>", "an event handler (onerror=)"),
    ('<noscript><p title="</noscript><img src=x onerror=1>"></noscript>',
     "a <noscript> element"),
    ('<style/><p title="</style><img src=x onerror=1>">', "markup that cannot be checked"),
    ("<a\x00onclick=1>", "markup that cannot be checked"),
    ("<style>" * 20 + "<p>", "markup nested too deep to check"),
]


@pytest.mark.parametrize(("html", "what"), REFUSED)
def test_active_content_is_found_however_written(html: str, what: str) -> None:
    assert [found[0] for found in active_content(html)][:1] == [what]


@pytest.mark.parametrize("html", [
    "<p>a &lt;script&gt; b, one=1 on=2</p>",
    '<link rel="icon" href="data:,">',
    '<img src="data:image/png;base64,iVBO" alt="">',
    '<a href="https://example.org/?q=javascript:">x</a>',
    "<style>a > b { color: red }</style>",
    "<title>A &amp; B</title><p>1 < 2</p><!-- a comment --><!doctype html>",
    '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'">',
    '<p title="javascript:alert(1)" data-on="x">words</p>',
])
def test_active_content_ok(html: str) -> None:
    assert active_content(html) == []


def test_the_engines_pages_hold_none_and_forbid_script() -> None:
    """The theme writes no active content (it is not checked at each build), and its
    pages tell the browser to run no script and load nothing from another host."""
    pages = sorted(GOLDEN.rglob("*.html"))
    assert len(pages) >= 6
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert active_content(html) == [], page
        assert ('<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
                "style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
                "base-uri 'none'; form-action 'none'\">") in html, page


@pytest.fixture
def base(tmp_path: Path) -> Path:
    copy_hostile_base(tmp_path / "src")
    (tmp_path / "src" / "templates").mkdir()
    return tmp_path / "src"


def page_template(base: Path, main: str) -> None:
    (base / "templates" / "page.html").write_text(
        "{% extends 'base.html' %}{% block main %}\n" + main + "\n{% endblock %}\n",
        encoding="utf-8")


def refused(base: Path, out: Path) -> str:
    """The errors of a build that failed cleanly, the previous site untouched."""
    (out / "index.html").parent.mkdir(parents=True)
    run_build("--source", base, "--out", out)  # nothing yet: builds
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    page_template(base, (base / "main.txt").read_text(encoding="utf-8"))
    result = run_build("--source", base, "--out", out)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    return result.stderr


HINT = ("    hint: a site's templates may write markup, but nothing a browser runs or loads "
        "into the page: no <script>, event handler (on...=), javascript:, vbscript: or "
        "data: address, <iframe>, <object>, <embed>, <base>, <form> or <meta "
        "http-equiv=refresh> (docs/security.md, \"Templates and catalogs of a site\")\n")


def test_a_templates_script_is_told_at_its_line(base: Path, tmp_path: Path) -> None:
    (base / "main.txt").write_text('<p>{{ page.meta.title }}</p>\n<script>alert(1)</script>\n'
                                   '<img src="x.png" alt="" onerror="alert(2)">',
                                   encoding="utf-8")
    err = refused(base, tmp_path / "out")
    assert err == (
        "templates/page.html:3:1: this template writes a <script> element, which no page "
        "may hold\n    <script>alert(1)</script>\n    ^\n" + HINT +
        "templates/page.html:4:25: this template writes an event handler (onerror=), which "
        "no page may hold\n    <img src=\"x.png\" alt=\"\" onerror=\"alert(2)\">\n"
        + " " * 28 + "^\n" + HINT +
        "Aborted with 2 template errors.\nThe previous site was left as it was.\n")


def test_computed_markup_is_told_at_the_page(base: Path, tmp_path: Path) -> None:
    (base / "main.txt").write_text('{{ ("<scr" ~ "ipt>alert(1)</scr" ~ "ipt>")|safe }}',
                                   encoding="utf-8")
    err = refused(base, tmp_path / "out")
    assert err.startswith(
        "content/en/index.md: this page, as its template page.html renders it, holds a "
        "<script> element (<script>), which no page may hold\n" + HINT +
        "content/fr/index.md: this page,")


def test_a_stylesheet_that_closes_the_404_pages_style_is_refused(
        base: Path, tmp_path: Path) -> None:
    (base / "main.txt").write_text("<p>{{ page.meta.title }}</p>", encoding="utf-8")
    (base / "templates" / "assets").mkdir()
    (base / "templates" / "assets" / "style.css").write_text(
        "body { margin: 0 }\n</style><script>alert(1)</script>\n", encoding="utf-8")
    err = refused(base, tmp_path / "out")
    assert err.startswith("templates/assets/style.css:2:9: this file writes a <script> "
                          "element, which no page may hold\n")


def test_a_templates_markup_ok(base: Path, tmp_path: Path) -> None:
    page_template(base, '<section class="x" title="on=1"><h2>{{ page.meta.title }}</h2>'
                        '<a href="https://example.org/">x</a><svg viewBox="0 0 1 1">'
                        '<title>t</title><rect width="1" height="1"/></svg></section>')
    result = run_build("--source", base, "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert '<section class="x"' in (tmp_path / "out" / "index.html").read_text()


def test_the_preview_lets_its_own_script_run_and_no_other() -> None:
    """The page forbids every script; the preview adds its live-reload script, so the
    policy it serves allows that script by its hash, and its requests to the server."""
    page = (GOLDEN / "index.html").read_bytes()
    served = inject(page, Status(version="1", assets="a", error=None)).decode()
    script = SCRIPT_TEXT.search(served)
    assert script is not None
    import base64
    import hashlib
    digest = base64.b64encode(hashlib.sha256(script.group(1).encode()).digest()).decode()
    assert ("content=\"default-src 'none'; style-src 'self' 'unsafe-inline'; img-src "
            "'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
            f"script-src 'sha256-{digest}'\"") in served


@pytest.mark.parametrize(("html", "what"), [
    *REFUSED,
    ('<meta http-equiv = "&#82;efresh" content=1>', ""),
    ('<a href  =  "\x01java\tscript:1">', ""),
    ("<a href=java&Tab;script:1>", ""),
    ('<svg><animate VALUES = "x;&#106;avascript:1">', ""),
])
def test_a_page_that_may_hold_active_content_is_read(html: str, what: str) -> None:
    """Pages are read by html.parser only when a quick look cannot rule it out: that
    look misses nothing a browser would run (html.parser's own doubts aside)."""
    if what not in ("markup that cannot be checked", "markup nested too deep to check"):
        assert active_content(html)
        assert not surely_inert(html)


def test_the_engines_pages_need_no_reading() -> None:
    assert all(surely_inert(p.read_text(encoding="utf-8")) for p in GOLDEN.rglob("*.html"))


def test_a_site_whose_every_page_fails_reads_its_templates_once(
        base: Path, tmp_path: Path) -> None:
    """Each page holding active content is told at the template's line, but the site's
    templates are read for that once a build, not once a page: as often with eight
    pages as with two."""
    page_template(base, "<script>alert(1)</script>")
    opened: list[str] = []
    sys.addaudithook(lambda event, args: opened.append(str(args[0]))
                     if event == "open" and opened and opened[0] == "counting" else None)
    reads = []
    for extra in (0, 3):
        for lang in ("en", "fr"):
            for i in range(extra):
                (base / "content" / lang / f"more{i}.md").write_text(
                    f"---\ntitle: More {i}\n---\nWords.\n")
        opened[:] = ["counting"]
        assert cli.main(["--source", str(base), "--out", str(tmp_path / "out")],
                        TEMPLATES) == 1
        reads.append(opened.count(str(base / "templates" / "page.html")))
        opened.clear()
    assert reads[0] == reads[1] > 0
