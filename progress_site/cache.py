"""The build cache: where it lives (the user's cache folder, never where the folder being
built has a say: nothing a pull request sends can become an entry), and how an entry is
written (whole or not at all) and read back (a missing or damaged entry is a miss, never
an error). Entries are data, never code, which their readers check again before any
reaches a page; their names hash all they are made from (`engine_stamp`), nothing of one
machine, so a cache restored on a fresh CI runner serves the same entries.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import sys
import tempfile
from pathlib import Path

from progress_site.regular import read_regular

ENGINE = Path(__file__).parent  # the engine's code, whose every file keys every entry
FOLDER = "progress-site"  # the engine's folder in the user's cache folder


def user_folder() -> Path:
    """The cache's default place: `$XDG_CACHE_HOME/progress-site` (a relative one taken
    from the working folder), else `~/.cache/progress-site`."""
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base).absolute() if base else Path.home() / ".cache") / FOLDER


def refusal(folder: Path, source: Path, out: Path) -> str:
    """Why `folder` cannot hold the cache of a build of `source` into `out` ('' when it
    can): it is in, or holds, the source or the output, as written or once its links are
    followed (a link inside the source is the source's to point anywhere)."""
    mine = {Path(os.path.abspath(folder)), folder.resolve()}
    for what, other in (("the source folder", source), ("the output folder", out)):
        theirs = {Path(os.path.abspath(other)), other.resolve()}
        if any(a.is_relative_to(b) for a in mine for b in theirs):
            return f"it is inside {what}"
        if any(b.is_relative_to(a) for a in mine for b in theirs):
            return f"it holds {what}"
    return ""


def store(path: Path, data: bytes) -> None:
    """Write a cache entry in one step, its folder made if need be: a reader (the next
    build, the preview server) sees the old file or the new one, never half of one, even
    when a build is killed or two run at once. A folder that cannot be written (read-only,
    full disk) means no cache, not a failed build: nothing written, nothing left behind."""
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.",
                                         suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(data)
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
            raise


def read(path: Path, limit: int) -> bytes | None:
    """A cache entry's bytes, or None when it is missing, cannot be read, is not a plain
    file (a FIFO would hang the build; a link may point anywhere) or is larger than
    `limit` bytes."""
    try:
        return read_regular(path, limit, follow=False)
    except OSError:
        return None


def library_versions(names: tuple[str, ...]) -> dict[str, str]:
    """Each named distribution's installed version, from the first folder of sys.path whose
    metadata folder names it with a version (`jinja2-3.1.6.dist-info`, not a source tree's
    `name.egg-info`); '' for one not installed there.
    Read from folder names: importlib.metadata would bring email, zipfile and csv into a
    build that finds nothing changed, whose whole point is to import almost nothing."""
    wanted = {normal(name): name for name in names}
    found: dict[str, str] = {}
    for folder in sys.path:
        try:
            entries = sorted(os.listdir(folder or "."))
        except OSError:
            continue
        for entry in entries:
            stem, _, kind = entry.rpartition(".")
            library, _, version = stem.partition("-")
            if version and kind in ("dist-info", "egg-info") and normal(library) in wanted:
                found.setdefault(wanted[normal(library)], version)
    return {name: found.get(name, "") for name in names}


def library_version(dist: str) -> str:
    """The installed version of one library, or '' for one not installed as a distribution."""
    return library_versions((dist,))[dist]


def normal(name: str) -> str:
    """A distribution's name as its metadata folder may spell it, made comparable."""
    return name.lower().replace("-", "_").replace(".", "_")


@functools.cache
def engine_stamp() -> str:
    """The engine's code (each module's path and bytes) and Python's version, hashed: an
    entry made by other code than today's is never served, and one made by the same code
    elsewhere is (a CI run restores the cache on a new machine, with new file dates)."""
    digest = hashlib.blake2b(str(sys.version_info[:2]).encode(), digest_size=16)
    for path in sorted(ENGINE.rglob("*.py")):
        name = path.relative_to(ENGINE).as_posix()
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()
