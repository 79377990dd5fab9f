"""The build's inputs, watched: every folder a build reads (the source's data/ and
content/, the source's and the engine's templates/ and locales/, made or replaced at any
time), watchdog's events on them kept when they change an input (no editor's litter,
nothing the publisher writes), and gathered until saving settles (`Changes`), for
loop.py's rebuild worker.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from pathlib import Path

from watchdog import events
from watchdog.observers import Observer
from watchdog.observers.api import ObservedWatch

from progress_site.pipeline import BuildConfig

# Seconds without events before a rebuild: an editor's save (temp file, backup, rename)
# is one burst, and one rebuild. A finished write (closed after writing, or renamed onto
# an input) says the save is done, so then only a short grace period is left for the
# rest of a "save all", which keeps the QUIET wait out of the common case's latency.
QUIET = 0.05
SETTLED = 0.01
SOURCE_FOLDERS = ("data", "content")  # read from the source only
THEME_FOLDERS = ("templates", "locales")  # the source's overrides, then the engine's
# The only events the handler is given (watchdog filters the others out): the kernel
# then never reports the build opening and closing every input it reads (about a hundred
# a rebuild, each handled in Python while the build runs), and a folder's own "modified",
# which only repeats its files' events, never comes.
WATCHED = (events.FileCreatedEvent, events.DirCreatedEvent, events.FileModifiedEvent,
           events.FileDeletedEvent, events.DirDeletedEvent, events.FileMovedEvent,
           events.DirMovedEvent, events.FileClosedEvent)
# What editors write beside a file while saving it (vim, emacs, JetBrains, GNOME).
LITTER_NAMES = frozenset({"4913", ".DS_Store", "__pycache__"})
LITTER_PREFIXES = (".#", ".goutputstream-")
LITTER_SUFFIXES = ("~", ".swp", ".swx", ".swo", ".pyc", "___jb_tmp___", "___jb_old___")


def input_folders(config: BuildConfig) -> list[Path]:
    """Every folder the build reads, whether it exists yet or not."""
    folders = [config.source / name for name in SOURCE_FOLDERS]
    folders += [root / name for name in THEME_FOLDERS
                for root in (config.source, config.engine_root)]
    return list(dict.fromkeys(f.resolve() for f in folders))


def output_folder(config: BuildConfig) -> Path:
    """The site folder as watchdog spells paths: absolute, its parent's links resolved."""
    out = config.out.absolute()
    return out.parent.resolve() / out.name


def litter(path: Path) -> bool:
    """True for an editor's temporary or backup file, or Python's caches."""
    return any(part in LITTER_NAMES for part in path.parts) or path.name.startswith(
        LITTER_PREFIXES) or path.name.endswith(LITTER_SUFFIXES)


def published(path: Path, out: Path) -> bool:
    """True for the site folder and what the publisher makes beside it while swapping."""
    if not path.is_relative_to(out.parent) or path == out.parent:
        return False
    first = path.relative_to(out.parent).parts[0]
    return first == out.name or first.startswith(
        (f".{out.name}-new-", f".{out.name}-old-"))


class ChangeHandler(events.FileSystemEventHandler):
    """Notes the changed inputs among watchdog's events; ignores everything else."""

    def __init__(self, folders: list[Path], out: Path, changes: Changes) -> None:
        self.folders = folders
        self.out = out
        self.changes = changes

    def on_any_event(self, event: events.FileSystemEvent) -> None:
        """Note the event's paths (both ends of a rename) that are inputs."""
        source = Path(os.fsdecode(event.src_path))
        target = Path(os.fsdecode(event.dest_path)) if event.dest_path else None
        wanted = [p for p in (source, target) if p is not None and self.is_input(p)]
        if wanted:
            finished = event.event_type == events.EVENT_TYPE_CLOSED or (
                target is not None and target in wanted)
            self.changes.note(wanted, SETTLED if finished else QUIET)

    def is_input(self, path: Path) -> bool:
        """True when the build reads this path (or a folder of inputs) and it is no litter."""
        if litter(path) or published(path, self.out):
            return False
        return any(path.is_relative_to(folder) for folder in self.folders)


# What the rebuild worker is handed: the changed paths (none when only charts came in),
# and the batches of charts the drawer finished since: (how many, seconds).
Batch = tuple[list[Path], list[tuple[int, float]]]


class Changes:
    """Changed paths, handed to the rebuild worker once saving has settled; and news
    of charts drawn in the background, which need a rebuild too."""

    def __init__(self) -> None:
        self._paths: set[Path] = set()
        self._drawn: list[tuple[int, float]] = []
        self._due = 0.0
        self._closed = False
        self._cond = threading.Condition()

    def note(self, paths: list[Path], quiet: float) -> None:
        """Record changed paths; the rebuild waits until `quiet` seconds pass without more."""
        with self._cond:
            self._paths.update(paths)
            self._due = time.monotonic() + quiet
            self._cond.notify_all()

    def charts_drawn(self, count: int, seconds: float) -> None:
        """Record that the drawer put `count` charts in the cache."""
        with self._cond:
            self._drawn.append((count, seconds))
            self._cond.notify_all()

    def settled(self) -> Batch | None:
        """Wait for changes, then until they stop for their quiet time; None once closed."""
        with self._cond:
            self._cond.wait_for(lambda: self._paths or self._drawn or self._closed)
            while self._paths and not self._closed:
                left = self._due - time.monotonic()
                if left <= 0:
                    break
                self._cond.wait(left)
            if self._closed:
                return None
            batch = sorted(self._paths), self._drawn
            self._paths, self._drawn = set(), []
            return batch

    def close(self) -> None:
        """Let the worker finish."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()


class InputWatcher:
    """Watchdog's observer on every input folder, including ones created later."""

    def __init__(self, config: BuildConfig, changes: Changes) -> None:
        self.folders = input_folders(config)
        self.handler = ChangeHandler(self.folders, output_folder(config), changes)
        self.observer = Observer()
        self.watches: dict[Path, tuple[ObservedWatch, int]] = {}
        # The folders holding the inputs, watched flat, to see an input folder appear.
        self.parents = sorted({f.parent for f in self.folders if f.parent.is_dir()})

    def start(self) -> None:
        """Watch the inputs now."""
        for parent in self.parents:
            self.observer.schedule(self.handler, str(parent), recursive=False,
                                   event_filter=list(WATCHED))
        self.sync()
        self.observer.start()

    def sync(self) -> None:
        """Watch input folders created (or replaced) since the last look."""
        for folder in self.folders:
            try:
                inode: int | None = folder.stat().st_ino if folder.is_dir() else None
            except OSError:
                inode = None
            known = self.watches.get(folder)
            if known is not None and known[1] == inode:
                continue
            if known is not None:
                with contextlib.suppress(KeyError, OSError):
                    self.observer.unschedule(known[0])
                del self.watches[folder]
            if inode is not None:
                watch = self.observer.schedule(self.handler, str(folder), recursive=True,
                                               event_filter=list(WATCHED))
                self.watches[folder] = (watch, inode)

    def stop(self) -> None:
        """Stop watching."""
        self.observer.stop()
        if self.observer.is_alive():
            self.observer.join(timeout=5)
