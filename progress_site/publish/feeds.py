"""Atom feeds, one per language, of the news news.py chooses: tasks as they are
validated, figures as they are measured.

Every id is derived from the record's own id and every date comes from the data, never
from the clock, so rebuilding the same data gives the same feed. Each entry links to the
element of a page that shows it, or else to one showing a text that cites it.
"""

from __future__ import annotations

import datetime as dt
import posixpath
import re
import uuid
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from types import MappingProxyType
from typing import Any
from xml.etree import ElementTree as ET

from progress_site.derive.namespace import REFERENCE
from progress_site.derive.site import Model
from progress_site.model.roadmap import Roadmap, Task
from progress_site.model.schema import (
    Budget,
    Comparison,
    Headline,
    Measurement,
    Profile,
    Run,
)
from progress_site.model.values import Text
from progress_site.model.walk import holding_fields, walk
from progress_site.publish.news import Candidate, Entry
from progress_site.render.places import public_url
from progress_site.render.words import Words

ATOM = "http://www.w3.org/2005/Atom"
# The records that the blocks show as an element with an id of their own, and that id
# (templates/blocks/): where an entry links when its own element is on no page.
ELEMENT_IDS: Mapping[type, Callable[[Any], str]] = MappingProxyType({
    Measurement: lambda r: f"measurement-{r.id}", Comparison: lambda r: r.id,
    Task: lambda r: f"task-{r.id}", Roadmap: lambda r: r.id,
    Headline: lambda r: f"headline-{r.id}", Profile: lambda r: f"profile-{r.id}",
    Budget: lambda r: f"budget-{r.id}", Run: lambda r: f"run-{r.id}",
})
# The `kind.id` a reference starts with: `measurements.players-lost` of `...lost.value`.
CITED = re.compile(r"\b([a-z]+\.[A-Za-z0-9][\w-]*)")


def citations(model: Model) -> dict[str, tuple[str, ...]]:
    """For each name that texts cite (`measurements.players-lost`), the ids of the page
    elements showing those texts (each text's nearest record with an id of its own), and
    of the headlines showing it, in the order written."""
    found: dict[str, dict[str, None]] = {}

    def cite(text: str, anchor: str) -> None:
        for name in CITED.findall(text):
            found.setdefault(name, {})[anchor] = None

    for headline in model.data.headlines:
        for name in (headline.figure or "", *headline.summarises):
            cite(name, f"headline-{headline.id}")
    # An explicit stack, as walk() has: each value with the element id it is shown under.
    stack: list[tuple[Any, str]] = [(model.data, "")]
    while stack:
        item, anchor = stack.pop()
        if isinstance(item, tuple):
            stack.extend((x, anchor) for x in reversed(item))
        elif isinstance(item, Text):
            for _, words in item.by_language if anchor else ():
                for match in REFERENCE.finditer(words):
                    cite(match.group(1), anchor)
        elif (holding := holding_fields(type(item))) is not None:
            own = ELEMENT_IDS.get(type(item))
            anchor = own(item) if own else anchor
            stack.extend((child, anchor) for name in reversed(holding)
                         if (child := getattr(item, name)) is not None)
    return {name: tuple(anchors) for name, anchors in found.items()}


def identity(model: Model) -> str:
    """What names the site for ids: its repository's address, else its title."""
    site = model.data.site
    for repo in site.repositories:
        if repo.id == site.repository:
            return repo.url
    return site.title.get(site.languages[0])


def urn(*parts: str) -> str:
    """A permanent id that does not depend on where the site is published."""
    return uuid.uuid5(uuid.NAMESPACE_URL, "/".join(parts)).urn


def link(page: str, folder: str, base_url: str | None) -> str:
    """A page's address in a feed published in `folder`: absolute when the site's base
    URL is known, else relative to the feed."""
    return public_url(page, base_url) if base_url else posixpath.relpath(page, folder or ".")


