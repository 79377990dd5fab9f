"""Load stage: read data/*.yaml and content/<language>/*.md into typed records."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from progress_site.collector import collector_paused
from progress_site.errors import Location, Problem
from progress_site.load.convert import INVALID, Converter, Places, known_language
from progress_site.load.datasets import attach_records
from progress_site.load.parse_cache import parse_once
from progress_site.load.text import decode, read_text, unwanted
from progress_site.load.yaml import Document
from progress_site.model.declare import hints
from progress_site.model.schema import Data, Site

DATA_SUFFIXES = (".yaml", ".yml")
DEFAULT_LANGUAGES = ("en", "fr")

# A page's name (its file's, without .md) becomes a folder of the site and a link in
# every page's navigation: letters that need no quoting in an address and read alike on
# every file system (no capitals: About.md and about.md are one file on some), and one
# level of pages. docs/data-format.md ("Content pages") lists them.
PAGE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")
# What the build writes beside the pages' folders, at the top of the site and of each
# language's folder (publish/outputs.py, render/notfound.py, render/pages.py): a page of
# one of these names would be overwritten, or fail to publish. A language's code names
# its folder too. `feed/` and `404/` would be taken for the feed and the missing page.
TAKEN = {
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
}


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

    def where(self, key: str) -> Location:
        """Where a front matter key was written (the top of the file when absent)."""
        return self.meta_at.get(key, Location(self.display, 1, 1))


@dataclass(frozen=True, slots=True)
class Source:
    """Everything read from the source folder, before cross-checks."""

    data: Data
    pages: tuple[Page, ...]
    documents: tuple[Document, ...]


def source_files(folder: Path, root: Path, suffixes: tuple[str, ...]) -> list[Path]:
    """Files under `folder` with one of `suffixes`, sorted, so builds are reproducible."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.suffix in suffixes and p.is_file())


def inside(path: Path, root: Path, display: str) -> list[Problem]:
    """Refuse a file that a symbolic link takes outside the source folder."""
    if not linked_below(path, root) or path.resolve().is_relative_to(root.resolve()):
        return []
    return [Problem(Location(display), "this file links to a place outside the source folder",
                    hint="copy the file into the folder instead of linking to it")]


def linked_below(path: Path, root: Path) -> bool:
    """Whether `path` may lead out of `root`: a part of it below `root` is a symbolic link
    or `..` (or it is not below `root` at all). Only the parts below `root` are looked
    at: resolving a path asks the system about each of its parts, the root's too."""
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return True
    probe = root
    for part in parts:
        probe = probe / part
        if part == ".." or probe.is_symlink():
            return True
    return False


def unreadable_name(display: str) -> list[Problem]:
    """Refuse a file whose name is not UTF-8 or holds a control or direction character:
    the name is printed in messages, and a page's becomes a link."""
    if any("\udc80" <= ch <= "\udcff" for ch in display):  # bytes os.fsdecode kept
        what = "is not UTF-8 text"
    elif found := unwanted(display):
        what = f"holds {found}"
    else:
        return []
    return [Problem(Location(display), f"this file's name {what}",
                    hint="rename the file with letters, digits, '-' and '_'")]


def read_yaml(path: Path, root: Path, cache_dir: Path | None = None, edited: str | None = None
              ) -> tuple[Document | None, list[Problem]]:
    """Parse one YAML file, with every problem located (the parse kept in `cache_dir`);
    `edited` is its text as it would be written, read instead of the file's."""
    display = path.relative_to(root).as_posix()
    problems = unreadable_name(display) or inside(path, root, display)
    if problems:
        return None, problems
    text, problems = read_text(path, display) if edited is None else decode(
        edited.encode("utf-8", "surrogatepass"), display)
    if text is None:
        return None, problems
    doc, problems = parse_once(text, display, cache_dir)
    if doc.data is not None and not isinstance(doc.data, (dict, list)):
        problems.append(doc.problem((), "a data file must be a mapping of collections "
                                        "(machines:, studies:, ...)"))
        doc.data = None
    return doc, problems


