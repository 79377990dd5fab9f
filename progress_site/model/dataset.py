"""The data format of a report's datasets: records read from a file, field by field.

A dataset (under `datasets:` in a data file) names a file of records beside it and
declares their fields; `load/datasets.py` reads the records and `load/rows.py` makes
them `Row`s, derive adds the fields a `formula:` computes (derive/columns.py), and the
report blocks (tables, charts, agreement) and expressions read them.
"""

# No `from __future__ import annotations`: field types as objects (see schema.py).

import datetime as dt
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from progress_site.model.declare import Link, Unit, f, where
from progress_site.model.values import Number, Text, Where

FieldType = Literal["number", "whole", "word", "text", "date", "bool"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Choice:
    value: str = f("the word records write", example="paper")
    label: Text = f("how tables, charts and sentences name it", example="Paper")
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordField:
    name: str = f("the key records use", example="mspt")
    label: Text = f("column header, axis title", example="{en: Average tick, fr: Tick moyen}")
    type: FieldType = f("number, whole, word (one of `choices`), text, date (YYYY-MM-DD, "
                        "printed as each language writes dates) or bool", "number")
    unit: str | None = f("unit of the numbers (the dataset's, the site's or a known one)",
                         None)
    decimals: int | None = f("decimals to print; as each record wrote it when absent", None)
    choices: tuple[Choice, ...] = f("for a word: every value it may take, in display order",
                                    ())
    required: bool = f("every record gives it (unless a `note` says why not)", True)
    formula: str | None = f("computed from the record's other number fields, never given by "
                            "it: arithmetic, ratio(a, b), change(a, b)", None,
                            example="cargo / nextest")
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordNote:
    name: str = f("the word a record's `note` gives", example="watchdog")
    label: Text = f("what tables print instead of the missing figures")
    where: Where = where()


NOTE = "note"  # the one key a record may hold besides its fields (in its file, data.json)


@dataclass(frozen=True, slots=True, kw_only=True)
class Row:
    """One record of a dataset, as read from its file (not written in YAML)."""

    index: int  # its place in the file, from 0
    values: Mapping[str, Number | str | bool]  # by field name; numbers keep their decimals
    note: str | None = None  # the name of one of the dataset's notes
    where: Where = where()

    def __post_init__(self) -> None:
        # Read-only, like the rest of the model.
        if not isinstance(self.values, MappingProxyType):
            object.__setattr__(self, "values", MappingProxyType(self.values))

    def get(self, name: str) -> Number | str | bool | None:
        """The value of one field, or None when the record does not give it."""
        return self.values.get(name)


@dataclass(frozen=True, slots=True, kw_only=True)
class Dataset:
    id: str = f("name used by blocks and expressions (`runs[bots=1].mspt`)")
    title: Text = f("what the records are; the default caption of its tables")
    records: str = f("the records' file, beside this one: .jsonl (one JSON object a line), "
                     ".json or .yaml (a list)", example="runs.jsonl")
    fields: tuple[RecordField, ...] = f("every key a record may have, one by one")
    key: tuple[str, ...] = f("fields that tell records apart (no two records share them)",
                             ())
    notes: tuple[RecordNote, ...] = f("what a record's `note` may say", ())
    units: tuple[Unit, ...] = f("units of its own, with their singular and plural", ())
    machine: str | None = f("the machine the records were measured on", None,
                            ref="machines")
    date: dt.date | None = f("when they were measured", None)
    method: Text | None = f("how they were measured", None)
    proof: Link | None = f("where the raw results are", None)
    rows: tuple[Row, ...] = field(default=(), kw_only=True, compare=False, repr=False,
                                  metadata={"internal": True})
    where: Where = where()


def records_path(ds: Dataset) -> str:
    """The records' file as errors print it: beside the file that declares the dataset
    (loading reads it there, the agreement block names it)."""
    folder = posixpath.dirname(ds.where.location.file)
    return posixpath.normpath(posixpath.join(folder, ds.records))
