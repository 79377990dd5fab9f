"""What open tabs follow in watch mode: the outcome of each build, which pages it
changed, which pages are open, and the pages a build serves before its site is on disk;
shared by the rebuild worker and the server's threads."""

from __future__ import annotations

import contextlib
import re
import secrets
import threading
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from urllib.parse import quote, unquote

# Builds remembered for a tab that reconnects (or is served between two builds): past
# that, it is told that any page may have changed.
HISTORY = 64
# A version: this process's prefix and a count of builds, in ASCII digits.
VERSION = re.compile(r"[0-9a-f]{8}\.[0-9]{1,18}")


@dataclass(frozen=True)
class Status:
    """What the last build left: a version that changes when tabs must act, and errors."""

    version: str
    error: str | None
    # Changes when a build changed a file other than the pages (serve.SCRIPT), or the
    # process restarted: a tab left open over a restart cannot know what changed.
    assets: str


def is_version(text: str) -> bool:
    """Whether `text` reads as a version a Status gives (a tab's `since`, which the
    address or a header carries, is anything the client sends)."""
    return VERSION.fullmatch(text) is not None


def page_url(name: str) -> str:
    """The address path of a published page: `fr/index.html` is served as `/fr/`."""
    return quote("/" + name.removesuffix("index.html"))


def page_file(url_path: str) -> str:
    """The published page an address path shows (the inverse of `page_url`)."""
    name = unquote(url_path).lstrip("/")
    return name + "index.html" if name == "" or name.endswith("/") else name


class LiveState:
    """The build status that pages and event streams follow, safe across threads."""

    def __init__(self) -> None:
        # A fresh prefix per process: a tab left open over a restart reloads on reconnect.
        self._prefix = secrets.token_hex(4)
        self._count = 0
        self._assets = 0
        self._status = Status(f"{self._prefix}.0", None, f"{self._prefix}.0")
        self._changes: deque[tuple[int, frozenset[str] | None]] = deque(maxlen=HISTORY)
        self._viewers: Counter[str] = Counter()
        self._ahead: dict[str, bytes] = {}
        self._closed = False
        self._changed = threading.Condition()

    def current(self) -> Status:
        """The status now."""
        with self._changed:
            return self._status

    def announce(self, error: str | None, assets_changed: bool = False,
                 pages: Iterable[str] | None = None) -> None:
        """Record a build's outcome (None: it succeeded), whether it changed files other
        than pages, and the address paths of the pages it changed (None: any page may
        have); then wake every listener."""
        with self._changed:
            self._count += 1
            self._assets += assets_changed
            self._changes.append((self._count, None if pages is None else frozenset(pages)))
            self._status = Status(f"{self._prefix}.{self._count}", error,
                                  f"{self._prefix}.{self._assets}")
            self._changed.notify_all()

    def pages_since(self, since: str) -> list[str] | None:
        """The address paths of the pages changed by the builds after version `since`;
        None when any page may have changed (a version of another process, or forgotten)."""
        prefix, _, number = since.rpartition(".")
        with self._changed:
            if prefix != self._prefix or not is_version(since):
                return None
            newer = [pages for count, pages in self._changes if count > int(number)]
            if int(number) + len(newer) < self._count or None in newer:
                return None
            return sorted(frozenset[str]().union(*(p for p in newer if p is not None)))

    def wait(self, since: str, timeout: float) -> Status | None:
        """The status once it differs from `since` or `timeout` passes; None when closing."""
        with self._changed:
            self._changed.wait_for(
                lambda: self._closed or self._status.version != since, timeout)
            return None if self._closed else self._status

    @contextlib.contextmanager
    def viewing(self, url_path: str) -> Iterator[None]:
        """A tab shows the page at `url_path` while this lasts (its event stream is open)."""
        with self._changed:
            self._viewers[url_path] += 1
        try:
            yield
        finally:
            with self._changed:
                self._viewers -= Counter({url_path: 1})  # a page no tab shows is dropped

    def viewed(self) -> frozenset[str]:
        """The published pages open in a tab now."""
        with self._changed:
            return frozenset(page_file(url) for url in self._viewers)

    def serve_ahead(self, pages: dict[str, bytes]) -> None:
        """Serve these pages (by published path) from memory, over their files on disk,
        until the next call: the pages a build rendered first, while it builds the rest
        (`{}`: the site on disk alone again, once it is swapped in, or the build failed)."""
        with self._changed:
            self._ahead = dict(pages)

    def ahead(self, name: str) -> bytes | None:
        """The page published at `name` as the build under way has it, if it is served
        ahead of the site on disk."""
        with self._changed:
            return self._ahead.get(name)

    def close(self) -> None:
        """Let every waiting event stream end, for shutdown."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
