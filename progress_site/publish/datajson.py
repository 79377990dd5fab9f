"""`data.json`: the validated data and every number derived from it, for other tools.

The document's frame: its version, the day it counts from, each collection of the data
(its records written by `datarecords.py`) and the benchmark series (`regressions.py`).
Keys are sorted and nothing depends on the clock, so the same data gives the same bytes.
`data.schema.json` describes the file (`dataschema.py`).
"""

from __future__ import annotations

import dataclasses
import io
import json
from collections.abc import Callable, Iterator
from typing import Any

from progress_site.derive.site import Model
from progress_site.model.schema import Data
from progress_site.model.walk import record_fields
from progress_site.publish.datarecords import Writer
from progress_site.publish.regressions import series_json

# Bump when a field is renamed or removed, or its meaning changes; adding one does not.
VERSION = 1


def data_json(model: Model) -> bytes:
    """The file's bytes."""
    out = io.BytesIO()  # grown in place: no list of every piece, no copy at the end
    for chunk in chunks(frame(model, Writer(model))):
        out.write(chunk)
    out.write(b"\n")
    return out.getvalue()


def frame(model: Model, writer: Writer) -> dict[str, Any]:
    """The document, each collection made JSON a record at a time."""
    document: dict[str, Any] = {"version": VERSION, "today": model.today.isoformat(),
                                **{name: Collection(writer, getattr(model.data, name), name)
                                   for name in record_fields(Data)}}
    if model.series:  # a site without history keeps the file it had
        document["series"] = series_json(model)
    return document


def plain(model: Model) -> dict[str, Any]:
    """The document data.json holds, as its parse would give it: the new side of a
    change summary, made from the model rather than read back from the file."""
    document = frame(model, Writer(model))
    for name, value in document.items():
        if isinstance(value, Collection):
            records = list(value.records())
            document[name] = records if type(value.value) is tuple else records[0]
    return document


def written(model: Model, name: str, first: int, text: str) -> list[Any] | None:
    """The records of the list `name` (a collection, or the series) from its `first`,
    which data.json writes as `text` (joined by commas), as `plain` gives them; None when
    `text` is not whole records of it. Only the few records of an edit are made JSON."""
    dumped = compact()
    found: list[Any] = []
    at = 0
    for value in records_from(model, name, first):
        if at >= len(text):
            break
        part = dumped(value)
        if text[at:at + len(part)] != part or text[at + len(part):at + len(part) + 1] \
                not in ("", ","):
            return None
        found.append(value)
        at += len(part) + 1  # the comma between records
    return found if at == len(text) + 1 else None


def records_from(model: Model, name: str, first: int) -> Iterator[Any]:
    """The records of the list `name` of data.json from its `first`, made JSON one at a
    time; none when data.json holds no such list."""
    if name == "series":
        yield from series_json(model)[first:]
    elif name in record_fields(Data) and type(getattr(model.data, name)) is tuple:
        yield from Collection(Writer(model), getattr(model.data, name), name).records(first)


@dataclasses.dataclass(frozen=True, slots=True)
class Collection:
    """A field of the data, made JSON one record at a time as it is written."""

    writer: Writer
    value: Any
    name: str

    def records(self, first: int = 0) -> Iterator[Any]:
        """Its records as JSON from its `first`, each at its id, else its place; a field
        that is not a list as one value."""
        if type(self.value) is not tuple:
            yield self.writer.to_json(self.value, ((), self.name))
            return
        for i in range(first, len(self.value)):
            record = self.value[i]
            yield self.writer.to_json(record, (((), self.name), str(getattr(record, "id", i))))


def compact() -> Callable[[Any], str]:
    """One value as compact JSON text, keys sorted: what `json.dumps` of the whole
    document writes for it. Compact: without `indent`, json uses its C encoder."""
    return json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                            allow_nan=False).encode


def chunks(document: dict[str, Any]) -> Iterator[bytes]:
    """The document's bytes, its collections a record at a time: the JSON of a large
    site's every record never exists at once, nor the whole file as text."""
    encode = compact()  # one encoder for the file, not one for each of its records

    def dumped(value: Any) -> bytes:
        return encode(value).encode("utf-8")

    yield b"{"
    for i, name in enumerate(sorted(document)):
        value = document[name]
        yield (b"," if i else b"") + dumped(name) + b":"
        if not isinstance(value, Collection):
            yield dumped(value)
        elif type(value.value) is not tuple:
            yield from (dumped(v) for v in value.records())
        else:
            yield b"["
            for j, record in enumerate(value.records()):
                yield (b"," if j else b"") + dumped(record)
            yield b"]"
    yield b"}"
