"""Links of the pages' prose to an anchor (`#plan`, `guide/index.html#setup`) that no
element of the page it leads to has: a browser lands at the page's top. The build says
where they are written, a warning (an error under --strict), once every page is
rendered, since the ids are those of the pages as built."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Mapping
from urllib.parse import unquote

from progress_site.errors import Problem, did_you_mean
from progress_site.load.pages import Page
from progress_site.render.ids import element_ids
from progress_site.render.located import located
from progress_site.render.markdown import prose_chunks, written_links
from progress_site.render.places import PagePlace
from progress_site.render.sitelinks import target


def broken_anchors(pages: tuple[Page, ...], languages: tuple[str, ...],
                   files: Mapping[str, bytes], strict: bool) -> list[Problem]:
    """Each link of the pages' prose to an anchor that the page it leads to (`files`,
    the site rendered) has no element for, located where it is written."""
    ids: dict[str, frozenset[str]] = {}  # a page's ids, read when a link asks for them
    found = []
    for page, at, written, page_path, anchor in anchor_links(pages, languages, files):
        if page_path not in ids:
            ids[page_path] = frozenset(element_ids(files[page_path].decode("utf-8")))
        problem = no_anchor(page, at, written, anchor, page_path, ids[page_path], strict)
        if problem is not None:
            found.append(problem)
    return found


def anchor_links(pages: tuple[Page, ...], languages: tuple[str, ...],
                 files: Mapping[str, bytes]) -> Iterator[tuple[Page, int, str, str, str]]:
    """(page, offset, link as written, built page it leads to, anchor) for each link of
    the pages' prose to an anchor of a page of this site."""
    for page in pages:
        here = PagePlace.of(page.language, page.slug, languages[0]).path
        chunks = ((start, part) for start, part in prose_chunks(page) if isinstance(part, str))
        for start, part in chunks:
            # An image's `#` names a part of its file (an SVG's view), not an element.
            for at, written, address in written_links(part, images=False, page=page):
                path, sign, anchor = address.partition("#")
                linked = here if not path else target(here, address)
                page_path = built_page(linked, files) if sign and linked else None
                if page_path is not None:  # else another host's, or no page: sitelinks
                    yield page, start + at, written, page_path, unquote(anchor)


def built_page(path: str, files: Mapping[str, bytes]) -> str | None:
    """The page of the built site a link's path leads to (a folder: its index.html);
    None when it leads to no page."""
    if path not in files and posixpath.join(path, "index.html") in files:
        path = posixpath.join(path, "index.html")
    return path if path.endswith(".html") and path in files else None


def no_anchor(page: Page, at: int, written: str, anchor: str, path: str,
              ids: frozenset[str], strict: bool) -> Problem | None:
    """The problem of a link to `anchor` on the page at `path`, which has `ids`; None
    when it has that id (or the link leads to the page's top: `#`, `#top`)."""
    if not anchor or anchor in ids or anchor == "top":
        return None
    return located(
        page, at, f"link to '{written}': {path} has no element with the id '{anchor}'",
        did_you_mean(anchor, sorted(ids), otherwise="link to an id the page has: a "
                     "heading's is made from its words, or given as `## Words {#id}`"),
        warning=not strict)
