"""Content pages: content/<language>/*.md read into `Page`s, their names checked like ids
and their front matter against `PageMeta`."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from progress_site.characters import blank
from progress_site.errors import Location, Problem
from progress_site.load.convert import INVALID, Converter
from progress_site.load.files import inside, source_files, unreadable_name
from progress_site.load.parse_cache import parsed
from progress_site.load.places import Places
from progress_site.load.text import MAX_PAGE_BYTES, LineIndex, read_text
from progress_site.model.limits import MAX_PAGES, MAX_TITLE

# A page's name (its file's, without .md) becomes a folder of the site and a link in
# every page's navigation: letters that need no quoting in an address and read alike on
# every file system (no capitals: About.md and about.md are one file on some), and one
# level of pages. docs/data-format.md ("Content pages") lists them.
PAGE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")
# What the build writes beside the pages' folders, at the top of the site and of each
# language's folder (publish/outputs.py, render/notfound.py, render/pages.py): a page of
# one of these names would be overwritten, or fail to publish. A language's code names
# its folder too. `feed/` and `404/` would be taken for the feed and the missing page.
TAKEN = MappingProxyType({
    "assets": "the folder of the site's stylesheet",
    "feed": "the site's Atom feed (feed.xml)",
    "feed.xml": "the site's Atom feed",
    "404": "the page shown for an address that has none (404.html)",
    "404.html": "the page shown for an address that has none",
    "data.json": "the site's data for other tools",
    "data.schema.json": "the JSON Schema of data.json",
    "sitemap.xml": "the site's sitemap",
    "robots.txt": "the crawlers' rules",
    "social.png": "the site's preview card",
})


@dataclass(frozen=True, slots=True)
class PageMeta:
    """The front matter of a content page."""

    title: str
    description: str | None = None
    template: str = "page.html"
    nav: str | None = None


@dataclass(frozen=True, slots=True)
class Page:
    """One Markdown page in one language, with its body and where it starts."""

    language: str
    slug: str  # file name without .md; `index` is the home page
    meta: PageMeta
    body: str
    body_line: int  # line number of the body's first line in the file
    display: str
    # Where each front matter key is, looked up when a problem asks (convert.Places).
    meta_at: Mapping[str, Location] = field(default_factory=dict, compare=False, repr=False)
    # Where the body's lines start, made once for all the problems located in it.
    lines: LineIndex = field(init=False, compare=False, repr=False)
    # What the render stage made of the body, kept for the build that loaded the page
    # (render/markdown.py: its parts, each chunk's tokens): read in several passes.
    kept: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "lines", LineIndex(self.body))

    def where(self, key: str) -> Location:
        """Where a front matter key was written (the top of the file when absent)."""
        return self.meta_at.get(key, Location(self.display, 1, 1))


def split_front_matter(text: str) -> tuple[str, str, int]:
    """Front matter text (padded so its line numbers match the file), body, body's line."""
    lines = text.split("\n")
    if lines and lines[0].strip() == "---":
        for i in range(1, len(lines)):
            if lines[i].strip() == "---":
                front = "\n" + "\n".join(lines[1:i])
                return front, "\n".join(lines[i + 1:]), i + 2
    return "", text, 1


def load_pages(root: Path, languages: tuple[str, ...]) -> tuple[list[Page], list[Problem]]:
    """Read content/<language>/*.md for each language."""
    pages: list[Page] = []
    problems: list[Problem] = []
    for lang in languages:
        paths = source_files(root / "content" / lang, (".md",))
        if len(paths) > MAX_PAGES:  # read none: the first page past the limit is told
            problems.append(too_many(paths, root))
            continue
        for path in paths:
            refused = misnamed(path, root, lang, languages)
            if refused:
                problems += refused
                continue
            page, found = read_page(path, root, lang)
            problems += found
            if page is not None:
                pages.append(page)
    return pages, problems


def too_many(paths: list[Path], root: Path) -> Problem:
    """The error at the first page of a language past MAX_PAGES."""
    return Problem(Location(paths[MAX_PAGES].relative_to(root).as_posix()),
                   f"{len(paths):,} pages in content/{paths[0].parent.name}/, more than "
                   f"the {MAX_PAGES} a site may have in a language: each page lists every "
                   "other in its navigation", hint="merge pages into fewer, longer ones "
                   "(a heading for each), or publish them as a site of their own")


def long_titles(meta: PageMeta, where: Places) -> list[Problem]:
    """An error at `title` or `nav` when it is longer than every page's navigation
    can hold (MAX_TITLE)."""
    return [Problem(where[key], f"{key}: {len(text):,} characters, more than the "
                    f"{MAX_TITLE} a page's {key} may have: it is printed in the navigation "
                    "of every page", hint="keep it to a line; say the rest in "
                    "`description:` or in the page")
            for key, text in (("title", meta.title), ("nav", meta.nav))
            if text is not None and len(text) > MAX_TITLE] + [
        Problem(where[key], f"{key}: {text!r} shows no word: the page's link in the "
                "navigation of every page would have none", hint="write the page's name "
                "in a few words")
        for key, text in (("title", meta.title), ("nav", meta.nav))
        if text is not None and (key == "title" or text) and blank(text)]


