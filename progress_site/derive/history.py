"""Each history series analysed: its steps, outliers and status (derive/regressions.py).

A file may hold several machines; only points of one machine are comparable, so a series
is judged on the machine of its newest point (the one its figure shows).
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter

from progress_site.derive.regressions import Report, analyse
from progress_site.derive.series import Measured, Point, Series
from progress_site.errors import Problem
from progress_site.model.history import HistorySeries, SeriesPoint
from progress_site.model.schema import Headline
from progress_site.model.values import problem

_MACHINE, _SAMPLES, _VALUE = attrgetter("machine"), attrgetter("samples"), attrgetter("value")


@dataclass(frozen=True, slots=True)
class SeriesView:
    """A series as pages show it: its points on the newest point's machine, and their
    report (None when a point cannot be judged: a value of 0)."""

    series: HistorySeries
    points: tuple[SeriesPoint, ...]
    report: Report | None

    @property
    def key(self) -> str:
        """The figure's key, `measurements.ID`."""
        return self.series.key


def derive_series(history: tuple[HistorySeries, ...]) -> tuple[SeriesView, ...]:
    """Every series with its report, in the order of their keys."""
    return tuple(view_series(s) for s in sorted(history, key=lambda s: s.key))


def view_series(series: HistorySeries) -> SeriesView:
    """One series, analysed on its newest point's machine."""
    machine = series.newest.machine
    points = series.points
    # Most files hold one machine and no samples: their points are analysed as loaded.
    if not all(map(machine.__eq__, map(_MACHINE, points))):
        points = tuple(p for p in points if p.machine == machine)
    sampled = any(map(_SAMPLES, points))
    # Loading let through no negative or non-finite value; the analysis needs them above 0.
    if (any(p.value <= 0 for p in points if not p.samples) if sampled
            else min(map(_VALUE, points)) <= 0):
        return SeriesView(series, points, None)
    try:
        judged = Series(tuple(map(_point, points)) if sampled else points, series.better,
                        series.min_change / 100)
    except ValueError:
        return SeriesView(series, points, None)
    return SeriesView(series, points, analyse(judged))


def _point(point: SeriesPoint) -> Measured:
    """The point the analysis reads: the samples when there are some, else the value
    (a point of one value is read as it is: its `samples` are empty)."""
    if point.samples:
        return Point(point.commit, samples=point.samples)
    return point


def check_claims(headlines: tuple[Headline, ...], views: tuple[SeriesView, ...]
                 ) -> list[Problem]:
    """A headline may not summarise a series whose newest step is a regression (a
    pending one may still be noise, and is let through)."""
    newest = {view.key: view.report.steps[-1] for view in views
              if view.report is not None and view.report.steps}
    return [problem(h.where, "summarises", f"{ref} regressed by {newest[ref].percent:+.1f} % "
                    f"at commits {newest[ref].last_before}..{newest[ref].first_after}: a "
                    "headline cannot claim it", "restate the headline from the newest "
                    "figures, or fix the regression and measure again")
            for h in headlines for ref in h.summarises
            if ref in newest and newest[ref].status == "regressed"]
