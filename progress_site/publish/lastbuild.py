"""The last successful build of a source into an output, remembered: a build whose inputs
and output are exactly that build's does nothing, as make does (or Sphinx: "no targets
are out of date"), and says so.

Its inputs, hashed into one key (`inputs_key`): every file under the folders a build
reads (the source's data/, content/, templates/ and locales/, the engine's theme), by
name and by the sha256 of its bytes (file dates lie after a checkout); the engine's code
(`cache.engine_stamp`); the versions of the libraries whose output lands on pages, read
from the names of their installed metadata folders (`jinja2-3.1.6.dist-info`): importing
them, or importlib.metadata, costs what this check is here to save; every option of the
command line and every environment variable the build reads, and its "today". Its
output: each file and folder under the output folder, with the size and modification
time of each file, as the build left them (`output_key`).

The record is data only: a small JSON file in the cache folder (`builds/`), named by
the source's and the output's paths, written whole once the site is published
(`remember`) and removed before any other build of them starts (`forget`), so that a
failed or killed build leaves none. One that does not read as a record (damaged,
truncated, hostile) is a miss: the site is built. Standard library only: the check runs
before the pipeline and its libraries are imported.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from progress_site import cache
from progress_site.engine_theme import theme_root
from progress_site.regular import open_regular

FORMAT = 1  # the record's layout; a record of another is a miss
# What a build reads from its source; the theme's folders also from the engine.
SOURCE_FOLDERS = ("data", "content", "templates", "locales")
THEME_FOLDERS = ("templates", "locales")
# The distributions whose code writes what lands on pages (their installed names).
LIBRARIES = ("jinja2", "markupsafe", "babel", "markdown-it-py", "mdurl", "pyyaml", "altair",
             "vl-convert-python")
# The environment variables the build reads (tests/test_up_to_date.py finds every one
# the engine reads in this list): "today", and where the cache folder is.
ENVIRONMENT = ("SOURCE_DATE_EPOCH", "XDG_CACHE_HOME", "HOME")
RECORD_LIMIT = 1 << 20  # bytes: warnings included, a record is a few KB


@dataclass(frozen=True, slots=True)
class Record:
    """What the last build of a source into an output left."""

    inputs: str
    output: str
    pages: int
    warnings: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LastBuild:
    """A build of `source` into `out` about to run: where the record of the last one is
    kept, and this one's inputs' key (None when they could not all be read)."""

    path: Path
    out: Path
    inputs: str | None

    @classmethod
    def of(cls, folder: Path, source: Path, out: Path,
           options: Mapping[str, object]) -> LastBuild:
        """The build of `source` into `out` with `options`, its record in cache `folder`."""
        return cls(record_path(folder, source, out), out, inputs_key(source, options))

    def unchanged(self) -> Record | None:
        """The last build's record when this build's inputs and output are its own."""
        found = recall(self.path)
        if found is None or self.inputs is None or found.inputs != self.inputs:
            return None
        return found if found.output == output_key(self.out) else None

    def forget(self) -> None:
        """Drop the record before building: a build that fails or is killed leaves none."""
        with contextlib.suppress(OSError):
            self.path.unlink(missing_ok=True)

    def remember(self, pages: int, warnings: list[str]) -> None:
        """Keep the record of a build that published its site and exits 0 (a cache that
        cannot be written means the next build is a real one, not an error)."""
        output = output_key(self.out)
        if self.inputs is None or output is None:
            return
        text = json.dumps({"format": FORMAT, "inputs": self.inputs, "output": output,
                           "pages": pages, "warnings": warnings}, ensure_ascii=True)
        cache.store(self.path, text.encode())


def inputs_key(source: Path, options: Mapping[str, object]) -> str | None:
    """The hash of everything a build of `source` with `options` reads; None when a file
    cannot be read (the build then says why)."""
    digest = hashlib.sha256(json.dumps(
        {"format": FORMAT, "engine": cache.engine_stamp(),
         "libraries": cache.library_versions(LIBRARIES),
         "options": options, "environment": {n: os.environ.get(n) for n in ENVIRONMENT}},
        sort_keys=True, default=str).encode())
    roots = [(f"source/{n}", source / n) for n in SOURCE_FOLDERS]
    roots += [(f"theme/{n}", theme_root() / n) for n in THEME_FOLDERS]
    seen: set[str] = set()
    try:
        for name, folder in roots:
            real = os.path.realpath(folder)
            if real in seen:  # the example's theme is its own templates/
                continue
            seen.add(real)
            there = os.path.isdir(real)  # the build reads a folder only where one is
            digest.update(f"\0root {name} {there}\0".encode())
            for line in walk(Path(real), contents=True) if there else ():
                digest.update(line)
    except OSError:
        return None
    return digest.hexdigest()


def output_key(out: Path) -> str | None:
    """The hash of what `out` holds (`walk` without contents); None when there is no such
    folder."""
    if not out.is_dir():
        return None
    digest = hashlib.sha256()
    try:
        for line in walk(out, contents=False):
            digest.update(line)
    except OSError:
        return None
    return digest.hexdigest()


def walk(folder: Path, contents: bool, prefix: str = "") -> Iterator[bytes]:
    """One line per entry under `folder`, sorted, links not followed: a file's path and
    either the sha256 of its bytes (`contents`) or its size and modification time."""
    with os.scandir(folder) as scan:
        entries = sorted(scan, key=lambda e: e.name)
    for entry in entries:
        name = prefix + entry.name
        info = entry.stat(follow_symlinks=False)
        if stat.S_ISDIR(info.st_mode):
            yield f"\0d {name}".encode("utf-8", "surrogateescape")
            yield from walk(Path(entry.path), contents, name + "/")
        elif stat.S_ISLNK(info.st_mode):
            target = os.readlink(entry.path)
            yield f"\0l {name} {target}".encode("utf-8", "surrogateescape")
            if contents and os.path.isfile(entry.path):
                yield file_hash(Path(entry.path))
        elif stat.S_ISREG(info.st_mode):
            what = file_hash(Path(entry.path)) if contents else \
                f"{info.st_size} {info.st_mtime_ns}".encode()
            yield f"\0f {name} ".encode("utf-8", "surrogateescape") + what
        else:  # a FIFO or a device: never opened (the build refuses it, located)
            yield f"\0o {name} {stat.S_IFMT(info.st_mode)}".encode("utf-8", "surrogateescape")


def file_hash(path: Path) -> bytes:
    """The sha256 of a regular file's bytes, read without waiting on a FIFO swapped in."""
    with open_regular(path) as file:
        return hashlib.file_digest(file, "sha256").hexdigest().encode()


def record_path(folder: Path, source: Path, out: Path) -> Path:
    """Where the record of builds of `source` into `out` is kept in the cache `folder`."""
    both = f"{os.path.realpath(source)}\0{os.path.realpath(out)}"
    name = hashlib.sha256(both.encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return folder / "builds" / f"{name}.json"


def recall(path: Path) -> Record | None:
    """The record at `path`, or None when none reads as one."""
    data = cache.read(path, RECORD_LIMIT)
    if data is None:
        return None
    try:
        found = json.loads(data)
    except (ValueError, RecursionError):  # not JSON, or a number or nesting too large
        return None
    if not isinstance(found, dict) or found.get("format") != FORMAT:
        return None
    inputs, output = found.get("inputs"), found.get("output")
    pages, warnings = found.get("pages"), found.get("warnings")
    if not (isinstance(inputs, str) and isinstance(output, str)
            and type(pages) is int and 0 <= pages < 1 << 31
            and isinstance(warnings, list) and all(printable(w) for w in warnings)):
        return None
    return Record(inputs, output, pages, tuple(warnings))


def printable(warning: object) -> bool:
    """Whether a record's warning is text that can be printed again (no lone surrogate)."""
    if not isinstance(warning, str):
        return False
    try:
        warning.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
