"""Atom feeds, one per language: tasks as they are validated, figures as they are measured.

Every date comes from the data (a task's `validated:`, a figure's `date:`), never from
the clock, and every id is derived from the record's own id, so rebuilding the same data
gives the same feed and a re-measured figure updates its entry instead of adding one.
"""

from __future__ import annotations

import datetime as dt
import posixpath
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from xml.etree import ElementTree as ET

from markupsafe import Markup, escape

from .derive import ComparisonView, FigureView, Model
from .present import Words
from .schema import Comparison, Figure, Task
from .validate import walk
from .values import Text

ATOM = "http://www.w3.org/2005/Atom"
MAX_ENTRIES = 50  # the most recent; the page and data.json hold the rest


@dataclass(frozen=True)
class Entry:
    """One item of news, before it is written as XML."""

    key: str  # stable within the site: `tasks/ID`, `measurements/ID`, ...
    updated: dt.date
    title: str  # plain text
    content: str  # HTML
    anchor: str  # the `id=` of the page element that shows it


@dataclass(frozen=True)
class Pending:
    """An entry not yet written: sorting needs only its date and key, and a feed keeps
    MAX_ENTRIES of thousands, so the words of the others are never formatted."""

    key: str
    updated: dt.date
    write: Callable[[], Entry]


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


def task_entries(model: Model, words: Words) -> Iterator[Pending]:
    """Each done task, on the day it was validated."""
    def write(task: Task, day: dt.date) -> Entry:
        content = f"<p>{words.text(task.description)}</p>" if task.description else ""
        if task.proofs:
            label = words.ngettext("Proof:", "Proofs:", len(task.proofs))
            links = ", ".join(words.link(p) for p in task.proofs)
            content += f"<p>{escape(label)} {links}</p>"
        title = words.gettext("Validated: %(task)s") % {"task": plain(words.text(task.title))}
        return Entry(f"tasks/{task.id}", day, title, content, f"task-{task.id}")

    for task in walk(model.data):
        if isinstance(task, Task) and task.status == "done" and task.validated:
            yield Pending(f"tasks/{task.id}", task.validated,
                          partial(write, task, task.validated))


def figure_entries(model: Model, words: Words) -> Iterator[Pending]:
    """Each dated figure of the data, under the title of what holds it."""
    def t(text: Text | None) -> str:
        return plain(words.text(text))

    def entry(key: str, day: dt.date | None, what: Callable[[], str],
              line: Callable[[], str], anchor: str) -> Iterator[Pending]:
        def write(day: dt.date) -> Entry:
            words_line = line()
            return Entry(key, day, labelled(words, what(), words_line),
                         f"<p>{escape(words_line)}</p>", anchor)
        if day is not None:
            yield Pending(key, day, partial(write, day))

    def pair(first: Text | None, second: Text | None) -> str:
        return labelled(words, t(first), t(second))

    def one(key: str, what: Callable[[], str], fig: Figure, anchor: str) -> Iterator[Pending]:
        yield from entry(key, fig.date, what, lambda: figure_words(words, model.view(fig)),
                         anchor)

    for m in model.data.measurements:
        yield from one(f"measurements/{m.id}", partial(t, m.title), m.figure,
                       f"measurement-{m.id}")
    for study in model.studies:
        for c in study.comparisons:
            comp = c.comparison

            def what(comp: Comparison = comp) -> str:
                return t(comp.title) + (f" ({t(comp.context)})" if comp.context else "")

            def line(c: ComparisonView = c) -> str:
                return (f"{figure_words(words, c.before)} → {figure_words(words, c.after)}"
                        + (f", {words.quantity(c.change)}" if c.change else ""))

            yield from entry(f"comparisons/{comp.id}",
                             c.after.figure.date or c.before.figure.date, what, line, comp.id)
    for p in model.data.profiles:
        for claim in p.claims:
            yield from one(f"profiles/{p.id}/{claim.id}", partial(t, p.title),
                           claim.figure, f"profile-{p.id}")
    for b in model.data.budgets:
        for item in b.items:
            yield from one(f"budgets/{b.id}/{item.id}",
                           partial(pair, b.title, item.title),
                           item.figure, f"budget-{b.id}")
    for run in model.data.runs:
        for run_item in run.items:
            yield from one(f"runs/{run.id}/{run_item.id}",
                           partial(pair, run.title, run_item.title),
                           run_item.figure, f"run-{run.id}-{run_item.id}")


