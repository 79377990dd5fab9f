"""`import FORMAT FILE`: a tool's results written as points of each figure's history
(`appending`), through the checks of `record` (pending.finish): nothing is written
unless the data as changed builds.

What a result carries beyond its figure decides how it is written: a failed run is
refused unless --allow-failed, a flag (a dirty tree) suggests "to watch" like noise, and
the facts of the machine it ran on fill a machine the data does not have yet.
"""

from __future__ import annotations

import argparse
import datetime as dt
from pathlib import Path

from progress_site.collector import collector_paused
from progress_site.errors import visible_path
from progress_site.record.appending import (
    Reading,
    add_all,
    point,
    require_point,
    when,
    yaml_entry,
)
from progress_site.record.commands import provenance, recorded_unit, slug
from progress_site.record.datafiles import DataFiles
from progress_site.record.history import printed
from progress_site.record.importers import Result, read_results
from progress_site.record.importers.base import fail, fail_in, quoted
from progress_site.record.moving import old_points
from progress_site.record.pending import Pending, finish
from progress_site.record.recorder import TIME_UNITS, Refused, Suggestion, scale_time, suggest
from progress_site.record.series import series_name, series_path

NAME_MAX = 255  # bytes in a file name: ext4, APFS and NTFS take no more
TEMPORARY = 14  # what a write adds to it first: `.NAME.12345678.tmp`


def run_import(args: argparse.Namespace, today: dt.date) -> int:
    """`import FORMAT FILE`: one point per benchmark and run, into each figure's history."""
    # As the check (and a build's prepare) does: a tool's results, their points and the
    # texts to write are many small objects and no cycle, which the collector would scan
    # again and again as they grow (20,000 series: a sixth of making their points).
    with collector_paused():
        rec = DataFiles(args.source.resolve())
        display = str(args.input)
        results = read_results(args.format, args.input, display)
        if not results:
            raise Refused(f"{visible_path(display)}: no benchmark results in it")
        refuse_failed(results, display, args.allow_failed)
        pending = [series_pending(rec, args, ident, runs, today)
                   for ident, runs in by_series(results, args.prefix, display,
                                                rec.root).items()]
        return finish(rec, args, pending, today)


def by_series(results: list[Result], prefix: str, display: str, root: Path
              ) -> dict[str, list[Result]]:
    """The results of each figure, in the file's order: several runs of one benchmark (a
    history, as data.js holds) are points of one series; two benchmarks may not share
    an id."""
    series: dict[str, list[Result]] = {}
    names: dict[str, str] = {}  # the benchmark each id is made from (one, or an error)
    made: dict[tuple[str, str | None], str] = {}  # each name's id, made and judged once
    for r in results:
        ident = made.get((r.name, r.former))
        if ident is None:
            ident = made[r.name, r.former] = usable_id(r, prefix, display, root)
        # Against the first name of the id, not each of its points: a history of 100,000
        # points of one benchmark took minutes.
        other = names.setdefault(ident, r.name)
        if other != r.name:  # a prefix is the same for both: only a name tells them apart
            raise fail_in(r.places, "", display, f"benchmark {quoted(visible_path(r.name))} "
                          f"and benchmark {quoted(visible_path(other))} both make the id "
                          f"{quoted(visible_path(ident))}", "rename one of them")
        series.setdefault(ident, []).append(r)
    return series


def usable_id(r: Result, prefix: str, display: str, root: Path) -> str:
    """The id of a result's figure, refused when it is empty or too long for a file name."""
    ident = series_id(r, prefix, root)
    named = f"benchmark {quoted(visible_path(r.name))}"
    if not ident:
        raise fail_in(r.places, "", display, f"{named} makes no id: its name has no letter "
                      "a-z or digit", "pass --id PREFIX")
    if not fits(ident):
        raise fail_in(r.places, "", display, f"{named} makes an id of {len(ident)} "
                      "characters, too long for the name of its history file (at most "
                      f"{NAME_MAX - TEMPORARY} bytes)", "rename the benchmark")
    return ident


def series_id(r: Result, prefix: str, root: Path) -> str:
    """The id of a result's figure: the prefix and its name; the id its former name made
    while a history is kept under that one and none under the new (docs/ecosystem.md)."""
    ident = "-".join(filter(None, (slug(prefix), slug(r.name))))
    if r.former is None:
        return ident
    former = "-".join(filter(None, (slug(prefix), slug(r.former))))
    # A former id too long for a file name has no history to keep (and asking the system
    # about a path that long is an error, not a "no").
    kept = (fits(former) and series_path(root, former).exists()
            and not series_path(root, ident).exists())
    return former if kept else ident


def fits(ident: str) -> bool:
    """Whether an id's history file has a name the system takes (with the temporary
    suffix its writing adds)."""
    return len(series_name(ident).encode()) <= NAME_MAX - TEMPORARY


