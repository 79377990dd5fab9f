"""The history's share of the published files: every series and its steps in data.json,
and each language's Atom feed of regressions, `regressions.xml`.

A step's feed id is the uuid5 of its series' key and its commit range: the same on every
build and in every language, so a reader never sees a regression twice.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any
from xml.etree import ElementTree as ET

from markupsafe import Markup

from progress_site.derive.site import Model
from progress_site.model.history import SeriesPoint, deviation, significant
from progress_site.publish.feeds import ATOM, add, identity, link, stamp, urn, xml_bytes
from progress_site.render.dashboard import Dashboard
from progress_site.render.places import PagePlace
from progress_site.render.steplist import step_row
from progress_site.render.words import Words

if TYPE_CHECKING:  # data.json's schema is written by every build, history or not
    from progress_site.derive.history import SeriesView
    from progress_site.derive.regressions import Step

FEED = "regressions.xml"


def series_json(model: Model) -> list[dict[str, Any]]:
    """Every series for data.json: its choices, all its points, its status and steps."""
    days: dict[dt.date, str] = {}  # every series of a CI run shares its few hundred days
    return [{"key": v.key, "unit": v.series.unit, "better": v.series.better,
             "group": v.series.group, "min_change": v.series.min_change,
             "machine": v.series.newest.machine,
             "status": v.report.status if v.report else None,
             "points": [point_json(p, days) for p in v.series.points],
             "steps": [step_json(v, s) for s in (v.report.steps if v.report else ())],
             "outliers": list(v.report.outliers) if v.report else []}
            for v in model.series]


def point_json(point: SeriesPoint, days: dict[dt.date, str]) -> dict[str, Any]:
    """One point as its history line wrote it (absent keys left out), with what its
    `spread` is and the IQR its pages print beside a median; `days`: each date as
    written, once a date."""
    commit, date, machine, value, spread, n, stats, samples, tool, status, note, iqr, _ = point
    day = days.get(date)
    if day is None:
        day = days[date] = date.isoformat().replace("+00:00", "Z")
    out: dict[str, Any] = {"commit": commit, "date": day, "machine": machine, "value": value}
    # Key by key in the line's order, no dict of them all to filter: data.json holds
    # every point of every series (100,000 at the scale of bench/history_scale.py).
    told = deviation(point)
    if told is not None:
        out["spread"], out["spread_kind"] = spread, told.kind
    if iqr is not None:  # what the pages print beside a median
        out["iqr"] = significant(iqr)
    if n is not None:
        out["n"] = n
    if stats:
        out["stats"] = dict(stats)
    if samples:
        out["samples"] = list(samples)
    if tool is not None:
        out["tool"] = tool
    if status != "measured":
        out["status"] = status
    if note is not None:
        out["note"] = note
    return out


def step_json(view: SeriesView, step: Step) -> dict[str, Any]:
    """One step: where, how much, against what noise, and its status."""
    return {"key": view.key, "last_before": step.last_before, "first_after": step.first_after,
            "commits": step.commits, "before": step.before, "after": step.after,
            "before_interval": list(step.before_interval),
            "after_interval": list(step.after_interval), "ratio": step.ratio,
            "percent": step.percent, "noise": step.noise, "p_value": step.p_value,
            "samples_p_value": step.samples_p_value, "direction": step.direction,
            "status": step.status}


def regressions_feed(model: Model, words: Words, folder: str, base_url: str | None
                     ) -> bytes:
    """One language's feed of regressions, newest first, each linked to its series'
    page."""
    board = Dashboard(words, model)
    found = [(view, step) for view in model.series if view.report is not None
             for step in view.report.steps if step.direction == "regression"]
    found.sort(key=lambda f: (-_day(f[0], f[1].first_after).toordinal(), f[0].key))
    feed = ET.Element("feed", {"xmlns": ATOM, "xml:lang": words.lang})
    site = model.data.site
    title = words.text(site.title).striptags()
    add(feed, "id", urn(identity(model), words.lang, FEED))
    add(feed, "title", words._("%(site)s: regressions", site=title))
    newest = _day(found[0][0], found[0][1].first_after) if found else model.today
    add(feed, "updated", stamp(newest))
    add(add(feed, "author"), "name", title)
    add(feed, "link", rel="self", type="application/atom+xml",
        href=link(folder + FEED, folder, base_url))
    add(feed, "generator", "progress-site")
    for view, step in found:
        row = step_row(board, view, step)
        commits = f"{step.last_before}..{step.first_after}"
        entry = add(feed, "entry")
        add(entry, "id", urn(view.key, commits))  # the same on every build, in every language
        add(entry, "title", words._("%(title)s: %(percent)s, commits %(range)s",
                                    title=row.title, percent=row.percent, range=commits))
        add(entry, "updated", stamp(_day(view, step.first_after)))
        page = PagePlace.of(words.lang, row.slug, site.languages[0]).path
        add(entry, "link", rel="alternate", type="text/html",
            href=link(page, folder, base_url))
        content = Markup("<p>{} · {} · {} · {} · {}</p>").format(
            row.ratio, row.percent, words._("noise\u00a0%(noise)s", noise=row.noise),
            row.p_value, row.status)
        add(entry, "content", str(content), type="html")
    return xml_bytes(feed)


def _day(view: SeriesView, commit: str) -> dt.date:
    """The day of a series' point at `commit` (on the analysed machine)."""
    point = next(p for p in view.points if p.commit == commit)
    day = point.date
    return day.date() if isinstance(day, dt.datetime) else day