def identity(model: Model) -> str:
    """What names the site for ids: its repository's address, else its title."""
    site = model.data.site
    for repo in site.repositories:
        if repo.id == site.repository:
            return repo.url
    return site.title.get(site.languages[0])


def urn(*parts: str) -> str:
    """A permanent id that does not depend on where the site is published."""
    return "urn:uuid:" + str(uuid.uuid5(uuid.NAMESPACE_URL, "/".join(parts)))


def stamp(day: dt.date) -> str:
    """An Atom date: the day, at midnight UTC."""
    return f"{day.isoformat()}T00:00:00Z"


def newest_date(model: Model) -> dt.date:
    """The latest date anywhere in the data: the feed's `updated` when it has no entry."""
    days = [getattr(r, name) for r in walk(model.data) for name in ("date", "validated")
            if isinstance(getattr(r, name, None), dt.date)]
    return max(days, default=dt.date(1970, 1, 1))


def atom_feed(model: Model, words: Words, folder: str, pages: dict[tuple[str, str], str],
              base_url: str | None) -> bytes:
    """The feed of one language, published at `{folder}feed.xml`."""
    site = model.data.site
    home = f"{folder}index.html"

    def href(path: str) -> str:
        if base_url:
            return base_url + path.replace("index.html", "", 1)
        return posixpath.relpath(path.split("#")[0], folder or ".") + (
            "#" + path.split("#")[1] if "#" in path else "")

    pending = sorted([*task_entries(model, words), *figure_entries(model, words)],
                     key=lambda e: (-e.updated.toordinal(), e.key))[:MAX_ENTRIES]
    entries = [p.write() for p in pending]
    ET.register_namespace("", ATOM)
    feed = ET.Element(f"{{{ATOM}}}feed", {"{http://www.w3.org/XML/1998/namespace}lang":
                                           words.lang})
    sub = ET.SubElement
    sub(feed, f"{{{ATOM}}}id").text = urn(identity(model), words.lang, "feed")
    sub(feed, f"{{{ATOM}}}title").text = plain(words.text(site.title))
    if site.tagline:
        sub(feed, f"{{{ATOM}}}subtitle").text = plain(words.text(site.tagline))
    sub(feed, f"{{{ATOM}}}updated").text = stamp(entries[0].updated if entries
                                                 else newest_date(model))
    sub(sub(feed, f"{{{ATOM}}}author"), f"{{{ATOM}}}name").text = plain(words.text(site.title))
    sub(feed, f"{{{ATOM}}}link", rel="alternate", type="text/html", href=href(home))
    sub(feed, f"{{{ATOM}}}link", rel="self", type="application/atom+xml",
        href=href(f"{folder}feed.xml"))
    sub(feed, f"{{{ATOM}}}generator").text = "progress-site"
    for e in entries:
        item = sub(feed, f"{{{ATOM}}}entry")
        sub(item, f"{{{ATOM}}}id").text = urn(identity(model), words.lang, e.key)
        sub(item, f"{{{ATOM}}}title").text = e.title
        sub(item, f"{{{ATOM}}}updated").text = stamp(e.updated)
        page = pages.get((words.lang, e.anchor), home)
        sub(item, f"{{{ATOM}}}link", rel="alternate", type="text/html",
            href=href(f"{page}#{e.anchor}"))
        # Links within the page (`#section`) must point at the page from the feed.
        content = e.content.replace('href="#', f'href="{href(page)}#')
        sub(item, f"{{{ATOM}}}content", type="html").text = content
    ET.indent(feed)
    data: bytes = ET.tostring(feed, encoding="utf-8", xml_declaration=True)
    return data + b"\n"
