"""History files made figures: each series' newest point is its measurement's figure,
completing the `measurements:` entry of the same id, or a measurement of its own when the
YAML has none; its number, machine, date, commit and status come from that point alone
(docs/history-format.md), and the spread the tool measured makes it a distribution.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import statistics
from collections.abc import Collection

from progress_site.errors import Location, Problem, did_you_mean
from progress_site.load.history_scale import shown_in, shown_unit
from progress_site.model.figure import Distribution, Figure
from progress_site.model.history import (
    DEFAULT_MIN_CHANGE,
    HistorySeries,
    SeriesPoint,
    decimals_of,
    default_better,
    default_group,
    significant,
)
from progress_site.model.schema import Commit, Data, Measurement
from progress_site.model.values import Number, Text, Where, problem

FROM_HISTORY = ("value", "range", "samples", "distribution", "ok", "of", "machine", "date",
                "commit", "run")
# A distribution's parts, and the statistic of a history line each is read from.
DISTRIBUTION_STATS = (("p50", "p50"), ("p90", "p90"), ("p95", "p95"), ("p99", "p99"),
                      ("min", "min"), ("max", "max"), ("mean", "mean"), ("sd", "stddev"))


def attach_history(data: Data, series: tuple[HistorySeries, ...],
                   aside: Collection[tuple[str, str]] = ()
                   ) -> tuple[Data, tuple[HistorySeries, ...], list[Problem]]:
    """The data with each series' figure in `measurements:`, the series completed with
    their measurement's choices, and every problem found (`aside`: records that did not
    read, already told, which a point may name)."""
    by_id = {m.id: m for m in data.measurements}
    machines = {m.id for m in data.machines} | {i for k, i in aside if k == "machines"}
    known_commits = {c.id for c in data.commits}
    problems: list[Problem] = []
    done: dict[str, Measurement] = {}
    completed: list[HistorySeries] = []
    new_commits: dict[str, Commit] = {}
    for one in series:
        problems += _unknown_machines(one, machines)
        yaml = by_id.get(one.id)
        if yaml is not None:
            problems += _written_twice(yaml, one)
        one = shown_in(one, yaml.figure.unit if yaml is not None else None)
        measurement = _measurement(yaml, one)
        done[one.id] = measurement
        completed.append(_choices(one, yaml))
        newest = one.newest
        if newest.commit not in known_commits and newest.commit not in new_commits:
            # A commit the data does not list is allowed, and printed as its id.
            new_commits[newest.commit] = Commit(id=newest.commit, where=newest.where)
    problems += [problem(m.where, "figure", "missing key 'figure' (the figure)",
                         f"write `figure:`, or keep its history in data/history/"
                         f"measurements.{m.id}.jsonl")
                 for m in data.measurements if m.id not in done and not m.figure.where.path]
    measurements = tuple(done.get(m.id, m) for m in data.measurements) + tuple(
        done[s.id] for s in series if s.id not in by_id)
    data = dataclasses.replace(data, measurements=measurements,
                               commits=data.commits + tuple(new_commits.values()))
    return data, tuple(completed), problems


def _unknown_machines(series: HistorySeries, machines: set[str]) -> list[Problem]:
    """A point's machine names one of `machines:`."""
    out = []
    for i, point in enumerate(series.points):
        if point.machine not in machines:
            out.append(problem(series.place(i), "machine", f"no machine '{point.machine}'",
                               did_you_mean(point.machine, sorted(machines),
                                            otherwise="declare it under `machines:`")))
    return out