def load_data(root: Path, strict: bool, parsed: Path | None = None,
              edited: Mapping[Path, str] | None = None
              ) -> tuple[Data | None, list[Document], list[Problem]]:
    """Read every data file; collections of the same name in several files are joined
    (parsed files are kept in `parsed`, a folder of the cache; `edited` texts are read
    instead of their files, see `load_edited`)."""
    docs: list[Document] = []
    lists: dict[str, Document] = {}  # the records of a dataset, or a mistake (see datasets)
    problems: list[Problem] = []
    edited = edited or {}
    paths = {*source_files(root / "data", root, DATA_SUFFIXES), *edited}
    for path in sorted(paths):
        doc, found = read_yaml(path, root, parsed, edited.get(path))
        problems += found
        if doc is not None and isinstance(doc.data, list):
            lists[doc.display] = doc
        elif doc is not None and doc.data:
            docs.append(doc)
    site, site_problems = read_site(docs, strict)
    problems += site_problems
    if site is None:
        return None, docs, problems
    collected: dict[str, list[Any]] = {}
    for doc in docs:
        converted, converted_problems = convert_document(doc, site.languages, strict)
        for key, items in converted:
            collected.setdefault(key, []).extend(items)
        problems += converted_problems
    data = Data(site=site, **{k: tuple(v) for k, v in collected.items()})
    data, found = attach_records(root, data, lists)
    return data, docs, problems + found


Converted = tuple[tuple[tuple[str, tuple[Any, ...]], ...], tuple[Problem, ...]]
# Watch mode rebuilds after every save, and most files did not change: parse_once hands
# out the same parsed values for the same text, and their records are the same too.
# Keyed by the values' id(), which the entry keeps alive (so the id is not reused).
_CONVERTED: dict[int, tuple[Any, tuple[str, ...], bool, Converted]] = {}
_REMEMBERED = 256


def convert_document(doc: Document, languages: tuple[str, ...], strict: bool) -> Converted:
    """A data file's collections as records (`site` aside), and the problems found."""
    known = _CONVERTED.get(id(doc.data))
    if known is not None and known[0] is doc.data and known[1:3] == (languages, strict):
        return known[3]
    conv = Converter(doc, languages, strict)
    converted = []
    for key, value in doc.data.items():
        if key == "site":
            continue
        if key not in hints(Data):
            conv.error((key,), f"unknown collection '{key}'", _close(key), key=True)
            continue
        items = conv.convert(hints(Data)[key], value, (key,))
        if items is not INVALID:
            converted.append((key, tuple(items)))
    result = tuple(converted), tuple(conv.problems)
    if len(_CONVERTED) >= _REMEMBERED:
        _CONVERTED.clear()
    _CONVERTED[id(doc.data)] = (doc.data, languages, strict, result)
    return result


def read_site(docs: list[Document], strict: bool) -> tuple[Site | None, list[Problem]]:
    """The one `site:` mapping; the languages it names govern every other text."""
    holders = [d for d in docs if "site" in d.data]
    if not holders:
        where = Location("data/site.yaml")
        return None, [Problem(where, "no `site:` mapping in any file under data/",
                              hint="create data/site.yaml with `site: {title: ..., "
                                   "tagline: ...}`")]
    problems = [d.problem(("site",), "a second `site:` mapping (the first is in "
                                     f"{holders[0].display})", "keep one", key=True)
                for d in holders[1:]]
    doc = holders[0]
    languages = _languages(doc.data["site"])
    conv = Converter(doc, languages, strict)
    site = conv.convert(Site, doc.data["site"], ("site",))
    if site is not INVALID and not site.languages:
        conv.error(("site", "languages"), "the site needs at least one language",
                   "write `languages: [en]`, or [en, fr]; the first is the default")
        site = INVALID
    elif site is not INVALID and len(set(site.languages)) != len(site.languages):
        conv.error(("site", "languages"), "a language is listed twice", "list each once")
        site = INVALID
    elif site is not INVALID:
        for i, code in enumerate(site.languages):
            if not known_language(code):
                conv.error(("site", "languages", i), f"unknown language code '{code}'",
                           "write a language code such as en, fr, de or pt_BR")
                site = INVALID
    return (None if site is INVALID else site), problems + conv.problems


def _languages(site: Any) -> tuple[str, ...]:
    """The declared languages, read before the rest so texts can be checked against them."""
    langs = site.get("languages") if isinstance(site, dict) else None
    if isinstance(langs, list) and langs and all(isinstance(x, str) for x in langs):
        return tuple(langs)
    return DEFAULT_LANGUAGES


def _close(key: str) -> str:
    import difflib

    close = difflib.get_close_matches(key, list(hints(Data)), 1)
    return f"did you mean '{close[0]}'?" if close else "known collections: " + ", ".join(
        k for k in hints(Data) if k != "site")


