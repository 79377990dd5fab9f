"""A history file as CI writes it, checked column by column rather than line by line.

Nearly every history file is plain: each line holds only commit, date, machine, value,
unit and maybe spread, n and tool, each of the right type, in date order, no (commit,
machine) twice. Such a file is checked a field at a time over all its lines (a few
comprehensions, not a dozen Python calls a line). Whatever is not plain, or any doubt,
returns None, and load/history.py reads the file line by line, which words every
problem at its line and column: the messages have one source.
"""

from __future__ import annotations

import datetime as dt
import math
import operator
import re
from collections.abc import Callable, Sequence
from typing import Any

from progress_site.model.history import REQUIRED, SeriesPoint
from progress_site.model.values import Where

PLAIN = frozenset((*REQUIRED, "spread", "n", "tool"))
DATETIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
_ABSENT: Any = object()  # a key the line does not write (null is written, and wrong)


def parse_date(value: Any) -> dt.date | dt.datetime | None:
    """`YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SSZ` (UTC); None for anything else."""
    try:
        if isinstance(value, str) and DATETIME.fullmatch(value):
            return dt.datetime.fromisoformat(value[:-1]).replace(tzinfo=dt.UTC)
        if isinstance(value, str) and len(value) == 10:
            return dt.date.fromisoformat(value)
    except ValueError:
        pass
    return None


def in_order(when: dt.date | dt.datetime) -> dt.datetime:
    """A date or a time, comparable with either (a date counts as its midnight, UTC)."""
    if isinstance(when, dt.datetime):
        return when
    return dt.datetime(when.year, when.month, when.day, tzinfo=dt.UTC)


def plain_points(records: Sequence[Any], where: Callable[[int], Where]
                 ) -> tuple[str, list[SeriesPoint]] | None:
    """The unit and the points of a plain file's records; None unless all are plain."""
    if not records or not all(type(r) is dict and PLAIN.issuperset(r) for r in records):
        return None
    try:
        commits, dates, machines, values, units = (
            [r[k] for r in records] for k in ("commit", "date", "machine", "value", "unit"))
    except KeyError:
        return None
    spreads, counts, tools = ([r.get(k, _ABSENT) for r in records]
                              for k in ("spread", "n", "tool"))
    unit = units[0]
    if not (type(unit) is str and (unit == "" or unit.strip())
            and units.count(unit) == len(units) and _texts(commits) and _texts(machines)
            and _texts(tools, absent=True) and _numbers(values)
            and _numbers(spreads, absent=True) and _counts(counts)):
        return None
    days = _days(dates)
    if days is None or not _distinct_in_order(commits, machines, dates, days):
        return None
    return unit, [
        SeriesPoint(c, days[d], m, float(v), None if s is _ABSENT else float(s),
                    None if n is _ABSENT else n, {}, (), None if t is _ABSENT else t,
                    "measured", None, where(i))
        for i, (c, d, m, v, s, n, t) in enumerate(
            zip(commits, dates, machines, values, spreads, counts, tools, strict=True))]


def _texts(column: list[Any], *, absent: bool = False) -> bool:
    """Every value a non-empty text (or not written, when `absent` may be)."""
    return all((absent and x is _ABSENT) or (type(x) is str and x.strip()) for x in column)


def _numbers(column: list[Any], *, absent: bool = False) -> bool:
    """Every value a finite number, 0 or more (NaN fails the comparison too)."""
    return all((absent and x is _ABSENT)
               or ((type(x) is float or type(x) is int) and 0 <= x < math.inf)
               for x in column)


def _counts(column: list[Any]) -> bool:
    """Every `n` a whole number of at least 1, or not written."""
    return all(x is _ABSENT or (type(x) is int and x >= 1) for x in column)


def _days(dates: list[Any]) -> dict[str, dt.date | dt.datetime] | None:
    """Each distinct date text read once (a file repeats a day for each of its runs)."""
    if not all(type(d) is str for d in dates):
        return None
    days = {d: parse_date(d) for d in set(dates)}
    return None if None in days.values() else days  # type: ignore[return-value]


def _distinct_in_order(commits: list[str], machines: list[str], dates: list[str],
                       days: dict[str, dt.date | dt.datetime]) -> bool:
    """No (commit, machine) twice, and every line's date no earlier than the one before."""
    if len(set(zip(commits, machines, strict=True))) != len(commits):
        return False
    if all(len(d) == 10 for d in days):  # YYYY-MM-DD sorts as its text
        return all(map(operator.le, dates, dates[1:]))
    order = {d: in_order(day) for d, day in days.items()}
    keys = [order[d] for d in dates]
    return all(map(operator.le, keys, keys[1:]))
