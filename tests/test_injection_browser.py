"""In Chromium: the site of tests/test_injection.py (a reference in every construct, a
hostile repository address) runs no script, whatever a reader does on its pages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from progress_site.publish.swap import publish

from . import browser
from .conftest import copy_example
from .test_hostile import STOP_LEAVING, TRIGGER_EVERYTHING
from .test_injection import HOSTILE_URLS, build, make_hostile

PAGES = ["index.html", "injection/index.html", "fr/injection/index.html"]



def ran(page: Any) -> str:
    """Trigger every handler a reader could, then what `window.x` is."""
    page.evaluate(TRIGGER_EVERYTHING)
    page.wait_for_timeout(100)
    result: str = page.evaluate("typeof window.x")
    return result


@pytest.mark.parametrize("url", HOSTILE_URLS)
def test_no_script_runs(url: str, tmp_path: Path, chromium: Any,
                        example_files: dict[str, bytes]) -> None:
    source = copy_example(tmp_path / "src")
    make_hostile(source, url)
    out = tmp_path / "site"
    publish(build(source), out)
    with browser.serve(out) as base:
        for path in PAGES:
            page = chromium.new_page(viewport=browser.DESKTOP)
            page.add_init_script(STOP_LEAVING)
            seen = browser.watch(page, base)
            page.goto(base + path, wait_until="load")
            assert page.evaluate("document.querySelectorAll('script').length") == 0
            assert ran(page) == "undefined", (url, path)
            assert seen.dialogs == [] and seen.page_errors == [], seen.problems()
            page.close()


def test_the_old_markup_would_have_run(tmp_path: Path, chromium: Any) -> None:
    """The check is not blind: what the old placeholders made of an image's alt text
    and this address runs in the same steps."""
    address = HOSTILE_URLS[0]
    (tmp_path / "index.html").write_text(
        f'<!doctype html><title>t</title><p><img src="x.png" alt="<a href="{address}/pull/'
        f'160">pull request #160</a>"></p>', "utf-8")
    with browser.serve(tmp_path) as base:
        page = chromium.new_page()
        page.add_init_script(STOP_LEAVING)
        page.goto(base, wait_until="load")
        assert ran(page) == "number"
        page.close()