def xml_bytes(root: ET.Element) -> bytes:
    """A feed or a sitemap as its file holds it: indented, with its declaration."""
    ET.indent(root)
    data: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return data + b"\n"


def add(parent: ET.Element, tag: str, text: str | None = None, **attributes: str
        ) -> ET.Element:
    """A new Atom element under `parent`."""
    child = ET.SubElement(parent, tag, attributes)
    child.text = text
    return child


def add_entry(feed: ET.Element, e: Entry, id_: str, page: str | None, anchor: str) -> None:
    """One entry, linked to the element that shows it (`page`, an address, and the id
    of the element there; no id: the page; no page: no link)."""
    item = add(feed, "entry")
    add(item, "id", id_)
    add(item, "title", e.title)
    add(item, "updated", stamp(e.updated))
    if page is not None:
        add(item, "link", rel="alternate", type="text/html",
            href=f"{page}#{anchor}" if anchor else page)
    # Links within the page (`#section`) must point at the page from the feed.
    add(item, "content", e.content.replace('href="#', f'href="{page or ""}#'), type="html")


def stamp(day: dt.date) -> str:
    """An Atom date: the day, at midnight UTC."""
    return f"{day.isoformat()}T00:00:00Z"


def newest_date(model: Model) -> dt.date:
    """The latest date anywhere in the data: the feed's `updated` when it has no entry."""
    days = [getattr(r, name) for r in walk(model.data) for name in ("date", "validated")
            if isinstance(getattr(r, name, None), dt.date)]
    return max(days, default=dt.date(1970, 1, 1))


def atom_feed(model: Model, words: Words, folder: str, pages: dict[tuple[str, str], str],
              home: str | None, base_url: str | None, news: list[Candidate]) -> bytes:
    """The feed of one language, published at `{folder}feed.xml`; `pages` gives the page
    of each (language, element id), `home` the page an entry shown nowhere links to (the
    language's home page, else the site's; None: none is built); `news` is `newest()`."""
    site = model.data.site

    @cache  # a few pages, linked from every entry
    def href(page: str) -> str:
        return link(page, folder, base_url)

    @cache  # only when an entry's own element is on no page
    def cited() -> dict[str, tuple[str, ...]]:
        return citations(model)

    def shown_by(e: Entry) -> Iterator[str]:
        """The ids of the elements that show an entry, best first: its own, then (only
        looked up when none of those is on a page) those of the texts citing it."""
        yield from e.anchors
        if e.name:
            yield from cited().get(e.name, ())

    def target(e: Entry) -> tuple[str | None, str]:
        """The page an entry links to, and the id of its element there: on a page of
        this language, else of the site's (a page not translated yet)."""
        for lang in dict.fromkeys((words.lang, site.languages[0])):
            for anchor in shown_by(e):
                if (lang, anchor) in pages:
                    return href(pages[(lang, anchor)]), anchor
        return (href(home) if home else None), ""

    entries = [write(words) for _, _, write in news]
    name = identity(model)
    # The namespace is declared on the root, and names written as they are, rather than
    # registered in ElementTree's one registry for the whole process (the sitemap's too).
    feed = ET.Element("feed", {"xmlns": ATOM, "xml:lang": words.lang})
    add(feed, "id", urn(name, words.lang, "feed"))
    add(feed, "title", words.text(site.title).striptags())
    if site.tagline:
        add(feed, "subtitle", words.text(site.tagline).striptags())
    add(feed, "updated", stamp(entries[0].updated if entries else newest_date(model)))
    add(add(feed, "author"), "name", words.text(site.title).striptags())
    if home:
        add(feed, "link", rel="alternate", type="text/html", href=href(home))
    add(feed, "link", rel="self", type="application/atom+xml", href=href(f"{folder}feed.xml"))
    add(feed, "generator", "progress-site")
    for e in entries:
        add_entry(feed, e, urn(name, words.lang, e.key), *target(e))
    return xml_bytes(feed)
