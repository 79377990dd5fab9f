"""The news a feed carries: tasks as they are validated, figures as they are measured.

Every date comes from the data (a task's `validated:`, a figure's `date:`), never from
the clock, and every entry's key from the record's own id or its figure's key, so a
re-measured figure updates its entry instead of adding one. The newest are chosen once
for every language (`newest`), and only those are ever worded in one (feeds.py writes
them as Atom).
"""

from __future__ import annotations

import datetime as dt
import heapq
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial

from markupsafe import escape

from progress_site.derive.site import Model
from progress_site.derive.views import ComparisonView, FigureView
from progress_site.model.keys import FigureKey
from progress_site.model.roadmap import Task
from progress_site.model.schema import Study
from progress_site.model.values import Text
from progress_site.model.walk import walk
from progress_site.render.words import Words

MAX_ENTRIES = 50  # the most recent; the page and data.json hold the rest


@dataclass(frozen=True, slots=True)
class Entry:
    """One item of news, before it is written as XML."""

    key: str  # stable within the site: `tasks/ID`, `measurements/ID`, ...
    updated: dt.date
    title: str  # plain text
    content: str  # HTML
    anchors: tuple[str, ...]  # the `id=` of the page elements that show it, best first
    name: str = ""  # how texts cite it (`measurements.ID`): they show it too


# An entry before it is written: its date and key, which decide whether a feed keeps it
# (MAX_ENTRIES of maybe thousands), and how to write it in a language. The same for
# every language, so the newest are chosen once and only those are ever formatted.
Candidate = tuple[dt.date, str, Callable[[Words], Entry]]


def labelled(words: Words, what: str, figure: str) -> str:
    """`What: figure`, with the language's punctuation (`Quoi : chiffre` in French)."""
    return words.gettext("%(what)s: %(figure)s") % {"what": what, "figure": figure}


def figure_words(words: Words, view: FigureView) -> str:
    """A figure as one line: its number, its words and its status."""
    text = f" {words.text(view.figure.text).striptags()}" if view.figure.text else ""
    return f"{words.quantity(view.quantity)}{text} ({words.status(view.status)})"


def newest(model: Model) -> list[Candidate]:
    """The MAX_ENTRIES most recent entries, newest first (the same day: by key)."""
    return heapq.nsmallest(MAX_ENTRIES, [*task_entries(model), *figure_entries(model)],
                           key=lambda c: (-c[0].toordinal(), c[1]))


def task_entries(model: Model) -> Iterator[Candidate]:
    """Each done task, on the day it was validated."""
    for task in walk(model.data.roadmaps):  # where tasks are: not the whole data
        if isinstance(task, Task) and task.status == "done" and task.validated:
            yield task.validated, f"tasks/{task.id}", partial(task_entry, task, task.validated)


def task_entry(task: Task, day: dt.date, words: Words) -> Entry:
    """A validated task: its description and its proofs."""
    content = f"<p>{words.text(task.description)}</p>" if task.description else ""
    if task.proofs:
        label = words.ngettext("Proof:", "Proofs:", len(task.proofs))
        links = ", ".join(words.link(p) for p in task.proofs)
        content += f"<p>{escape(label)} {links}</p>"
    title = words.gettext("Validated: %(task)s") % {"task": words.text(task.title).striptags()}
    return Entry(f"tasks/{task.id}", day, title, content, (f"task-{task.id}",))


def figure_entries(model: Model) -> Iterator[Candidate]:
    """Each dated figure of the data, under the title(s) of what holds it."""
    def one(key: FigureKey, titles: tuple[Text | None, ...], *anchors: str
            ) -> Iterator[Candidate]:
        day = model.view(key).figure.date
        if day is not None:
            # The entry's permanent id is made from the key's parts (`measurements/ID`).
            path = "/".join(key.parts)
            yield day, path, partial(figure_entry, model, key, day, titles, anchors)

    for m in model.data.measurements:
        yield from one(FigureKey.of("measurements", m.id), (m.title,), f"measurement-{m.id}")
    for study in model.studies:
        for c in study.comparisons:
            day = c.after.figure.date or c.before.figure.date
            if day is not None:
                yield day, "/".join(c.key.parts), partial(comparison_entry, c, study.study,
                                                          day)
    for p in model.data.profiles:
        for claim in p.claims:
            yield from one(FigureKey.of("profiles", p.id, claim.id), (p.title,),
                           f"profile-{p.id}")
    for b in model.data.budgets:
        for item in b.items:
            yield from one(FigureKey.of("budgets", b.id, item.id), (b.title, item.title),
                           f"budget-{b.id}")
    for run in model.data.runs:
        for run_item in run.items:
            yield from one(FigureKey.of("runs", run.id, run_item.id),
                           (run.title, run_item.title), f"run-{run.id}-{run_item.id}",
                           f"run-{run.id}")


def figure_entry(model: Model, key: FigureKey, day: dt.date, titles: tuple[Text | None, ...],
                 anchors: tuple[str, ...], words: Words) -> Entry:
    """One figure: `What: number words (status)`; `Budget: item: ...` for two titles."""
    what = words.text(titles[0]).striptags()
    for title in titles[1:]:
        what = labelled(words, what, words.text(title).striptags())
    line = figure_words(words, model.view(key))
    # Texts cite what holds it by its first two parts (`runs.R` of `runs.R.ITEM`).
    return Entry("/".join(key.parts), day, labelled(words, what, line),
                 f"<p>{escape(line)}</p>", anchors, str(FigureKey(key.parts[:2])))


def comparison_entry(c: ComparisonView, study: Study, day: dt.date, words: Words) -> Entry:
    """A comparison: `What (context): before → after, change`; each side named first
    when it is a contender (`cargo test 1.66.0 69.10 s → ...`)."""
    comp = c.comparison
    what = words.text(comp.title).striptags() + (
        f" ({words.text(comp.context).striptags()})" if comp.context else "")
    before, after = (" ".join(filter(None, (words.contender_words(side),
                                            figure_words(words, view))))
                     for side, view in ((study.before, c.before), (study.after, c.after)))
    line = f"{before} → {after}" + (f", {words.quantity(c.change)}" if c.change else "")
    return Entry("/".join(c.key.parts), day, labelled(words, what, line),
                 f"<p>{escape(line)}</p>", (comp.id, f"bars-{comp.id}"), str(c.key))

