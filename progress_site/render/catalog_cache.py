"""Compiled catalogs kept on disk, so that a new process need not read .po files again.

Reading a .po file takes Babel's catalog, parser and compiler, and through the header
parsing the standard `email` package: about 25 ms of a fresh `python build.py`, for a
catalog that rarely changes. An entry holds what a build needs from one catalog: the
compiled .mo bytes and its gaps (untranslated or fuzzy entries, with their lines). It
is used only when it was made from the same bytes by the same code, else the catalog is
read afresh and the entry replaced. Being keyed by bytes, not by file times, an edit is
seen by the very next build, in watch mode's process too. An entry that cannot be read,
for whatever reason, counts as missing: a cache can make a build faster, never make it
fail. A catalog that does not parse is never stored, so its error is reported each time.

An entry is two files named after the catalog's path: `NAME.mo`, plain gettext data,
and `NAME.json`, its key, the .mo's digest and the gaps. No pickle: a planted entry is
data at worst, never code.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any, NamedTuple

from progress_site.cache import fingerprint, library_version, store

# Raise to drop every entry written before a change the code hash cannot see.
FORMAT = 1
# The modules that turn a .po file into an entry; their code is part of every key.


class Gap(NamedTuple):
    """A catalog entry a translator still owes: its msgid, line and what is missing."""

    msgid: str
    line: int
    what: str  # "fuzzy" or "not translated"


class Compiled(NamedTuple):
    """One catalog as a build uses it: gettext's compiled form, and its gaps."""

    mo: bytes
    gaps: tuple[Gap, ...]


@functools.cache
def compiler_fingerprint() -> bytes:
    """What else an entry depends on: this code, Babel's (it writes the .mo), Python."""
    return fingerprint(FORMAT, library_version("babel"))


def entry_key(data: bytes) -> str:
    """The key of an entry: the catalog's bytes and the code that compiled them."""
    return hashlib.blake2b(compiler_fingerprint() + data).hexdigest()


def entry_stem(folder: Path, po: Path) -> Path:
    """One entry per catalog file, named after its path, so edits replace it, not add one."""
    name = hashlib.blake2b(str(po).encode("utf-8", "surrogatepass"), digest_size=16)
    return folder / name.hexdigest()


def as_gap(item: Any) -> Gap:
    """A stored gap, checked field by field (a foreign entry may hold anything)."""
    msgid, line, what = item
    if not (isinstance(msgid, str) and type(line) is int
            and what in ("fuzzy", "not translated")):
        raise ValueError(f"not a gap: {item!r}")
    return Gap(msgid, line, what)


def read_entry(folder: Path, po: Path, data: bytes) -> Compiled | None:
    """The stored catalog, if its entry is whole and made from these bytes; else None."""
    stem = entry_stem(folder, po)
    try:
        meta = json.loads(stem.with_suffix(".json").read_bytes())
        if meta["key"] != entry_key(data):
            return None
        mo = stem.with_suffix(".mo").read_bytes()
        # The two files are written one after the other: a .mo from another write (an
        # interrupted or concurrent build) must not pass for this one's.
        if hashlib.sha256(mo).hexdigest() != meta["mo"]:
            return None
        return Compiled(mo, tuple(as_gap(item) for item in meta["gaps"]))
    except Exception:  # missing, truncated, foreign: each means "read the .po"
        return None


def write_entry(folder: Path, po: Path, data: bytes, compiled: Compiled) -> None:
    """Store a compiled catalog, .mo first, then the JSON that vouches for it."""
    stem = entry_stem(folder, po)
    meta = {"key": entry_key(data), "mo": hashlib.sha256(compiled.mo).hexdigest(),
            "gaps": [list(gap) for gap in compiled.gaps]}
    if store(stem.with_suffix(".mo"), compiled.mo):
        store(stem.with_suffix(".json"), json.dumps(meta).encode())
