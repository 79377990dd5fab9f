"""Files written whole or not at all: the caches under `.cache/`, and pages that watch mode
replaces in a published site.

Each file is written beside its place under a temporary name, then moved in with one
rename, so a reader (the next build, the preview server) sees the old file or the new
one, never half of one, even when a build is killed or two run at once.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


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
