"""Compiled templates kept on disk, so a cold build does not compile them again."""

from __future__ import annotations

import io
import marshal
import os
import pickle
from pathlib import Path
from types import CodeType

import jinja2
from jinja2.bccache import bc_magic

from .atomicwrite import store

# Compiled templates already read by this process, by folder, template and source
# checksum: each build makes new environments (their words and model are the build's),
# and a watch rebuild would otherwise read and unmarshal every template again. A code
# object is never changed by running it; an edited template has another checksum.
_LOADED: dict[tuple[str, str, str], CodeType] = {}


class TemplateCache(jinja2.FileSystemBytecodeCache):
    """Jinja's file cache, read in one go and written atomically: a killed or concurrent
    build never leaves a half-written entry for the next one to load."""

    def __init__(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        super().__init__(str(directory), "%s.jinja")

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """The compiled template from memory, else from disk (then kept in memory)."""
        key = (self.directory, bucket.key, bucket.checksum)
        code = _LOADED.get(key)
        if code is None:
            code = self.read(bucket)
            if code is None:
                return
            _LOADED[key] = code
        bucket.code = code

    def read(self, bucket: jinja2.bccache.Bucket) -> CodeType | None:
        """The entry's code if it was compiled from this source (by this Python), else None.

        Jinja's own reader unmarshals from the open file, which calls back into Python
        for every piece it reads: three times as long as reading the file whole."""
        try:
            with open(self._get_cache_filename(bucket), "rb") as file:
                data = file.read()
        except OSError:
            return None
        # The entry is Jinja's: magic (format and Python version), the source's checksum
        # pickled, the code marshalled. The checksum is compared as it is written, so
        # nothing read from the file is unpickled.
        head = bc_magic + pickle.dumps(bucket.checksum, 2)
        if not data.startswith(head):
            return None
        try:
            code = marshal.loads(memoryview(data)[len(head):])
        except (EOFError, ValueError, TypeError):
            return None
        return code if isinstance(code, CodeType) else None

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Write the entry beside its place, then move it in (and keep it in memory)."""
        if bucket.code is not None:
            _LOADED[(self.directory, bucket.key, bucket.checksum)] = bucket.code
        compiled = io.BytesIO()
        bucket.write_bytecode(compiled)
        store(Path(self._get_cache_filename(bucket)), compiled.getvalue())


def template_cache(directory: Path) -> TemplateCache | None:
    """A template cache in `directory`, or None where the folder cannot be written."""
    try:
        cache = TemplateCache(directory)
    except OSError:
        return None
    return cache if os.access(directory, os.W_OK) else None
