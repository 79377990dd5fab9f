"""The example site in a real browser: clean loads, axe-core, the keyboard, screenshots, print.

Debian's Chromium (/usr/bin/chromium) driven by Playwright; axe-core from the npm package
`axe-core` (see tests/browser.py). Without them these tests skip, except under CI where
they fail. The screenshots in docs/screenshots/ are written by `test_screenshots`.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from progress_site.cli import main

from . import browser
from .conftest import REPO, SOURCE_DATE_EPOCH, TEMPLATES
from .history_site import history_source

SCREENSHOTS = REPO / "docs" / "screenshots"
WIDTHS = {"phone": browser.PHONE, "desktop": browser.DESKTOP}
SCHEMES = ("light", "dark")
# Screenshots are for the README: keep them small enough for a repository.
MAX_SCREENSHOT_BYTES = 600_000


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example site, built as `python build.py --strict` would."""
    return built(REPO, tmp_path_factory.mktemp("browser") / "site")


def built(source: Path, out: Path) -> Path:
    """A site built as `python build.py --strict` would, at the tests' date."""
    saved = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = SOURCE_DATE_EPOCH
    err = io.StringIO()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = main(["--source", str(source), "--out", str(out), "--strict"], TEMPLATES)
    finally:
        if saved is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = saved
    assert code == 0, err.getvalue()
    return out


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example with history files (tests/history_site.py): a dashboard and a page
    per series, whose chart the example has none of."""
    root = tmp_path_factory.mktemp("history")
    return built(history_source(root / "src"), root / "site")


@pytest.fixture(scope="module")
def history_base(history: Path) -> Iterator[str]:
    with browser.serve(history) as url:
        yield url



@pytest.fixture(scope="module")
def base(site: Path) -> Iterator[str]:
    with browser.serve(site) as url:
        yield url


def pages(site: Path) -> list[str]:
    """Every page of the site, as paths relative to its root."""
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))


def language_pages(site: Path) -> dict[str, str]:
    """The home page of each language: {language: path}."""
    found = {}
    for path in pages(site):
        lang = re.search(r'<html lang="([^"]+)"', (site / path).read_text("utf-8"))
        if lang and path in ("index.html", f"{lang.group(1)}/index.html"):
            found[lang.group(1)] = path
    return found


@contextlib.contextmanager
def opened(chromium: Any, base: str, path: str, *, width: str = "desktop",
           scheme: str = "light") -> Iterator[tuple[Any, browser.Watched]]:
    """A page loaded in a fresh tab, watched; closed on exit."""
    page = chromium.new_page(viewport=WIDTHS[width])
    page.emulate_media(color_scheme=scheme)
    seen = browser.watch(page, base)
    page.goto(base + path, wait_until="load")
    try:
        yield page, seen
    finally:
        page.close()


def axe_in_both_schemes(page: Any, path: str, width: str) -> list[str]:
    """What axe finds on a loaded page, light (every rule), then dark (the rules that read
    colours: style.css changes colours only, so the rest would find the same again)."""
    found = []
    for scheme, rules in (("light", ()), ("dark", browser.COLOUR_RULES)):
        page.emulate_media(color_scheme=scheme)
        found += [f"{path} ({scheme}, {width}): {v}"
                  for v in browser.axe_violations(page, rules)]
    return found


def test_every_page_is_found(site: Path) -> None:
    assert {"index.html", "fr/index.html"} <= set(pages(site))
    assert set(language_pages(site)) == {"en", "fr"}


@pytest.mark.parametrize("width", WIDTHS)
def test_benchmark_pages_load_cleanly_and_pass_axe(chromium: Any, history_base: str,
                                                   history: Path, width: str) -> None:
    """The dashboard and every series' page, chart included: clean loads, no sideways
    scroll, nothing axe finds in either colour scheme, and one chart shown per screen
    size."""
    shown = "narrow" if width == "phone" else "wide"
    for path in [p for p in pages(history) if "benchmarks/" in p]:
        with opened(chromium, history_base, path, width=width) as (page, seen):
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= WIDTHS[width]["width"], f"{path} scrolls sideways ({wide} px)"
            violations = axe_in_both_schemes(page, path, width)
            assert violations == [], "\n".join(violations)
            assert seen.problems() == [], path
            visible = page.evaluate("[...document.querySelectorAll('svg.series-svg')]"
                                    ".filter(s => s.getBoundingClientRect().width > 0)"
                                    ".map(s => s.classList[1])")
            assert visible in ([], [shown]), path


@pytest.mark.parametrize("width", WIDTHS)
def test_pages_load_cleanly_and_pass_axe(chromium: Any, base: str, site: Path,
                                         width: str) -> None:
    """No console error, no failed request, nothing from another host; axe finds nothing
    in either colour scheme, with every <details> open so that what they hold is checked
    too."""
    for path in pages(site):
        with opened(chromium, base, path, width=width) as (page, seen):
            assert seen.problems() == [], path
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= WIDTHS[width]["width"], f"{path} scrolls sideways ({wide} px)"
            violations = axe_in_both_schemes(page, path, width)
            assert violations == [], "\n".join(violations)
            assert seen.problems() == [], path


def test_keyboard_reaches_every_link_and_details(chromium: Any, base: str,
                                                  site: Path) -> None:
    for path in pages(site):
        with opened(chromium, base, path) as (page, _):
            walk = browser.keyboard_walk(page)
            names = walk.names
            assert walk.reached, path
            assert names[walk.reached[0]].startswith('<a class="skip" href="#main"')
            missed = [names[i] for i in walk.expected if i not in walk.reached]
            assert missed == [], f"{path}: Tab never reaches {missed}"
            assert walk.reached == walk.expected, f"{path}: Tab goes out of document order"
            links = page.evaluate("document.querySelectorAll('a[href]').length")
            summaries = page.evaluate("document.querySelectorAll('summary').length")
            tags = [names[i].split(" ", 1)[0].split(">", 1)[0] for i in walk.reached]
            assert (tags.count("<a"), tags.count("<summary")) == (links, summaries), path
            unseen = [names[i] for i in walk.unseen]
            assert unseen == [], f"{path}: no visible focus on {unseen}"


def test_skip_link_moves_to_the_content(chromium: Any, base: str, site: Path) -> None:
    with opened(chromium, base, "index.html") as (page, _):
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        assert page.evaluate("location.hash") == "#main"
        assert page.evaluate("document.querySelector('main').id") == "main"


@pytest.mark.parametrize("width", WIDTHS)
def test_screenshots(chromium: Any, base: str, site: Path, width: str) -> None:
    """docs/screenshots/{en,fr}-{phone,desktop}-{light,dark}.png, as the README shows them:
    each page loaded once, shown in one scheme, then the other. A run that writes none of
    them (`browser.screenshots_wanted`) takes none: what it checks is each scheme's colours
    and width."""
    for lang, path in language_pages(site).items():
        with opened(chromium, base, path, width=width) as (page, seen):
            for scheme in SCHEMES:
                page.emulate_media(color_scheme=scheme)
                background = page.evaluate("getComputedStyle(document.body).backgroundColor")
                assert (background == "rgb(255, 255, 255)") == (scheme == "light"), background
                if browser.screenshots_wanted():
                    png = page.screenshot(full_page=True, animations="disabled", caret="hide")
                    browser.keep_screenshot(SCREENSHOTS / f"{lang}-{width}-{scheme}.png", png,
                                            MAX_SCREENSHOT_BYTES)
                scroll_width = page.evaluate("document.documentElement.scrollWidth")
                assert scroll_width <= WIDTHS[width]["width"], f"{path} scrolls sideways"
            assert seen.problems() == []


def test_print(chromium: Any, base: str, site: Path) -> None:
    for path in pages(site):
        with opened(chromium, base, path) as (page, seen):
            page.emulate_media(media="print")
            hidden = page.evaluate("""() => [...document.querySelectorAll(
                '.languages, .skip')].map(e => getComputedStyle(e).display)""")
            assert hidden and set(hidden) == {"none"}, path
            colour = page.evaluate("getComputedStyle(document.body).color")
            assert colour == "rgb(0, 0, 0)", colour
            pdf = page.pdf(format="A4", print_background=False)
            assert pdf.startswith(b"%PDF-") and len(pdf) > 10_000
            assert seen.problems() == []


# Each ISO date of a page's text (`2026-10-19`) that the browser laid out on more than
# one line: a line may break after a hyphen.
CUT_DATES_JS = r"""() => {
    const out = [], walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n; (n = walker.nextNode());) {
        for (const m of n.data.matchAll(/\d{4}-\d{2}-\d{2}/g)) {
            const range = document.createRange();
            range.setStart(n, m.index);
            range.setEnd(n, m.index + m[0].length);
            const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
                                 .map(r => Math.round(r.top)));
            if (tops.size > 1) out.push(m[0] + ' in ' + n.parentElement.tagName);
        }
    }
    return out;
}"""


@pytest.mark.parametrize("width", [375, 1280])
def test_no_date_is_cut_at_a_hyphen(chromium: Any, base: str, site: Path, width: int) -> None:
    """The four-way page's title ends with (2026-10-19): it read '(2026-10-' then '19)'
    at 1280 and 375 px wide, and its prose's 2026-10-18 was cut at 375."""
    cut = []
    for path in pages(site):
        page = chromium.new_page(viewport={"width": width, "height": 900})
        page.goto(base + path, wait_until="load")
        cut += [f"{path}: {date}" for date in page.evaluate(CUT_DATES_JS)]
        page.close()
    assert cut == []


