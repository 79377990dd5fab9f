"""The `table` block: a dataset's records as an accessible table, in one language.

    {{< table DATASET rows=F,F columns=F,F,... sort=F,F group=F caption="..." id=... >}}

A table has one row per record: the `rows` fields (the dataset's key by default) head it,
as row headers, and the `columns` follow (every other field by default), each header
with its unit. Numbers are printed in the page's language with the field's decimals. A
record with a note and none of the columns shows its note across them; one with a note
and figures shows it on a row of its own below. `sort` orders the records (numbers
rising, words in the order of their choices; the file's order otherwise), and `group`
starts a new row group whenever that field changes. `Tables` also lends its helpers
(headers, values, notes) to the other blocks of records.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from progress_site.errors import did_you_mean
from progress_site.model.dataset import Dataset, RecordField, Row
from progress_site.render import formatting
from progress_site.render.blocks.options import BlockError, Options
from progress_site.render.words import Words


@dataclass(frozen=True, slots=True)
class Cell:
    text: str  # '' when the record does not give it
    numeric: bool


@dataclass(frozen=True, slots=True)
class TableRow:
    heads: tuple[str, ...]
    cells: tuple[Cell, ...]
    note: Markup | None  # printed across the cells when `noted`, else under the row
    noted: bool


@dataclass(frozen=True, slots=True)
class TableView:
    id: str
    caption: Markup
    heads: tuple[str, ...]  # headers of the row-heading columns
    columns: tuple[str, ...]
    numeric: tuple[bool, ...]  # per column: numbers align right
    groups: tuple[tuple[TableRow, ...], ...]


def ordered(rows: Sequence[Row], fields: Sequence[RecordField]) -> list[Row]:
    """Records sorted by fields: numbers rising, words in the order of their choices."""
    orders = [_places([c.value for c in fld.choices]) for fld in fields]

    def rank(row: Row) -> tuple[Any, ...]:
        out: list[Any] = []
        for fld, order in zip(fields, orders, strict=True):
            value = plain(row.get(fld.name))
            out.append((value is None, order.get(value, 0) if isinstance(value, str) else 0,
                        value if isinstance(value, float) else str(value)))
        return tuple(out)

    return sorted(rows, key=rank)


def _places(values: list[str]) -> dict[str, int]:
    """Where each value first comes in a list (what list.index says, found once)."""
    places: dict[str, int] = {}
    for i, value in enumerate(values):
        places.setdefault(value, i)
    return places


def plain(value: Any) -> Any:
    """A record's value as a plain Python value (a number loses its written decimals)."""
    return float(value) if value is not None and not isinstance(value, (str, bool)) else value


class Tables:
    """The table blocks of one language."""

    def __init__(self, words: Words, datasets: Mapping[str, Dataset],
                 unread: bool = False) -> None:
        # `unread`: the datasets' ids could not all be read (told as the data loaded), so
        # a name none of them has may be one of those.
        self.w, self.datasets, self.unread = words, datasets, unread

    def dataset(self, args: Sequence[str], block: str) -> Dataset:
        """The dataset a block names first."""
        if not args:
            raise BlockError(f"{block}: name the dataset first", "known datasets: "
                             + ", ".join(self.datasets))
        if args[0] not in self.datasets:
            raise BlockError(f"no dataset '{args[0]}' in the data",
                             did_you_mean(args[0], self.datasets, "known datasets"),
                             told=self.unread)
        return self.datasets[args[0]]

    def header(self, fld: RecordField) -> str:
        """A column header: the field's label and its unit (`P99 (ms)`)."""
        label = fld.label.get(self.w.lang)
        if fld.unit is None:
            return label
        return f"{label} ({self.unit(fld.unit)})"

    def named(self, ds: Dataset, shown: Sequence[RecordField],
              every: Sequence[RecordField]) -> Markup:
        """What a block of a dataset is called without a caption of its own: the dataset's
        title, and the fields it shows when they are not `every` one (`Runs (MSPT and
        P95)`): two tables or checks of one dataset on a page are two regions, which a
        screen reader lists by name, and each must have its own."""
        title = self.w.text(ds.title)
        if [f.name for f in shown] == [f.name for f in every]:
            return title
        fields = formatting.word_list([f.label.get(self.w.lang) for f in shown], self.w.lang)
        return Markup("{} ({})").format(title, fields)

    def unit(self, unit: str) -> str:
        """A unit alone, as this language writes it after a number (`Go`, `chunks/s`)."""
        return formatting.unit_words(2, 0, unit, self.w.lang, self.w.units)

    def value(self, fld: RecordField, value: Any) -> str:
        """One record's value, as this language prints it in a table."""
        if value is None:
            return ""
        if isinstance(value, bool):
            return self.w._("yes") if value else self.w._("no")
        if fld.type == "date" and isinstance(value, str):
            return self.w.date(dt.date.fromisoformat(value))
        if isinstance(value, str):
            # A word field has a handful of choices: looked through, not indexed.
            return next((c.label.get(self.w.lang) for c in fld.choices if c.value == value),
                        value)
        decimals = fld.decimals if fld.decimals is not None else value.decimals
        return self.w.number(float(value), decimals)

    def note(self, ds: Dataset, row: Row) -> Markup | None:
        """The words of a record's note."""
        if row.note is None:  # most records
            return None
        labels = {n.name: n.label for n in ds.notes}
        return self.w.text(labels[row.note]) if row.note in labels else None

    def table(self, args: Sequence[str], options: dict[str, str]) -> TableView:
        """The `table` block."""
        ds = self.dataset(args, "table")
        opts = Options("table", options, ds, ("rows", "columns", "sort", "group", "caption",
                                              "id"))
        heads = opts.field_list("rows", ds.key or (ds.fields[0].name,))
        names = {f.name for f in heads}
        columns = opts.field_list("columns", [f.name for f in ds.fields
                                              if f.name not in names])
        numbers = tuple(f.type in ("number", "whole") for f in columns)
        group = opts.field("group", "") if opts.text("group") else None
        records = ordered(ds.rows, opts.field_list("sort")) if opts.text("sort") else ds.rows
        rows: list[TableRow] = []
        groups: list[tuple[TableRow, ...]] = []
        last: Any = object()
        for row in records:
            if group is not None and plain(row.get(group.name)) != last and rows:
                groups.append(tuple(rows))
                rows = []
            last = plain(row.get(group.name)) if group else None
            cells = tuple(Cell(self.value(f, row.get(f.name)), numeric)
                          for f, numeric in zip(columns, numbers, strict=True))
            noted = not any(c.text for c in cells)
            rows.append(TableRow(tuple(self.value(f, row.get(f.name)) for f in heads), cells,
                                 self.note(ds, row), noted))
        if rows:
            groups.append(tuple(rows))
        default = [f for f in ds.fields if f.name not in names]
        caption = Markup(self.w.inline(opts.text("caption"))) if opts.text("caption") else (
            self.named(ds, columns, default))
        return TableView(opts.text("id", f"table-{ds.id}-{columns[0].name}"), caption,
                         tuple(self.header(f) for f in heads),
                         tuple(self.header(f) for f in columns), numbers, tuple(groups))

def spell(value: Any) -> str:
    """A record's value as an error message writes it (`10`, not `10.0`)."""
    value = plain(value)
    return f"{value:g}" if isinstance(value, float) else str(value)
