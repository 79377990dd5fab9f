"""How a build gets its templates: each file read once a build, its compiled code kept
by the process between builds, and on disk so that a cold build does not compile it.

Whether a template changed is never judged by its file's time: each build reads every
template it uses, and looks its code up by the source's checksum (in memory, then on
disk), so the next build after an edit uses the edit.
"""

from __future__ import annotations

import io
import marshal
import os
import pickle
from collections.abc import Callable, MutableMapping
from pathlib import Path
from types import CodeType
from typing import Any

import jinja2
from jinja2.bccache import bc_magic

from progress_site.cache import store
from progress_site.render.template_text import compile_template

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


class TemplateLoader(jinja2.FileSystemLoader):
    """Jinja's file loader over `folders` (a source's templates, then the engine's), that
    keeps what it loaded for the build's other environments.

    Each environment loads its templates anew: without this, every template was read,
    checksummed and looked up in the cache once a language. A loader lives for one build,
    so the next build reads every template again and sees any edit, whatever its time
    stamp; within a build, every environment renders the same version of a template.
    """

    def __init__(self, folders: list[Path], cache: jinja2.BytecodeCache | None) -> None:
        super().__init__([str(f) for f in folders])
        self.cache = cache
        self.loaded: dict[str, tuple[CodeType, Callable[[], bool]]] = {}

    # Jinja asks loaders not to override `load`, as loaders made of other loaders call
    # `get_source` only: this one is never inside another.
    def load(self, environment: jinja2.Environment, name: str,
             globals: MutableMapping[str, Any] | None = None) -> jinja2.Template:
        """The template `name` for `environment`, from the code this build loaded for it."""
        if name not in self.loaded:
            self.loaded[name] = self.compiled(environment, name)
        code, uptodate = self.loaded[name]
        return environment.template_class.from_code(
            environment, code, {} if globals is None else globals, uptodate)

    def compiled(self, environment: jinja2.Environment, name: str
                 ) -> tuple[CodeType, Callable[[], bool]]:
        """A template's code, from the cache if it holds this source's, else compiled
        (and cached); TemplateNotFound if no folder has it. What Jinja's `load` does.

        The code serves every environment of the build: they differ in globals and in
        what their filters do, never in what the compiler reads (names and options)."""
        source, filename, uptodate = self.get_source(environment, name)
        if self.cache is None:
            return compile_template(environment, source, name, filename), uptodate
        bucket = self.cache.get_bucket(environment, name, filename, source)
        if bucket.code is None:
            bucket.code = compile_template(environment, source, name, filename)
            self.cache.set_bucket(bucket)
        return bucket.code, uptodate