# Each table region whose table is wider than it (it scrolls sideways), and the page's
# own width against the window's.
SCROLLED_JS = """() => [[...document.querySelectorAll('.table-wrap')]
    .filter(t => t.scrollWidth > t.clientWidth + 1)
    .map(t => t.getAttribute('aria-labelledby') + ': ' + t.scrollWidth + ' > ' + t.clientWidth),
    document.documentElement.scrollWidth - innerWidth]"""


def test_a_wide_table_shows_every_column_on_a_desktop(chromium: Any, base: str,
                                                      site: Path) -> None:
    """The four-way results, 14 columns, hid their last ones behind a scroll at 1280 px
    (993 px of table in 928 of text, 1,125 in French): on a wide screen a dataset's table
    takes the room beside the text, and the page still does not scroll sideways."""
    for path in pages(site):
        with opened(chromium, base, path) as (page, _):
            assert page.evaluate(SCROLLED_JS) == [[], 0], path


def test_a_wide_image_fits_a_phone(chromium: Any, tmp_path: Path) -> None:
    """An image of a page's prose (templates/assets/, as docs/data-format.md says) wider
    than the column is shrunk to it, not left to push the page sideways."""
    source = tmp_path / "src"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["new", str(source), "--name", "Wide", "--repo",
                     "https://github.com/o/wide"], TEMPLATES) == 0
    (source / "templates" / "assets").mkdir(parents=True)
    (source / "templates" / "assets" / "wide.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="200">'
        '<rect width="1600" height="200" fill="#48c"/></svg>', "utf-8")
    page = source / "content" / "en" / "index.md"
    page.write_text(page.read_text("utf-8") + "\n![A wide picture](assets/wide.svg)\n",
                    "utf-8")
    site = tmp_path / "site"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["--source", str(source), "--out", str(site)], TEMPLATES) == 0
    with browser.serve(site) as url, opened(chromium, url, "index.html",
                                            width="phone") as (tab, seen):
        image = tab.evaluate("document.querySelector('main img').getBoundingClientRect()"
                             ".width")
        assert 0 < image <= browser.PHONE["width"] - 16
        assert tab.evaluate("document.documentElement.scrollWidth") <= browser.PHONE["width"]
        assert seen.problems() == []


