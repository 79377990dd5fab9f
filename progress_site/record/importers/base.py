"""What every importer shares: `Result`, `ImportFailed`, the number checks (a tool's file
is read by `reading.py`).

A tool's file keeps to the data's limits (docs/data-format.md): JSON nested at most
MAX_DEPTH levels, whole numbers of at most MAX_DIGITS digits, each result finite and at
most LARGEST, and no time, size or rate negative; anything else is a located error, never
a traceback.
"""

from __future__ import annotations

import datetime as dt
import math
import statistics
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from types import MappingProxyType
from typing import Any, TypeGuard

from progress_site.errors import MAX_KEY, Location, Problem, UsageError, shorten
from progress_site.model.limits import LARGEST, MAX_DIGITS, in_range
from progress_site.model.units import CLDR_UNITS, SYMBOL_UNITS
from progress_site.record.importers.places import NOWHERE, Places, place_of
from progress_site.record.importers.shape import offset
from progress_site.record.recorder import CV

Stat = str  # "mean", "median", "min" or "max"
# Each statistic an import may keep (--stat), as computed from readings the tool gave.
SUMMARIES: Mapping[Stat, Callable[[list[float]], float]] = MappingProxyType({
    "mean": statistics.fmean, "median": statistics.median, "min": min, "max": max})
# Durations, sizes and rates: no tool measures a negative one (a percentage may be).
NOT_NEGATIVE = frozenset(CLDR_UNITS) | frozenset(SYMBOL_UNITS)
# What the tools report in their time unit (or a run record in its unit): summaries and
# readings alike.
READINGS = ("mean", "median", "min", "max", "stddev", "user", "system", "times",
            "real_time", "cpu_time", "value", "samples")


# What a median's noise is measured by, as the console names it (import's suggestion too).
QUARTILES = "quartiles around the median"


@dataclass(frozen=True)
class Result:
    """One benchmark as its tool measured it: the readings, the statistics the tool
    reported (all in `unit`), and where and how it ran."""

    name: str
    unit: str | None
    stats: Mapping[str, Decimal]  # mean, median, stddev, min, max, iqr, q1, q3, cv, ...
    samples: tuple[Decimal, ...] = ()  # every reading, when the tool gives them
    runs: int = 1  # how many readings the statistics summarise
    date: dt.date | None = None
    commit: str | None = None
    title: str | None = None
    machine: str | None = None
    status: str | None = None
    flag: str | None = None  # why the figure is to watch whatever its noise (a dirty tree)
    failed: str | None = None  # why the run failed (refused unless --allow-failed)
    facts: tuple[str, ...] = ()  # the machine it ran on, as the tool describes it
    better: str | None = None  # "lower" or "higher" when the tool says which way is good
    # The name an earlier version of this importer gave it (go test's `BenchmarkX`): a
    # history kept under the id made from it goes on there (importing.by_series).
    former: str | None = None
    # Where each value was written in the tool's file, for a message about it.
    places: Places = field(default_factory=lambda: NOWHERE, compare=False, repr=False)

    @property
    def value(self) -> Decimal:
        """The headline: the median when the tool gives one or readings exist (a mean
        pulled up by a few slow runs is not what a run usually takes), else the mean."""
        return self.pick(None)

    def pick(self, stat: Stat | None) -> Decimal:
        """One statistic: the tool's own, else computed from the readings; the number
        of a single number (a run record's `value`); LookupError when the tool gave
        neither this statistic nor readings to compute it."""
        if stat is None:
            stat = "median" if "median" in self.stats or self.samples else "mean"
        elif stat not in SUMMARIES:  # a caller's slip (--stat offers these alone): no guess
            raise ValueError(f"no statistic '{stat}': one of {', '.join(SUMMARIES)}")
        if stat in self.stats:
            return self.stats[stat]
        if self.samples:
            return number(SUMMARIES[stat]([float(s) for s in self.samples]))
        if "value" in self.stats:  # one number: every statistic of it is itself
            return self.stats["value"]
        raise LookupError(stat)

    @property
    def cv(self) -> float | None:
        """The noise, as `noise` works it out."""
        return self.noise()[0]

    @property
    def noise_measure(self) -> str:
        """What `cv` was measured by, as the console names it."""
        return self.noise()[1]

    def noise(self) -> tuple[float | None, str]:
        """The noise and what measured it: the tool's coefficient of variation; for a
        median, the quartiles' spread around it; else stddev over mean, else that of the
        readings; None when unknown (a single run)."""
        if "cv" in self.stats:
            return float(self.stats["cv"]), CV
        robust = self.quartile_cv()
        if robust is not None:
            return robust, QUARTILES
        mean = self.stats.get("mean", self.stats.get("value"))
        if "stddev" in self.stats and mean is not None:
            return cv_of(self.stats["stddev"], mean), CV
        if len(self.samples) > 1:
            floats = [float(s) for s in self.samples]
            return cv_of(statistics.stdev(floats), statistics.fmean(floats)), CV
        return None, CV

    def quartile_cv(self) -> float | None:
        """When the value is a median: the interquartile range over 1.349 times it (a
        normal spread's IQR is 1.349 standard deviations). A few slow rounds on a shared
        runner put the standard deviation at several times the mean, and every point
        would be 'to watch', yet they do not move the median that is recorded."""
        if "median" not in self.stats and not self.samples:
            return None
        if "q1" in self.stats and "q3" in self.stats:
            q1, q3 = self.stats["q1"], self.stats["q3"]
        elif len(self.samples) >= 4:
            q1, _, q3 = statistics.quantiles(self.samples, n=4)
        else:
            return None
        return cv_of((q3 - q1) / Decimal("1.349"), self.value)


