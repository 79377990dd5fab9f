"""The end every `record` and `import` command shares: the figures about to be written
(`Pending`), each shown with its status and confirmed once, the data as edited checked as
a build would (`recorder.check`), then written all together, or refused with nothing
written."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from collections.abc import Callable
from dataclasses import dataclass

from progress_site.errors import visible, visible_path
from progress_site.record.datafiles import DataFiles
from progress_site.record.recorder import Refused, Suggestion, check, refuse

Ask = Callable[[str], str]
# Files the closing line names: an import writes a history file a benchmark, and a
# line naming them all would grow with their number. The rest are counted.
MAX_NAMED = 10
# Lines of one list (the figures, the notes) an import prints before it counts the rest:
# a file of thousands of benchmarks would print megabytes no one reads.
MAX_LINES = 20


@dataclass
class Pending:
    """One figure about to be written, and what to say about it."""

    label: str  # `measurements.parse` or `comparisons.cpu.after`
    # The number as written, with its unit; or what words it, asked only of the figures
    # printed (an import of 20,000 benchmarks prints 20).
    shown: str | Callable[[], str]
    status: str
    suggestion: Suggestion | None
    write: Callable[[str], None]  # writes the figure with the (confirmed) status


def confirm(pending: list[Pending], args: argparse.Namespace, ask: Ask | None) -> None:
    """Show each figure and its status; ask once when a status was only suggested."""
    for p in pending[:MAX_LINES]:
        why = f" ({p.suggestion.reason})" if p.suggestion else ""
        # The id, unit and status may come from a tool's file: spelled out.
        shown = p.shown if isinstance(p.shown, str) else p.shown()
        print(f"{visible_path(p.label)}: {visible_path(shown)}, status "
              f"{visible_path(p.status)}{why}")
    if len(pending) > MAX_LINES:
        # The statuses asked about below may be among those not shown: say how many.
        suggested = sum(1 for p in pending[MAX_LINES:] if p.suggestion)
        print(more_line(len(pending), "figures") + (
            f" ({suggested:,} of them with a suggested status)" if suggested else ""))
    if not any(p.suggestion for p in pending) or args.yes or args.dry_run:
        return
    if ask is None:
        print("note: no terminal to confirm on; keeping the suggested statuses (pass --yes "
              "to accept them, or --status to choose)", file=sys.stderr)
        return
    answer = ask("Write with these statuses? [Y/n] ").strip().lower()
    if answer not in ("", "y", "yes"):
        raise Refused("nothing written; pass --status to choose the status yourself")


def finish(rec: DataFiles, args: argparse.Namespace, pending: list[Pending], today: dt.date
           ) -> int:
    """Confirm, check the data as edited as the build would, then write (or show) it; a
    change the build would stop on is refused, and nothing is written."""
    interactive = sys.stdin is not None and sys.stdin.isatty()
    confirm(pending, args, input if interactive else None)
    for p in pending:
        p.write(p.status)
    if args.dry_run:
        # A diff's lines hold the data's words: each spelled out, none split in two.
        diff = rec.diff().removesuffix("\n")
        print("\n".join(map(visible, diff.split("\n"))) if diff else "nothing would change")
    edited = rec.edited()
    problems = check(rec.root, today, edited)
    for problem in problems:
        print(problem.render(), file=sys.stderr)
    if problems:
        raise refuse(problems)
    if args.dry_run:
        return 0
    written = rec.write(edited)
    for note in rec.notes[:MAX_LINES]:
        print(note)
    if len(rec.notes) > MAX_LINES:
        print(more_line(len(rec.notes), "notes"))
    figures = sum(1 for p in pending if p.label not in rec.unchanged)
    if written:
        print(f"Wrote {figures:,} figure{'s' if figures != 1 else ''} to {listed(written)}.")
    else:
        print("Nothing written: every point is recorded already.")
    print("The data is valid.")
    return 0


def more_line(count: int, what: str) -> str:
    """The line under the first MAX_LINES of a list of `count`, counting the rest."""
    return f"and {count - MAX_LINES:,} more {what}"


def listed(files: list[str]) -> str:
    """Files as the closing line names them: the first MAX_NAMED, then how many more."""
    more = len(files) - MAX_NAMED
    named = ", ".join(files[:MAX_NAMED])
    return named if more <= 0 else f"{named} and {more:,} more file{'s' if more != 1 else ''}"
