"""The command line of `record` and `import`: their options, and which handler runs them.

The handlers live in `record.commands`, which needs ruamel.yaml; they are named here,
not imported, so that a plain build (most runs) does not load it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
from pathlib import Path

from progress_site.characters import first_forbidden
from progress_site.errors import UsageError, visible, visible_path
from progress_site.model.figure import Status
from progress_site.record import importers
from progress_site.record.recorder import NOISE_LIMIT

STATUSES: tuple[str, ...] = Status.__args__  # type: ignore[attr-defined]
FORMATS = tuple(importers.FORMATS)
STATS = tuple(importers.base.SUMMARIES)  # what an import may keep instead (Result.pick)


def add_common(p: argparse.ArgumentParser) -> None:
    """Options of every command."""
    p.add_argument("--source", type=Path, default=argparse.SUPPRESS,
                   help="the folder that holds data/ (default: the current folder)")
    p.add_argument("--replace", action="store_true",
                   help="overwrite figures that are already recorded")
    p.add_argument("--yes", "-y", action="store_true",
                   help="accept the suggested statuses without asking")
    p.add_argument("--dry-run", action="store_true",
                   help="show the change as a diff, write nothing")
    p.add_argument("--noise-limit", type=percent, default=NOISE_LIMIT, metavar="PERCENT",
                   help="a coefficient of variation over this suggests 'Measured, to "
                        "watch' (default: %(default)s)")
    p.add_argument("--status", choices=STATUSES, help="the status to write (no question)")


def percent(text: str) -> float:
    """--cv and --noise-limit: a finite percentage, 0 or more (`--cv nan` recorded 'the
    runs vary by nan %, within 5 %')."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(
            f"expected a percentage (a number, 0 or more), got '{visible(text)}'")
    return value


def add_made(p: argparse.ArgumentParser) -> None:
    """Where and how a new measurement was made."""
    p.add_argument("--file", type=Path, help="the data file for new measurements (default: "
                   "the one with `measurements:`, else data/measurements.yaml)")
    p.add_argument("--unit", help="unit of the figure (us, ms, s, KB, ... or your own); "
                   "with --replace, a figure's unit changes only when --unit names the new one")
    p.add_argument("--machine", help="id of the machine it ran on (see machines:)")
    p.add_argument("--commit", type=commit_id,
                   help="the commit measured (declared under commits: if new); a full "
                        "SHA, such as $GITHUB_SHA, is written as its first 7 characters")
    p.add_argument("--run", help="id of the test run it comes from (see runs:)")
    p.add_argument("--date", type=day, help="YYYY-MM-DD (default: today)")


def commit_id(text: str) -> str:
    """--commit: a full SHA-1 or SHA-256 as its 7-character short id, the id the data and
    the tools' commit ids (pytest-benchmark's, asv's, data.js's) are written with, so
    that CI's $GITHUB_SHA and an imported history name one commit alike."""
    full = len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text.lower())
    return text[:7] if full else text


def day(text: str) -> dt.date:
    """--date: a day of the calendar, written YYYY-MM-DD (argparse's own message names a
    Python function, not the mistake)."""
    parts = text.split("-")
    try:
        if len(parts) != 3 or not all(p.isdigit() for p in parts) or len(parts[0]) != 4:
            raise ValueError("write it as YYYY-MM-DD, such as 2026-11-08")
        return dt.date(*map(int, parts))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(
            f"{visible(text)!r} is not a day of the calendar: {exc}") from None


def add_spread(p: argparse.ArgumentParser) -> None:
    """For figures typed in, not imported: how much their runs varied."""
    p.add_argument("--cv", type=percent, metavar="PERCENT",
                   help="the runs' coefficient of variation, to suggest a status")


def record_options(record: argparse.ArgumentParser) -> None:
    """`record measurement ID ...` and `record comparison STUDY/COMPARISON ...`."""
    kinds = record.add_subparsers(dest="kind", required=True, metavar="KIND")
    m = kinds.add_parser("measurement", help="add or update a `measurements:` entry")
    for add in (add_common, add_made, add_spread):
        add(m)
    m.add_argument("id", help="the measurement's id (`measurements.ID` in texts)")
    m.add_argument("--value", help="the number measured")
    m.add_argument("--samples", help="every reading, comma-separated, instead of --value")
    m.add_argument("--distribution", metavar="PART=N,...",
                   help="what a tool reported, instead of --value: any of p50, p90, p95, "
                        "p99, p999, min, max, mean, sd, iqr, n (`p50=16,p95=65,n=10`)")
    m.add_argument("--title", help="what was measured (for a new measurement; default: ID)")
    m.add_argument("--history", action="store_true",
                   help="add a point to data/history/measurements.ID.jsonl (the default "
                        "when that file exists), moving a YAML value there first")
    m.set_defaults(handler="run_measurement")
    c = kinds.add_parser("comparison", help="update the figures of a study's comparison")
    add_common(c)
    add_spread(c)
    c.add_argument("target", metavar="STUDY/COMPARISON")
    c.add_argument("--before", help="the number before, or a distribution "
                   "(`p50=16,p95=65,n=10`, as --distribution)")
    c.add_argument("--after", help="the number after, or a distribution")
    c.set_defaults(handler="run_comparison")


def import_options(imp: argparse.ArgumentParser) -> None:
    """`import FORMAT FILE ...`."""
    add_common(imp)
    add_made(imp)
    imp.add_argument("format", choices=FORMATS, metavar="FORMAT",
                     help=f"the tool that wrote FILE: {', '.join(FORMATS)}")
    imp.add_argument("input", type=Path, metavar="FILE")
    imp.add_argument("--id", dest="prefix", default="", metavar="PREFIX",
                     help="prefix of the measurements' ids (PREFIX-benchmark-name)")
    imp.add_argument("--title", help="the title of a new series' YAML entry (default: the "
                     "benchmark's name, when the tool gives a readable one)")
    imp.add_argument("--stat", choices=STATS,
                     help="which statistic to record (default: the median when the tool "
                          "gives one or its readings, else the mean)")
    imp.add_argument("--allow-failed", action="store_true",
                     help="record a run the tool saw fail (hyperfine's non-zero exit codes)")
    imp.set_defaults(handler="importing.run_import")


# The options whose words are written into data/ as they are typed.
WRITTEN = ("title", "unit", "machine", "commit", "run")


def refuse_hidden(args: argparse.Namespace) -> None:
    """Refuse a typed word that no page can hold, at its option: written, it was told at
    a line of a YAML file the user never wrote."""
    for option in WRITTEN:
        text = getattr(args, option, None)
        if isinstance(text, str) and (found := first_forbidden(text)):
            raise UsageError(f"--{option}: '{visible_path(text)}' holds {found}, which no "
                             "page can hold")


def run_command(args: argparse.Namespace, today: dt.date) -> int:
    """Run the handler the command named (importing `record` only now)."""
    import importlib

    if getattr(args, "date", None) is not None and args.date > today:
        raise UsageError(f"--date {args.date.isoformat()}: a day after today "
                         f"({today.isoformat()}); nothing is measured in the future, and "
                         "the build would refuse it")
    refuse_hidden(args)
    module, _, name = args.handler.rpartition(".")
    handlers = importlib.import_module(f"progress_site.record.{module or 'commands'}")
    status: int = getattr(handlers, name)(args, today)
    return status
