"""Links of the pages' prose to files of this site that the build does not publish: an
image beside the Markdown (content/ is not published), a page's name mistyped. A
browser shows them broken; the build says where they are written, a warning (an error
under --strict)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from progress_site.load.pages import Page
from progress_site.render.assets import asset_files
from progress_site.render.markdown import written_links
from progress_site.render.places import PagePlace, language_folder

SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
# What the build writes besides the pages and assets (publish/outputs.py), at the top
# of the site, and at the top of each language's folder.
SITE_FILES = ("data.json", "data.schema.json", "sitemap.xml", "robots.txt")
LANGUAGE_FILES = ("feed.xml", "regressions.xml", "404.html", "social.png")
HINT = ("link a page by its address (news/index.html for content/LANG/news.md, "
        "../index.html back to the home page); an image goes in templates/assets/ and is "
        "published as assets/NAME (see docs/data-format.md, \"Images\")")


def target(here: str, written: str) -> str | None:
    """The published path an address leads to from the page at `here`; None for one
    that is no file of this site (a web address, an anchor, a path from the host's
    root or above the site's, which a base path may hold)."""
    path = written.split("#", 1)[0].split("?", 1)[0]
    if not path or SCHEME.match(path) or path.startswith("/"):
        return None
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(here), unquote(path)))
    if joined == ".." or joined.startswith("../"):
        return None
    if path.endswith("/") or joined == ".":
        joined = posixpath.join(joined, "index.html").removeprefix("./")
    return joined


def published(pages: tuple[Page, ...], languages: tuple[str, ...],
              folders: list[Path]) -> frozenset[str]:
    """Every path the build publishes a file at: pages, assets and the files beside."""
    default = languages[0]
    found = {PagePlace.of(p.language, p.slug, default).path for p in pages}
    found |= {name for name, _, why in asset_files(folders) if why is None}
    found |= set(SITE_FILES)
    found |= {language_folder(lang, default) + name for lang in languages
              for name in LANGUAGE_FILES}
    return frozenset(found)


@dataclass(frozen=True, slots=True)
class SiteFiles:
    """The paths the build publishes, which the links of the pages' prose must lead to
    (PageRenderer.prose checks them where it renders them); `strict`: a link to none is
    an error, else a warning."""

    known: frozenset[str]
    strict: bool = False

    def missing(self, here: str, text: str, page: Page | None = None
                ) -> Iterator[tuple[int, str, str]]:
        """(offset, message, hint) for each link or image of a Markdown chunk of the page
        at `here` that leads to no published file."""
        for at, written, address in written_links(text, page=page):
            path = target(here, address)
            if path is None or path in self.known or \
                    posixpath.join(path, "index.html") in self.known:
                continue
            yield at, f"link to '{written}': the site publishes no file at {path}", HINT