def stats_of(found: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Decimal]:
    """The statistics a tool reported, under our names (`std_dev` -> `stddev`), as Decimals;
    those it left out or wrote as null are left out, one written otherwise than as a
    number is a ValueError (a `"stddev": "x"` dropped quietly left a figure without its
    spread)."""
    out = {}
    for theirs, ours in names.items():
        value = found.get(theirs)
        if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
            out[ours] = number(value)
        elif value is not None:
            raise ValueError(f"`{theirs}` is {shorten(repr(value), 60)}, not a number")
    return out


class ImportFailed(UsageError):
    """The tool's file is not what its format promises; nothing was written."""

    exit_code = 1

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__(self.render())

    def render(self) -> str:
        """Each problem, located in the tool's file."""
        return "\n".join(p.render() for p in self.problems)


def quoted(name: object) -> str:
    """A name from the tool's file as an error quotes it: `'name'`, a long one shortened
    to its start and end (a name of 100,000 characters printed whole hid the problem)."""
    return f"'{shorten(str(name), MAX_KEY)}'"


def fail(display: str, message: str, hint: str = "", line: int = 0, column: int = 1,
         source: str = "") -> ImportFailed:
    """An import error at a place of the tool's file (its line and column; `source`, the
    line as written, is printed under it with a caret at the column)."""
    return ImportFailed([Problem(Location(display, line, column if line else 0), message,
                                 hint=hint, source_line=source if line else "")])


def fail_in(places: Places, key: str, display: str, message: str, hint: str = "",
            index: int | None = None) -> ImportFailed:
    """An import error at the value a result's `places` say `key` (and `index` in it) was
    written at; at the file when they do not say."""
    place = place_of(places, key, index)
    if place is None:
        return fail(display, message, hint)
    tool_file, path = place
    return ImportFailed(tool_file.problems(path, message, hint))


def not_negative(display: str, name: Any, found: dict[str, Any], line: int = 0,
                 places: Places = NOWHERE, text: str = "") -> None:
    """Refuse a benchmark whose time or size is negative: the run or the file is broken,
    and a figure made from it would be a lie. (`places`: where each key of `found` is;
    or `line`, the JSON `text` of that line `found` was read from.)"""
    for key in READINGS:
        values = found.get(key)
        many = isinstance(values, list)
        listed: list[Any] = values if isinstance(values, list) else [values]
        for i, value in enumerate(listed):
            if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool) \
                    and value < 0:
                message = f"benchmark {quoted(name)}: {key} is {value}, a negative time or size"
                hint = ("give the file exactly as the tool wrote it, from a run that worked; "
                        "nothing was written")
                if line:
                    path = (key, i) if many else (key,)
                    raise fail(display, message, hint, line,
                               offset(text, 0, path) + 1 if text else 1, text)
                raise fail_in(places, key, display, message, hint, i if many else None)


