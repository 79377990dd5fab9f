"""The files of the built site that the preview server may send: what a request's path
names inside the output folder, and nothing outside it."""

from __future__ import annotations

import mimetypes
from pathlib import Path
from urllib.parse import unquote

# Longer paths are answered 414: no file of a built site has one (the request line
# itself is refused by http.server past 65,536 characters).
MAX_PATH = 4096


def find(root: Path, url_path: str) -> tuple[Path | None, bool]:
    """The file to serve for a URL path (None: there is none), and whether the path
    names a folder without its final '/'. A name the file system refuses (too long,
    not encodable) is a missing file, and so is a link that leads out of `root`."""
    parts = [p for p in unquote(url_path).split("/") if p]
    if any(p in (".", "..") or "\\" in p or "\0" in p for p in parts):
        return None, False
    path = root.joinpath(*parts)
    try:
        if url_path.endswith("/"):
            path = path / "index.html"
        elif path.is_dir():
            return None, True
        # The build writes no link, but the folder is the user's: serve nothing outside.
        if not path.resolve().is_relative_to(root.resolve()):
            return None, False
    except (OSError, ValueError):
        return None, False
    return path, False


def target(request_target: str) -> tuple[str, str]:
    """A request's path and query. Not urlsplit: a path like `//[x` is no address to it
    (ValueError), and a path is all a preview server is asked for."""
    path, _, query = request_target.partition("?")
    return path.partition("#")[0], query.partition("#")[0]


def content_type(path: Path) -> str:
    """The Content-Type for a file name, with a charset for text."""
    kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    textual = kind.startswith("text/") or kind.endswith(("+xml", "/xml", "/json", "javascript"))
    return f"{kind}; charset=utf-8" if textual else kind


def read_file(path: Path | None) -> bytes | None:
    """A file's bytes, or None when it is missing (or vanished in a swap just now), or
    its name is one the file system refuses."""
    if path is None:
        return None
    try:
        return path.read_bytes()
    except (OSError, ValueError):
        return None
