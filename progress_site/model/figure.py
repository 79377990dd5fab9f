"""A figure: one number, as measured or estimated, with the evidence its status needs.

Every record that shows a number holds a `Figure` (a measurement, both sides of a
comparison, a claim, a budget's item, a run's result); how the number is written (a
value, a range, samples, ok of, a distribution, a formula) makes its kind
(derive/kinds/), and its status says what it must name (validate/figures.py). Earlier
values of what holds it are `HistoryPoint`s.
"""

# No `from __future__ import annotations`: field types as objects (see schema.py).

import datetime as dt
from dataclasses import dataclass
from typing import Literal

from progress_site.model.declare import Link, f, where
from progress_site.model.values import Number, Text, Where

Status = Literal["measured", "watch", "estimate", "not-judgeable"]
Better = Literal["lower", "higher"]


@dataclass(frozen=True, slots=True, kw_only=True)
class HistoryPoint:
    value: Number = f("the number measured then, in the unit of what holds it")
    date: dt.date | None = f("when it was measured", None)
    commit: str | None = f("the commit measured", None, ref="commits")
    label: Text | None = f("how the chart names this point; the commit or date when absent",
                           None)
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Distribution:
    p50: Number | None = f("the median: half the readings lie below it", None)
    p90: Number | None = f("the 90th percentile", None)
    p95: Number | None = f("the 95th percentile", None)
    p99: Number | None = f("the 99th percentile", None)
    p999: Number | None = f("the 99.9th percentile", None)
    min: Number | None = f("the lowest reading", None)
    max: Number | None = f("the highest reading", None)
    mean: Number | None = f("the mean of the readings", None)
    sd: Number | None = f("their standard deviation (with mean)", None)
    iqr: Number | None = f("their interquartile range, where the middle half lie (with p50)",
                           None)
    n: int | None = f("how many readings (samples, runs, rounds) it summarises", None)
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Figure:
    value: Number | None = f("the number measured or estimated", None)
    range: tuple[Number, ...] | None = f("lowest and highest, instead of value", None)
    samples: tuple[Number, ...] | None = f("every reading; the range is derived from them", None)
    ok: int | None = f("with `of`: how many passed", None)
    of: int | None = f("with `ok`: how many there were", None)
    formula: str | None = f("computed from other figures instead of measured: "
                            "`requests / seconds` (see Derived figures)", None)
    distribution: Distribution | None = f("percentiles, mean and spread, count of readings: "
                                          "shown by its median (p50), else its mean", None)
    unit: str | None = f("unit of value or range (us, ms, s, KB, MB, GB, %, or your own)", None,
                         ref="units")
    decimals: int | None = f("with `formula`: decimals to print (as computed when absent)", None)
    text: Text | None = f("words after the number ('ok', 'per player')", None)
    status: Status = f("measured, watch (measured, to watch), estimate, not-judgeable",
                       "measured")
    reason: Text | None = f("why it is not judgeable (required then)", None)
    machine: str | None = f("machine it was measured on", None, ref="machines")
    date: dt.date | None = f("when it was measured", None)
    commit: str | None = f("the commit measured", None, ref="commits")
    run: str | None = f("the test run it comes from", None, ref="runs")
    method: Text | None = f("how it was measured", None)
    proof: Link | None = f("where the raw results are", None)
    note: Text | None = f("a line under the figure", None)
    where: Where = where()