def _written_twice(yaml: Measurement, series: HistorySeries) -> list[Problem]:
    """What the YAML may not write beside a history file."""
    out = []
    given = [n for n in FROM_HISTORY if getattr(yaml.figure, n) is not None]
    if given:
        out.append(problem(yaml.figure.where, given[0], f"the {given[0]} comes from "
                           f"{series.file}", "remove " + ", ".join(f"`{n}:`" for n in given)
                           + " here: the history's newest line gives the figure's number, "
                           "machine, date and commit"))
    if yaml.figure.formula is not None:
        # A series is measured, point by point: its figure is not computed as well.
        out.append(problem(yaml.figure.where, "formula", f"the figure's number comes from "
                           f"{series.file}", "remove `formula:` here, or the history file"))
    if yaml.history:
        out.append(problem(yaml.where, "history", f"this measurement's history is in "
                           f"{series.file}", "remove `history:`, or the file"))
    unit = yaml.figure.unit
    # A duration converts to any other: the series is shown in the one written here.
    if unit is not None and unit != (series.unit or None) \
            and shown_unit(series, unit) != ("us" if unit == "µs" else unit):
        out.append(problem(yaml.figure.where, "unit", f"unit '{unit}' differs from "
                           f"{series.file}'s ('{series.unit}')",
                           "remove `unit:` here: the history's unit is the figure's (a "
                           "duration may name another duration: ns, us, ms or s)"))
    return out


def _measurement(yaml: Measurement | None, series: HistorySeries) -> Measurement:
    """The measurement of a series: its YAML entry completed, or one of its own."""
    newest = series.newest
    # As the line has them: each found only when a problem asks (`load/history.py`).
    fields = newest.where.fields
    if yaml is None:
        where = Where(Location(series.file), ("measurements", series.id), fields)
        figure = _figure(Figure(where=where), newest, series.unit, where)
        return Measurement(id=series.id, title=Text((("*", series.id),), neutral=True),
                           figure=figure, where=where)
    old = yaml.figure.where
    where = Where(old.location, old.path, {**old.fields, **fields})
    return dataclasses.replace(yaml, figure=_figure(yaml.figure, newest, series.unit, where))


def _figure(figure: Figure, newest: SeriesPoint, unit: str, where: Where) -> Figure:
    """A figure showing the newest point: with the spread the tool measured, when it
    gave one, as a distribution whose headline is the point's value."""
    when = newest.date.date() if isinstance(newest.date, dt.datetime) else newest.date
    status = "watch" if newest.status == "watch" else figure.status
    spread = _distribution(newest, where)
    value = None if spread else Number(newest.value, decimals_of(newest.value))
    return dataclasses.replace(figure, value=value, distribution=spread, unit=unit or None,
                               machine=newest.machine, date=when, commit=newest.commit,
                               status=status, where=where)


def _distribution(point: SeriesPoint, where: Where) -> Distribution | None:
    """The tool's statistics of a point as a distribution (median and its interquartile
    range, percentiles, min, max, mean, sd, n); None when it gave none, or when its
    headline (the median, else the mean) is not the point's value (`import --stat`)."""
    stats, samples = point.stats, point.samples
    parts = {n: stats[theirs] for n, theirs in DISTRIBUTION_STATS if theirs in stats}
    if "p50" not in parts and "median" in stats:
        parts["p50"] = stats["median"]
    if "p50" not in parts and samples:
        parts["p50"] = statistics.median(samples)
    if "mean" not in parts:  # a spread around a mean the tool did not report says nothing
        parts.pop("sd", None)
    if point.iqr is not None:  # the median's own spread (a few slow rounds widen the sd)
        parts["iqr"] = significant(point.iqr)
    if samples:
        parts.setdefault("min", min(samples))
        parts.setdefault("max", max(samples))
    count = point.n or len(samples) or None
    if parts.get("p50", parts.get("mean")) != point.value or len(parts) + bool(count) < 2:
        return None
    return Distribution(**{name: Number(x, decimals_of(x)) for name, x in parts.items()},
                        n=count, where=where)


def _choices(series: HistorySeries, yaml: Measurement | None) -> HistorySeries:
    """The series with its measurement's `better`, `group` and `min_change`."""
    better = yaml.better if yaml is not None and yaml.better else default_better(series.unit)
    group = yaml.group if yaml is not None and yaml.group else default_group(series.id)
    change = (yaml.min_change.value if yaml is not None and yaml.min_change is not None
              else DEFAULT_MIN_CHANGE)
    return dataclasses.replace(series, better=better, group=group, min_change=change)
