"""Where a site's files are published: each page, each language's own files, and the
public address of each once the site's base URL is known."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from urllib.parse import quote

from progress_site.load.pages import Page


@dataclass(frozen=True, slots=True)
class PagePlace:
    """Where a page is published, and how it reaches the site's root."""

    path: str  # `index.html`, `fr/index.html`, `fr/report/index.html`
    root: str  # `""`, `../`, `../../`

    @classmethod
    def of(cls, lang: str, slug: str, default: str) -> PagePlace:
        """The published path of a page of one language."""
        parts = ([] if lang == default else [lang]) + ([] if slug == "index" else [slug])
        path = "/".join([*parts, "index.html"])
        return cls(path, "../" * path.count("/"))  # a series' page is two folders down

    def href(self, other: PagePlace) -> str:
        """A relative link from this page to another (explicit index.html, for file://)."""
        return posixpath.relpath(other.path, posixpath.dirname(self.path) or ".")

    def url(self, base_url: str, href: str = "") -> str:
        """The public address of this page, or of a page it links to relatively (`href`,
        as `href()` gives it): what canonical, hreflang and Open Graph links give."""
        path = posixpath.normpath(posixpath.join(posixpath.dirname(self.path), href)) \
            if href else self.path
        return public_url(path, base_url)


def public_url(path: str, base_url: str) -> str:
    """The address of a published file (`x/index.html` is served as `x/`); `base_url`
    is checked already (model/base_url.check_base_url), the path is percent-encoded here."""
    return base_url + quote(path.removesuffix("index.html"), safe="/")


def language_folder(lang: str, default: str) -> str:
    """Where a language's files live: '' for the default language, 'fr/' for the others."""
    return "" if lang == default else f"{lang}/"


def home_page(pages: tuple[Page, ...], lang: str, default: str) -> str | None:
    """The home page that a language's feed and 404 page link to: its own when it is
    built, else the site's; None when neither is."""
    built = {PagePlace.of(p.language, p.slug, default).path for p in pages}
    for path in (PagePlace.of(lang, "index", default).path, "index.html"):
        if path in built:
            return path
    return None
