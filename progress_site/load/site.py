"""Load stage: read data/*.yaml and content/<language>/*.md into typed records."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from progress_site.errors import KeyPath, Location, Problem, closest, did_you_mean
from progress_site.load.convert import INVALID, Converter, known_language, plan
from progress_site.load.datasets import attach_records, declared_records, unclaimed
from progress_site.load.document import Document
from progress_site.load.files import inside, linked_folders, source_files, unreadable_name
from progress_site.load.history import load_history
from progress_site.load.history_figures import attach_history
from progress_site.load.pages import Page, check_page_set, load_pages
from progress_site.load.parse_cache import Remembered
from progress_site.load.text import decode, read_text
from progress_site.load.unread import held, lossy_text, with_note
from progress_site.model.declare import hints
from progress_site.model.failed import CITED_AS
from progress_site.model.history import HistorySeries
from progress_site.model.schema import Data, Site

DATA_SUFFIXES = (".yaml", ".yml")
DEFAULT_LANGUAGES = ("en", "fr")
# The collections others name by id (`machine: ID`, `commit: ID`, `run: ID`): a record
# that does not read, or one under a misspelt name, is set aside by its id, and naming it
# is no mistake of its own (validate knows the id).
NAMED_BY_ID = ("machines", "commits", "runs")
# (collection, id) of each record set aside; ("collections", name) for a collection whose
# records cannot all be named (an id that does not read, a file that does not).
Aside = frozenset[tuple[str, str]]

@dataclass(frozen=True, slots=True)
class Source:
    """Everything read from the source folder, before cross-checks."""

    data: Data
    pages: tuple[Page, ...]
    documents: tuple[Document, ...]
    history: tuple[HistorySeries, ...] = ()  # data/history/*.jsonl, oldest point first
    # Whether every error found left the rest whole: a part it spoiled was set aside (a
    # dataset's records, a history file's line, a page) and nothing else names it, so
    # checking the rest reports mistakes of their own, not what follows from these.
    checkable: bool = True
    aside: Aside = frozenset()
    # The collections a data file that could not be read whole may hold, each with the
    # first such file: an id none of the files read has may be one of its records.
    unread: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


def read_yaml(path: Path, root: Path, kept: Remembered, edited: str | None = None
              ) -> tuple[Document | None, str, list[Problem]]:
    """Parse one YAML file, with every problem located; `edited` is its text as it would
    be written, read instead of the file's. The text read comes back too: its records
    are converted by it (`converted`)."""
    display = path.relative_to(root).as_posix()
    problems = unreadable_name(display) or inside(path, root, display)
    if problems:
        return None, "", problems
    text, problems = read_text(path, display) if edited is None else decode(
        edited.encode("utf-8", "surrogatepass"), display)
    if text is None:  # as far as its keys read: what it may hold (load/unread.py)
        return None, lossy_text(path) if edited is None else edited, problems
    doc, problems = kept.parse(text, display)
    if doc.data is not None and not isinstance(doc.data, (dict, list)):
        problems.append(doc.problem((), "a data file must be a mapping of collections "
                                        "(machines:, studies:, ...)"))
        doc.data = None
    return doc, text, problems


def load_data(root: Path, strict: bool, edited: Mapping[Path, str] | None = None,
              kept: Remembered | None = None
              ) -> tuple[Data | None, list[Document], list[Problem], Aside, dict[str, str]]:
    """Read every data file; collections of the same name in several files are joined
    (`edited` texts are read instead of their files, see `load`). Last, the records set
    aside (`Aside`), and the collections a file that could not be read whole may hold,
    each with that file (`Source.unread`): the rest is read and checked without them.
    `kept`: what earlier builds of the source parsed."""
    kept = kept or remembered()
    docs: list[Document] = []
    texts: dict[str, str] = {}  # each document's text, by its display name
    lists: dict[str, Document] = {}  # the records of a dataset, or a mistake (see datasets)
    problems: list[Problem] = []
    unread: dict[str, str] = {}
    edited = {p: t for p, t in (edited or {}).items() if p.suffix in DATA_SUFFIXES}
    paths = {*source_files(root / "data", DATA_SUFFIXES), *edited}
    for path in sorted(paths):
        doc, text, found = read_yaml(path, root, kept, edited.get(path))
        if doc is None or (doc.data is None and bool(errors(found))):
            found = not_read(path.relative_to(root).as_posix(), text, found, unread)
        problems += found
        if doc is not None and isinstance(doc.data, list):
            lists[doc.display] = doc
        elif doc is not None and doc.data:
            docs.append(doc)
            texts[doc.display] = text
    site, site_problems = read_site(docs, strict)
    if "site" in unread and not any("site" in d.data for d in docs):
        site_problems = []  # "no `site:`" would only repeat that a file could not be read
    problems += site_problems
    if site is None or errors(site_problems):  # it governs every file's languages, units
        return None, docs, problems, frozenset(), unread
    data, found, aside = collections(site, docs, texts, strict, unread, kept)
    data, more = attach_records(root, data, lists)
    for problem in unclaimed(data, lists, declared_records(docs)):
        more += not_read(problem.location.file, "", [problem], unread)  # records of no kind
    aside |= {("collections", name) for name in unread if name != "site"}
    return data, docs, problems + found + more, aside, unread


def not_read(display: str, text: str, found: list[Problem], unread: dict[str, str]
             ) -> list[Problem]:
    """A data file that could not be read whole: the collections it may hold added to
    `unread` (by its text, as far as its keys read), and its first error saying once
    what follows from it."""
    names = held(text, hints(Data))
    for name in names:
        unread.setdefault(name, display)
    return with_note(found, display, [] if len(names) == len(hints(Data)) else
                     [name for name in names if name != "site"])


def collections(site: Site, docs: list[Document], texts: dict[str, str], strict: bool,
                unread: dict[str, str], kept: Remembered) -> tuple[Data, list[Problem], Aside]:
    """The collections of every file joined, their problems, and the records set aside;
    a collection whose records cannot all be named is added to `unread`, with its file."""
    collected: dict[str, list[Any]] = {}
    problems: list[Problem] = []
    aside: set[tuple[str, str]] = set()
    for doc in docs:
        records, converted_problems, ids = kept.converted(texts[doc.display], doc.display,
                                                          site.languages, strict)
        for key, items in records:
            collected.setdefault(key, []).extend(items)
        problems += converted_problems
        aside |= ids
        for kind, name in ids:
            if kind == "collections" and name in NAMED_BY_ID:
                unread.setdefault(name, doc.display)
    data = Data(site=site, **{k: tuple(v) for k, v in collected.items()})
    return data, problems, frozenset(aside)


# A file's collections as records, the problems found, and the records set aside.
Converted = tuple[tuple[tuple[str, tuple[Any, ...]], ...], tuple[Problem, ...], Aside]


def remembered() -> Remembered:
    """A new memory of a source's data files, parsed and converted by their text: watch
    mode's rebuilds share one (on their `BuildConfig`), so that a save converts again only
    the file it changed (bench/caches.py, "in this process")."""
    return Remembered(convert_document)


def cited_names(meant: str, value: Any) -> set[tuple[str, str]] | None:
    """The names texts would cite the records of a collection by, as written
    (collection, id): each record's id, and for a study each of its comparisons' ids
    (`comparisons.C`); None when an id cannot be read, and any name may be one of them."""
    inner = CITED_AS.get(meant)
    if not isinstance(value, list):
        return None
    out: set[tuple[str, str]] = set()
    for item in value:
        if not isinstance(item, dict) or not isinstance(item.get("id"), str) \
                or not item["id"]:
            return None
        out.add((meant, item["id"]))
        if inner is not None:
            held_here = cited_names(inner, item.get(inner) or [])
            if held_here is None:
                return None
            out |= held_here
    return out


def convert_document(doc: Document, languages: tuple[str, ...], strict: bool,
                     parsed: Sequence[KeyPath] = ()) -> Converted:
    """A parsed data file's collections as records (`site` aside), the problems found, and
    the records set aside: a record that does not read is (or that parsing found an
    error in: `parsed`, their key paths), by the names it would have (the rest of its
    collection is read and checked), and a whole collection when they cannot be read."""
    conv = Converter(doc, languages, strict)
    records = []
    aside: set[tuple[str, str]] = set()
    for key, value in doc.data.items():
        if key == "site":
            continue
        if key not in hints(Data):
            aside |= misspelt(conv, key, value)
        elif any(p in ((), (key,)) for p in parsed):  # the whole file's, or collection's
            aside.add(("collections", key))
        elif isinstance(value, list):
            items, failed = set_aside(conv, hints(Data)[key], value, key, parsed)
            records.append((key, items))
            aside |= failed
        else:
            before = len(conv.problems)
            items = conv.convert(hints(Data)[key], value, (key,))
            if items is not INVALID and not errors(conv.problems[before:]):
                records.append((key, tuple(items)))
            else:
                aside.add(("collections", key))
    if doc.unread:  # read no further: what it holds is unknown past that line
        return (), tuple(doc.told(conv.problems)), frozenset(
            ("collections", name) for name in held("\n".join(f"{k}:" for k in doc.data),
                                                   hints(Data)) if name != "site")
    return tuple(records), tuple(conv.problems), frozenset(aside)


def misspelt(conv: Converter, key: str, value: Any) -> set[tuple[str, str]]:
    """A collection of a name no collection has: a problem of its file, and what the
    collection it meant would name set aside (references to its records are no mistakes),
    or that collection whole when its ids cannot be read (which the hint says, once)."""
    meant = closest(key, hints(Data))
    hint = did_you_mean(key, hints(Data), otherwise="known collections: " + ", ".join(
        k for k in hints(Data) if k != "site"))
    aside: set[tuple[str, str]] = set()
    if meant in NAMED_BY_ID and isinstance(value, list):
        aside.update((meant, i["id"]) for i in value
                     if isinstance(i, dict) and isinstance(i.get("id"), str))
    elif meant is not None:
        # Texts name its records: what cites them is not judged in this build, but a
        # name none of them has is wrong whatever they hold, and told.
        cited = cited_names(meant, value)
        aside.update(cited if cited is not None else {("collections", meant)})
        if cited is None:  # any name may be one of its records': said once, here
            named = " or ".join(dict.fromkeys((meant, CITED_AS.get(meant, meant))))
            hint += (f" Until it is, no name of {named} that a text cites is checked: "
                     "the ids of its records cannot all be read.")
    conv.error((key,), f"unknown collection '{key}'", hint, key=True)
    return aside


def set_aside(conv: Converter, tp: Any, value: list[Any], key: str,
              parsed: Sequence[KeyPath] = ()) -> tuple[tuple[Any, ...], set[tuple[str, str]]]:
    """The records of a collection that read (and hold no error `parsed` found), and the
    names of those that did not (`cited_names`), or the whole collection when one gives
    none or reading stopped."""
    spoilt = {p[1] for p in parsed if p[0] == key}
    item = plan(tp)[1]
    good: list[Any] = []
    failed: set[tuple[str, str]] = set()
    for i, v in enumerate(value):
        if conv.doc.unread or conv.doc.read_no_further(conv.problems, (key, i)):
            return tuple(good), {("collections", key)}
        before = len(conv.problems)
        read = conv.convert(item, v, (key, i))
        if read is not INVALID and not errors(conv.problems[before:]) and i not in spoilt:
            good.append(read)
            continue
        names = cited_names(key, [v])
        failed |= names if names is not None else {("collections", key)}
    return tuple(good), failed


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
    """The declared languages, read before the rest so texts can be checked against them:
    the valid codes only, for a code refused is one error, not a "no ... text" warning
    for every text that lacks it."""
    langs = site.get("languages") if isinstance(site, dict) else None
    if isinstance(langs, list) and langs and all(isinstance(x, str) for x in langs):
        return tuple(x for x in langs if known_language(x))
    return DEFAULT_LANGUAGES


def load(root: Path, strict: bool, edited: Mapping[Path, str] | None = None,
         kept: Remembered | None = None) -> tuple[Source | None, list[Problem]]:
    """Read the whole source folder, the data then the pages in its languages; None when
    the data could not be read at all. The data files `edited` names (absolute paths under
    data/) are read as holding its texts; nothing is written (record checks its change
    this way before writing it). `kept`: what earlier builds of the source parsed."""
    data, docs, problems, aside, unread = load_data(root, strict, edited, kept)
    if data is None:
        return None, problems
    series, found = load_history(root, edited)
    # A history file with a bad line still gives its other points; one refused whole
    # takes its figure away, which the rest may name, and a figure that does not fit its
    # measurement is checked as the measurement's.
    read = {one.file for one in series}
    data, series, attached = attach_history(data, series, aside)
    checkable = all(p.location.file in read for p in errors(found)) \
        and not errors(attached)
    problems += found + attached
    problems += linked_folders(root, data.site.languages, strict)
    pages, page_problems = load_pages(root, data.site.languages)
    # No pages at all is a data-only build (data.json, feeds); a page that failed to read
    # has been reported already.
    if pages and not errors(page_problems):
        page_problems += check_page_set(pages, data.site.languages, strict)
    # The pages are no part of the data: their errors leave it checkable.
    return (Source(data, tuple(pages), tuple(docs), series, checkable, aside,
                   MappingProxyType(unread)), problems + page_problems)


def errors(problems: list[Problem]) -> list[Problem]:
    """The problems that stop a build (not the warnings)."""
    return [p for p in problems if not p.warning]
