"""Which files of the source folder are read: found in a sorted walk that leaves hidden
ones out, kept inside the folder (no link out of it, nor to nothing), with names fit to
print in a message or an address."""

from __future__ import annotations

import operator
import os
import unicodedata
from pathlib import Path

from progress_site.characters import first_forbidden, named
from progress_site.errors import Location, Problem

# The source's folders that override the engine's, read whole by their readers.
THEME_FOLDERS = ("templates", "locales")
# Paths sorted by their parts, the order `Path`'s own comparison gives, with no Python
# call a comparison (a folder of 20,000 history files is sorted in every build).
BY_PARTS = operator.attrgetter("parts")


def source_files(folder: Path, suffixes: tuple[str, ...]) -> list[Path]:
    """Entries under `folder` with one of `suffixes`, sorted, so builds are reproducible;
    hidden ones (`.github/`, `.git/`, `.#x.yaml`) left out. Every entry but a folder is
    listed, a FIFO or a device too: reading it refuses it with a located error, so the
    entry is never skipped silently nor read (see `regular`)."""
    if not folder.is_dir():
        return []
    return sorted((p for p in folder.rglob("*") if p.suffix in suffixes
                  and not hidden(p, folder) and (p.is_symlink() or not p.is_dir())), key=BY_PARTS)


def linked_folders(root: Path, languages: tuple[str, ...], strict: bool) -> list[Problem]:
    """A warning (an error under --strict) for each folder that a symbolic link puts among
    the data or the pages: the walk does not follow it, as it may lead out of the source
    folder, so no file in it is read; it should not be left out without a word. An error
    for a templates/ or locales/ that links out of the source."""
    # Their files, read by Jinja's loader or the catalogs' reader, are not checked one by one.
    out = [Problem(Location(name), "this folder links to a place outside the source folder",
                   hint="copy the folder into the source instead of linking to it")
           for name in THEME_FOLDERS if (root / name).is_symlink() and leads_out(root / name, root)]
    folders = (root / "data", *(root / "content" / lang for lang in languages))
    out += [Problem(Location(path.relative_to(root).as_posix()), "this folder is a symbolic "
                    "link, which the build does not follow: no file in it is read",
                    hint="move the files into the folder itself, or delete the link",
                    warning=not strict)
            for path in sorted(p for f in folders for p in folder_links(f, root))]
    return out


def folder_links(folder: Path, root: Path) -> list[Path]:
    """The links to folders under `folder`, its hidden folders and data/history/ (read
    through its own walk, a file at a time) left out: only folders are looked at, never
    each file (a site's history may hold thousands)."""
    found = []
    for here, names, _ in os.walk(folder):  # never into a link: followlinks is off
        names[:] = [n for n in names if not n.startswith(".")
                    and Path(here, n) != root / "data" / "history"]
        found += [Path(here, n) for n in names if Path(here, n).is_symlink()]
    return found


def leads_out(path: Path, folder: Path, broken: bool = True) -> bool:
    """Whether `path` resolves to a place outside `folder`; `broken` for a link that
    leads nowhere or loops (RuntimeError)."""
    try:
        return not path.resolve(strict=True).is_relative_to(folder.resolve())
    except (OSError, RuntimeError):
        return broken


def hidden(path: Path, folder: Path) -> bool:
    """Whether `path`, or a folder it is in below `folder`, is hidden (its name starts
    with a dot): another tool's files, such as a site's own `.github/` workflows."""
    return any(part.startswith(".") for part in path.relative_to(folder).parts)


def inside(path: Path, root: Path, display: str) -> list[Problem]:
    """Refuse a file that a symbolic link takes outside the source folder, or nowhere."""
    if not linked_below(path, root):
        return []
    outside = [Problem(Location(display), "this file links to a place outside the source "
                       "folder", hint="copy the file into the folder instead of linking to it")]
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError):  # no such file, or links in a loop (RuntimeError)
        # A file `record` or `import` is about to write is no link: a folder on its way is.
        if not path.is_symlink() and not Path(os.path.realpath(path)).is_relative_to(
                root.resolve()):
            return outside
        return [Problem(Location(display), "this file is a link that leads to no file",
                        hint="delete the link, or copy the file it meant into the folder")]
    return [] if target.is_relative_to(root.resolve()) else outside


def linked_below(path: Path, root: Path) -> bool:
    """Whether `path` may lead out of `root`: a part of it below `root` is a symbolic link
    or `..` (or it is not below `root` at all). Only the parts below `root` are looked
    at: resolving a path asks the system about each of its parts, the root's too."""
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return True
    probe = root
    for part in parts:
        probe = probe / part
        if part == ".." or probe.is_symlink():
            return True
    return False


def unreadable_name(display: str) -> list[Problem]:
    """Refuse a file whose name is not UTF-8, holds a control or direction character, or
    is not in Unicode's composed form (NFC): the name is printed in messages, and a page's
    becomes a link."""
    if display.isascii() and display.isprintable():  # no kept byte, control or tab, and
        return []  # composed already: the check of an import reads 20,000 such names
    if any("\udc80" <= ch <= "\udcff" for ch in display):  # bytes os.fsdecode kept
        what = "is not UTF-8 text"
    elif found := first_forbidden(display) or next(
            (named(ch) for ch in display if ch in "\t\n"), ""):  # a text's, not a name's
        what = f"holds {found}"
    elif not unicodedata.is_normalized("NFC", display):
        return [_decomposed(display)]
    else:
        return []
    return [Problem(Location(display), f"this file's name {what}",
                    hint="rename the file with letters, digits, '-' and '_'")]


def _decomposed(display: str) -> Problem:
    """A name written in decomposed Unicode (`e` then a combining U+0301, as macOS and
    some tools write `é`): it prints as its composed twin, so two files would read alike
    in every message; the characters NFC would change are spelled out."""
    spelled = "".join(f"\\u{ord(ch):04x}" if unicodedata.combining(ch)
                      or not unicodedata.is_normalized("NFC", ch) else ch for ch in display)
    composed = unicodedata.normalize("NFC", display)
    return Problem(Location(display), f"this file's name is written in decomposed Unicode "
                   f"({spelled}), which prints like {composed} but is another name",
                   hint=f"rename it to {composed} (git mv), its composed (NFC) spelling")