def split_front_matter(text: str) -> tuple[str, str, int]:
    """Front matter text (padded so its line numbers match the file), body, body's line."""
    lines = text.split("\n")
    if lines and lines[0].strip() == "---":
        for i in range(1, len(lines)):
            if lines[i].strip() == "---":
                front = "\n" + "\n".join(lines[1:i])
                return front, "\n".join(lines[i + 1:]), i + 2
    return "", text, 1


def load_pages(root: Path, languages: tuple[str, ...], parsed: Path | None = None
               ) -> tuple[list[Page], list[Problem]]:
    """Read content/<language>/*.md for each language (front matter parses kept in
    `parsed`, as the data files' are)."""
    pages: list[Page] = []
    problems: list[Problem] = []
    for lang in languages:
        for path in source_files(root / "content" / lang, root, (".md",)):
            refused = misnamed(path, root, lang, languages)
            if refused:
                problems += refused
                continue
            page, found = read_page(path, root, lang, parsed)
            problems += found
            if page is not None:
                pages.append(page)
    return pages, problems


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
    have = {(p.language, p.slug) for p in pages}
    if (default, "index") not in have:
        return [Problem(Location(f"content/{default}/index.md"), "the site has no home page",
                        hint=f"write content/{default}/index.md, starting with '---', "
                             "'title: ...', '---'")]
    out = []
    for slug in sorted({p.slug for p in pages}):
        for lang in languages:
            if (lang, slug) not in have:
                other = next(p for p in pages if p.slug == slug)
                out.append(Problem(Location(f"content/{lang}/{slug}.md"), f"no {lang} "
                                   f"version of {other.display}", hint=f"write "
                                   f"content/{lang}/{slug}.md", warning=not strict))
    return out


def read_page(path: Path, root: Path, lang: str, parsed: Path | None = None
              ) -> tuple[Page | None, list[Problem]]:
    """One Markdown page: its front matter checked, its body kept for rendering."""
    display = path.relative_to(root).as_posix()
    problems = inside(path, root, display)
    text, read_problems = (None, []) if problems else read_text(path, display)
    problems += read_problems
    if text is None:
        return None, problems
    front, body, body_line = split_front_matter(text)
    doc, problems = parse_once(front, display, parsed)
    meta_values = doc.data if doc.data is not None else {}
    slug = path.relative_to(root / "content" / lang).with_suffix("").as_posix()
    if not isinstance(meta_values, dict) or "title" not in meta_values:
        where = Location(display, 1, 1)
        problems.append(Problem(where, "the page has no title", hint="start the file with "
                                "'---', 'title: ...', '---'"))
        return None, problems
    conv = Converter(doc, (lang,), strict=True)
    meta = conv.convert(PageMeta, meta_values, ())
    problems += conv.problems
    if meta is INVALID:
        return None, problems
    return Page(lang, slug, meta, body, body_line, display, Places(doc, (), meta_values)
                ), problems


def load(root: Path, strict: bool, cache_dir: Path | None = None
         ) -> tuple[Source | None, list[Problem]]:
    """Read the whole source folder; None when the data could not be read at all.

    Parsed data files are kept in `cache_dir`/parsed, by default the source's `.cache`
    folder (where BuildConfig keeps compiled templates and charts)."""
    with collector_paused():
        return _load(root, strict, (cache_dir or root / ".cache") / "parsed")


def load_edited(root: Path, edited: Mapping[Path, str], strict: bool = False
                ) -> tuple[Source | None, list[Problem]]:
    """`load`, as if the data files `edited` names (absolute paths under data/) held
    their texts there; nothing is written, not even the parse cache (record checks its
    change this way before writing it)."""
    with collector_paused():
        return _load(root, strict, None, edited)


def _load(root: Path, strict: bool, parsed: Path | None,
          edited: Mapping[Path, str] | None = None) -> tuple[Source | None, list[Problem]]:
    """`load`, with the collector paused."""
    data, docs, problems = load_data(root, strict, parsed, edited)
    if data is None:
        return None, problems
    pages, page_problems = load_pages(root, data.site.languages, parsed)
    # No pages at all is a data-only build (data.json, feeds); a page that failed to read
    # has been reported already.
    if pages and not any(not p.warning for p in page_problems):
        page_problems += check_page_set(pages, data.site.languages, strict)
    return Source(data, tuple(pages), tuple(docs)), problems + page_problems
