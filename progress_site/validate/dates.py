"""Dates after the build's today: nothing is measured in the future, so such a date is
a slip. A warning, an error with --strict: a tool's own clock (an import) or a time zone
ahead may date a run a day after a reproducible build's SOURCE_DATE_EPOCH."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from progress_site.errors import Problem
from progress_site.model.values import problem


def check_dates(records: Iterable[Any], today: dt.date, strict: bool) -> list[Problem]:
    """Each record's `date:` (a figure's, a study's, a run's, a commit's) after `today`,
    said once where it is written (a study's, not each of its figures'): `records` are
    the data's as written (`walk`), before figures inherit their holder's date."""
    out = []
    for rec in records:
        when = getattr(rec, "date", None)
        if isinstance(when, dt.date) and when > today:
            out.append(replace(problem(rec.where, "date", f"date {when} is in the future "
                                       f"(today is {today})", "use the day it was measured "
                                       "(the build's today is SOURCE_DATE_EPOCH, else the "
                                       "clock)"), warning=not strict))
    return out
