"""The command line of `record` and `import`: their options, and which handler runs them.

The handlers live in `record`, which needs ruamel.yaml; they are named here, not
imported, so that a plain build (most runs) does not pay for loading them.
"""

from __future__ import annotations

import argparse
import datetime as dt
from pathlib import Path

from .schema import Status

STATUSES: tuple[str, ...] = Status.__args__  # type: ignore[attr-defined]
FORMATS = ("pytest-benchmark", "hyperfine", "google-benchmark", "jsonl")
STATS = ("mean", "median", "min")  # what an import keeps of the runs (importers.summarise)
NOISE_LIMIT = 5.0  # percent: runs that vary more than this suggest "Measured, to watch"


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The `record` and `import` commands, beside the plain build."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--source", type=Path, default=argparse.SUPPRESS,
                        help="the folder that holds data/ (default: the current folder)")
    common.add_argument("--replace", action="store_true",
                        help="overwrite figures that are already recorded")
    common.add_argument("--yes", "-y", action="store_true",
                        help="accept the suggested statuses without asking")
    common.add_argument("--dry-run", action="store_true",
                        help="show the change as a diff, write nothing")
    common.add_argument("--noise-limit", type=float, default=NOISE_LIMIT, metavar="PERCENT",
                        help="a coefficient of variation over this suggests 'Measured, to "
                             "watch' (default: %(default)s)")
    common.add_argument("--status", choices=STATUSES, help="the status to write (no question)")
    made = argparse.ArgumentParser(add_help=False)
    made.add_argument("--file", type=Path, help="the data file for new measurements (default: "
                      "the one with `measurements:`, else data/measurements.yaml)")
    made.add_argument("--unit", help="unit of the figure (us, ms, s, KB, ... or your own)")
    made.add_argument("--machine", help="id of the machine it ran on (see machines:)")
    made.add_argument("--commit", help="the commit measured (declared under commits: if new)")
    made.add_argument("--run", help="id of the test run it comes from (see runs:)")
    made.add_argument("--date", type=dt.date.fromisoformat, help="YYYY-MM-DD (default: today)")
    spread = argparse.ArgumentParser(add_help=False)  # for figures typed in, not imported
    spread.add_argument("--cv", type=float, metavar="PERCENT",
                        help="the runs' coefficient of variation, to suggest a status")

    record = commands.add_parser("record", help="add or update one figure of the data")
    kinds = record.add_subparsers(dest="kind", required=True, metavar="KIND")
    m = kinds.add_parser("measurement", parents=[common, made, spread],
                         help="add or update a `measurements:` entry")
    m.add_argument("id", help="the measurement's id (`measurements.ID` in texts)")
    m.add_argument("--value", help="the number measured")
    m.add_argument("--samples", help="every reading, comma-separated, instead of --value")
    m.add_argument("--title", help="what was measured (for a new measurement; default: ID)")
    m.set_defaults(handler="run_measurement")
    c = kinds.add_parser("comparison", parents=[common, spread],
                         help="update the figures of a study's comparison")
    c.add_argument("target", metavar="STUDY/COMPARISON")
    c.add_argument("--before", help="the number before")
    c.add_argument("--after", help="the number after")
    c.set_defaults(handler="run_comparison")

    imp = commands.add_parser("import", parents=[common, made],
                              help="turn a benchmark tool's output into measurements")
    imp.add_argument("format", choices=FORMATS)
    imp.add_argument("input", type=Path, metavar="FILE")
    imp.add_argument("--id", dest="prefix", default="", metavar="PREFIX",
                     help="prefix of the measurements' ids (PREFIX-benchmark-name)")
    imp.add_argument("--stat", choices=STATS, default="mean",
                     help="which statistic to record (default: mean)")
    imp.set_defaults(handler="run_import")


def run_command(args: argparse.Namespace, today: dt.date) -> int:
    """Run the handler the command named (importing `record` only now)."""
    from . import record

    status: int = getattr(record, args.handler)(args, today)
    return status
