"""What recording owns: the noise limit and the status it suggests, the numbers as typed,
and the check that the data, as edited, still builds before anything is written.

Nothing here reads YAML for editing (that is `yamledit`, with ruamel.yaml): the command
line builds its options from this module on every run, plain builds included.
"""

from __future__ import annotations

import datetime as dt
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from types import MappingProxyType

from progress_site.collector import collector_paused
from progress_site.errors import BuildFailed, Problem, UsageError, shorten, visible_path
from progress_site.model.limits import LARGEST, MAX_DECIMALS, in_range
from progress_site.model.units import TIME_POWERS, fitting_time_unit

NOISE_LIMIT = 5.0  # percent: runs that vary more than this suggest "Measured, to watch"
TIME_UNITS: Mapping[str | None, Decimal] = MappingProxyType(
    {unit: Decimal(1).scaleb(power) for unit, power in TIME_POWERS.items()})
NUMBER_KEYS = ("value", "range", "samples", "distribution", "ok", "of")


class Raw(str):
    """A number written exactly as given (`12.50` keeps its two decimals)."""


class Refused(UsageError):
    """Writing would overwrite a figure, break the data, or the user said no: nothing
    was written."""

    exit_code = 1


@dataclass(frozen=True)
class Suggestion:
    """The status the noise of a run suggests, and why."""

    status: str
    reason: str


CV = "coefficient of variation"


def suggest(cv: float | None, limit: float = NOISE_LIMIT, measure: str = CV
            ) -> Suggestion | None:
    """`watch` when the relative noise is over `limit` percent, naming what it was
    measured by (`measure`); None if unknown."""
    if cv is None:
        return None
    percent = cv * 100
    if percent > limit:
        return Suggestion("watch", f"the runs vary by {percent:.1f} % ({measure}), "
                                   f"over {limit:g} %")
    return Suggestion("measured", f"the runs vary by {percent:.1f} %, within {limit:g} %")


def parse_number(text: str, what: str) -> Raw:
    """A number as the user typed it (`12.50` keeps its decimals), never in e-notation.
    Blanks around it are refused, as YAML refuses `value: " 1"` (a list's items, split at
    its commas, are stripped by the caller, as in YAML's `[1, 2]`); `1_000` is read as
    YAML reads it, 1000."""
    if text != text.strip() and text.strip():
        raise UsageError(f"{what}: {text!r} has blanks around the number; write it "
                         f"alone: {what} {shorten(text.strip(), 40)}")
    try:
        if text.lstrip("+-").startswith("_"):  # YAML reads `_1` as a text
            raise InvalidOperation
        value = Decimal(text.replace("_", ""))
    except InvalidOperation:
        raise UsageError(f"{what}: expected a number, got {text!r}") from None
    if not value.is_finite():
        raise UsageError(f"{what}: expected a finite number, got {text!r}")
    # Before it is written out: 1e99999999 is a hundred million digits, printed and then
    # checked as YAML, and the command never ended.
    if value.adjusted() >= len(str(LARGEST)) or not in_range(value):  # no arithmetic on
        # a number of a hundred million digits: Decimal's context would overflow
        raise UsageError(f"{what}: {shorten(text.strip(), 40)} is larger than a page prints "
                         f"({LARGEST:.0e})")
    if -value.as_tuple().exponent > MAX_DECIMALS:  # type: ignore[operator]  # finite
        raise UsageError(f"{what}: {shorten(text.strip(), 40)} has more than {MAX_DECIMALS} "
                         "decimals; round it")
    return Raw(format(value, "f"))


def scale_time(value: Decimal, unit: str | None, wanted: str | None) -> tuple[Decimal, str | None]:
    """A duration in `wanted`, or in the largest unit that keeps it at 1 or more."""
    if unit not in TIME_UNITS:
        if wanted not in (None, unit):
            raise UsageError(f"--unit {visible_path(wanted or '')}: the results are in "
                             f"{visible_path(unit) if unit else 'no unit'}, which converts "
                             "to no other unit")
        return value, unit
    seconds = value * TIME_UNITS[unit]
    if wanted is None:
        wanted = fitting_time_unit(seconds)
    if wanted not in TIME_UNITS:
        raise UsageError(f"--unit {visible_path(wanted)}: a duration converts to ns, us, "
                         "ms or s")
    return seconds / TIME_UNITS[wanted], wanted


def keep_unit(label: str, where: str, old: str | None, new: str | None,
              on_purpose: bool) -> None:
    """Refuse a replacement that would change a figure's unit unless --unit asked for it:
    `players` silently becoming `ms` makes every comparison with the old figure wrong."""
    if on_purpose or (old or None) == (new or None):
        return
    def option(unit: str | None) -> str:
        return f"--unit {visible_path(shlex.quote(unit or ''))}"

    how = (f"pass {option(new)} to change it on purpose" if new else
           f"pass {option(old)} to keep it, or {option(None)} to drop it on purpose")
    raise Refused(f"{label} is recorded in {visible_path(old) if old else 'no unit'} "
                  f"({where}), the new figure in {visible_path(new) if new else 'no unit'}: "
                  f"refusing to change its unit; {how}")


def check(root: Path, today: dt.date, edited: Mapping[Path, str]) -> list[Problem]:
    """The errors a build would stop on (load, validate, derive, the pages' references)
    if the `edited` texts were written; they are not, nor is anything else (no site,
    no cache)."""
    # Here, not above: every command line reads NOISE_LIMIT, and a build or `--help`
    # has no use for a second way into the stages.
    from progress_site.derive.derived import derived, with_source_lines
    from progress_site.render.located import page_references

    # As a build's prepare does: these stages make many objects and no cycles.
    with collector_paused():
        try:
            found = derived(root, today, False, edited)
        except BuildFailed as failed:
            return [p for p in failed.problems if not p.warning]
        # The pages cite parts of figures (`.p999`) that a new figure may not give; they
        # are checked past the data's errors, as a build checks them.
        problems = found.problems + with_source_lines(
            page_references(found.model, found.source.pages), root, found.source.documents)
    return sorted((p for p in problems if not p.warning), key=Problem.sort_key)


def refuse(problems: list[Problem]) -> Refused:
    """The refusal of a change that would leave the data failing to build."""
    count = f"{len(problems)} error{'s' if len(problems) != 1 else ''}"
    return Refused(f"nothing written: the data as changed would not build ({count}, above)")
