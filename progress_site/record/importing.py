"""`import FORMAT FILE`: a tool's results written as measurements, through the checks of
`record` (commands.finish): nothing is written unless the data as changed builds.

What a result carries beyond its figure decides how it is written: a failed run is
refused unless --allow-failed, a flag (a dirty tree) suggests "to watch" like noise, and
the facts of the machine it ran on fill a machine the data does not have yet.
"""

from __future__ import annotations

import argparse
import datetime as dt

from progress_site.errors import visible_path
from progress_site.record.commands import (
    finish,
    measurement,
    provenance,
    recorded_unit,
    slug,
)
from progress_site.record.datafiles import DataFiles
from progress_site.record.importers import Result, read_results
from progress_site.record.importers.base import fail
from progress_site.record.recorder import (
    TIME_UNITS,
    Raw,
    Refused,
    Suggestion,
    scale_time,
    significant,
    suggest,
)


def run_import(args: argparse.Namespace, today: dt.date) -> int:
    """`import FORMAT FILE`: one measurement per benchmark of the file (its newest run)."""
    rec = DataFiles(args.source.resolve())
    display = str(args.input)
    results = read_results(args.format, args.input, display)
    if not results:
        raise Refused(f"{visible_path(display)}: no benchmark results in it")
    refuse_failed(results, display, args.allow_failed)
    results, older = newest(results)
    if older:
        print(f"note: {older} older result{'s' if older != 1 else ''} of the same "
              "benchmarks (a history) not written: each figure takes its newest")
    pending, seen = [], set()
    for r in results:
        ident = "-".join(filter(None, (slug(args.prefix), slug(r.name))))
        if ident in seen or not ident:
            raise Refused(f"two results of {visible_path(display)} make the id "
                          f"'{visible_path(ident)}'; pass --id "
                          "with another prefix, or rename the benchmarks")
        seen.add(ident)
        prov = provenance(args, today, machine=r.machine, date=r.date, commit=r.commit)
        if prov["machine"] is not None:
            rec.declare_machine(prov["machine"], r.facts)
        text, unit = figure_number(rec, args, ident, r)
        status = args.status or r.status
        suggestion = None if status else suggestion_of(r, args.noise_limit)
        pending.append(measurement(rec, args, ident, r.title or r.name, text, unit, prov,
                                   status, suggestion))
    return finish(rec, args, pending, today)


def suggestion_of(r: Result, noise_limit: float) -> Suggestion | None:
    """"To watch" for a run that failed (allowed) or is flagged, else what its noise says."""
    why = f"{r.failed}, recorded under --allow-failed" if r.failed else r.flag
    return Suggestion("watch", why) if why else suggest(r.cv, noise_limit)


def figure_number(rec: DataFiles, args: argparse.Namespace, ident: str,
                  r: Result) -> tuple[Raw, str | None]:
    """The statistic asked for (the median by default), with three significant digits,
    in the unit the figure already has unless --unit says otherwise."""
    found = rec.find("measurements", ident)
    old = recorded_unit(found[1]) if found else None
    wanted = args.unit or (old if old in TIME_UNITS and r.unit in TIME_UNITS else None)
    try:
        picked = r.pick(args.stat)
    except LookupError:
        given = ", ".join(sorted({*r.stats} - {"cv"})) or "none"
        raise Refused(f"--stat {args.stat}: {args.format} gives no {args.stat} of "
                      f"'{visible_path(r.name)}' and no readings to compute it from "
                      f"(it gives: {given})") from None
    value, unit = scale_time(picked, r.unit, wanted)
    # A run record's number is written as typed, unless it was converted.
    exact = args.format == "jsonl" and value == picked
    return Raw(format(value if exact else significant(value), "f")), unit


def refuse_failed(results: list[Result], display: str, allowed: bool) -> None:
    """A run the tool saw fail is no figure, unless --allow-failed says it is one."""
    failed = [r for r in results if r.failed]
    if failed and not allowed:
        raise fail(display, "; ".join(f"benchmark '{visible_path(r.name)}': {r.failed}"
                                      for r in failed),
                   "fix the command and measure again, or pass --allow-failed to record "
                   "its times anyway; nothing was written")


def newest(results: list[Result]) -> tuple[list[Result], int]:
    """The newest result of each benchmark (a history file holds many), in the file's
    order, and how many older ones were left out."""
    latest: dict[str, tuple[int, Result]] = {}
    for index, r in enumerate(results):
        kept = latest.get(r.name)
        if kept is None or (r.date or dt.date.min) >= (kept[1].date or dt.date.min):
            latest[r.name] = (index, r)
    kept_results = [r for _, r in sorted(latest.values(), key=lambda pair: pair[0])]
    return kept_results, len(results) - len(kept_results)