def number(value: float | Decimal) -> Decimal:
    """A float as the Decimal of its shortest repr (no binary noise in the YAML); a whole
    number or a Decimal as it was written."""
    if isinstance(value, (Decimal, int)) and not isinstance(value, bool):
        return Decimal(value)
    return Decimal(repr(float(value)))


def printable(value: float | Decimal) -> bool:
    """Whether a page can print a tool's number: finite, at most LARGEST, and 0 or a
    number a float holds."""
    if isinstance(value, Decimal) and value.is_finite() and abs(value.adjusted()) > 9999:
        return False  # 1e99999999: Decimal's arithmetic (abs) would overflow
    return in_range(value) and not underflows(value)


def out_of_range(name: object, what: str, value: float | Decimal, fmt: str
                 ) -> tuple[str, str]:
    """What a number no page can print is told (`benchmark 'x': mean inf is out of
    range`), and its hint."""
    return (f"benchmark {quoted(name)}: {what} {shown(value)} is out of range",
            f"a result is finite, at most {LARGEST:.0e}, and 0 or a number a float holds "
            f"(1e-999 is not); give the file exactly as {fmt} wrote it")


def shown(value: float | Decimal) -> str:
    """A number as a message prints it: `1e+300`, `inf`; `1e+999` and `1e-999` (past what a
    float holds) as written."""
    text = f"{float(value):g}"
    finite = value.is_finite() if isinstance(value, Decimal) else math.isfinite(value)
    return f"{value:g}" if finite and (text in ("inf", "-inf") or underflows(value)) else text


def unreadable(written: str) -> str:
    """Why a number written as text (go test's) is not read: more than MAX_DIGITS digits
    before its point, or an exponent too large to compute with ('' when it is read)."""
    mantissa, _, exponent = written.lower().partition("e")
    digits = len(mantissa.lstrip("+-").partition(".")[0].lstrip("0"))
    if digits > MAX_DIGITS:
        return f"a number of {digits} digits before its point is too large"
    if len(exponent.lstrip("+-")) > 4:  # 1e99999: Decimal's arithmetic overflows
        return f"the number {shorten(written, 40)} is too large or too small to read"
    return ""


def underflows(value: float | Decimal) -> bool:
    """Whether a number that is not 0 is read as 0 (or as a float holds no other)."""
    return bool(value) and float(value) == 0


def is_count(value: object) -> TypeGuard[int]:
    """Whether a tool's number of runs is one: a whole number from 1 to LARGEST."""
    return type(value) is int and 1 <= value <= LARGEST


def count(value: Any, what: str) -> int:
    """How many runs, rounds or repetitions a tool says: a whole number from 1 to LARGEST
    (ValueError otherwise: `rounds: 2.7`, `0`, `1e999` is no count)."""
    if is_count(value):
        return value
    written = str(value) if isinstance(value, (float, Decimal)) else repr(value)
    raise ValueError(f"`{what}` is {shorten(written, 60)}, not a count of runs")


def cv_of(stddev: float | Decimal, mean: float | Decimal) -> float | None:
    """stddev / mean, when the mean is not zero."""
    return abs(float(stddev) / float(mean)) if mean else None


def day_of_ms(stamp: Any) -> dt.date | None:
    """The UTC day of a time in milliseconds since 1970 (asv, github-action-benchmark)."""
    if not isinstance(stamp, (int, float)) or isinstance(stamp, bool):
        return None
    try:
        return dt.datetime.fromtimestamp(stamp / 1000, dt.UTC).date()
    except (OverflowError, OSError, ValueError):
        return None


def day_of(text: Any) -> dt.date | None:
    """The day of an ISO date or timestamp, if there is one."""
    if not isinstance(text, str) or len(text) < 10:
        return None
    try:
        return dt.date.fromisoformat(text[:10])
    except ValueError:
        return None
