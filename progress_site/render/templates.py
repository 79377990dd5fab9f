"""The Jinja environment of one language: the site's templates over the engine's, their
compiled code kept in this process's memory, and the words of the i18n extension.

Compiled templates are Python code, so they are never read from a file: a cache folder
can be written by someone else (a pull request, when it lay in the source), and code read
from it would run in the build. Each process compiles what it renders; the other
languages of a build, and watch mode's rebuilds, reuse that code (`CompiledTemplates`).
Whether a template changed is judged by its source, never by its file's time: Jinja
keys compiled code by the source's checksum, so a rebuild after an edit uses the edit.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from gettext import NullTranslations
from pathlib import Path
from typing import Any

import jinja2
from jinja2.bccache import Bucket
from markupsafe import Markup

from progress_site.engine_theme import theme_root
from progress_site.render.sandbox import Sandbox


class CompiledTemplates(jinja2.BytecodeCache):
    """Jinja's bytecode cache in this process's memory only: the code objects this process
    compiled, by template and source checksum. Nothing is written or read elsewhere."""

    def __init__(self) -> None:
        self._code: dict[str, tuple[str, types.CodeType]] = {}

    def get_bucket(self, environment: jinja2.Environment, name: str,
                   filename: str | None, source: str) -> Bucket:
        """Jinja's bucket, keyed by the kind of environment too: the sandbox compiles a
        template into other code (its operators checked), which no other may reuse."""
        key = f"{environment.sandboxed}:{self.get_cache_key(name, filename)}"
        bucket = Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        """The template's code, if this process compiled it from the same source."""
        found = self._code.get(bucket.key)
        if found is not None and found[0] == bucket.checksum:
            bucket.code = found[1]

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Keep the code just compiled, in place of an older source's."""
        if bucket.code is not None:
            self._code[bucket.key] = (bucket.checksum, bucket.code)


def from_source(loader: jinja2.BaseLoader) -> bool:
    """Whether a template may come from the folder being built: any folder but the
    engine's own theme, which is trusted as the engine's code is."""
    theme = (theme_root() / "templates").resolve()
    folders = getattr(loader, "searchpath", None)
    return folders is None or any(Path(f).resolve() != theme for f in folders)


def new_environment(loader: jinja2.BaseLoader, compiled: CompiledTemplates | None,
                    translations: NullTranslations) -> jinja2.Environment:
    """A Jinja environment for one language: autoescaped, strict about undefined names,
    with `{% trans %}`, `_()` and `ngettext()` reading `translations`; in the sandbox
    (sandbox.py) when a site's templates/ comes with its source. The engine's theme
    alone runs without it: the sandbox checks every attribute and call of every page, a
    cost a large site feels (bench/README.md)."""
    kind = Sandbox if from_source(loader) else jinja2.Environment
    env = kind(
        loader=loader,
        bytecode_cache=compiled,
        extensions=["jinja2.ext.i18n"],
        # An environment lasts one build, which renders each template as it read it:
        # no need to look at the file again at each use.
        auto_reload=False,
        # Jinja's optimizer folds constant expressions while compiling; our templates
        # have next to none, and compiling is most of what a small site's build does.
        optimized=False,
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    # Jinja marks what gettext returns as markup; a catalog comes with the source, so
    # its words are made text first (placeholders are escaped by Jinja as they go in).
    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=as_text(translations.gettext), ngettext=as_text(translations.ngettext),
        pgettext=as_text(translations.pgettext),
        npgettext=as_text(translations.npgettext), newstyle=True)
    return env


def as_text(translate: Callable[..., str]) -> Callable[..., Markup]:
    """A gettext function whose words print as text: `<`, `>`, `&` and `"` escaped (an
    apostrophe, common in French, breaks no attribute our templates write: they quote
    with `"`), so a translation cannot add markup or leave an attribute."""
    # Translated once a message and language: a large site's rows ask for the same few
    # (a comparison's verdict, 'Source') thousands of times (bench/hugo_peer.py).
    @functools.cache
    def translated(*args: Any) -> Markup:
        return Markup(translate(*args).replace("&", "&amp;").replace("<", "&lt;")
                      .replace(">", "&gt;").replace('"', "&#34;"))
    return translated
