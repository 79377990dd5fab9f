"""Real-browser helpers: Debian's Chromium driven by Playwright, a local server, axe-core.

Nothing here downloads a browser: the tests use /usr/bin/chromium (apt's `chromium`).
Where it (or axe-core) is missing, the browser tests skip on a developer's machine and
fail under CI (the `CI` environment variable), which must run them.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import io
import os
import threading
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--headless=new", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
# axe-core's one-file build, from the npm package `axe-core` (`.ci/run` installs it there).
AXE_PATHS = [os.environ.get("AXE_CORE_JS", ""),
             "/opt/axe-core/node_modules/axe-core/axe.min.js"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def unavailable(what: str) -> None:
    """Skip when a browser tool is missing here; fail in CI, which must run these tests."""
    if os.environ.get("CI"):
        pytest.fail(f"{what} is missing, and CI must run the browser tests", pytrace=False)
    pytest.skip(f"{what} is missing (see .ci/run for how CI installs it)")


def axe_script() -> Path:
    """The path of axe.min.js, or a skip (a failure under CI) when it is not installed."""
    for candidate in AXE_PATHS:
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    unavailable("axe-core (npm install --prefix /opt/axe-core axe-core)")
    raise AssertionError("unreachable")


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """A headless Debian Chromium, closed on exit.

    Not one for the whole session: while Playwright runs, its driver holds a thread
    (asyncio's waitpid), and a build in this process does not fork beside other threads
    (progress_site/fork.py): the tests after it would no longer build as a user's does."""
    if not CHROMIUM.is_file():
        unavailable(f"{CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Say nothing: the tests read what the browser saw, not the server's log."""


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[str]:
    """Serve a folder on 127.0.0.1 (a free port) in a thread; yields the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@dataclass
class Watched:
    """What a page did while it was open: console errors, failures, other hosts asked."""

    base: str
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        """Everything that should not have happened, one line each."""
        return ([f"console: {m}" for m in self.console_errors]
                + [f"page error: {m}" for m in self.page_errors]
                + [f"failed request: {m}" for m in self.failed]
                + [f"request to another host: {m}" for m in self.foreign]
                + [f"dialog: {m}" for m in self.dialogs])


def watch(page: Any, base: str) -> Watched:
    """Record a page's errors and refuse (and record) every request to another host."""
    seen = Watched(base)
    local = urllib.parse.urlsplit(base).netloc

    def route(r: Any) -> None:
        url = r.request.url
        parts = urllib.parse.urlsplit(url)
        here = parts.scheme in ("http", "https") and parts.netloc == local
        if here or parts.scheme in ("data", "blob", "about"):
            r.continue_()
        else:
            seen.foreign.append(url)
            r.abort()

    page.route("**/*", route)
    page.on("console", lambda m: seen.console_errors.append(m.text)
            if m.type == "error" else None)
    page.on("pageerror", lambda e: seen.page_errors.append(str(e)))
    page.on("requestfailed", lambda r: seen.failed.append(f"{r.url} ({r.failure})")
            if r.url not in seen.foreign else None)
    page.on("response", lambda r: seen.failed.append(f"{r.url} (HTTP {r.status})")
            if r.status >= 400 else None)

    def dialog(d: Any) -> None:
        seen.dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", dialog)
    return seen


def small_png(png: bytes, colours: int = 32) -> bytes:
    """A screenshot in few colours (a quarter of the bytes, the same look): for the README.

    Needs Pillow; like the browser, missing it skips here and fails under CI."""
    try:
        from PIL import Image
    except ImportError:
        unavailable("Pillow (pip install pillow), to keep the screenshots small")
    image = Image.open(io.BytesIO(png)).convert("RGB")
    fewer = image.quantize(colors=colours, method=Image.Quantize.FASTOCTREE,
                           dither=Image.Dither.NONE)
    out = io.BytesIO()
    fewer.save(out, format="PNG", optimize=True)
    return out.getvalue()


def screenshots_wanted() -> bool:
    """Whether this run writes the screenshots of docs/ (UPDATE_SCREENSHOTS=1), as the
    golden files are: fonts differ between machines, and a test run must not change the
    checkout."""
    return os.environ.get("UPDATE_SCREENSHOTS") == "1"


def keep_screenshot(target: Path, png: bytes, limit: int | None = None) -> None:
    """Write a screenshot of docs/ only when asked (`screenshots_wanted`). What is written
    is the screenshot in few colours (`small_png`), at most `limit` bytes; a run that
    writes nothing does not make it."""
    assert png.startswith(b"\x89PNG"), png[:8]
    if screenshots_wanted():
        small = small_png(png)
        assert limit is None or len(small) < limit, (target.name, len(small))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(small)


# The axe rules that read colours: all that a page's dark scheme changes (style.css sets
# colours only under prefers-color-scheme: dark), so a dark page needs these alone.
COLOUR_RULES = ("color-contrast", "link-in-text-block")


def add_axe(page: Any) -> None:
    """axe-core loaded into the page by the test driver: the page's policy runs no script
    it does not name (an added <script> would be refused), but the driver's own code."""
    page.evaluate(axe_script().read_text(encoding="utf-8"))


def axe_violations(page: Any, rules: tuple[str, ...] = ()) -> list[str]:
    """Run axe-core on the page (only `rules`, if given); one line per violation and
    element, empty when clean."""
    if not page.evaluate("typeof axe !== 'undefined'"):  # once a page load
        add_axe(page)
    result = page.evaluate("""async (rules) => {
        const options = {resultTypes: ['violations']};
        if (rules.length) options.runOnly = {type: 'rule', values: rules};
        const r = await axe.run(document, options);
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => n.target.join(' ') + ': ' + n.failureSummary)}));
    }""", list(rules))
    return [f"{v['id']} ({v['impact']}): {v['help']}\n    " + "\n    ".join(v["nodes"])
            for v in result]


# Everything that can take the keyboard's focus, numbered once in document order.
MARK_JS = """() => {
    const sel = 'a[href], area[href], summary, button, input, select, textarea, iframe, '
              + '[tabindex], [contenteditable]';
    const all = [...document.querySelectorAll(sel)];
    all.forEach((e, i) => e.setAttribute('data-kbd', i));
    return all.map(e => e.outerHTML.slice(0, 160));
}"""
# The numbered elements a keyboard user must reach: shown, not taken out of the order,
# and not inside a <details> that is closed (its <summary> opens it).
EXPECTED_JS = """() => [...document.querySelectorAll('[data-kbd]')].filter(e => {
    if (e.getAttribute('tabindex') === '-1' || e.disabled || e.inert) return false;
    if (e.tagName === 'SUMMARY' && e.parentElement.querySelector('summary') !== e) return false;
    for (let d = e.closest('details:not([open])'); d; d = d.parentElement.closest(
            'details:not([open])'))
        if (!(e.tagName === 'SUMMARY' && e.parentElement === d)) return false;
    const style = getComputedStyle(e);
    return style.visibility !== 'hidden' && e.getClientRects().length > 0;
}).map(e => Number(e.dataset.kbd))"""
# Where the focus is, and whether a reader can see it there.
ACTIVE_JS = """() => {
    const e = document.activeElement;
    if (!e || e === document.body || !e.hasAttribute('data-kbd')) return null;
    const box = e.getBoundingClientRect();
    const style = getComputedStyle(e);
    return {index: Number(e.dataset.kbd), tag: e.tagName,
            closed: e.tagName === 'SUMMARY' && !e.parentElement.open,
            ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0,
            onscreen: box.right > 0 && box.bottom > 0 && box.left < innerWidth + scrollX};
}"""


@dataclass
class KeyboardWalk:
    """Tabbing through a page from the top, opening every <summary> on the way."""

    names: list[str]  # every focusable candidate, by its number
    reached: list[int]  # what Tab reached, in order
    expected: list[int]  # what it should reach (all <details> open by then)
    unseen: list[int]  # reached, but with no visible focus ring or off the screen


def keyboard_walk(page: Any, limit: int = 3000) -> KeyboardWalk:
    """Press Tab until the focus leaves the page; Enter on each closed <summary>."""
    names: list[str] = page.evaluate(MARK_JS)
    reached: list[int] = []
    unseen: list[int] = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        active = page.evaluate(ACTIVE_JS)
        if active is None or active["index"] in reached:
            break
        reached.append(active["index"])
        if not (active["ring"] and active["onscreen"]):
            unseen.append(active["index"])
        if active["closed"]:
            page.keyboard.press("Enter")
    expected: list[int] = page.evaluate(EXPECTED_JS)
    return KeyboardWalk(names, reached, expected, unseen)


def tab_order(page: Any) -> list[int]:
    """Tab through the page (opening every summary); the numbers of what was reached."""
    return keyboard_walk(page).reached
