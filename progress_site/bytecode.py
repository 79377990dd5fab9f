"""Compiled templates kept on disk, so a cold build does not compile them again."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import jinja2


class TemplateCache(jinja2.FileSystemBytecodeCache):
    """Jinja's file cache, written atomically: a killed or concurrent build never leaves
    a half-written entry for the next one to load."""

    def __init__(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        super().__init__(str(directory), "%s.jinja")

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Write the entry beside its place, then move it in."""
        target = self._get_cache_filename(bucket)
        fd, temp = tempfile.mkstemp(dir=self.directory, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as fh:
                bucket.write_bytecode(fh)
            os.replace(temp, target)
        except OSError:
            Path(temp).unlink(missing_ok=True)  # a cache that cannot be written is no cache


def template_cache(directory: Path) -> TemplateCache | None:
    """A template cache in `directory`, or None where the folder cannot be written."""
    try:
        cache = TemplateCache(directory)
    except OSError:
        return None
    return cache if os.access(directory, os.W_OK) else None
