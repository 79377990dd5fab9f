"""The one helper for every on-disk cache: what an entry is keyed on, and how it is
written (whole or not at all) and read back (a damaged entry is a miss, never an error).

Each file is written beside its place under a temporary name, then moved in with one
rename, so a reader (the next build, the preview server) sees the old file or the new
one, never half of one, even when a build is killed or two run at once. Watch mode
replaces published pages in place the same way.

An entry is trusted only if this machine wrote it: `.cache/` sits in the folder being
built, where a pull request can add any file (a compiled template is Python code, a
chart is markup put on the page). `store` signs each entry with an HMAC-SHA256 made with
a secret key kept outside the source folder (`cache_key`), and `read` serves an entry
only when its MAC matches; a foreign or damaged entry is a miss, never an error.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import os
import secrets
import sys
import tempfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from progress_site.regular import read_regular

ENGINE = Path(__file__).parent  # the engine's code, whose every file keys every entry
KEY_VARIABLE = "PROGRESS_SITE_CACHE_KEY"  # a key given by CI, in place of the key file
KEY_BYTES = 32
MAC_BYTES = hashlib.sha256().digest_size


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
    """`write_atomically` for a cache entry, signed (see `read`): a folder that cannot be
    written (read-only source, full disk) means no cache, not a failed build. True when
    it was written."""
    try:
        write_atomically(path, _mac(path, data) + data)
    except OSError:
        return False
    return True


def read(path: Path) -> bytes | None:
    """A cache entry's bytes as `store` wrote them, or None when it is missing, cannot be
    read, or was not signed with this machine's key (planted, damaged, or moved from
    another entry's name)."""
    try:
        blob = read_regular(path, follow=False)  # .cache/ may come with the source
    except OSError:
        return None
    mac, data = blob[:MAC_BYTES], blob[MAC_BYTES:]
    return data if hmac.compare_digest(mac, _mac(path, data)) else None


def _mac(path: Path, data: bytes) -> bytes:
    """The entry's HMAC: over its file name too, so a signed entry cannot stand in for
    another (the folder may move: `--cache-dir`)."""
    message = path.name.encode("utf-8", "surrogateescape") + b"\0" + data
    return hmac.new(cache_key(), message, hashlib.sha256).digest()


def key_file() -> Path:
    """Where this machine's cache key is kept: in the user's cache folder, never in the
    source folder a pull request can write to."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "progress-site" / "key"


@functools.cache
def cache_key() -> bytes:
    """The secret that signs cache entries: `$PROGRESS_SITE_CACHE_KEY` when set, else the
    key file (made on first use, readable by its owner only). Where neither can be had,
    a key of this process alone: entries then last one build, which stays correct."""
    given = os.environ.get(KEY_VARIABLE)
    if given:
        return given.encode("utf-8", "surrogateescape")
    path = key_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _kept_key(path)
    except OSError:
        return secrets.token_bytes(KEY_BYTES)
    key = secrets.token_bytes(KEY_BYTES)
    with os.fdopen(fd, "wb") as file:
        file.write(key)
    return key


def _kept_key(path: Path) -> bytes:
    """The key in the key file; a process key if it cannot be read or is too short to be
    secret (a file made empty, or cut by a full disk)."""
    try:
        key = path.read_bytes()
    except OSError:
        key = b""
    return key if len(key) >= KEY_BYTES else secrets.token_bytes(KEY_BYTES)


@functools.cache
def library_version(dist: str) -> str:
    """The installed version of a library, or '' for one not installed as a distribution."""
    try:
        return version(dist)
    except PackageNotFoundError:
        return ""


@functools.cache
def engine_stamp() -> str:
    """The engine's code (each module's path and bytes) and Python's version, hashed: an
    entry made by other code than today's is never served, and one made by the same code
    elsewhere is (a CI run restores `.cache/` into a new checkout, with new file dates)."""
    digest = hashlib.blake2b(str(sys.version_info[:2]).encode(), digest_size=16)
    for path in sorted(ENGINE.rglob("*.py")):
        name = path.relative_to(ENGINE).as_posix()
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def fingerprint(*made_by: object) -> bytes:
    """What a cache entry depends on besides its input: the engine's code, and what
    `made_by` names (a format number, the versions of the libraries involved). An entry
    stored under another fingerprint is not used."""
    parts = (engine_stamp(), *made_by)
    return hashlib.blake2b(" ".join(map(str, parts)).encode()).digest()
