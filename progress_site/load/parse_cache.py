"""Parsed data files kept on disk, like Python's .pyc: a new process need not parse again.

Parsing a large data file in Python costs far more than reading back what it gave. An
entry holds one file's values, positions and problems; it is used only when it was
made from the same text by the same parser code, else the file is parsed afresh and the
entry replaced. An entry that cannot be read, for whatever reason, counts as missing:
a cache can make a build faster, never make it fail.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import importlib.util
import io
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

from progress_site.cache import fingerprint, library_version, store
from progress_site.errors import KeyPath, Location, Problem
from progress_site.load.yamldoc import Document

# Raise to drop every entry written before a change the code hash cannot see.
FORMAT = 1
# The modules a parse depends on; their code is part of every entry's key.
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
def parser_fingerprint() -> bytes:
    """What else the parse depends on: the parser's own code, PyYAML and libyaml, Python.
    Found without importing PyYAML, which a build served from the cache never needs."""
    return fingerprint(FORMAT, library_version("PyYAML"), libyaml_files())


def libyaml_files() -> list[str]:
    """PyYAML's compiled bindings to libyaml (none: its pure-Python parser is used)."""
    spec = importlib.util.find_spec("yaml")  # finds the package without running it
    folders = spec.submodule_search_locations or [] if spec else []
    return sorted(name for folder in folders for name in os.listdir(folder)
                  if name.startswith("_yaml."))


def entry_key(text: str, display: str) -> bytes:
    """The key of a parse: the text, the name problems print, and the parser."""
    digest = hashlib.blake2b(parser_fingerprint())
    digest.update(display.encode("utf-8", "surrogatepass") + b"\0")
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.digest()


def entry_path(folder: Path, display: str) -> Path:
    """One entry per data file, named after its path, so edits replace it, not add one."""
    name = hashlib.blake2b(display.encode("utf-8", "surrogatepass"), digest_size=16)
    return folder / f"{name.hexdigest()}.pickle"


def read_entry(path: Path, key: bytes, display: str, text: str
               ) -> tuple[Document, list[Problem]] | None:
    """The stored parse, if the entry is readable and made from this text; else None."""
    try:
        stored = _DataUnpickler(io.BytesIO(path.read_bytes())).load()
        stored_key, data, values, keys, raw, problems, partial = stored
    except Exception:  # missing, truncated, planted: each means "parse it"
        return None
    if stored_key != key or not isinstance(problems, list):
        return None
    doc = Document(display, text.splitlines(), data, values, keys, raw,
                   text if partial is True else None)
    return doc, problems


def mapping_paths(data: Any) -> list[KeyPath]:
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


def kept_positions(doc: Document) -> tuple[dict[KeyPath, tuple[int, int]], bool]:
    """The positions an entry keeps, and whether they are only some of them.

    Only a problem needs where a key or a plain value was written; a record needs where
    it starts (its Where). Keeping mappings' positions alone makes an entry four times
    quicker to read and the document a fifth the size; the rest is read again from the
    text when a problem asks (Document.read_positions). A list file (a dataset's
    records, re-keyed as a whole by datasets) keeps them all."""
    if not isinstance(doc.data, dict):
        return doc.values, False
    values = doc.values
    return {p: values[p] for p in mapping_paths(doc.data) if p in values}, True


def write_entry(path: Path, key: bytes, doc: Document, problems: list[Problem]) -> None:
    """Store a parse atomically (beside its place, then moved in); failures are ignored."""
    values, partial = kept_positions(doc)
    blob = pickle.dumps((key, doc.data, values, {} if partial else doc.keys, doc.raw,
                         problems, partial), protocol=pickle.HIGHEST_PROTOCOL)
    store(path, blob)


Parse = Callable[[str, str], tuple[Document, list[Problem]]]


def parse_stored(text: str, display: str, folder: Path, parse: Parse
                 ) -> tuple[Document, list[Problem]]:
    """`parse(text, display)`, taken from the entry in `folder` when it is current."""
    key = entry_key(text, display)
    path = entry_path(folder, display)
    found = read_entry(path, key, display, text)
    if found is not None:
        return found
    doc, problems = parse(text, display)
    write_entry(path, key, doc, problems)
    return doc, problems
