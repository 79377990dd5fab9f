"""Watch mode latency: from a save in data/ to the open page served new, to the reloaded
page in Chromium and to the whole site on disk, over 20 edits of one value in a copy of
the example site; and the first build's: from the start, with no chart drawn yet (an
empty cache folder), to the first page served.

    python bench/watch_latency.py [--edits 20]

Targets: the open page served new within 50 ms of the save, the page refreshed in
Chromium within 150 ms (medians).

The page time is taken inside the page (the first frame after the new page is in: the
watch script swaps it in place, or a real reload's `load` event; on the same clock as the
save), so Playwright's own round trips are not counted.
"""

from __future__ import annotations

import argparse
import json
import queue
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from common import REPO, table, user_env

TARGET_SERVED_MS, TARGET_PAGE_MS = 50, 150
CHROMIUM_ARGS = ["--no-sandbox", "--headless=new", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
VALUE = "after: {{value: {}}}"  # comparison cpu-per-packet-500 in data/studies.yaml
FIRST = "7.92"
# Each new page (a load, or the new page swapped in by watch mode's script) reports its
# time and text on the console at the next frame, when it is painted: reading them from
# the page instead races with the second refresh that brings the redrawn charts.
LOADED_AT = """
const report = () => requestAnimationFrame(() => console.log('bench-load ' + JSON.stringify(
  {at: performance.timeOrigin + performance.now(), text: document.body.textContent})));
addEventListener('load', report);
addEventListener('progress-site:reloaded', report);
"""
TIMEOUT = 20.0


def start_watch(source: Path, cache: Path
                ) -> tuple[subprocess.Popen[str], queue.Queue[str], str]:
    """A watch process on a free port, its charts in `cache`, a queue of its output lines,
    and its URL."""
    process = subprocess.Popen(
        [sys.executable, str(REPO / "build.py"), "--watch", "--port", "0",
         "--source", str(source), "--out", str(source / "site"), "--cache-dir", str(cache)],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=user_env())
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        """Queue the output lines as they come."""
        for line in process.stdout or []:
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        line = lines.get(timeout=TIMEOUT)
        if found := re.search(r"http://\S+/", line):
            return process, lines, found.group(0)
    raise SystemExit("the watch process did not start")


def wait_served(url: str, text: bytes) -> float:
    """The time (time.time()) at which `text` first shows in the page served at `url`."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
                if text in response.read():
                    return time.time()
        except OSError:
            pass  # not serving yet (the first build)
        time.sleep(0.001)
    raise SystemExit(f"{text!r} never reached {url}")


def wait_on_disk(page_file: Path, text: bytes) -> float:
    """The time (time.time()) at which `text` first shows in the published page."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        try:
            if text in page_file.read_bytes():
                return time.time()
        except FileNotFoundError:
            pass  # between the two renames of a swap without renameat2
        time.sleep(0.001)
    raise SystemExit(f"{text!r} never reached {page_file}")


def one_edit(source: Path, url: str, page: Any, loads: list[str], old: str, new: str
             ) -> tuple[float, float, float]:
    """Save one new value; milliseconds to the open page served new, to the reloaded
    page, and to the whole site on disk (the French page, which no tab shows)."""
    data = source / "data" / "studies.yaml"
    text = data.read_text(encoding="utf-8").replace(VALUE.format(old), VALUE.format(new), 1)
    loads.clear()
    data.write_text(text, encoding="utf-8")
    saved = time.time()
    served = wait_served(url, f"{new}\xa0μs".encode())
    deadline = time.monotonic() + TIMEOUT
    while (shown := first_load_showing(loads, f"{new}\xa0μs")) is None:
        if time.monotonic() > deadline:
            raise SystemExit(f"no page load showed {new}")
        page.wait_for_timeout(5)
    french = f"{new.replace('.', ',')}\u202fμs".encode()
    whole = wait_on_disk(source / "site" / "fr" / "index.html", french)
    return (served - saved) * 1000, (shown - saved) * 1000, (whole - saved) * 1000


def first_load_showing(loads: list[str], text: str) -> float | None:
    """The time (time.time()) of the first page load whose text holds `text`."""
    for message in loads:
        if not message.startswith("bench-load "):
            continue  # the page's own messages
        load = json.loads(message.removeprefix("bench-load "))
        if text in load["text"]:
            return float(load["at"]) / 1000
    return None


def build_times(lines: queue.Queue[str]) -> list[int]:
    """The rebuild times the watch process printed (ms)."""
    found = []
    while not lines.empty():
        if m := re.search(r"changed: built \d+ pages in (\d+) ms", lines.get()):
            found.append(int(m.group(1)))
    return found


def measure(edits: int, pause: float
            ) -> tuple[float, list[float], list[float], list[float], list[int]]:
    """Start watching a fresh copy of the example site with an empty cache folder (the
    milliseconds to its first page served), then run the edits against it."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "src"
        for name in ("data", "content"):
            shutil.copytree(REPO / name, source / name)
        started = time.time()
        process, lines, url = start_watch(source, Path(tmp) / "cache")
        first = (wait_served(url, b"<html") - started) * 1000
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                            args=CHROMIUM_ARGS)
                page = browser.new_page()
                page.add_init_script(LOADED_AT)
                loads: list[str] = []
                page.on("console", lambda message: loads.append(message.text))
                page.goto(url)
                served, shown, site, old = [], [], [], FIRST
                for i in range(edits + 2):  # the first two warm up, and are not counted
                    new = f"7.{60 + i:02d}"
                    to_served, to_page, to_site = one_edit(source, url, page, loads, old,
                                                           new)
                    if i >= 2:
                        served.append(to_served)
                        shown.append(to_page)
                        site.append(to_site)
                    old = new
                    time.sleep(pause)  # the page reconnects, the charts are drawn
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=TIMEOUT)
    return first, served, shown, site, build_times(lines)[2:]


def main() -> None:
    """Measure, then print the medians beside the targets."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--pause", type=float, default=1.0,
                        help="seconds between saves (default: %(default)s)")
    args = parser.parse_args()
    first, served, shown, site, builds = measure(args.edits, args.pause)

    def row(name: str, values: list[float] | list[int], target: str) -> tuple[str, ...]:
        """One line of the table."""
        return (name, f"{statistics.median(values):.0f}", f"{min(values):.0f}",
                f"{max(values):.0f}", target)

    print(table([("from the save to", "median (ms)", "min (ms)", "max (ms)", "target (ms)"),
                 row("the open page served new", served, str(TARGET_SERVED_MS)),
                 row("reloaded page (Chromium)", shown, str(TARGET_PAGE_MS)),
                 row("the whole site on disk", site, "-"),
                 row("(the rebuild alone)", builds, "-")]))
    print(f"\nThe first build, no chart drawn yet: {first:.0f} ms from the start to the "
          "first page served (its charts follow, drawn by the drawer).")
    print(f"\n{args.edits} edits of one value in data/studies.yaml, {args.pause} s apart, "
          "each saved in place; the watch renders the page open in the browser first "
          "(served from memory), then the rest of the site.")


if __name__ == "__main__":
    main()
