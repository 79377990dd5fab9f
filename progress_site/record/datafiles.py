"""The data files of one source folder, opened for editing: where each collection and
entry is, what an edit would change, and writing every edited file at once."""

from __future__ import annotations

import difflib
import os
import shutil
from collections.abc import Mapping
from functools import cached_property
from pathlib import Path

from ruamel.yaml.comments import CommentedMap

from progress_site.errors import UsageError, visible_path
from progress_site.load.files import source_files
from progress_site.load.site import DATA_SUFFIXES
from progress_site.record.series import FOLDER, SeriesFile, series_name
from progress_site.record.yamledit import EditError, YamlFile


class DataFiles:
    """The data files of one source folder, opened for editing."""

    def __init__(self, root: Path) -> None:
        if not (root / "data").is_dir():
            raise UsageError(f"{visible_path(str(root))}: no data/ folder here; pass "
                             "--source with the folder that holds data/")
        self.root = root
        self.files: dict[Path, YamlFile] = {}
        # Files that do not read: not edited, and left to the check of the change, which
        # tells why at their line with every other error (all at once), and writes nothing.
        self.unread: dict[Path, EditError] = {}
        for path in source_files(root / "data", DATA_SUFFIXES):
            try:
                opened = YamlFile(path, self.display(path), records_ok=True)
            except EditError as exc:
                self.unread[path] = exc
                continue
            if not opened.records:
                self.files[path] = opened
        # History files opened, by their figure's id: an import looks each up three
        # times, and a path made and hashed for each look-up was a tenth of its points.
        self.series: dict[str, SeriesFile] = {}
        # Each collection's entries by id, made at its first look-up: an import asks
        # for every series' entry, commit and machine, and a walk of every data file
        # each time grew with the data times the series. The trees are as read (edits
        # go to the texts), so only a file opened anew makes them stale.
        self.indexes: dict[str, dict[str, tuple[YamlFile, CommentedMap]]] = {}
        self.folder = root.joinpath(*FOLDER)  # the history files' folder
        self.declared: set[str] = set()  # commits and machines declared by this recording
        self.unchanged: set[str] = set()  # figures whose points were all recorded already
        self.notes: list[str] = []  # what was added besides the figures, to tell

    def display(self, path: Path) -> str:
        """A path as messages print it, relative to the source folder, spelled out."""
        return visible_path(path.relative_to(self.root).as_posix()
                            if path.is_relative_to(self.root) else str(path))

    def open(self, path: Path) -> YamlFile:
        """A file to write into, opened once (a new one when it does not exist yet)."""
        # Lexically normal first: `data/../../x.yaml` is not under data/.
        path = Path(os.path.normpath(path if path.is_absolute() else self.root / path))
        if path in self.unread:
            raise self.unread[path]
        if path not in self.files:
            if path.suffix not in DATA_SUFFIXES or not path.is_relative_to(self.root / "data"):
                raise UsageError(f"--file {visible_path(str(path))}: expected a .yaml file "
                                 f"under {visible_path(str(self.root / 'data'))}")
            self.files[path] = YamlFile(path, self.display(path))
            self.indexes.clear()
        return self.files[path]

    def history(self, ident: str) -> SeriesFile:
        """The history file of `measurements.ID`, opened once (empty when there is none)."""
        found = self.series.get(ident)
        if found is None:
            # Its name is the id's (a safe file name): no path worked out again.
            name = series_name(ident)
            listed = self.listed
            found = self.series[ident] = SeriesFile(
                self.folder / name, visible_path(f"{'/'.join(FOLDER)}/{name}"),
                absent=listed is not None and name not in listed)
        return found

    @cached_property
    def listed(self) -> frozenset[str] | None:
        """The names in the history folder, listed once (None when it cannot be: each file
        is then asked for): an import's new series were each looked for on disk."""
        try:
            return frozenset(os.listdir(self.folder))
        except FileNotFoundError:
            return frozenset()
        except OSError:
            return None

    def has_history(self, ident: str) -> bool:
        """Whether `measurements.ID` has a history file (or one is being written)."""
        return ident in self.series or (self.folder / series_name(ident)).exists()

    def holder(self, collection: str) -> YamlFile | None:
        """The first file (in sorted order) that has the collection."""
        return next((f for f in self.files.values() if collection in f.tree), None)

    def measurements_file(self, given: Path | None) -> YamlFile:
        """Where a new measurement goes: `given` (--file), else beside the others, else
        data/measurements.yaml."""
        found = self.holder("measurements")
        return self.open(given or (found.path if found else self.root / "data" /
                                   "measurements.yaml"))

    def find(self, collection: str, ident: str) -> tuple[YamlFile, CommentedMap] | None:
        """The entry of a collection with this id (read as the build reads it), and its file."""
        index = self.indexes.get(collection)
        if index is None:
            index = self.indexes[collection] = {}
            for file in self.files.values():
                for entry in file.tree.get(collection) or ():
                    if isinstance(entry, CommentedMap):  # the first of an id, as a walk
                        index.setdefault(str(entry.get("id")), (file, entry))
        return index.get(ident)

    def where(self, file: YamlFile, entry: CommentedMap) -> str:
        """`data/x.yaml:12` for an entry."""
        return f"{file.display}:{entry.lc.line + 1}"

    def declare_commit(self, commit: str | None, fallback: YamlFile) -> None:
        """Add a commit that figures name to `commits:` if it is not there yet."""
        if commit is None or commit in self.declared or self.find("commits", commit):
            return
        self.declared.add(commit)
        file = self.holder("commits") or fallback
        file.append("commits", CommentedMap([("id", commit)]))
        self.notes.append(f"declared commit {visible_path(commit)} under `commits:` in "
                          f"{file.display}")

    def declare_machine(self, machine: str, facts: tuple[str, ...]) -> None:
        """Add a machine the figures name to `machines:`, with the facts its tool
        recorded, if it is not there yet and there are facts; one there is never changed."""
        if not facts or f"machines:{machine}" in self.declared or \
                self.find("machines", machine):
            return
        self.declared.add(f"machines:{machine}")
        usual = self.files.get(self.root / "data" / "machines.yaml")
        file = (usual if usual is not None and "machines" in usual.tree else None) or \
            self.holder("machines") or self.open(self.root / "data" / "machines.yaml")
        file.append("machines", CommentedMap([("id", machine), ("name", machine),
                                              ("facts", list(facts))]))
        self.notes.append(f"declared machine {visible_path(machine)} under `machines:` in "
                          f"{file.display}, with the {len(facts)} facts the tool recorded")

    def opened(self) -> dict[Path, YamlFile | SeriesFile]:
        """Every file opened for editing: data files, then history files."""
        return {**self.files, **{s.path: s for s in self.series.values()}}

    def edited(self) -> dict[Path, str]:
        """The text of every edited file, as it would be written."""
        return {path: file.result() for path, file in self.opened().items() if file.changed}

    def diff(self) -> str:
        """What writing would change, as a unified diff."""
        out: list[str] = []
        opened = self.opened()  # made once: an import may open 20,000 history files
        for path, text in self.edited().items():
            file = opened[path]
            out += difflib.unified_diff(file.text.splitlines(True), text.splitlines(True),
                                        f"a/{file.display}", f"b/{file.display}")
        return "".join(out)

    def write(self, edited: Mapping[Path, str]) -> list[str]:
        """Write every edited file (`edited()`, as checked: an import's 20,000 texts are
        not made twice), all or none: each is written beside its place first, then all
        are moved in. The names of those written."""
        moves: list[tuple[str, Path]] = []
        made: set[str] = set()  # folders known to exist: an import writes 20,000 in one
        suffix = f".{os.getpid()}.tmp"
        opened = self.opened()  # made once: an import may write 20,000 history files
        try:
            for path, text in edited.items():
                # Strings, not paths: a Path made for each file's folder was a tenth of
                # the writing (an import's 20,000 files share one folder).
                folder, name = os.path.split(path)
                if folder not in made:
                    os.makedirs(folder, exist_ok=True)
                    made.add(folder)
                temporary = os.path.join(folder, f".{name}{suffix}")
                # Bytes, without a text layer per file: an import writes 20,000 of them.
                with open(temporary, "xb") as out:
                    moves.append((temporary, path))
                    out.write(text.encode("utf-8"))
                # The file keeps who may read it. A history file knows whether it existed:
                # asking the system for each of an import's new files cost a look-up each.
                file = opened[path]
                if file.existed if isinstance(file, SeriesFile) else path.exists():
                    shutil.copymode(path, temporary)
        except OSError as exc:
            for temporary, _ in moves:
                Path(temporary).unlink(missing_ok=True)
            raise EditError(f"nothing written: {exc}") from exc
        for temporary, path in moves:
            os.replace(temporary, path)
        return [opened[path].display for _, path in moves]

