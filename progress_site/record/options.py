"""The command line of `record` and `import`: their options, and which handler runs them.

The handlers live in `record`, which needs ruamel.yaml; they are named here, not
imported, so that a plain build (most runs) does not pay for loading them.
"""

from __future__ import annotations

import argparse
import datetime as dt
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from progress_site.model.schema import Status

STATUSES: tuple[str, ...] = Status.__args__  # type: ignore[attr-defined]
FORMATS = ("pytest-benchmark", "hyperfine", "google-benchmark", "jsonl")
STATS = ("mean", "median", "min")  # what an import keeps of the runs (importers.summarise)
NOISE_LIMIT = 5.0  # percent: runs that vary more than this suggest "Measured, to watch"


class Commands(argparse._SubParsersAction):  # type: ignore[type-arg]
    """The COMMAND argument: `record` and `import` are listed (for --help) at once, but
    their own options are added only when a command is named. Most runs are plain
    builds, which would otherwise build seven parsers for nothing (~2 ms a build)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        assert isinstance(values, list)
        chosen = self._name_parser_map.get(values[0])
        if chosen is not None and not chosen._actions[1:]:  # only its -h yet
            OPTIONS[values[0]](chosen)
        super().__call__(parser, namespace, values, option_string)


def add_commands(parser: argparse.ArgumentParser) -> None:
    """The `record` and `import` commands, beside the plain build."""
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", action=Commands)
    commands.add_parser("record", help="add or update one figure of the data")
    commands.add_parser("import", help="turn a benchmark tool's output into measurements")


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
    p.add_argument("--noise-limit", type=float, default=NOISE_LIMIT, metavar="PERCENT",
                   help="a coefficient of variation over this suggests 'Measured, to "
                        "watch' (default: %(default)s)")
    p.add_argument("--status", choices=STATUSES, help="the status to write (no question)")


def add_made(p: argparse.ArgumentParser) -> None:
    """Where and how a new measurement was made."""
    p.add_argument("--file", type=Path, help="the data file for new measurements (default: "
                   "the one with `measurements:`, else data/measurements.yaml)")
    p.add_argument("--unit", help="unit of the figure (us, ms, s, KB, ... or your own)")
    p.add_argument("--machine", help="id of the machine it ran on (see machines:)")
    p.add_argument("--commit", help="the commit measured (declared under commits: if new)")
    p.add_argument("--run", help="id of the test run it comes from (see runs:)")
    p.add_argument("--date", type=dt.date.fromisoformat, help="YYYY-MM-DD (default: today)")


def add_spread(p: argparse.ArgumentParser) -> None:
    """For figures typed in, not imported: how much their runs varied."""
    p.add_argument("--cv", type=float, metavar="PERCENT",
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
    m.add_argument("--title", help="what was measured (for a new measurement; default: ID)")
    m.set_defaults(handler="run_measurement")
    c = kinds.add_parser("comparison", help="update the figures of a study's comparison")
    add_common(c)
    add_spread(c)
    c.add_argument("target", metavar="STUDY/COMPARISON")
    c.add_argument("--before", help="the number before")
    c.add_argument("--after", help="the number after")
    c.set_defaults(handler="run_comparison")


def import_options(imp: argparse.ArgumentParser) -> None:
    """`import FORMAT FILE ...`."""
    add_common(imp)
    add_made(imp)
    imp.add_argument("format", choices=FORMATS)
    imp.add_argument("input", type=Path, metavar="FILE")
    imp.add_argument("--id", dest="prefix", default="", metavar="PREFIX",
                     help="prefix of the measurements' ids (PREFIX-benchmark-name)")
    imp.add_argument("--stat", choices=STATS, default="mean",
                     help="which statistic to record (default: mean)")
    imp.set_defaults(handler="run_import")


OPTIONS: dict[str, Callable[[argparse.ArgumentParser], None]] = {
    "record": record_options, "import": import_options}


def run_command(args: argparse.Namespace, today: dt.date) -> int:
    """Run the handler the command named (importing `record` only now)."""
    from progress_site.record import commands as record

    status: int = getattr(record, args.handler)(args, today)
    return status
