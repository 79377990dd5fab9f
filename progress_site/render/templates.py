"""The Jinja environment of one language: the site's templates over the engine's, their
compiled code kept in Jinja's bytecode cache, and the words of the i18n extension.

Whether a template changed is judged by its source, never by its file's time: each build
makes new environments, which read every template they use, and Jinja's cache finds the
compiled code by the source's checksum, so the next build after an edit uses the edit.

Compiled code is Python that Jinja runs, and the cache folder may come with the source a
pull request sent: each entry is signed and checked through `progress_site.cache`, so
only code this machine compiled is ever loaded.
"""

from __future__ import annotations

import io
from gettext import NullTranslations
from pathlib import Path

import jinja2
from jinja2.bccache import Bucket

from progress_site import cache


class TemplateCache(jinja2.FileSystemBytecodeCache):
    """Jinja's bytecode cache, whose entries are signed with this machine's key: one it
    did not write (planted, damaged, of another machine) is compiled again, and one that
    cannot be read or written is a miss. A cache makes a build faster, never unsafe or
    failed."""

    def _path(self, bucket: Bucket) -> Path:
        """The entry's file, named as Jinja names it."""
        return Path(self._get_cache_filename(bucket))

    def load_bytecode(self, bucket: Bucket) -> None:
        """The entry's code, if this machine signed it."""
        data = cache.read(self._path(bucket))
        if data is None:
            return
        try:
            bucket.load_bytecode(io.BytesIO(data))
        except Exception:  # signed but of another Python (marshal) or cut short
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Store the entry, signed, whole or not at all; a full or read-only disk means no
        entry, not a failed build."""
        buffer = io.BytesIO()
        bucket.write_bytecode(buffer)
        cache.store(self._path(bucket), buffer.getvalue())


def template_cache(folder: Path) -> TemplateCache | None:
    """Jinja's bytecode cache in `folder` (made if need be), or None where it cannot be made."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return TemplateCache(str(folder))


def template_loader(folders: list[Path]) -> jinja2.FileSystemLoader:
    """Templates from the first of `folders` that has them: a site's own templates/
    overrides the engine's."""
    return jinja2.FileSystemLoader(folders)


def new_environment(loader: jinja2.BaseLoader, cache: jinja2.BytecodeCache | None,
                    translations: NullTranslations) -> jinja2.Environment:
    """A Jinja environment for one language: autoescaped, strict about undefined names,
    with `{% trans %}`, `_()` and `ngettext()` reading `translations`."""
    env = jinja2.Environment(
        loader=loader,
        bytecode_cache=cache,
        extensions=["jinja2.ext.i18n"],
        # An environment lasts one build, which renders each template as it read it:
        # no need to look at the file again at each use.
        auto_reload=False,
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.install_gettext_translations(translations, newstyle=True)  # type: ignore[attr-defined]
    return env
