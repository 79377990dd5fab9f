"""Watch mode shows the pages open in a browser first: a real process, real HTTP, real
event streams and real file edits. The site it leaves is still a plain build's."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from progress_site.watch.livestate import HISTORY, LiveState, page_file, page_url

from .test_watch import (
    NEW_EN,
    NEW_FR,
    NEW_VALUE,
    OLD_EN,
    OLD_VALUE,
    REPO,
    TIMEOUT,
    Watch,
    copy_example,
    edit,
    fetch,
    poll,
    studies,
)

BAD_REFERENCE = "\nSee {{ comparisons.nope.after }}.\n"  # found only when the page renders


class Tab:
    """What an open tab's script does: follow the event stream, as the page at `page`."""

    def __init__(self, url: str, page: str) -> None:
        parts = urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.hostname or "", parts.port,
                                                     timeout=TIMEOUT)
        status, body = fetch(url, page)
        assert status == 200
        since = body.split("?since=", 1)[1].split("&", 1)[0]
        self.connection.request("GET", f"/__progress_site/events?since={since}&page={page}")
        self.stream = self.connection.getresponse()
        assert self.stream.status == 200

    def next_event(self) -> tuple[str, object]:
        """The next event's name and data (JSON)."""
        name, data = "", ""
        while line := self.stream.readline().decode("utf-8"):
            if line.startswith("event: "):
                name = line.removeprefix("event: ").strip()
            elif line.startswith("data: "):
                data = line.removeprefix("data: ").strip()
            elif line == "\n" and name:
                return name, json.loads(data)
        pytest.fail("the event stream ended")

    def close(self) -> None:
        """Close the tab."""
        self.connection.close()


