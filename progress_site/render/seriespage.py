"""A series' own page, in one language (the `series` block): its chart's words, and the
table of its newest points under the row that heads it (render/serieschart.py draws).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING

from markupsafe import Markup

from progress_site.render.serieswords import Row, SeriesWords

if TYPE_CHECKING:  # a site without history renders no series: its analysis stays unloaded
    from progress_site.derive.history import SeriesView

# The newest points in a series' table; the page says so and data.json has them all.
# A table of every point would dwarf the chart it repeats, and formatting each row's
# numbers was the largest part of a 100,000-point build (bench/history_scale.py).
SHOWN_POINTS = 20
_COMMIT = attrgetter("commit")


def series_page(board: SeriesWords, view: SeriesView, row: Row) -> Row:
    """A series' page: the row that heads it, its chart, its newest points."""
    shown = view.points[:-SHOWN_POINTS - 1:-1]
    # The newest point's value is the row's, formatted already.
    values = [row.latest, *(board.value(view, p) for p in shown[1:])]
    return dataclasses.replace(
        row, chart=chart(board, view), note=left_out(board, view),
        spreads=board.kinds(shown),
        points=tuple((commit(board, p.commit), board.date(p), p.machine, value)
                     for p, value in zip(shown, values, strict=True)))


def left_out(board: SeriesWords, view: SeriesView) -> str:
    """The note under a table that shows only the newest points, else ''."""
    total = len(view.points)
    if total <= SHOWN_POINTS:
        return ""
    return board.words._("The newest %(shown)s of %(total)s points; data.json holds "
                         "every one.", shown=board.count(SHOWN_POINTS),
                         total=board.count(total))


def commit(board: SeriesWords, ident: str) -> Markup:
    """A point's commit, linked, with its label when the data gives it one."""
    label = board.tags.get(ident)
    shown = board.words.commit_hash(ident)
    if label is None:
        return shown
    return Markup('{} <span class="tag">{}</span>').format(shown, label.get(board.words.lang))


def chart(board: SeriesWords, view: SeriesView) -> Markup:
    """The series' page chart: axes, levels' noise band, steps (render/serieschart.py)."""
    from progress_site.render.serieschart import ChartText, series_chart
    from progress_site.render.serieslayout import NARROW, Lazy, scale_of

    w = board.words
    points = view.points
    steps = view.report.steps if view.report else ()
    unit = view.series.unit
    values = [p.value for p in points]
    # Without its year, a date of another year would read as one of this year; the
    # first and last points say which years there are (loading refuses lines out of
    # date order).
    day = (board.short_date if board.day(points[0]).year == board.day(points[-1]).year
           else board.long_date)
    desc = describe(board, view, values, day)
    for step in steps:
        desc += " " + w._("Step of %(percent)s between commits %(a)s and %(b)s.",
                          percent=board.percent(step), a=step.last_before,
                          b=step.first_after)
    text = ChartText(
        title=w._("%(title)s: every point", title=board.title(view)), desc=desc,
        x_labels=Lazy(len(points), lambda i: day(board.day(points[i]))),
        # Both sizes label the same ticks, and series of one unit the same levels.
        y_label=lambda v, d: board.amount(v, d, unit),
        step_label=board.percent,
        tags=tuple((i, board.tags[c].get(w.lang)) for i, c in tagged(board, view)))
    # Two sizes, one shown per screen: a viewBox scaled down to a phone would make
    # its labels too small to read. Both have the same height: the same levels,
    # ticks and y of each point.
    scale = scale_of(values, steps)
    return series_chart(values, steps, text, scale=scale) + series_chart(
        values, steps, text, NARROW, "narrow", scale)


def tagged(board: SeriesWords, view: SeriesView) -> list[tuple[int, str]]:
    """The series' labelled commits (a release) and their points' indexes, in order."""
    commits = list(map(_COMMIT, view.points))
    # A view's commits are distinct (one machine): each labelled one is found once,
    # looked up among a few labels rather than each point looked up among them.
    return sorted((commits.index(c), c) for c in board.tags.keys() & set(commits))


def describe(board: SeriesWords, view: SeriesView, values: Sequence[float],
             day: Callable[[dt.date], str]) -> str:
    """The chart's text: its lowest and highest point of all it draws, each with its
    commit and date (the first and last points say nothing of a peak between)."""
    from progress_site.render.serieslayout import extremes

    points = view.points
    low, high = extremes(values)
    w = board.words
    return w._(
        "Lowest %(low)s %(at_low)s (%(a_day)s), highest %(high)s %(at_high)s "
        "(%(b_day)s), %(n)s points.",
        low=board.value_only(view, points[low]), at_low=at(board, points[low].commit),
        a_day=day(board.day(points[low])), high=board.value_only(view, points[high]),
        at_high=at(board, points[high].commit), b_day=day(board.day(points[high])),
        n=board.count(len(points)))


def at(board: SeriesWords, commit: str) -> str:
    """Where a point was measured: at its commit's label (a release) when the data gives
    it one, else at the commit."""
    label = board.tags.get(commit)
    return board.words.at_point(commit, label.get(board.words.lang) if label else None)
