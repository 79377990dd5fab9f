"""Atom feeds, one per language: tasks as they are validated, figures as they are measured.

Every date comes from the data (a task's `validated:`, a figure's `date:`), never from
the clock, and every id is derived from the record's own id, so rebuilding the same data
gives the same feed and a re-measured figure updates its entry instead of adding one.
"""

from __future__ import annotations

import datetime as dt
import heapq
import posixpath
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, partial
from xml.etree import ElementTree as ET

from markupsafe import Markup, escape

from progress_site.derive.model import Model
from progress_site.derive.views import ComparisonView, FigureView
from progress_site.model.schema import Figure, Task
from progress_site.model.values import Text
from progress_site.model.walk import walk
from progress_site.render.words import Words

ATOM = "http://www.w3.org/2005/Atom"
MAX_ENTRIES = 50  # the most recent; the page and data.json hold the rest


@dataclass(frozen=True, slots=True)
class Entry:
    """One item of news, before it is written as XML."""

    key: str  # stable within the site: `tasks/ID`, `measurements/ID`, ...
    updated: dt.date
    title: str  # plain text
    content: str  # HTML
    anchor: str  # the `id=` of the page element that shows it


# An entry before it is written: its date and key, which decide whether a feed keeps it
# (MAX_ENTRIES of maybe thousands), and how to write it in a language. The same for
# every language, so the newest are chosen once and only those are ever formatted.
Candidate = tuple[dt.date, str, Callable[[Words], Entry]]


def plain(markup: Markup) -> str:
    """Text without its tags, as a feed title must be."""
    return markup.striptags()


def labelled(words: Words, what: str, figure: str) -> str:
    """`What: figure`, with the language's punctuation (`Quoi : chiffre` in French)."""
    return words.gettext("%(what)s: %(figure)s") % {"what": what, "figure": figure}


def figure_words(words: Words, view: FigureView) -> str:
    """A figure as one line: its number, its words and its status."""
    text = f" {plain(words.text(view.figure.text))}" if view.figure.text else ""
    return f"{words.quantity(view.quantity)}{text} ({words.status(view.status)})"


def newest(model: Model) -> list[Candidate]:
    """The MAX_ENTRIES most recent entries, newest first (the same day: by key)."""
    return heapq.nsmallest(MAX_ENTRIES, [*task_entries(model), *figure_entries(model)],
                           key=lambda c: (-c[0].toordinal(), c[1]))


def task_entries(model: Model) -> Iterator[Candidate]:
    """Each done task, on the day it was validated."""
    for task in walk(model.data):
        if isinstance(task, Task) and task.status == "done" and task.validated:
            yield task.validated, f"tasks/{task.id}", partial(task_entry, task, task.validated)


def task_entry(task: Task, day: dt.date, words: Words) -> Entry:
    """A validated task: its description and its proofs."""
    content = f"<p>{words.text(task.description)}</p>" if task.description else ""
    if task.proofs:
        label = words.ngettext("Proof:", "Proofs:", len(task.proofs))
        links = ", ".join(words.link(p) for p in task.proofs)
        content += f"<p>{escape(label)} {links}</p>"
    title = words.gettext("Validated: %(task)s") % {"task": plain(words.text(task.title))}
    return Entry(f"tasks/{task.id}", day, title, content, f"task-{task.id}")


def figure_entries(model: Model) -> Iterator[Candidate]:
    """Each dated figure of the data, under the title(s) of what holds it."""
    def one(key: str, titles: tuple[Text | None, ...], fig: Figure, anchor: str
            ) -> Iterator[Candidate]:
        if fig.date is not None:
            yield fig.date, key, partial(figure_entry, model, key, fig.date, titles, fig,
                                         anchor)

    for m in model.data.measurements:
        yield from one(f"measurements/{m.id}", (m.title,), m.figure, f"measurement-{m.id}")
    for study in model.studies:
        for c in study.comparisons:
            day = c.after.figure.date or c.before.figure.date
            if day is not None:
                yield day, f"comparisons/{c.comparison.id}", partial(comparison_entry, c, day)
    for p in model.data.profiles:
        for claim in p.claims:
            yield from one(f"profiles/{p.id}/{claim.id}", (p.title,), claim.figure,
                           f"profile-{p.id}")
    for b in model.data.budgets:
        for item in b.items:
            yield from one(f"budgets/{b.id}/{item.id}", (b.title, item.title), item.figure,
                           f"budget-{b.id}")
    for run in model.data.runs:
        for run_item in run.items:
            yield from one(f"runs/{run.id}/{run_item.id}", (run.title, run_item.title),
                           run_item.figure, f"run-{run.id}-{run_item.id}")


