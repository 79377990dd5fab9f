"""What a block line gives (`{{< table runs rows=bots columns=mspt,p99 >}}`), read and checked.

Blocks that compute from a dataset read their options through `Options`, so every
block reports the same way a name it does not know, a number it cannot read, or a field
the dataset does not have.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal, InvalidOperation

from progress_site.errors import closest
from progress_site.model.dataset import Dataset, RecordField

TRUE, FALSE = ("true", "yes", "on"), ("false", "no", "off")


class BlockError(Exception):
    """A block names something the data does not have, or an option it cannot use."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint


def close_to(name: str, known: Iterable[str], what: str) -> str:
    """A 'did you mean' hint, or the list of what is known."""
    known = list(known)
    close = closest(name, known)
    return f"did you mean '{close}'?" if close else f"known {what}: {', '.join(known)}"


class Options:
    """A block's key=value options, read for one dataset; unknown options are errors."""

    def __init__(self, block: str, options: Mapping[str, str], dataset: Dataset,
                 known: Iterable[str]) -> None:
        self.block, self.options, self.dataset = block, dict(options), dataset
        self.fields = {f.name: f for f in dataset.fields}
        known = list(known)
        for name in self.options:
            if name not in known:
                raise BlockError(f"{block}: unknown option '{name}'",
                                 close_to(name, known, "options"))

    def text(self, name: str, default: str = "") -> str:
        """An option as written (words in the page's language, an id)."""
        return self.options.get(name, default)

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
                             f"'{value}'", close_to(value, self.fields, "fields"))
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
        """A number option; `10%` is read as 0.10."""
        written = self.options.get(name)
        if written is None:
            return default
        try:
            if written.endswith("%"):
                return Decimal(written[:-1].strip()) / 100
            return Decimal(written)
        except InvalidOperation:
            raise BlockError(f"{self.block} {name}=: expected a number, got '{written}'",
                             "write it like 50, 0.5 or 10%") from None

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
                             f"got '{written}'", close_to(written, options, "values"))
        return written
