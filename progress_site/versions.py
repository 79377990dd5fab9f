"""What the caches under `.cache/` are keyed on besides their input: the versions of the
libraries that made an entry, and the code of the engine modules that did."""

from __future__ import annotations

import functools
import hashlib
import os
import sys
from pathlib import Path

ENGINE = Path(__file__).parent  # the engine's modules

@functools.cache
def installed_version(dist: str) -> str:
    """The version of an installed distribution, read from its `.dist-info` folder's name.

    importlib.metadata says the same, but importing it costs 15-20 ms: a tenth of a whole
    build of the example site. It is the fallback for installs laid out otherwise.
    """
    prefix = dist.replace("-", "_").lower() + "-"
    for entry in sys.path:
        for name in _dist_infos(entry):
            if name.lower().startswith(prefix):
                return name[len(prefix):-len(".dist-info")]
    from importlib.metadata import version

    return version(dist)


@functools.cache  # a build asks for up to five versions: each folder is listed once
def _dist_infos(entry: str) -> tuple[str, ...]:
    """The names of the `.dist-info` folders in one folder of sys.path."""
    try:
        names = os.listdir(entry or ".")
    except OSError:
        return ()
    return tuple(n for n in names if n.endswith(".dist-info"))


@functools.cache
def code_digest(*modules: str) -> str:
    """A digest of these engine modules (file names in this package): of their names,
    sizes and modification times, as Python judges a .pyc stale, so an entry made by
    other code than today's is never served. Hashing their text instead read and hashed
    some 100 KB of source a build (~1 ms)."""
    digest = hashlib.sha256()
    for name in modules:
        info = (ENGINE / name).stat()
        digest.update(f"{name} {info.st_size} {info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def fingerprint(*made_by: object, modules: tuple[str, ...]) -> bytes:
    """What a cache entry depends on besides its input: Python's minor version, what
    `made_by` names (a format number, the versions of the libraries involved), and the
    code of these engine modules. An entry stored under another fingerprint is not used."""
    parts = (sys.version_info[:2], *made_by, code_digest(*modules))
    return hashlib.blake2b(" ".join(map(str, parts)).encode()).digest()


@functools.cache
def engine_stamp() -> str:
    """The name, size and modification time of every engine module, and Python's
    version, hashed: the key of what is made from the engine's code alone (the schema
    of data.json). It is Python's own test for a stale .pyc, and costs a tenth of
    hashing the code (~0.2 ms against ~2 for the whole package)."""
    digest = hashlib.blake2b(str(sys.version_info[:2]).encode(), digest_size=16)
    with os.scandir(Path(__file__).parent) as entries:
        for entry in sorted(entries, key=lambda e: e.name):
            if entry.name.endswith(".py"):
                info = entry.stat()
                digest.update(f"{entry.name} {info.st_size} {info.st_mtime_ns}\n".encode())
    return digest.hexdigest()