def misnamed(path: Path, root: Path, lang: str, languages: tuple[str, ...]) -> list[Problem]:
    """Refuse a page whose name is not one a site's address can hold (`PAGE_NAME`), or
    is taken by what the build writes (`TAKEN`, a language's folder)."""
    display = path.relative_to(root).as_posix()
    slug = path.relative_to(root / "content" / lang).with_suffix("").as_posix()
    where = Location(display)
    refused = unreadable_name(display)
    if refused:
        return refused
    if "/" in slug:
        return [Problem(where, f"a page is a file directly in content/{lang}/, not in a "
                               "folder inside it", hint=f"move it to content/{lang}/"
                                                        f"{suggested_name(slug)}.md: a site "
                                                        "has one level of pages")]
    taken = f"the folder of the site's {slug} pages" if slug in languages else TAKEN.get(slug)
    if taken:
        return [Problem(where, f"the page name '{slug}' is taken by {taken}",
                        hint="rename the file: a page may not be named after a language "
                             "(" + ", ".join(languages) + ") or a file the build writes ("
                             + ", ".join(TAKEN) + ")")]
    if not PAGE_NAME.fullmatch(slug):
        return [Problem(where, f"the page name '{slug}' may hold only lowercase letters, "
                               "digits, '-' and '_'", hint=f"rename the file, for example "
                                                          f"to content/{lang}/"
                                                          f"{suggested_name(slug)}.md")]
    return []


def suggested_name(slug: str) -> str:
    """A page name of the allowed letters, close to `slug`: `Café au lait` -> `cafe-au-lait`."""
    ascii_only = unicodedata.normalize("NFKD", slug).encode("ascii", "ignore").decode()
    name = re.sub(r"[^a-z0-9_]+", "-", ascii_only.lower()).strip("-_")
    return name if name and name not in TAKEN else "page"


def check_page_set(pages: list[Page], languages: tuple[str, ...], strict: bool
                   ) -> list[Problem]:
    """A home page in the default language, and each page in every language (a page
    missing in one language is an error under --strict, else a warning)."""
    default = languages[0]
    have = {(p.language, p.slug): p for p in pages}
    if (default, "index") not in have:
        return [Problem(Location(f"content/{default}/index.md"), "the site has no home page",
                        hint=f"write content/{default}/index.md, starting with '---', "
                             "'title: ...', '---'")]
    out = []
    first = {p.slug: p for p in reversed(pages)}  # each name's first page
    for slug in sorted(first):
        for lang in languages:
            if (lang, slug) not in have:
                other = first[slug]
                out.append(Problem(Location(f"content/{lang}/{slug}.md"), f"no {lang} "
                                   f"version of {other.display}", hint=f"write "
                                   f"content/{lang}/{slug}.md", warning=not strict))
    return out


def untitled(text: str, front: str, meta: object, display: str) -> Problem:
    """Why a page has no title, told by what its first lines hold (`front`, its front
    matter as split_front_matter found it): a front matter never closed, one that is not
    `key: value` lines, or none at all, each with its own fix."""
    where = Location(display, 1, 1)
    opened = text.split("\n", 1)[0].strip() == "---"
    if opened and not front:
        return Problem(where, "the page's front matter is not closed: no '---' line ends it",
                       hint="add a line '---' after its last 'key: value' line")
    if opened and meta is not None and not isinstance(meta, dict):
        return Problem(where, "the page's front matter is not 'key: value' lines",
                       hint="write it as 'title: ...' and the page's other keys, one a line")
    return Problem(where, "the page has no title", hint="start the file with "
                   "'---', 'title: ...', '---'" if not opened else
                   "add 'title: ...' between the two '---' lines")


def read_page(path: Path, root: Path, lang: str) -> tuple[Page | None, list[Problem]]:
    """One Markdown page: its front matter checked, its body kept for rendering."""
    display = path.relative_to(root).as_posix()
    problems = inside(path, root, display)
    text, read_problems = (None, []) if problems else read_text(path, display,
                                                                MAX_PAGE_BYTES)
    problems += read_problems
    if text is None:
        return None, problems
    front, body, body_line = split_front_matter(text)
    doc, found = parsed(front, display)
    problems = list(found)
    if doc.data is None and problems:
        return None, problems  # a front matter that did not parse: its title is unknown
    meta_values = doc.data if doc.data is not None else {}
    slug = path.relative_to(root / "content" / lang).with_suffix("").as_posix()
    if not isinstance(meta_values, dict) or "title" not in meta_values:
        problems.append(untitled(text, front, meta_values, display))
        return None, problems
    conv = Converter(doc, (lang,), strict=True)
    meta = conv.convert(PageMeta, meta_values, ())
    problems += conv.problems
    if meta is INVALID:
        return None, problems
    where = Places(doc, (), meta_values)
    problems += long_titles(meta, where)
    return Page(lang, slug, meta, body, body_line, display, where), problems
