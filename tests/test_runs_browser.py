"""Runs, profiles and measurements as tables, and the legend, in a real browser (issue
#24, items 1 and 4): how tall three runs are, tables that reflow on a phone, badges that
never run into their words (on the benchmarks dashboard too), and axe-core on the new
pages (tests/browser.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import browser
from .runs_site import runs_source
from .test_browser import WIDTHS, built, opened

# The three runs of tests/runs_site.py at 1280 px, from the top of the first to the
# bottom of the last, as main drew them before they were tables (d7d9e0e, both
# languages): one collapsed "Source" a test, notes under it, a line a figure.
TALL_BEFORE = 4722
LANGS = {"en": "", "fr": "fr/"}
# The first run's top to the last one's bottom, in CSS pixels.
RUNS_HEIGHT_JS = """() => {
    const runs = [...document.querySelectorAll('section.run')];
    return runs[runs.length - 1].getBoundingClientRect().bottom
         - runs[0].getBoundingClientRect().top;
}"""
# Every legend entry: its badge's box and its words' box.
LEGEND_JS = """() => [...document.querySelectorAll('.legend div')].map(d => {
    const b = d.querySelector('.badge').getBoundingClientRect();
    const w = d.querySelector('dd').getBoundingClientRect();
    return {status: d.querySelector('.badge').textContent,
            badge: [b.left, b.top, b.right, b.bottom], words: [w.left, w.top, w.right, w.bottom]};
})"""
# Whatever of a table's rows reaches past the window's right edge.
WIDE_ROWS_JS = """() => [...document.querySelectorAll('table.items tr')]
    .filter(r => r.getBoundingClientRect().right > innerWidth + 0.5)
    .map(r => r.textContent.trim().slice(0, 60))"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of tests/runs_site.py, built as `python build.py --strict` would."""
    root = tmp_path_factory.mktemp("runs")
    return built(runs_source(root / "src"), root / "site")



@pytest.fixture(scope="module")
def base(site: Path) -> Iterator[str]:
    with browser.serve(site) as url:
        yield url


@pytest.mark.parametrize("lang", LANGS)
def test_three_runs_are_at_most_half_as_tall(chromium: Any, base: str, lang: str) -> None:
    with opened(chromium, base, f"{LANGS[lang]}runs/index.html") as (page, seen):
        height = page.evaluate(RUNS_HEIGHT_JS)
        assert height <= TALL_BEFORE / 2, f"{height:.0f} px, {TALL_BEFORE} px before"
        assert seen.problems() == []


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", ["runs/index.html", "index.html", "figures/index.html"])
def test_tables_reflow_on_a_phone(chromium: Any, base: str, lang: str, path: str) -> None:
    with opened(chromium, base, LANGS[lang] + path, width="phone") as (page, seen):
        assert page.evaluate(WIDE_ROWS_JS) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS["phone"][
            "width"], "the page scrolls sideways"
        # A row reads as a card: its header above its cells, no column of headers.
        assert page.evaluate("""() => getComputedStyle(
            document.querySelector('table.items tr')).display""") == "block"
        assert seen.problems() == []


def apart(a: list[float], b: list[float]) -> bool:
    """Whether two boxes (left, top, right, bottom) share no pixel."""
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", ["statuses/index.html", "index.html",
                                  "benchmarks/index.html"])
def test_legend_badges_never_run_into_their_words(chromium: Any, base: str, width: str,
                                                  lang: str, path: str) -> None:
    with opened(chromium, base, LANGS[lang] + path, width=width) as (page, seen):
        entries = page.evaluate(LEGEND_JS)
        assert entries
        for entry in entries:
            assert apart(entry["badge"], entry["words"]), entry
            assert entry["badge"][2] <= WIDTHS[width]["width"], entry
        assert seen.problems() == []


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("path", ["runs/index.html", "fr/figures/index.html",
                                  "fr/statuses/index.html", "fr/benchmarks/index.html"])
def test_new_pages_pass_axe(chromium: Any, base: str, width: str, path: str) -> None:
    with opened(chromium, base, path, width=width) as (page, seen):
        assert browser.axe_violations(page) == []
        assert seen.problems() == []