# The right edge of each table caption of a page, and the window's width.
CAPTIONS_JS = """() => [[...document.querySelectorAll('caption')].map(c => [c.id,
    Math.round(c.getBoundingClientRect().right)]), innerWidth]"""


def test_a_series_caption_wraps_on_a_phone(chromium: Any, tmp_path: Path) -> None:
    """A prose page's `series` block put its table's caption in the region that scrolls
    sideways at 375 px: the caption ran as wide as the table, its end off the screen. It
    wraps within the screen, the table alone scrolls."""
    source = history_source(tmp_path / "src")
    for lang in ("en", "fr"):
        page = source / "content" / lang / "index.md"
        page.write_text(page.read_text("utf-8") + "\n{{< series startup >}}\n",
                        "utf-8")
    site = built(source, tmp_path / "site")
    with browser.serve(site) as url:
        for path in ("index.html", "fr/index.html"):
            tab = chromium.new_page(viewport={"width": 375, "height": 812})
            tab.goto(url + path, wait_until="load")
            captions, width = tab.evaluate(CAPTIONS_JS)
            tab.close()
            ours = [(name, right) for name, right in captions if name.startswith("series-")]
            assert ours and all(right <= width for _, right in ours), (path, ours, width)


def test_every_caption_of_a_history_site_fits_a_phone(chromium: Any, tmp_path: Path) -> None:
    """The dashboard's tables (the steps found, each group's benchmarks) kept their
    captions in the region that scrolls sideways: at 375 px a caption ran as wide as its
    table, its end off the screen. Every caption of every page wraps within the screen."""
    site = built(history_source(tmp_path / "src"), tmp_path / "site")
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("index.html"))
    seen = []
    with browser.serve(site) as url:
        tab = chromium.new_page(viewport={"width": 375, "height": 812})
        for path in pages:
            tab.goto(url + path, wait_until="load")
            captions, width = tab.evaluate(CAPTIONS_JS)
            seen += [name for name, _ in captions]
            past = [(name, right) for name, right in captions if right > width]
            assert past == [], (path, past, width)
        tab.close()
    assert any(name.startswith("group-") for name in seen), seen