def series_pending(rec: DataFiles, args: argparse.Namespace, ident: str,
                   runs: list[Result], today: dt.date) -> Pending:
    """The points of one figure's runs, to add to its history once confirmed."""
    unit = series_unit(rec, args, ident, runs[-1])
    moved = old_points(rec, ident)
    plans = []
    suggestion = None  # the newest run's, worked out once (its quartiles sort its readings)
    for r in runs:
        prov = provenance(args, today, machine=r.machine, commit=r.commit)
        # --status, else the run's own (a run record's), else what its noise suggests.
        suggestion = None if args.status or r.status else suggestion_of(r, args.noise_limit)
        status = str(args.status or r.status or getattr(suggestion, "status", "measured"))
        require_point(status, prov)
        if prov["machine"] is not None:
            rec.declare_machine(prov["machine"], r.facts)
        known_machine(rec, prov["machine"])
        prov["date"] = when(rec, args, prov["commit"], r.date, today)
        plans.append((reading_of(args, r), prov, status))
    if unit is None:  # one unit for every point: the newest run's scale
        unit = scale_time(plans[-1][0].value, plans[-1][0].unit, None)[1]
    points = [point(reading, unit, prov, args.format, status)
              for reading, prov, status in plans]

    def shown() -> str:
        newest = printed(points[-1])
        return f"{newest} (the newest of {len(points)} runs)" if len(points) > 1 else newest

    def write(final: str) -> None:
        add_all(rec, ident, [*moved, *points], args.replace, args.stat)
        yaml_entry(rec, args, ident, args.title or runs[-1].title, entry_unit(args, points),
                   runs[-1].better)

    return Pending(f"measurements.{ident}", shown, plans[-1][2], suggestion, write)


def entry_unit(args: argparse.Namespace, points: list[dict[str, object]]) -> str | None:
    """The unit a new series' YAML entry names: none for a time, unless `--unit` chose
    it, so that pages print the series in the unit that suits its newest point (a
    lookup imported at 23.5 us that regressed to 1,977 us reads 1.977 ms); the history
    file keeps the unit its lines are written in."""
    unit = str(points[-1]["unit"])
    return unit if args.unit or unit not in TIME_UNITS else None


def series_unit(rec: DataFiles, args: argparse.Namespace, ident: str,
                r: Result) -> str | None:
    """The unit of the series: --unit, else its history's, else its YAML figure's (for a
    time), else the tool's (times in the unit that keeps the median at 1 or more)."""
    found = rec.find("measurements", ident)
    old = rec.history(ident).unit() or (recorded_unit(found[1]) if found else None)
    if args.unit:
        return str(args.unit)
    if old is not None and (old == r.unit or (old in TIME_UNITS and r.unit in TIME_UNITS)):
        return old
    return None


def known_machine(rec: DataFiles, machine: str | None) -> None:
    """A point's machine is one of `machines:` (the reader checks it again)."""
    if machine is not None and not rec.find("machines", machine) and \
            f"machines:{machine}" not in rec.declared:
        raise Refused(f"machine '{visible_path(machine)}' is not under `machines:`; add it "
                      "there (an id and a name), then import again")


def reading_of(args: argparse.Namespace, r: Result) -> Reading:
    """What a tool's result gives a point: the statistic asked for (the median by
    default), its readings and statistics, why it is to watch."""
    try:
        picked = r.pick(args.stat)
    except LookupError:
        given = ", ".join(sorted({*r.stats} - {"cv"})) or "none"
        asked = f"--stat {args.stat}: " if args.stat else ""  # else the median or the mean
        raise Refused(f"{asked}{args.format} gives no {args.stat or 'median or mean'} of "
                      f"'{visible_path(r.name)}' and no readings to compute it from "
                      f"(it gives: {given})") from None
    why = f"{r.failed}, recorded under --allow-failed" if r.failed else r.flag
    return Reading(picked, r.unit, r.samples, dict(r.stats), r.runs, why)


def suggestion_of(r: Result, noise_limit: float) -> Suggestion | None:
    """"To watch" for a run that failed (allowed) or is flagged, else what its noise says."""
    why = f"{r.failed}, recorded under --allow-failed" if r.failed else r.flag
    if why:
        return Suggestion("watch", why)
    cv, measure = r.noise()  # the quartiles sorted once, not once for each
    return suggest(cv, noise_limit, measure)


def refuse_failed(results: list[Result], display: str, allowed: bool) -> None:
    """A run the tool saw fail is no figure, unless --allow-failed says it is one."""
    failed = [r for r in results if r.failed]
    if failed and not allowed:
        raise fail(display, "; ".join(f"benchmark {quoted(visible_path(r.name))}: {r.failed}"
                                      for r in failed),
                   "fix the command and measure again, or pass --allow-failed to record "
                   "its times anyway; nothing was written")
