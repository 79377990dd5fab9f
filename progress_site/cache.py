"""The one helper for every on-disk cache: what an entry is keyed on, and how it is
written (whole or not at all) and read back (a damaged entry is a miss, never an error).

Each file is written beside its place under a temporary name, then moved in with one
rename, so a reader (the next build, the preview server) sees the old file or the new
one, never half of one, even when a build is killed or two run at once. Watch mode
replaces published pages in place the same way.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import sys
import tempfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

ENGINE = Path(__file__).parent  # the engine's code, whose every file keys every entry


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to `path` in one step (its folder made if need be); OSError when it
    cannot be written, and then no temporary file is left behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def store(path: Path, data: bytes) -> bool:
    """`write_atomically` for a cache entry: a folder that cannot be written (read-only
    source, full disk) means no cache, not a failed build. True when it was written."""
    try:
        write_atomically(path, data)
    except OSError:
        return False
    return True


def read(path: Path) -> bytes | None:
    """A cache entry's bytes, or None when it is missing or cannot be read."""
    try:
        return path.read_bytes()
    except OSError:
        return None


@functools.cache
def library_version(dist: str) -> str:
    """The installed version of a library, or '' for one not installed as a distribution."""
    try:
        return version(dist)
    except PackageNotFoundError:
        return ""


@functools.cache
def engine_stamp() -> str:
    """The engine's code as Python judges a .pyc stale (each module's path, size and
    modification time) and Python's version, hashed: an entry made by other code than
    today's is never served."""
    digest = hashlib.blake2b(str(sys.version_info[:2]).encode(), digest_size=16)
    for path in sorted(ENGINE.rglob("*.py")):
        info = path.stat()
        name = path.relative_to(ENGINE).as_posix()
        digest.update(f"{name} {info.st_size} {info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def fingerprint(*made_by: object) -> bytes:
    """What a cache entry depends on besides its input: the engine's code, and what
    `made_by` names (a format number, the versions of the libraries involved). An entry
    stored under another fingerprint is not used."""
    parts = (engine_stamp(), *made_by)
    return hashlib.blake2b(" ".join(map(str, parts)).encode()).digest()