def plain_build(source: Path, out: Path) -> dict[str, bytes]:
    """Every file `python build.py` publishes for `source`."""
    done = subprocess.run([sys.executable, str(REPO / "build.py"), "--source", str(source),
                           "--out", str(out)], cwd=REPO, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return files_of(out)


def files_of(folder: Path) -> dict[str, bytes]:
    """The files under a folder, by relative path."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in folder.rglob("*") if p.is_file()}


def test_the_open_page_comes_first_then_the_rest_as_a_plain_build(
        watched: tuple[Path, Watch], tmp_path: Path) -> None:
    source, process = watched
    tab = Tab(process.url, "/")
    try:
        edit(studies(source), OLD_VALUE, NEW_VALUE)

        # The open page first, alone, served new as it is announced; then the other
        # pages the save changed.
        name, first = tab.next_event()
        assert name == "reload" and isinstance(first, dict) and first["pages"] == ["/"]
        assert NEW_EN in fetch(process.url, "/")[1]
        name, rest = tab.next_event()
        assert name == "reload" and isinstance(rest, dict)
        assert "/fr/" in rest["pages"] and "/" not in rest["pages"]
        assert first["assets"] == rest["assets"]  # no stylesheet changed: swap, not reload
    finally:
        tab.close()
    process.wait_for(r"studies\.yaml changed: built \d+ pages in \d+ ms "
                     r"\(the open ones first, in \d+ ms\); reloading")
    assert NEW_EN in fetch(process.url, "/")[1] and NEW_FR in fetch(process.url, "/fr/")[1]
    # The charts this value feeds are drawn after; then the site is a plain build's.
    process.wait_for(r"Drew \d+ charts? in \d+ ms: built")
    assert files_of(source / "site") == plain_build(source, tmp_path / "plain")


def test_a_chart_drawn_later_reaches_the_open_page(watched: tuple[Path, Watch]) -> None:
    source, process = watched
    tab = Tab(process.url, "/")
    try:
        edit(studies(source), OLD_VALUE, NEW_VALUE)

        name, first = tab.next_event()
        assert name == "reload" and isinstance(first, dict) and first["pages"] == ["/"]
        # The new number at once; its trend, redrawn after the build, shows its last
        # drawing dimmed and marked busy meanwhile.
        page = fetch(process.url, "/")[1]
        assert NEW_EN in page and "chart-redrawing" in page and 'aria-busy="true"' in page
        # The build that follows the drawing tells the open tab, which then finds it.
        while True:
            name, news = tab.next_event()
            assert name == "reload" and isinstance(news, dict)
            if "/" in news["pages"]:
                break
    finally:
        tab.close()
    process.wait_for(r"Drew \d+ charts? in \d+ ms: built \d+ pages")
    page = fetch(process.url, "/")[1]
    assert NEW_EN in page and "chart-redrawing" not in page and 'class="chart' in page


@pytest.mark.slow  # every chart of the example drawn
def test_the_first_build_serves_its_pages_before_their_charts(tmp_path: Path) -> None:
    source = copy_example(tmp_path)  # no cache folder: no chart drawn yet
    process = Watch(source)
    try:
        charts = int(process.wait_for(r"Built \d+ pages into .* in \d+ ms; drawing (\d+) "
                                      r"charts\.").group(1))
        assert charts >= 2
        process.wait_for("Serving")
        status, page = fetch(process.url, "/")
        assert status == 200 and OLD_EN in page and 'aria-busy="true"' in page
        process.wait_for(rf"Drew {charts} charts in \d+ ms: built \d+ pages")
        page = poll(process.url, "/", lambda body: 'aria-busy="true"' not in body)
        assert OLD_EN in page and 'class="chart' in page
        # Then the site is a plain build's.
        assert files_of(source / "site") == plain_build(source, tmp_path / "plain")
    finally:
        process.close()


def test_no_open_page_means_one_announcement(watched: tuple[Path, Watch]) -> None:
    source, process = watched
    tab = Tab(process.url, "/horizon-four-way/")  # a page this save does not change
    try:
        edit(studies(source), OLD_VALUE, NEW_VALUE)

        name, news = tab.next_event()
        assert name == "reload" and isinstance(news, dict)
        assert "/" in news["pages"] and "/horizon-four-way/" not in news["pages"]
    finally:
        tab.close()
    output = process.wait_for(r"studies\.yaml changed: built .*").group(0)
    assert "the open ones first" not in output


def test_a_later_error_puts_the_open_page_back(watched: tuple[Path, Watch]) -> None:
    source, process = watched
    good_page = (source / "site" / "index.html").read_bytes()
    tab = Tab(process.url, "/")
    try:
        # One save of two files: the open page's number changes (fine), and another
        # page gets a reference to nothing, which only rendering that page finds.
        text = studies(source).read_text(encoding="utf-8").replace(OLD_VALUE, NEW_VALUE)
        with (source / "content" / "en" / "horizon-four-way.md").open("a") as fh:
            fh.write(BAD_REFERENCE)
        studies(source).write_text(text, encoding="utf-8")

        name, first = tab.next_event()
        assert name == "reload" and isinstance(first, dict) and first["pages"] == ["/"]
        name, overlay = tab.next_event()
        assert name == "failed" and "comparisons.nope.after" in str(overlay)
    finally:
        tab.close()
    process.wait_for(r"content/en/horizon-four-way\.md:\d+:\d+: no number named")
    # The last good site again, on disk and served (with the errors over it).
    assert (source / "site" / "index.html").read_bytes() == good_page
    status, body = fetch(process.url, "/")
    assert status == 200 and OLD_EN in body and NEW_EN not in body
    assert "progress-site-error" in body


def test_a_tab_hears_of_every_page_changed_since_it_was_served() -> None:
    state = LiveState()
    served = state.current().version
    state.announce(None, pages=["/"])
    state.announce(None, pages=["/fr/"])
    assert state.pages_since(served) == ["/", "/fr/"]
    assert state.pages_since(state.current().version) == []
    state.announce("broken")
    state.announce(None, pages=None)  # after a failure: any page
    assert state.pages_since(served) is None
    assert state.pages_since("another-process.3") is None  # a tab left over a restart


def test_a_tab_behind_the_remembered_builds_hears_any_page() -> None:
    state = LiveState()
    served = state.current().version
    for _ in range(HISTORY + 1):
        state.announce(None, pages=["/"])
    assert state.pages_since(served) is None


def test_open_tabs_are_counted_by_page() -> None:
    state = LiveState()
    with state.viewing("/"), state.viewing("/fr/"), state.viewing("/fr/"):
        assert state.viewed() == {"index.html", "fr/index.html"}
    with state.viewing("/caf%C3%A9/index.html"):
        assert state.viewed() == {"café/index.html"}
    assert state.viewed() == frozenset()
    assert page_url("café/index.html") == "/caf%C3%A9/"
    assert page_file(page_url("fr/index.html")) == "fr/index.html"