def figure_entry(model: Model, key: str, day: dt.date, titles: tuple[Text | None, ...],
                 fig: Figure, anchor: str, words: Words) -> Entry:
    """One figure: `What: number words (status)`; `Budget: item: ...` for two titles."""
    what = plain(words.text(titles[0]))
    for title in titles[1:]:
        what = labelled(words, what, plain(words.text(title)))
    line = figure_words(words, model.view(fig))
    return Entry(key, day, labelled(words, what, line), f"<p>{escape(line)}</p>", anchor)


def comparison_entry(c: ComparisonView, day: dt.date, words: Words) -> Entry:
    """A comparison: `What (context): before → after, change`."""
    comp = c.comparison
    what = plain(words.text(comp.title)) + (
        f" ({plain(words.text(comp.context))})" if comp.context else "")
    line = (f"{figure_words(words, c.before)} → {figure_words(words, c.after)}"
            + (f", {words.quantity(c.change)}" if c.change else ""))
    return Entry(f"comparisons/{comp.id}", day, labelled(words, what, line),
                 f"<p>{escape(line)}</p>", comp.id)


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


def add(parent: ET.Element, tag: str, text: str | None = None, **attributes: str
        ) -> ET.Element:
    """A new Atom element under `parent`, returned."""
    child = ET.SubElement(parent, tag, attributes)
    child.text = text
    return child


def add_entry(feed: ET.Element, e: Entry, id_: str, page: str) -> None:
    """One entry, linked to the element that shows it on `page` (an address)."""
    item = add(feed, "entry")
    add(item, "id", id_)
    add(item, "title", e.title)
    add(item, "updated", stamp(e.updated))
    add(item, "link", rel="alternate", type="text/html", href=f"{page}#{e.anchor}")
    # Links within the page (`#section`) must point at the page from the feed.
    add(item, "content", e.content.replace('href="#', f'href="{page}#'), type="html")


def stamp(day: dt.date) -> str:
    """An Atom date: the day, at midnight UTC."""
    return f"{day.isoformat()}T00:00:00Z"


def newest_date(model: Model) -> dt.date:
    """The latest date anywhere in the data: the feed's `updated` when it has no entry."""
    days = [getattr(r, name) for r in walk(model.data) for name in ("date", "validated")
            if isinstance(getattr(r, name, None), dt.date)]
    return max(days, default=dt.date(1970, 1, 1))


def atom_feed(model: Model, words: Words, folder: str, pages: dict[tuple[str, str], str],
              base_url: str | None, news: list[Candidate]) -> bytes:
    """The feed of one language, published at `{folder}feed.xml`; `news` is `newest()`."""
    site = model.data.site
    home = f"{folder}index.html"

    @cache  # a few pages, linked from every entry
    def relative(page: str) -> str:
        return posixpath.relpath(page, folder or ".")

    def href(path: str) -> str:
        if base_url:
            return base_url + path.replace("index.html", "", 1)
        page, hash_, anchor = path.partition("#")
        return relative(page) + hash_ + anchor

    entries = [write(words) for _, _, write in news]
    name = identity(model)
    # The namespace is declared on the root, and names written as they are, rather than
    # registered in ElementTree's one registry for the whole process (the sitemap's too).
    feed = ET.Element("feed", {"xmlns": ATOM, "xml:lang": words.lang})
    add(feed, "id", urn(name, words.lang, "feed"))
    add(feed, "title", plain(words.text(site.title)))
    if site.tagline:
        add(feed, "subtitle", plain(words.text(site.tagline)))
    add(feed, "updated", stamp(entries[0].updated if entries else newest_date(model)))
    add(add(feed, "author"), "name", plain(words.text(site.title)))
    add(feed, "link", rel="alternate", type="text/html", href=href(home))
    add(feed, "link", rel="self", type="application/atom+xml", href=href(f"{folder}feed.xml"))
    add(feed, "generator", "progress-site")
    for e in entries:
        page = pages.get((words.lang, e.anchor), home)
        add_entry(feed, e, urn(name, words.lang, e.key), href(page))
    ET.indent(feed)
    data: bytes = ET.tostring(feed, encoding="utf-8", xml_declaration=True)
    return data + b"\n"
