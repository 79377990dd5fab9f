"""A dataset's records as `Row`s, each checked against its declared fields like the YAML
data, at its line and column (docs/data-format.md, "Datasets"). A record with a `note`
may lack figures; a `null` value is an absent one; a field with a `formula:` is computed
while deriving (derive/columns.py), never given by a record.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from progress_site.errors import KeyPath, Problem, did_you_mean
from progress_site.load.document import Document
from progress_site.load.jsonfiles import BROKEN, Huge
from progress_site.load.places import Places
from progress_site.load.wording import describe, found, unmeasurable
from progress_site.model.dataset import NOTE, Dataset, RecordField, Row
from progress_site.model.limits import too_long
from progress_site.model.values import Number, Where

DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def convert_rows(ds: Dataset, doc: Document) -> tuple[tuple[Row, ...], list[Problem]]:
    """Every record checked against the declared fields; the records without error.
    Reading stops (`doc.unread`) at MAX_SHOWN problems."""
    problems: list[Problem] = []
    rows = []
    seen: dict[tuple[Any, ...], int] = {}
    fields = {f.name: f for f in ds.fields}
    for index, raw in enumerate(doc.data or []):
        path: KeyPath = ("records", index)
        if raw is BROKEN:
            continue
        if doc.read_no_further(problems, path):  # before where parsing stopped, if it did
            break
        if not isinstance(raw, dict):
            problems.append(doc.problem(path, f"expected a record {{name: value, ...}}, got "
                                              f"{found(raw)}"))
            continue
        row, found_here = convert_row(ds, fields, doc, raw, path, index)
        problems += found_here
        if row is None:
            continue
        identity = tuple(_plain(row.get(k)) for k in ds.key)
        if ds.key and identity in seen:
            spelled = ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                                for k, v in zip(ds.key, identity, strict=True))
            first = doc.locate(("records", seen[identity]))
            problems.append(doc.problem(path, f"a second record with {spelled} (the first is "
                                              f"at line {first.line})", "keep one run per "
                                              "key, or add the field that tells them apart "
                                              "to `key:`"))
        seen.setdefault(identity, index)
        rows.append(row)
    return tuple(rows), problems


def convert_row(ds: Dataset, fields: dict[str, RecordField], doc: Document,
                raw: dict[str, Any], path: KeyPath, index: int
                ) -> tuple[Row | None, list[Problem]]:
    """One record: known keys only (`fields`: the dataset's, by name), each value of its
    field's type, nothing required lacking."""
    notes = [n.name for n in ds.notes]
    out = []
    values: dict[str, Number | str | bool] = {}
    note = raw.get(NOTE)
    if note is not None and note not in notes:
        out.append(doc.problem((*path, NOTE), f"unknown note {found(note)}",
                               did_you_mean(str(note), notes) if notes else
                               "declare it under the dataset's `notes:`"))
    for key, value in raw.items():
        if key == NOTE or value is None:
            continue
        if key not in fields:
            out.append(doc.problem((*path, key), f"unknown field '{key}'",
                                   did_you_mean(key, fields), key=True))
            continue
        if fields[key].formula is not None:
            out.append(doc.problem((*path, key), f"{key} is computed by its formula "
                                   f"({fields[key].formula}), not given by a record",
                                   f"leave \"{key}\" out of the records", key=True))
            continue
        converted = convert_value(fields[key], value, doc, (*path, key))
        if isinstance(converted, Problem):
            out.append(converted)
        else:
            values[key] = converted
    for fld in ds.fields:
        needed = (fld.required and note is None and fld.formula is None) or fld.name in ds.key
        if needed and raw.get(fld.name) is None:
            out.append(doc.problem(path, f"missing field '{fld.name}' "
                                         f"({fld.label.get('en')})",
                                   f"add \"{fld.name}\": ..., or a \"note\" that says why "
                                   "the record has no figures" if fld.name not in ds.key
                                   else f"add \"{fld.name}\": ... (it is part of the key)"))
    if out:
        return None, out
    # Each field's place is looked up when a problem asks for it (most rows have none).
    where = Where(doc.locate(path), path, Places(doc, path, raw))
    return Row(index=index, values=values, note=note, where=where), []


def convert_value(fld: RecordField, value: Any, doc: Document, path: KeyPath
                  ) -> Number | str | bool | Problem:
    """A value of the field's type, or the problem with it."""
    if fld.type in ("number", "whole"):
        wanted: Any = Number if fld.type == "number" else int
        if isinstance(value, Huge):
            return doc.problem(path, f"{value!r} is too large to be a measurement",
                               "check the number of digits")
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not ok or (fld.type == "whole" and not float(value).is_integer()):
            return doc.problem(path, f"expected {describe(wanted)}, got {found(value)}",
                               "write the number alone, without quotes; the field's unit "
                               "is declared once, in its `unit:`")
        if value != value or abs(value) == float("inf"):
            return doc.problem(path, f"expected a finite number, got {found(value)}",
                               "leave the field out, and give the record a `note` saying why")
        raw = None if fld.type == "whole" else doc.raw.get(path)  # a whole's decimals: 0
        wrong = unmeasurable(value, raw)
        if wrong is not None:
            return doc.problem(path, *wrong)
        return Number(float(value), 0) if fld.type == "whole" else Number.of(value, raw)
    if fld.type == "bool":
        if isinstance(value, bool):
            return value
        return doc.problem(path, f"expected true or false, got {found(value)}")
    if fld.type == "date":
        return record_date(value, doc, path)
    if not isinstance(value, str):
        return doc.problem(path, f"expected a text, got {found(value)}",
                           "write it in quotes")
    wrong = too_long(value)  # a page prints it, data.json holds it: as a data file's text
    if wrong is not None:
        return doc.problem(path, *wrong)
    choices = [c.value for c in fld.choices]
    if choices and value not in choices:
        return doc.problem(path, f"expected one of {', '.join(choices)}; got {found(value)}",
                           did_you_mean(value, choices, otherwise=f"declare '{value}' under "
                                        "the field's `choices:` if it is new"))
    return value


def record_date(value: Any, doc: Document, path: KeyPath) -> str | Problem:
    """A date field's value as its day, `2026-11-03` (ISO: it sorts and selects as a
    text does): a YAML date, or a text of that form, which is all JSON can write."""
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, str) and DAY.fullmatch(value):
        try:
            return dt.date.fromisoformat(value).isoformat()
        except ValueError:
            pass
    return doc.problem(path, f"expected a date, got {found(value)}",
                       "write the day as YYYY-MM-DD: 2026-11-03")


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Number) else value
