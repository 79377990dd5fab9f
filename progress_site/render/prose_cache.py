"""Rendered Markdown kept on disk: a build whose prose did not change neither imports
nor runs the Markdown parser.

The HTML of a text depends only on the text and the code that renders it: references
are placeholders by then (markup.substitute), so a new number is not a new text. An
entry is keyed by a hash of the text, of whether it is a page's chunk or an inline
text, and of that code (markup.py and links.py, markdown-it-py, Python); what it holds
is the sanitized parser's own output for that exact text. A file that cannot be read,
or holds anything but that map, counts as empty: a cache can make a build faster,
never make it fail or change what it writes.

One small JSON file per pass of a build and language (`pages-en.json`): reading it is a
tenth of reading one file per chunk, and a language rendered in a forked process
(parallel.py) writes its own file, never one the other process writes too.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from pathlib import Path

from progress_site.cache import fingerprint, library_version, store
from progress_site.render.markdown import inline_html, markdown_html

# Raise to drop every entry written before a change the code hash cannot see.
FORMAT = 1
# The engine modules whose code decides the HTML; it is part of every entry's key.


@functools.cache
def renderer_fingerprint() -> bytes:
    """What the HTML depends on besides the text: our rules, the parser's version (and
    mdurl's, which normalizes its links), Python's (unicodedata, html.unescape)."""
    return fingerprint(FORMAT, library_version("markdown-it-py"), library_version("mdurl"))


def entry_key(kind: str, source: str) -> str:
    """The key of one text's HTML: the renderer, the kind of text, the text itself."""
    digest = hashlib.blake2b(renderer_fingerprint(), digest_size=32)
    digest.update(kind.encode() + b"\0")
    digest.update(source.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def read_entries(path: Path) -> dict[str, str]:
    """The stored map of key to HTML; empty when missing, damaged or not such a map."""
    try:
        stored = json.loads(path.read_bytes())
    except (OSError, ValueError):  # missing, truncated, not UTF-8, not JSON
        return {}
    if not isinstance(stored, dict) or not all(
            isinstance(key, str) and isinstance(html, str) for key, html in stored.items()):
        return {}
    return stored


def write_entries(path: Path, entries: dict[str, str]) -> None:
    """Store the map atomically (beside its place, then moved in); failures are ignored."""
    blob = json.dumps(entries, sort_keys=True).encode()  # ASCII: any text can be written
    store(path, blob)


class ProseCache:
    """The HTML of the Markdown one pass renders, read from and saved to one file.

    `save()` keeps only the entries this pass used, so texts edited away do not pile
    up (after a pass over some of the pages, it only adds the new ones), and writes
    only when that changes the file: a watch rebuild that renders no new text leaves
    it alone. Without a path it keeps nothing."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.stored = read_entries(path) if path else {}
        self.used: dict[str, str] = {}

    @classmethod
    def in_folder(cls, cache_dir: Path | None, name: str) -> ProseCache:
        """The cache named `name` under `cache_dir`/prose, or none without a folder."""
        return cls(cache_dir / "prose" / f"{name}.json" if cache_dir else None)

    def block(self, source: str) -> str:
        """A chunk of a page's Markdown as HTML (markup.markdown_html)."""
        return self.html("block", source, markdown_html)

    def inline(self, source: str) -> str:
        """An inline text that may hold Markdown, as HTML (markup.inline_html)."""
        return self.html("inline", source, inline_html)

    def html(self, kind: str, source: str, render: Callable[[str], str]) -> str:
        """The stored HTML of `source`, or `render(source)` when none is stored."""
        key = entry_key(kind, source)
        found = self.used.get(key)
        if found is None:
            found = self.stored.get(key)
            if found is None:
                found = render(source)
            self.used[key] = found
        return found

    def save(self, complete: bool = True) -> None:
        """Write the entries used, and keep the others only if the pass was not
        `complete` (it rendered some of the texts the file is for); write nothing when
        that is what was read."""
        if self.path is None:
            return
        entries = self.used if complete else self.stored | self.used
        if entries.keys() != self.stored.keys():
            write_entries(self.path, entries)
            self.stored = dict(entries)
