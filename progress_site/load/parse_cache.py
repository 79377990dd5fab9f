"""Parses remembered: in memory for a rebuild in the same process (--watch), and on disk,
like Python's .pyc, for a new process, so that only the files changed since the last
build are parsed again (see bench/scale.py).

An entry holds one file's values, positions and problems; it is used only when it was
made from the same text by the same engine, PyYAML and libyaml, else the file is parsed
afresh and the entry replaced. An entry that cannot be read, for whatever reason, counts
as missing: a cache can make a build faster, never make it fail.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import hashlib
import io
import pickle
from pathlib import Path
from typing import Any

import yaml

from progress_site import cache
from progress_site.errors import KeyPath, Location, Problem
from progress_site.load.yaml import Document, Positions, parse, positions

# Raise to drop every entry written before a change the engine's code does not show.
FORMAT = 2
# Only these classes may be rebuilt from an entry: a planted file makes plain data, or
# nothing (pickle could otherwise call any function at all).
_ALLOWED = {("datetime", "date"): dt.date, ("datetime", "datetime"): dt.datetime,
            ("datetime", "timezone"): dt.timezone, ("datetime", "timedelta"): dt.timedelta,
            ("progress_site.errors", "Location"): Location,
            ("progress_site.errors", "Problem"): Problem}


class _DataUnpickler(pickle.Unpickler):
    """An unpickler that refuses every class outside `_ALLOWED`."""

    def find_class(self, module: str, name: str) -> Any:
        """The class named, if it is one an entry may hold."""
        try:
            return _ALLOWED[module, name]
        except KeyError:
            raise pickle.UnpicklingError(f"{module}.{name} is not allowed") from None


@functools.cache
def _made_by() -> bytes:
    """What a parse depends on besides its text: the engine, PyYAML, libyaml or not."""
    return cache.fingerprint(FORMAT, yaml.__version__, yaml.__with_libyaml__)


def _key(text: str, display: str) -> bytes:
    """The key of a parse: the text, the name its problems print, and the parser."""
    digest = hashlib.blake2b(_made_by())
    digest.update(display.encode("utf-8", "surrogatepass") + b"\0")
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.digest()


def _entry(folder: Path, display: str) -> Path:
    """One entry per data file, named after its path, so edits replace it, not add one."""
    name = hashlib.blake2b(display.encode("utf-8", "surrogatepass"), digest_size=16)
    return folder / f"{name.hexdigest()}.pickle"


def _mapping_paths(data: Any) -> list[KeyPath]:
    """The path of every mapping in a document's values (records are mappings)."""
    out: list[KeyPath] = []
    stack: list[tuple[KeyPath, Any]] = [((), data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            out.append(path)
            stack.extend(((*path, k), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend(((*path, i), v) for i, v in enumerate(value))
    return out


def _kept(doc: Document) -> tuple[Positions, Positions, bool]:
    """The positions an entry keeps, and whether they are only some of them.

    Only a problem needs where a key or a plain value was written; a record needs where
    it starts (its Where). Keeping mappings' positions alone makes entries smaller and
    quicker to read (see bench/scale.py); the rest is read again from the text when a
    problem asks. A list file (a dataset's records, re-keyed as a whole by datasets)
    keeps them all."""
    if not isinstance(doc.data, dict):
        return doc.values, doc.keys, False
    return {p: doc.values[p] for p in _mapping_paths(doc.data) if p in doc.values}, {}, True


def _read(path: Path, key: bytes, text: str, display: str
          ) -> tuple[Document, list[Problem]] | None:
    """The stored parse, if the entry is readable and made from this text; else None."""
    blob = cache.read(path)
    if blob is None:
        return None
    try:
        stored_key, data, values, keys, raw, problems, partial = _DataUnpickler(
            io.BytesIO(blob)).load()
    except Exception:  # truncated, planted, of another format: each means "parse it"
        return None
    if stored_key != key or not all(isinstance(t, dict) for t in (values, keys, raw)) \
            or not isinstance(problems, list):
        return None
    reread = functools.partial(positions, text, display) if partial is True else None
    return Document(display, text.splitlines(), data, values, keys, raw, reread), problems


def parse_stored(text: str, display: str, folder: Path) -> tuple[Document, list[Problem]]:
    """`parse(text, display)`, taken from the entry in `folder` when it is current."""
    key, path = _key(text, display), _entry(folder, display)
    found = _read(path, key, text, display)
    if found is not None:
        return found
    doc, problems = parse(text, display)
    values, keys, partial = _kept(doc)
    cache.store(path, pickle.dumps((key, doc.data, values, keys, doc.raw, problems, partial),
                                   protocol=pickle.HIGHEST_PROTOCOL))
    return doc, problems


@functools.lru_cache(maxsize=256)
def _remembered(text: str, display: str, folder: Path | None
                ) -> tuple[Document, tuple[Problem, ...]]:
    """A parse of this text in this process: from the disk cache in `folder`, if any."""
    doc, problems = parse(text, display) if folder is None else parse_stored(
        text, display, folder)
    return doc, tuple(problems)


def parse_once(text: str, display: str, folder: Path | None = None
               ) -> tuple[Document, list[Problem]]:
    """`parse`, remembered by content (and kept in `folder` when one is given). Callers
    get their own Document, whose tables they only read."""
    doc, problems = _remembered(text, display, folder)
    return dataclasses.replace(doc), list(problems)

