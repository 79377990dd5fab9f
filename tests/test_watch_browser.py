"""Watch mode in a real browser: Debian's Chromium, driven by Playwright, reloads by itself.

Nothing here downloads a browser: without /usr/bin/chromium the tests skip (they fail
under CI, which must run them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import browser
from .test_watch import (
    BROKEN,
    NEW_EN,
    NEW_FR,
    NEW_VALUE,
    OLD_EN,
    OLD_VALUE,
    REPO,
    Watch,
    edit,
    studies,
)

WAIT_MS = 15_000  # every browser wait is bounded
SHOWS = "(text) => document.body.textContent.includes(text)"
CLEAN = ("(text) => document.body.textContent.includes(text)"
         " && !document.querySelector('[role=alert]')")


def open_page(chromium: Any, url: str, errors: list[str] | None = None) -> Any:
    """A new tab on `url`, its window and its body marked: a new page swapped in drops
    the body's mark, a real reload drops both. What it logs as an error goes to `errors`."""
    page = chromium.new_page(viewport={"width": 1000, "height": 600})
    page.set_default_timeout(WAIT_MS)
    if errors is not None:
        page.on("console", lambda message: errors.append(message.text)
                if message.type == "error" else None)
        page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.evaluate("() => { window.sameWindow = true; document.body.dataset.old = 'yes'; }")
    return page


def body_replaced(page: Any) -> bool:
    """True when the page's body was replaced since `open_page` (swapped or reloaded)."""
    return page.evaluate("() => document.body.dataset.old") is None


def window_kept(page: Any) -> bool:
    """True when the page was never reloaded for real since `open_page`."""
    return page.evaluate("() => window.sameWindow") is True


def test_every_open_page_refreshes_in_place_after_a_good_save(
        chromium: Any, watched: tuple[Path, Watch]) -> None:
    source, process = watched
    logged: list[str] = []  # what either tab logs as an error
    english = open_page(chromium, process.url, logged)
    french = open_page(chromium, process.url + "fr/", logged)
    assert english.evaluate(SHOWS, OLD_EN)
    english.evaluate("() => window.scrollTo(0, 900)")
    title = english.title()

    edit(studies(source), OLD_VALUE, NEW_VALUE)

    english.wait_for_function(SHOWS, arg=NEW_EN)
    french.wait_for_function(SHOWS, arg=NEW_FR)
    # The new page was swapped in: same window, scrolled where the reader was, styled.
    assert body_replaced(english) and body_replaced(french)
    assert window_kept(english) and window_kept(french)
    assert english.evaluate("() => window.scrollY") == 900
    assert english.title() == title
    assert english.evaluate("() => document.styleSheets.length") == 1
    assert english.evaluate(
        "() => getComputedStyle(document.body).fontFamily") != "Times New Roman"
    # Only one live script runs: the swapped-in page's copy was left out.
    assert english.evaluate(
        "() => document.querySelectorAll('script[data-progress-site-live]').length") == 0
    # ... and it still listens: the next save refreshes the page again.
    edit(studies(source), NEW_VALUE, OLD_VALUE)
    english.wait_for_function(SHOWS, arg=OLD_EN)
    assert window_kept(english)
    # Nothing failed on the way, not even a request for an icon the site does not have.
    english.wait_for_timeout(500)
    assert logged == []
    english.close()
    french.close()


def test_report_pages_refresh_when_their_records_change(
        chromium: Any, watched: tuple[Path, Watch]) -> None:
    source, process = watched
    english = open_page(chromium, process.url + "horizon-four-way/")
    french = open_page(chromium, process.url + "fr/horizon-four-way/")
    cell = "(text) => document.body.innerHTML.includes(text)"
    assert english.evaluate(cell, ">43.4<") and not english.evaluate(cell, ">44.6<")

    # A harness's record, in the dataset's JSON lines: the first pass's worst P99.
    edit(source / "data" / "horizon-four-way" / "runs.jsonl", '"worst_p99": 43.4,',
         '"worst_p99": 44.6,')

    english.wait_for_function(cell, arg=">44.6<")
    french.wait_for_function(cell, arg=">44,6<")
    assert window_kept(english) and window_kept(french)
    english.close()
    french.close()


