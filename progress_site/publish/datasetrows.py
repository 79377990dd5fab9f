"""A dataset's records in data.json, and as the change summary names and prints them.

data.json writes each dataset's records under `rows`, one object a record, as its file
gave it (computed fields filled in, `note` when it has one), so that the summary of a
build can tell which records an edit changed: `four-way[bots=1, server=paper]` (the
record's key fields, as expressions select it), or `four-way #3` for a dataset without
`key:`. The old side is an untrusted file: anything but the shapes written here is a
ValueError, which the summary takes for "not a data.json a build published".
"""

from __future__ import annotations

import math
from typing import Any

from progress_site.model.dataset import NOTE, Dataset
from progress_site.model.values import plain

SCALAR = (str, int, float, bool)
Records = dict[str, dict[str, str]]  # record name -> field -> printed value
# A record's fields and the dataset's id are printed whole; past this, a file no build
# wrote (the old side may be any file).
MAX_TEXT = 200


def dataset_rows(ds: Dataset) -> list[dict[str, Any]]:
    """A dataset's records as data.json writes them, in their file's order: each field's
    value, and the record's note if any."""
    return [{name: plain(value) for name, value in row.values.items()}
            | ({NOTE: row.note} if row.note is not None else {}) for row in ds.rows]


def printed(value: Any, unit: str | None) -> str:
    """A record's value as the summary prints it: `13.7 ms`, `paper`, `true`."""
    if type(value) not in SCALAR or (type(value) is float and not math.isfinite(value)):
        raise ValueError("a record's value is a number, a word or true/false")
    if type(value) is bool:
        return "true" if value else "false"
    text = str(value)
    if len(text) > MAX_TEXT:
        raise ValueError("a record's value is longer than a build writes")
    return f"{text} {unit}" if unit and type(value) is not str else text


def units_of(fields: Any) -> dict[str, str | None]:
    """Each field's unit, by name, from a dataset's `fields` as data.json writes them."""
    if type(fields) is not list:
        raise ValueError("a dataset's fields are a list")
    out: dict[str, str | None] = {}
    for fld in fields:
        if type(fld) is not dict or type(fld.get("name")) is not str:
            raise ValueError("a dataset's field has a name")
        unit = fld.get("unit")
        out[fld["name"]] = unit if type(unit) is str else None
    return out


def records_of(dataset: dict[str, Any]) -> Records | None:
    """A dataset's records as data.json gives them (`dataset`, parsed), by the name the
    summary gives each, with each field's printed value; None when it writes no `rows`
    (a data.json of an older engine: nothing to compare them with)."""
    if "rows" not in dataset:
        return None
    if type(dataset["rows"]) is not list:
        raise ValueError("a dataset's rows are a list")
    ident, key = dataset.get("id"), dataset.get("key")
    if type(ident) is not str or len(ident) > MAX_TEXT or type(key) is not list \
            or any(type(k) is not str for k in key):
        raise ValueError("a dataset has an id and a key")
    units = units_of(dataset.get("fields"))
    out = {}
    for place, record in enumerate(dataset["rows"], 1):
        if type(record) is not dict:
            raise ValueError("a dataset's record is an object")
        values = {str(name): printed(value, units.get(name))
                  for name, value in record.items() if value is not None}
        out[record_name(ident, {k: record.get(k) for k in key}, place)] = values
    return out


def record_name(ident: str, key: dict[str, Any], place: int) -> str:
    """`four-way[bots=1, server=paper]`: the record by its key fields; `four-way #3`, by its
    place in its file, when the dataset has no key."""
    if not key:
        return f"{ident} #{place}"
    return f"{ident}[{', '.join(f'{k}={printed(v, None)}' for k, v in key.items())}]"


def record_lines(old: dict[str, Records | None], new: dict[str, Records | None]
                 ) -> list[str]:
    """One line per record that changed, by dataset: a dataset new or removed is one line
    (a dataset of 10,000 records is not 10,000 lines); one whose records a side does not
    write (an older engine's data.json) is not compared."""
    lines = []
    for ident in sorted(old.keys() | new.keys()):
        before, after = old.get(ident), new.get(ident)
        if before == after:
            continue
        if ident not in old and after is not None:
            lines.append(f"new dataset {ident}: {count(after)}")
        elif ident not in new and before is not None:
            lines.append(f"dataset removed {ident} (had {count(before)})")
        elif before is not None and after is not None:
            lines += changed_records(before, after)
    return lines


def count(records: dict[str, Any]) -> str:
    """`16 records`, `1 record`."""
    return f"{len(records)} record{'' if len(records) == 1 else 's'}"


def changed_records(old: Records, new: Records) -> list[str]:
    """The records of one dataset that were added, removed or edited, in name order."""
    lines: list[str] = []
    for name in sorted(old.keys() | new.keys()):
        before, after = old.get(name), new.get(name)
        if before == after:
            continue
        if before is None:
            lines.append(f"new record {name}")
        elif after is None:
            lines.append(f"record removed {name}")
        else:
            edits = [f"{f} {before.get(f, 'none')} -> {after.get(f, 'none')}"
                     for f in sorted(before.keys() | after.keys())
                     if before.get(f) != after.get(f)]
            lines.append(f"record {name}: {'; '.join(edits)}")
    return lines