# Each element of a page's main part whose right edge passes the window (the regions
# that scroll sideways, code and charts aside), with the page's own width.
PAST_THE_EDGE_JS = """() => [document.documentElement.scrollWidth,
    [...document.querySelectorAll('main *')].filter(e => !e.closest('.table-wrap, pre, svg'))
    .filter(e => e.getBoundingClientRect().right > innerWidth + 0.5)
    .map(e => e.tagName + '.' + e.className)]"""
# A study of two versions whose sides read imported distributions (docs/data-format.md,
# "Three contenders or more"): each side's source lists its input's parts.
FROM_SERIES = """measurements:
  - id: query-old
    title: Query mix, 1.0
    figure: {distribution: {p50: 719, mean: 688, sd: 114, iqr: 220, n: 12}, unit: ms,
             machine: laptop, date: 2026-11-16, commit: e4f5a6b}
  - id: query-new
    title: Query mix, 2.0
    figure: {distribution: {p50: 487, mean: 509.8, sd: 101, iqr: 94.2, n: 12}, unit: ms,
             machine: laptop, date: 2026-11-16, commit: e4f5a6b}
studies:
  - id: versions
    title: 1.0 against 2.0
    before: {name: QuillDB, version: "1.0"}
    after: {name: QuillDB, version: "2.0"}
    machine: laptop
    date: 2026-11-16
    comparisons:
      - id: query
        title: Query mix
        unit: ms
        wording: {en: less time, fr: moins de temps}
        before: {formula: measurements.query-old}
        after: {formula: measurements.query-new}
"""


def test_a_derived_figures_source_fits_a_phone(chromium: Any, tmp_path: Path) -> None:
    """A comparison's side computed from a distribution listed that input's parts (each
    held on one line) beside 'Computed from' at 375 px: opened, its source pushed the
    card 23 px past the screen's edge. On a phone a source's labels stand over their
    values, and nothing passes the edge."""
    added = "\n{{< comparisons versions >}}\n"
    for path, tab in new_site_on_a_phone(chromium, tmp_path, {"en": added, "fr": added},
                                         {"versions.yaml": FROM_SERIES}):
        tab.evaluate("() => document.querySelectorAll('details.source')"
                     ".forEach(d => { d.open = true; })")
        assert tab.evaluate("document.querySelectorAll('ul.inputs').length") == 2
        assert tab.evaluate(PAST_THE_EDGE_JS) == [375, []], path


def new_site_on_a_phone(chromium: Any, tmp_path: Path, pages: dict[str, str],
                        data: dict[str, str] | None = None) -> Iterator[tuple[str, Any]]:
    """A site `new` wrote, with `pages[lang]` added to each home page and `data` files
    written, built and opened at 375 px: each home page's path and its tab."""
    source, site = tmp_path / "src", tmp_path / "site"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["new", str(source), "--name", "Quill", "--repo",
                     "https://github.com/o/quill"], TEMPLATES) == 0
    for name, text in (data or {}).items():
        (source / "data" / name).write_text(text, "utf-8")
    for lang, added in pages.items():
        page = source / "content" / lang / "index.md"
        page.write_text(page.read_text("utf-8") + added, "utf-8")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["--source", str(source), "--out", str(site)], TEMPLATES) == 0
    with browser.serve(site) as url:
        for path in ("index.html", "fr/index.html"):
            tab = chromium.new_page(viewport={"width": 375, "height": 812})
            tab.goto(url + path, wait_until="load")
            yield path, tab
            tab.close()