def test_a_tab_whose_page_did_not_change_stays_as_it_is(
        chromium: Any, watched: tuple[Path, Watch]) -> None:
    source, process = watched
    report = open_page(chromium, process.url + "horizon-four-way/")  # no studies figure
    progress = open_page(chromium, process.url)

    edit(studies(source), OLD_VALUE, NEW_VALUE)

    progress.wait_for_function(SHOWS, arg=NEW_EN)
    process.wait_for(r"Drew \d+ charts? in \d+ ms: built")  # the last rebuild of this save
    progress.wait_for_timeout(300)  # time enough for a refresh that should not come
    assert not body_replaced(report) and window_kept(report)
    report.close()
    progress.close()


def test_a_tab_on_a_missing_page_shows_it_once_written(
        chromium: Any, watched: tuple[Path, Watch]) -> None:
    source, process = watched
    page = open_page(chromium, process.url + "notes/")
    assert page.evaluate(SHOWS, "Page not found")

    # A "not found" page refreshes after any build: it cannot tell which page is new.
    edit(studies(source), OLD_VALUE, NEW_VALUE)
    page.wait_for_function("() => document.body.dataset.old === undefined")
    (source / "content" / "en" / "notes.md").write_text(
        "---\ntitle: Notes\n---\nSome notes, new.\n", encoding="utf-8")

    page.wait_for_function(SHOWS, arg="Some notes, new.")
    page.close()


def test_a_stylesheet_change_reloads_the_page_for_real(
        chromium: Any, watched: tuple[Path, Watch]) -> None:
    source, process = watched
    page = open_page(chromium, process.url)
    engine_css = (REPO / "templates" / "assets" / "style.css").read_text(encoding="utf-8")
    theme = source / "templates" / "assets"
    theme.mkdir(parents=True)

    # The source's own stylesheet overrides the engine's: same address, new content.
    (theme / "style.css").write_text(engine_css + "\nbody { outline: 7px solid rgb(1, 2, 3); }\n",
                                     encoding="utf-8")

    page.wait_for_function("() => getComputedStyle(document.body).outlineWidth === '7px'")
    assert not window_kept(page)
    page.close()


def test_a_broken_save_shows_the_error_over_the_page_until_fixed(
        chromium: Any, watched: tuple[Path, Watch]) -> None:
    source, process = watched
    page = open_page(chromium, process.url)
    good = studies(source).read_text(encoding="utf-8")

    with studies(source).open("a", encoding="utf-8") as fh:
        fh.write(BROKEN)

    alert = page.wait_for_selector("[role=alert]", state="visible")
    assert alert is not None
    text = alert.inner_text()
    assert "data/studies.yaml:" in text and "YAML syntax error" in text
    assert page.evaluate(SHOWS, OLD_EN)  # the last good page is still there, under it
    assert overlay_violations(page) == []
    # A tab opened while the build is broken shows the error too.
    late = open_page(chromium, process.url)
    assert "YAML syntax error" in late.locator("[role=alert]").inner_text()

    studies(source).write_text(good.replace(OLD_VALUE, NEW_VALUE), encoding="utf-8")

    page.wait_for_function(CLEAN, arg=NEW_EN)
    late.wait_for_function(CLEAN, arg=NEW_EN)
    page.close()
    late.close()


def overlay_violations(page: Any) -> list[str]:
    """axe-core's violations inside the error overlay."""
    browser.add_axe(page)
    found: list[str] = page.evaluate("""async () => {
        const r = await axe.run({include: [['#progress-site-error']]},
                                {resultTypes: ['violations']});
        return r.violations.map(v => v.id + ': ' + v.help);
    }""")
    return found
