"""What a block line gives (`{{< table runs rows=bots columns=mspt,p99 >}}`), read and checked.

Blocks that compute from a dataset read their options through `Options`, so every
block reports the same way a name it does not know, a number it cannot read or out of
its range (`RANGES`), or a field the dataset does not have.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from types import MappingProxyType

from progress_site.charts.spec import MAX_SIZE, MIN_SIZE
from progress_site.errors import did_you_mean
from progress_site.model.dataset import Dataset, RecordField
from progress_site.model.limits import LARGEST, MAX_DECIMALS

TRUE, FALSE = ("true", "yes", "on"), ("false", "no", "off")
ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")  # an id in the page, like a chart's
MAX_WRITTEN = 40  # characters of a number option: more is no number a block can use
LARGEST_WORDS = f"10^{len(str(LARGEST)) - 1}"  # LARGEST as a message writes it


@dataclass(frozen=True, slots=True)
class Range:
    """What a number option may be: its ends, whether it is whole, and how it reads."""

    low: Decimal
    high: Decimal
    whole: bool = False
    words: str = ""  # the range as a message says it


# Every number option of every block, with its range (any other: ANY_NUMBER): what falls
# outside would draw a chart no browser can hold (see charts/spec.py), or ask for a check
# that means nothing.
ANY_NUMBER = Range(Decimal(-LARGEST), Decimal(LARGEST),
                   words=f"a number from -{LARGEST_WORDS} to {LARGEST_WORDS}")
RANGES = MappingProxyType({
    "width": Range(Decimal(MIN_SIZE), Decimal(MAX_SIZE), True,
                   f"whole pixels from {MIN_SIZE} to {MAX_SIZE}"),
    "height": Range(Decimal(MIN_SIZE), Decimal(MAX_SIZE), True,
                    f"whole pixels from {MIN_SIZE} to {MAX_SIZE}"),
    "rule": ANY_NUMBER,
    "tolerance": Range(Decimal(0), Decimal(1), words="a share from 0% to 100%"),
    "floor": Range(Decimal(0), Decimal(LARGEST), words=f"a number from 0 to {LARGEST_WORDS}"),
})
# The options of the engine's blocks whose templates read `options` themselves (the
# others read them through `Options`, and `legend` and `measurements` check theirs with
# `only_known`): any other is a slip.
OWN_OPTIONS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "bars": (), "budget": (), "comparisons": ("trends",), "dashboard": ("group",),
    "headlines": (), "machines": (), "profiles": (), "roadmap": (), "roadmaps": (),
    "run": (), "series": (), "versions": (),
})


class BlockError(Exception):
    """A block names something the data does not have, or an option it cannot use."""

    def __init__(self, message: str, hint: str = "", told: bool = False) -> None:
        super().__init__(message)
        self.hint = hint
        # What it names failed as the data loaded, and was told there: not again here.
        self.told = told


def only_known(block: str, options: Iterable[str], known: Iterable[str]) -> None:
    """A BlockError for the first option the block does not know."""
    known = list(known)
    for name in options:
        if name not in known:
            raise BlockError(f"{block}: unknown option '{name}'",
                             did_you_mean(name, known, "known options"))


class Options:
    """A block's key=value options, read for one dataset; unknown options are errors."""

    def __init__(self, block: str, options: Mapping[str, str], dataset: Dataset,
                 known: Iterable[str]) -> None:
        self.block, self.options, self.dataset = block, dict(options), dataset
        self.fields = {f.name: f for f in dataset.fields}
        only_known(block, self.options, known)

    def text(self, name: str, default: str = "") -> str:
        """An option as written (words in the page's language, an id)."""
        written = self.options.get(name, default)
        if name == "id" and not ID.fullmatch(written):
            raise BlockError(f"{self.block} id=: '{written[:40]}' cannot be an id",
                             "use letters, digits, '-' and '_', starting with a letter")
        return written

    def field(self, name: str, default: str | None = None, *, numeric: bool = False
              ) -> RecordField:
        """A field of the dataset named by an option."""
        value = self.options.get(name, default)
        if value is None:
            raise BlockError(f"{self.block}: give `{name}=FIELD`",
                             "fields: " + ", ".join(self.fields))
        return self.named(value, name, numeric=numeric)

    def named(self, value: str, option: str, *, numeric: bool = False) -> RecordField:
        """One field by its name, checked."""
        if value not in self.fields:
            raise BlockError(f"{self.block} {option}=: {self.dataset.id} has no field "
                             f"'{value}'", did_you_mean(value, self.fields, "known fields"))
        fld = self.fields[value]
        if numeric and fld.type not in ("number", "whole"):
            raise BlockError(f"{self.block} {option}=: {value} holds words, not numbers",
                             "name a number field")
        return fld

    def field_list(self, name: str, default: Iterable[str] = (), *, numeric: bool = False
                   ) -> tuple[RecordField, ...]:
        """Fields named by a comma-separated option (`columns=mspt,p95,p99`)."""
        written = self.options.get(name)
        names = [n.strip() for n in written.split(",") if n.strip()] if written else list(
            default)
        if not names:
            raise BlockError(f"{self.block}: give `{name}=FIELD,FIELD,...`",
                             "fields: " + ", ".join(self.fields))
        return tuple(self.named(n, name, numeric=numeric) for n in names)

    def number(self, name: str, default: Decimal | None = None) -> Decimal | None:
        """A number option, within its range (`RANGES`); `10%` is read as 0.10."""
        written = self.options.get(name)
        if written is None:
            return default
        value = self.decimal(name, written)
        allowed = RANGES.get(name, ANY_NUMBER)
        if not allowed.low <= value <= allowed.high or (
                allowed.whole and value != value.to_integral_value()):
            raise BlockError(f"{self.block} {name}=: expected {allowed.words}, got "
                             f"'{written}'", "write a number in that range")
        return value

    def decimal(self, name: str, written: str) -> Decimal:
        """A number option as written: finite, of few digits; `10%` is 0.10."""
        shown = written if len(written) <= MAX_WRITTEN else written[:MAX_WRITTEN] + "..."
        try:
            value = Decimal(written.removesuffix("%").strip())
        except InvalidOperation:
            value = Decimal("NaN")
        if len(written) > MAX_WRITTEN or not value.is_finite():
            raise BlockError(f"{self.block} {name}=: expected a number, got '{shown}'",
                             "write it like 50, 0.5 or 10%")
        exponent = value.as_tuple().exponent
        if isinstance(exponent, int) and exponent < -MAX_DECIMALS:
            raise BlockError(f"{self.block} {name}=: {-exponent} decimals is more than a "
                             "number can tell", f"round it to {MAX_DECIMALS} decimals or fewer")
        return value / 100 if written.endswith("%") else value

    def flag(self, name: str, default: bool) -> bool:
        """A yes/no option."""
        written = self.options.get(name)
        if written is None:
            return default
        if written.lower() not in TRUE + FALSE:
            raise BlockError(f"{self.block} {name}=: expected true or false, got '{written}'")
        return written.lower() in TRUE

    def choice(self, name: str, options: tuple[str, ...]) -> str:
        """One of a few words; the first is the default."""
        written = self.options.get(name, options[0])
        if written not in options:
            raise BlockError(f"{self.block} {name}=: expected one of {', '.join(options)}, "
                             f"got '{written}'", did_you_mean(written, options, "known values"))
        return written
