"""Where a site's files are published: each page, and each language's own files."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PagePlace:
    """Where a page is published, and how it reaches the site's root."""

    path: str  # `index.html`, `fr/index.html`, `fr/report/index.html`
    root: str  # `""`, `../`, `../../`

    @classmethod
    def of(cls, lang: str, slug: str, default: str) -> PagePlace:
        """The published path of a page of one language."""
        parts = ([] if lang == default else [lang]) + ([] if slug == "index" else [slug])
        return cls("/".join([*parts, "index.html"]), "../" * len(parts))

    def href(self, other: PagePlace) -> str:
        """A relative link from this page to another (explicit index.html, for file://)."""
        return posixpath.relpath(other.path, posixpath.dirname(self.path) or ".")


def language_folder(lang: str, default: str) -> str:
    """Where a language's files live: '' for the default language, 'fr/' for the others."""
    return "" if lang == default else f"{lang}/"
