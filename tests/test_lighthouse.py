"""Lighthouse scores 100 in accessibility, best practices and SEO on both pages of the
example, in both languages, served on 127.0.0.1 and built with --base-url set to that
address. Performance, the one timed category, is not a test (a busy machine fails it,
not the page): bench/page_weight.py measures what the page costs.

Lighthouse comes from npm (`.ci/run` installs it into /opt/lighthouse) and runs Debian's
Chromium (CHROME_PATH), never a browser it downloads. Each page is audited once, in
this one module, all of them in one Chromium (Lighthouse's Node API, as its docs show
for several pages; its command line starts a browser for each); without Lighthouse or
Chromium these tests skip on a developer's machine and fail under CI, which must run
them.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from progress_site.cli import main

from . import browser
from .conftest import REPO, SOURCE_DATE_EPOCH, TEMPLATES

LIGHTHOUSE = [os.environ.get("LIGHTHOUSE", ""), "/opt/lighthouse/node_modules/.bin/lighthouse"]
CATEGORIES = ("accessibility", "best-practices", "seo")
PAGES = ("", "fr/", "horizon-four-way/", "fr/horizon-four-way/")


def lighthouse() -> str:
    """The lighthouse command, or a skip (a failure under CI) without it or Chromium."""
    if not browser.CHROMIUM.is_file():
        browser.unavailable(f"{browser.CHROMIUM} (apt-get install chromium)")
    for candidate in LIGHTHOUSE:
        if candidate and Path(candidate).is_file():
            return candidate
    browser.unavailable("lighthouse (npm install --prefix /opt/lighthouse lighthouse)")
    raise AssertionError("unreachable")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The example, built with the address it is served at as its base URL."""
    lighthouse()  # skip (or fail under CI) before building, when it cannot run
    site = tmp_path_factory.mktemp("lighthouse") / "site"
    site.mkdir()
    with browser.serve(site) as url:  # the address first: the build needs it
        with contextlib.redirect_stdout(io.StringIO()), pytest.MonkeyPatch.context() as mp:
            mp.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
            code = main(["--source", str(REPO), "--out", str(site), "--strict",
                         "--base-url", url], TEMPLATES)
        assert code == 0
        yield url


# Every page audited in one Chromium, one after the other; the reports by address.
AUDIT_JS = """
import {writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {pathToFileURL} from 'node:url';
const [folder, out, categories, ...urls] = process.argv.slice(2);
const need = createRequire(folder + '/package.json');
const load = name => import(pathToFileURL(need.resolve(name)).href);
const {default: lighthouse} = await load('lighthouse');
// Before each page Lighthouse times the machine, with a second of busy work in the page,
// for the performance category alone (the one left out: see the docstring); the three
// audited here read nothing of it. A fixed index spares that second of processor a page.
const {pageFunctions} = await load('lighthouse/core/lib/page-functions.js');
if (typeof pageFunctions.computeBenchmarkIndex !== 'function')
    throw new Error('Lighthouse no longer has pageFunctions.computeBenchmarkIndex');
pageFunctions.computeBenchmarkIndex = () => 1000;
const launcher = await load('chrome-launcher');
const chrome = await launcher.launch({chromePath: process.env.CHROME_PATH,
    chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu']});
// The pages run no script and load nothing late: no need to wait for the network or the
// processor to go quiet after the load, nor for the screenshot of the report's viewer.
const QUICK = {pauseAfterFcpMs: 0, pauseAfterLoadMs: 0, networkQuietThresholdMs: 0,
               cpuQuietThresholdMs: 0, disableFullPageScreenshot: true, skipAboutBlank: true};
const reports = {};
try {
    for (const url of urls) {
        const done = await lighthouse(url, {port: chrome.port, output: 'json',
            logLevel: 'error', onlyCategories: categories.split(','), ...QUICK});
        reports[url] = JSON.parse(done.report);
    }
} finally {
    await chrome.kill();
}
writeFileSync(out, JSON.stringify(reports));
"""


@pytest.fixture(scope="module")
def reports(served: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Lighthouse's report of every page (its JSON output), by address."""
    folder = Path(lighthouse()).resolve().parents[1]  # .bin/lighthouse -> lighthouse/cli/
    root = tmp_path_factory.mktemp("audit")
    (root / "audit.mjs").write_text(AUDIT_JS, "utf-8")
    done = subprocess.run(
        ["node", root / "audit.mjs", folder, root / "reports.json", ",".join(CATEGORIES),
         *(served + page for page in PAGES)],
        env={**os.environ, "CHROME_PATH": str(browser.CHROMIUM)}, capture_output=True,
        text=True, timeout=600, check=False)
    assert done.returncode == 0 and (root / "reports.json").is_file(), done.stderr[-2000:]
    found: dict[str, Any] = json.loads((root / "reports.json").read_text("utf-8"))
    return found


def shortfalls(report: dict[str, Any]) -> list[str]:
    """Each category under 100, with the audits that cost it points."""
    found = []
    for name in CATEGORIES:
        category = report["categories"][name]
        if round(category["score"] * 100) == 100:
            continue
        lost = [f"{ref['id']} ({report['audits'][ref['id']].get('displayValue', '')})"
                for ref in category["auditRefs"] if ref["weight"]
                and (report["audits"][ref["id"]]["score"] or 0) < 1]
        found.append(f"{name}: {round(category['score'] * 100)}, lost on {', '.join(lost)}")
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p or "home")
def test_lighthouse_scores_100(served: str, reports: dict[str, Any], page: str) -> None:
    report = reports[served + page]
    assert report["finalDisplayedUrl"] == served + page
    assert shortfalls(report) == []
