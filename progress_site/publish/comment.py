"""What changed between two sites, as Markdown for a pull request or a job summary.

`--changes OLD_SITE --format markdown`: a heading, a table of the figures that changed
(numbers and percentages formatted by Babel, in English), the datasets' records, the
tasks, how many texts changed, the pages that changed (the first few named, as the text
form does), and the regression steps the new site found that the old one had not.
Everything in it comes from the two data.json files, which a pull request controls: each
piece is escaped (`md`), so that it cannot add a link, an image, HTML or a mention, and
cut short, as are its lists and the whole (`bounded`), so that it cannot make a summary
GitHub drops.
"""

from __future__ import annotations

import contextlib
import string
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from progress_site.derive.cuts import Settings
from progress_site.derive.quantity import significant_decimals
from progress_site.errors import visible
from progress_site.model.limits import MAX_DECIMALS
from progress_site.publish import changes
from progress_site.publish.datasetrows import record_lines
from progress_site.publish.snapshot import Snapshot, snapshot, width_decimals
from progress_site.publish.steps import StepRow, new_steps, off_level, steps_in
from progress_site.render.formatting import number, percent, percent_amount

# Every ASCII punctuation character may be backslash-escaped in CommonMark: escaped,
# none starts a link, an emphasis, a table cell or an autolink (`https\://`).
ESCAPED = frozenset(string.punctuation) - set("&<>@")
ENTITIES = MappingProxyType({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
# GitHub keeps 1 MiB of a job's summary and 64 KiB of a comment: past this many rows,
# a count says how many more (the text format lists them all).
MAX_ROWS = 200
# A piece of input (a figure's name, a unit, a series' name, a task's line) past this many
# characters is cut: an id of 1 MB made a summary of 1 MB, which GitHub refuses whole. A
# title is cut at 200 already (titles.py), so a task's line, which adds its key and its
# statuses, keeps its end.
MAX_CHARS = 500
# What is left of the summary past this many bytes (as UTF-8) is cut, at a line: GitHub
# drops a job's summary of more than 1 MiB whole, and escaping can make a character of
# input five bytes (`&amp;`), so no count of rows bounds the text by itself.
MAX_BYTES = 1_000_000
CUT = ("The summary is cut here, at 1 MB, the most a job's summary may hold "
       "(`--changes OLD_SITE` lists everything).\n")
ZWJ = "\u200d"  # after '@': `@name` no longer notifies anyone, and still reads the same


def md(text: str) -> str:
    """Text from input as inert Markdown: shown as written, on one line, cut past
    MAX_CHARS characters."""
    out = []
    if len(text) > MAX_CHARS:
        text = text[:MAX_CHARS] + "\u2026"
    for ch in visible(text):  # a newline would end a table row: spelled out as \n
        if ch in ENTITIES:
            out.append(ENTITIES[ch])
        elif ch == "@":
            out.append("@" + ZWJ)
        else:
            out.append("\\" + ch if ch in ESCAPED else ch)
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Comparison:
    """Two sites' differences, as the Markdown summary shows them."""

    old: Snapshot
    new: Snapshot
    tasks: list[str]  # the text lines of the tasks that changed
    records: list[str]  # the text lines of the datasets' records that changed
    texts: int  # how many texts (titles, notes, words of the data) changed
    steps: list[StepRow]  # the new site's steps the old one did not have
    pages: list[str] | None = None  # the pages that changed; None when not compared
    off_level: frozenset[str] = frozenset()  # series whose newest run is newly an outlier


def compare(old: bytes, second: dict[str, Any], pages: list[str] | None = None
            ) -> Comparison:
    """From a data.json to a new build's document (`datajson.plain`; ValueError when the
    old one is not a data.json); `pages`: `changes.pages_changed`, when compared."""
    first, before = changes.published(old)
    after = snapshot(second)
    tasks = changes.describe(Snapshot({}, before.tasks, titles=before.titles),
                             Snapshot({}, after.tasks, titles=after.titles))
    old_texts, new_texts = texts_of(first), texts_of(second)
    changed = sum(1 for p in old_texts.keys() | new_texts.keys()
                  if old_texts.get(p) != new_texts.get(p))
    return Comparison(before, after, tasks, record_lines(before.records, after.records),
                      changed,
                      new_steps(steps_in(first), steps_in(second)), pages,
                      off_level(first, second))


# Not texts a reader reads: ids make the paths, statuses, figures and records are told
# apart.
NOT_TEXT = frozenset({"id", "status", "derived", "series", "rows"})


def texts_of(document: dict[str, Any]) -> dict[str, str]:
    """Every text of a data.json by its path (an explicit stack, as `snapshot.gather`)."""
    found: dict[str, str] = {}
    stack: list[tuple[Any, str]] = [(v, k) for k, v in document.items()
                                    if k not in ("version", "today", *NOT_TEXT)]
    while stack:
        value, path = stack.pop()
        if type(value) is str:
            found[path] = value
        elif type(value) is list:  # an item by its id, else its place, as `changes`
            # names it: an item put first does not move the others' paths
            stack.extend((item, f"{path}.{item.get('id', i) if type(item) is dict else i}")
                         for i, item in enumerate(value))
        elif type(value) is dict:
            stack.extend((child, f"{path}.{key}") for key, child in value.items()
                         if key not in NOT_TEXT)
    return found


def markdown(found: Comparison) -> str:
    """The summary as Markdown, ending with a newline; at most MAX_BYTES."""
    parts = ["## Changes to the progress page", *figures_table(found), *records_list(found),
             *tasks_list(found),
             texts_line(found.texts), *pages_list(found.pages),
             *steps_section("New regressions", found, "regressed", "regressions"),
             *steps_section("Improvements", found, "improved", "improvements"),
             *steps_section("Pending (not judged yet)", found, "pending", "pending steps")]
    return bounded("\n\n".join(parts) + "\n")


def bounded(text: str) -> str:
    """The summary as it is when it fits in MAX_BYTES; else its whole lines that fit, and
    a line that says it was cut (after a blank line, which ends a table)."""
    data = text.encode("utf-8")
    if len(data) <= MAX_BYTES:
        return text
    room = MAX_BYTES - len(CUT.encode("utf-8")) - 2
    head = data[:room].decode("utf-8", "ignore")
    return head[:head.rfind("\n") + 1] + "\n" + CUT


def figures_table(found: Comparison) -> list[str]:
    """The figures that changed, or a line saying none did."""
    old, new = found.old.figures, found.new.figures
    paths = sorted(p for p in old.keys() | new.keys() if old.get(p) != new.get(p))
    if not paths:
        return ["No figure changed."]
    rows = ["| Figure | Old -> new | Change |", "| --- | --- | --- |"]
    rows += [f"| {md((found.new if p in new else found.old).named(p))} | {shift(found, p)} "
             f"| {change(found, p)}{OFF_MARK if p in found.off_level else ''} |"
             for p in paths[:MAX_ROWS]]
    told = [OFF_NOTE] if found.off_level & set(paths[:MAX_ROWS]) else []
    return ["\n".join(rows), *told, *more(len(paths), "figures")]


OFF_MARK = ", off its level"
OFF_NOTE = (f"Off its level: the newest run lies more than {Settings().outlier_noises:g} "
            "noise widths, and more than the series' `min_change`, from the level of the "
            "commits around it. One run is never a step, so it does not fail the check: "
            "measure the change again, or look at what the pull request does there.")


def more(count: int, what: str) -> list[str]:
    """The line that says how many rows were left out, if any."""
    if count <= MAX_ROWS:
        return []
    return [f"And {count - MAX_ROWS:,} more {what} (`--changes OLD_SITE` lists them all)."]


def shown(found: Comparison, side: str, path: str, whole: bool = False) -> str:
    """One side's figure as the table shows it: Babel's number, its status if it differs;
    `whole`: every part of it (a distribution whose headline did not move)."""
    snap: Snapshot = getattr(found, side)
    if path not in snap.figures:
        return "none"
    if path in snap.values and not whole:
        value, decimals, unit = snap.values[path]
        in_unit = f" {md(unit)}" if unit else ""
        # More digits than a Decimal holds: as `changes` prints it, below.
        with contextlib.suppress(ArithmeticError):
            return number(value, decimals, "en") + in_unit + spread(snap, path, in_unit)
    return md(snap.figures[path][0])


def spread(snap: Snapshot, path: str, in_unit: str) -> str:
    """` (IQR 0.998 us)`: the spread of the figure's headline, named as pages name it."""
    found = snap.spreads.get(path)
    if found is None:
        return ""
    label, width = found
    return f" ({label} {number(width, width_decimals(width), 'en')}{in_unit})"


def shift(found: Comparison, path: str) -> str:
    """`7.92 us -> 7.50 us`, with the statuses when they changed."""
    before, after = found.old.figures.get(path), found.new.figures.get(path)
    whole = only_parts_moved(found, path)
    text = f"{shown(found, 'old', path, whole)} -> {shown(found, 'new', path, whole)}"
    if before and after and before[1] != after[1]:
        text += f" ({md(before[1])} -> {md(after[1])})"
    return text


def only_parts_moved(found: Comparison, path: str) -> bool:
    """Whether a figure's headline stayed while its printed parts moved (a p99 that fell
    under a median that held): its headline alone would read `10.56 ms -> 10.56 ms`."""
    before, after = found.old.values.get(path), found.new.values.get(path)
    printed = [snap.figures[path][0] for snap in (found.old, found.new) if path in snap.figures]
    return (before is not None and after is not None and before[0::2] == after[0::2]
            and len(set(printed)) == 2)


def change(found: Comparison, path: str) -> str:
    """The change in percent, when both sides are single numbers of the same unit (none
    when only a distribution's other parts moved)."""
    before, after = found.old.values.get(path), found.new.values.get(path)
    if (not before or not after or before[0] == 0 or before[2] != after[2]
            or only_parts_moved(found, path)):
        return ""
    try:
        return percent((after[0] - before[0]) / abs(before[0]), 1, "en", sign=True)
    except ArithmeticError:  # a change of 1e300 %: no percent worth printing
        return ""


def tasks_list(found: Comparison) -> list[str]:
    """The tasks that changed, or a line saying none did."""
    if not found.tasks:
        return ["No task changed."]
    return ["### Tasks", "\n".join(f"- {md(line)}" for line in found.tasks[:MAX_ROWS]),
            *more(len(found.tasks), "task changes")]


def records_list(found: Comparison) -> list[str]:
    """The datasets' records that changed, as a list; nothing for a site without one."""
    if not found.records:
        return ["No record changed."] if found.new.records or found.old.records else []
    return ["### Records", "\n".join(f"- {md(line)}" for line in found.records[:MAX_ROWS]),
            *more(len(found.records), "record changes")]


def texts_line(count: int) -> str:
    """How many texts changed."""
    return ("No text changed." if count == 0 else
            "1 text changed." if count == 1 else f"{count:,} texts changed.")


def pages_list(pages: list[str] | None) -> list[str]:
    """The pages that changed, the first few named (a site has hundreds, and a text
    edited in a shared block changes them all); nothing when they were not compared."""
    if pages is None:
        return []
    if not pages:
        return ["No page changed."]
    noun = "page" if len(pages) == 1 else "pages"
    named = [f"- {md(name)}" for name in pages[:changes.PAGES_NAMED]]
    rest = len(pages) - changes.PAGES_NAMED
    return [f"### {len(pages):,} {noun} changed", "\n".join(named),
            *([f"And {rest:,} more."] if rest > 0 else [])]


def level(value: float, unit: str) -> str:
    """A step's level to four significant digits (`516.8 us`, `0.04271 s`), with the
    series' unit: a level is a median of commits, not a figure with its own decimals."""
    text = number(value, min(significant_decimals(value, 4), MAX_DECIMALS), "en")
    return text + (f" {md(unit)}" if unit else "")


def steps_section(title: str, found: Comparison, status: str, what: str) -> list[str]:
    """A heading and the new steps of that status, MAX_ROWS at most: a pull request of
    10,000 series may bring a step in each."""
    rows = [row for row in found.steps if row.status == status]
    if not rows:
        return []
    return [f"### {title}", "\n".join(step_line(row) for row in rows[:MAX_ROWS]),
            *more(len(rows), what)]


def step_line(row: StepRow) -> str:
    """`- series: 1.25 ms -> 1.5 ms (+20.0%) between a1b2 and c3d4, judged against...`."""
    return (f"- {md(row.series)}: {level(row.before, row.unit)} -> "
            f"{level(row.after, row.unit)} "
            f"({percent_amount(row.percent, 1, 'en', sign=True)}) between "
            f"{md(row.last_before)} and {md(row.first_after)}, judged against a noise of "
            f"{percent(row.noise, 1, 'en')}")
