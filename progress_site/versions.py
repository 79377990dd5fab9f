"""What the caches under `.cache/` are keyed on besides their input: the versions of the
libraries that made an entry, and the code of the engine modules that did."""

from __future__ import annotations

import functools
import hashlib
import os
import sys
from pathlib import Path


@functools.cache
def installed_version(dist: str) -> str:
    """The version of an installed distribution, read from its `.dist-info` folder's name.

    importlib.metadata says the same, but importing it costs 15-20 ms: a tenth of a whole
    build of the example site. It is the fallback for installs laid out otherwise.
    """
    prefix = dist.replace("-", "_").lower() + "-"
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.lower().startswith(prefix) and name.endswith(".dist-info"):
                return name[len(prefix):-len(".dist-info")]
    from importlib.metadata import version

    return version(dist)


@functools.cache
def code_digest(*modules: str) -> str:
    """The sha256 of these engine modules' code (file names in this package): an entry
    made by other code than today's is never served."""
    digest = hashlib.sha256()
    for name in modules:
        digest.update((Path(__file__).parent / name).read_bytes())
    return digest.hexdigest()


def fingerprint(*made_by: object, modules: tuple[str, ...]) -> bytes:
    """What a cache entry depends on besides its input: Python's minor version, what
    `made_by` names (a format number, the versions of the libraries involved), and the
    code of these engine modules. An entry stored under another fingerprint is not used."""
    parts = (sys.version_info[:2], *made_by, code_digest(*modules))
    return hashlib.blake2b(" ".join(map(str, parts)).encode()).digest()