# A table of a page's prose, four columns of French headings (a conformance page).
PROSE_TABLES = {
    "en": "| Category | Passed | Failed | Pass rate |\n|---|--:|--:|--:|\n"
          "| Comparisons | 500 | 0 | 100% |\n\n| Machine | Cores |\n|---|--:|\n| CI | 2 |\n",
    "fr": "| Catégorie | Réussis | Échoués | Taux de réussite |\n|---|--:|--:|--:|\n"
          "| Comparaisons | 500 | 0 | 100 % |\n\n| Machine | Cœurs |\n|---|--:|\n| CI | 2 |\n",
}


def test_a_prose_table_scrolls_on_its_own_on_a_phone(chromium: Any, tmp_path: Path) -> None:
    """A Markdown table of a page, as wide as its French headings, pushed the whole page
    35 px sideways at 375 px: it scrolls in a region of its own (named by its columns,
    reachable by the keyboard), and axe finds nothing to say of two such regions."""
    tables = {lang: "\n" + table for lang, table in PROSE_TABLES.items()}
    for path, tab in new_site_on_a_phone(chromium, tmp_path, tables):
        assert tab.evaluate(PAST_THE_EDGE_JS) == [375, []], path
        regions = tab.evaluate("[...document.querySelectorAll('main .table-wrap')]"
                               ".map(r => [r.getAttribute('aria-label'), r.tabIndex])")
        assert [r for r in regions if r[0]] == (
            [["Table: Category, Passed, Failed, Pass rate", 0],
             ["Table: Machine, Cores", 0]] if path == "index.html" else
            [["Tableau\u00a0: Catégorie, Réussis, Échoués, Taux de réussite", 0],
             ["Tableau\u00a0: Machine, Cœurs", 0]])
        assert browser.axe_violations(tab) == [], path

STACKED = """---
title: Test report
---
{{< run real-network >}}

{{< run hand-over >}}

{{< measurements compile-gcc compile-clang memory-500-after form=table >}}
"""
# Two figures as an import of hyperfine makes them: a distribution each.
DISTRIBUTIONS = """measurements:
  - id: compile-gcc
    title: {en: "Compile time, gcc -O2", fr: "Temps de compilation, gcc -O2"}
    figure: {distribution: {p50: 166, mean: 157.3, sd: 36.6, iqr: 68.6, n: 12}, unit: ms,
             machine: test-pc, date: 2026-11-08, commit: c38a01e, status: watch,
             method: {en: "hyperfine, 12 runs", fr: "hyperfine, 12 passages"}}
  - id: compile-clang
    title: {en: "Compile time, clang -O2", fr: "Temps de compilation, clang -O2"}
    figure: {distribution: {p50: 175.9, mean: 163.9, sd: 55.7, iqr: 99.7, n: 12}, unit: ms,
             machine: test-pc, date: 2026-11-08, commit: c38a01e, status: watch}
"""


def test_blocks_one_under_the_other_stand_apart_and_tables_stay_in_the_column(
        chromium: Any, tmp_path: Path) -> None:
    """A test report places runs one under the other: their cards stood edge to edge, and
    a table of measurements with a wide value passed the text column at 1280 px."""
    from .sites import source_copy

    source = source_copy(tmp_path, "src")
    for lang in ("en", "fr"):
        (source / "content" / lang / "report.md").write_text(STACKED, "utf-8")
    (source / "data" / "distributions.yaml").write_text(DISTRIBUTIONS, "utf-8")
    site = built(source, tmp_path / "site")
    with browser.serve(site) as url, opened(chromium, url, "report/index.html") as (page, _):
        boxes = page.evaluate("""() => [...document.querySelectorAll('section.run')]
                                 .map(e => { const r = e.getBoundingClientRect();
                                             return [r.top, r.bottom]; })""")
        assert len(boxes) == 2 and boxes[1][0] - boxes[0][1] >= 8, boxes
        column, table = page.evaluate("""() => [document.querySelector('main'),
              document.querySelector('table.measurements-table')].map(e => {
              const r = e.getBoundingClientRect(); return [r.left, r.right]; })""")
        assert table[1] <= column[1] + 0.5, (column, table)
