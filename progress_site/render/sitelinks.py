"""Links of the pages' prose to files of this site that the build does not publish (an
image beside the Markdown: content/ is not published; a page's name mistyped), and to
an anchor (`#plan`, `guide/index.html#setup`) that no element of the page it leads to
has. A browser shows the first broken and the second lands at the page's top; the build
says where they are written, a warning (an error under --strict)."""

from __future__ import annotations

import dataclasses
import posixpath
import re
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import unquote

from progress_site.errors import Problem, did_you_mean
from progress_site.load.pages import Page
from progress_site.render.ids import element_ids
from progress_site.render.markdown import split_blocks, written_links
from progress_site.render.pages import PageRenderer
from progress_site.render.places import PagePlace, language_folder

SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
# What the build writes besides the pages and assets (publish/outputs.py), at the top
# of the site, and at the top of each language's folder.
SITE_FILES = ("data.json", "data.schema.json", "sitemap.xml", "robots.txt")
LANGUAGE_FILES = ("feed.xml", "regressions.xml", "404.html", "social.png")


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
    found |= {f"assets/{f.name}" for folder in folders if (folder / "assets").is_dir()
              for f in (folder / "assets").iterdir() if f.is_file()}
    found |= set(SITE_FILES)
    found |= {language_folder(lang, default) + name for lang in languages
              for name in LANGUAGE_FILES}
    return frozenset(found)


def unpublished_links(pages: tuple[Page, ...], languages: tuple[str, ...],
                      folders: list[Path], strict: bool) -> list[Problem]:
    """Each link or image of the pages' prose to a file of this site that the build
    does not publish, located where it is written."""
    known = published(pages, languages, folders)
    found = []
    for page, here, part, start in prose(pages, languages):
        found += [dataclasses.replace(problem, warning=not strict)
                  for problem in missing(page, here, part, start, known)]
    return found


Prose = tuple[Page, str, str, int]  # a page, where it is published, a chunk, its offset


def prose(pages: tuple[Page, ...], languages: tuple[str, ...]) -> list[Prose]:
    """Each Markdown chunk of the pages (the text between blocks), with its page, the
    path the page is published at, and where the chunk starts in the page's body."""
    found = []
    for page in pages:
        here = PagePlace.of(page.language, page.slug, languages[0]).path
        start = 0
        for part in split_blocks(page.body, page.body_line):
            if isinstance(part, str):
                start = page.body.find(part, start)
                found.append((page, here, part, start))
                start += len(part)
    return found


def broken_anchors(pages: tuple[Page, ...], languages: tuple[str, ...],
                   files: Mapping[str, bytes], strict: bool) -> list[Problem]:
    """Each link of the pages' prose to an anchor that the page it leads to (`files`,
    the site rendered) has no element for, located where it is written."""
    ids: dict[str, frozenset[str]] = {}  # a page's ids, read when a link asks for them
    found = []
    for page, here, part, start in prose(pages, languages):
        # An image's `#` names a part of its file (an SVG's view), not an element.
        for at, written, address in written_links(part, images=False):
            path, sign, anchor = address.partition("#")
            page_path = here if not path else target(here, address)
            if not sign or page_path is None:
                continue
            if page_path not in files and posixpath.join(page_path, "index.html") in files:
                page_path = posixpath.join(page_path, "index.html")
            if not page_path.endswith(".html") or page_path not in files:
                continue  # another host's, or no page: unpublished_links tells
            if page_path not in ids:
                ids[page_path] = frozenset(element_ids(files[page_path].decode("utf-8")))
            problem = no_anchor(page, start + at, written, unquote(anchor), page_path,
                                ids[page_path])
            if problem is not None:
                found.append(dataclasses.replace(problem, warning=not strict))
    return found


def no_anchor(page: Page, at: int, written: str, anchor: str, path: str,
              ids: frozenset[str]) -> Problem | None:
    """The problem of a link to `anchor` on the page at `path`, which has `ids`; None
    when it has that id (or the link leads to the page's top: `#`, `#top`)."""
    if not anchor or anchor in ids or anchor == "top":
        return None
    return PageRenderer.located(
        page, at, f"link to '{written}': {path} has no element with the id '{anchor}'",
        did_you_mean(anchor, sorted(ids), otherwise="link to an id the page has: a "
                     "heading's is made from its words, or given as `## Words {#id}`"))


def missing(page: Page, here: str, text: str, start: int, known: frozenset[str]
            ) -> list[Problem]:
    """The links of one Markdown chunk of a page that lead to no published file."""
    found = []
    for at, written, address in written_links(text):
        path = target(here, address)
        if path is None or path in known or posixpath.join(path, "index.html") in known:
            continue
        found.append(PageRenderer.located(
            page, start + at, f"link to '{written}': the site publishes no file at {path}",
            "link a page by its address (news/index.html for content/LANG/news.md, "
            "../index.html back to the home page); an image goes in templates/assets/ and "
            "is published as assets/NAME (see docs/data-format.md, \"Images\")"))
    return found
