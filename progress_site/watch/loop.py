"""Watch mode: build once, serve the site, rebuild on every save, refresh open pages.

A thin shell around the same pipeline stages as `python build.py` (rebuild.py runs them,
the pages open in a browser first): nothing in the pipeline knows it is watched. Three
threads besides the main one, each with one job: watchdog's observer notes changed
inputs, the rebuild worker waits for saves to settle and builds (one build at a time,
imports and caches warm), and the HTTP server serves the site and tells open pages when
their page changed (see server.py and livestate.py).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

from watchdog import events
from watchdog.observers import Observer
from watchdog.observers.api import ObservedWatch

from progress_site.errors import visible_path
from progress_site.pipeline import BuildConfig
from progress_site.watch.drawer import ChartDrawer
from progress_site.watch.livestate import LiveState
from progress_site.watch.rebuild import Builder, say
from progress_site.watch.server import explain_bind_error, open_server, url_of

# Seconds without events before a rebuild: an editor's save (temp file, backup, rename)
# is one burst, and one rebuild. A finished write (closed after writing, or renamed onto
# an input) says the save is done, so then only a short grace period is left for the
# rest of a "save all", which keeps the QUIET wait out of the common case's latency.
QUIET = 0.05
SETTLED = 0.01
SOURCE_FOLDERS = ("data", "content")  # read from the source only
THEME_FOLDERS = ("templates", "locales")  # the source's overrides, then the engine's
# What the observer is asked for: the kernel then never reports the build opening and
# closing every input it reads (about a hundred a rebuild, each handled in Python while
# the build runs); the handler still checks each event against CHANGES.
WATCHED = [events.FileCreatedEvent, events.DirCreatedEvent, events.FileModifiedEvent,
           events.FileDeletedEvent, events.DirDeletedEvent, events.FileMovedEvent,
           events.DirMovedEvent, events.FileClosedEvent]
# Opening a file (the build reads every input) must not count as a change.
CHANGES = {events.EVENT_TYPE_CREATED, events.EVENT_TYPE_MODIFIED, events.EVENT_TYPE_DELETED,
           events.EVENT_TYPE_MOVED, events.EVENT_TYPE_CLOSED}
# What editors write beside a file while saving it (vim, emacs, JetBrains, GNOME).
LITTER_NAMES = {"4913", ".DS_Store", "__pycache__"}
LITTER_PREFIXES = (".#", ".goutputstream-")
LITTER_SUFFIXES = ("~", ".swp", ".swx", ".swo", ".pyc", "___jb_tmp___", "___jb_old___")


# A BaseException, as KeyboardInterrupt is: the build's `except Exception` must not eat it.
class Stop(BaseException):
    """Ctrl-C or SIGTERM asked watch mode to stop."""


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
        if event.event_type not in CHANGES or (
                event.is_directory and event.event_type == events.EVENT_TYPE_MODIFIED):
            return  # a folder's own "modified" only repeats its files' events
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
                                   event_filter=WATCHED)
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
                                               event_filter=WATCHED)
                self.watches[folder] = (watch, inode)

    def stop(self) -> None:
        """Stop watching."""
        self.observer.stop()
        if self.observer.is_alive():
            self.observer.join(timeout=5)


def describe(paths: list[Path], config: BuildConfig) -> str:
    """The changed paths, short, as the user knows them."""
    # Name what is there now: an editor's temp file, gone already, is noise.
    paths = [p for p in paths if p.exists()] or paths
    roots = (config.source, config.engine_root)
    # File names are input: a newline in one must not forge a line of the terminal.
    names = [visible_path(next((p.relative_to(r).as_posix() for r in roots
                                if p.is_relative_to(r)), str(p))) for p in paths]
    more = f" and {len(names) - 2} more" if len(names) > 3 else ""
    return ", ".join(names[:2] if more else names) + more + " changed"


def rebuild_forever(changes: Changes, watcher: InputWatcher, builder: Builder,
                    drawer: ChartDrawer) -> None:
    """The rebuild worker: one build per settled batch of changes, until closed; the
    charts a rebuild left out go to the drawer, whose news starts the next rebuild."""
    while (batch := changes.settled()) is not None:
        paths, drawn = batch
        try:
            watcher.sync()
        except OSError as exc:
            say(f"warning: cannot watch a new folder: {exc}", error=True)
        if paths:
            reason = describe(paths, builder.config)
        else:
            count, ms = sum(n for n, _ in drawn), max(s for _, s in drawn) * 1000
            reason = f"Drew {count} chart{'s' * (count != 1)} in {ms:.0f} ms"
        charts = builder.run(reason)
        if charts:
            drawer.submit(charts)


def _raise_stop(signum: int, frame: FrameType | None) -> None:
    """Turn the first Ctrl-C or SIGTERM into Stop; ignore more while shutting down."""
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, signal.SIG_IGN)
    raise Stop


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Raise Stop on SIGINT or SIGTERM, for a clean shutdown (main thread only)."""
    numbers = (signal.SIGINT, signal.SIGTERM)
    previous = {n: signal.getsignal(n) for n in numbers}
    for number in numbers:
        if previous[number] is not signal.SIG_IGN:  # `cmd &` in a script: Ctrl-C is not ours
            signal.signal(number, _raise_stop)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def stop_worker(changes: Changes, worker: threading.Thread) -> None:
    """Let the worker finish its build, if any, and end."""
    changes.close()
    worker.join(timeout=30)


def serve(config: BuildConfig, host: str, port: int) -> int:
    """Watch, build, serve and rebuild until Stop; every part is undone on the way out."""
    state = LiveState()
    with contextlib.ExitStack() as undo:
        folder = config.cache_dir
        if folder is None:  # refused: the charts drawn meanwhile last this session only
            folder = Path(undo.enter_context(tempfile.TemporaryDirectory(prefix="progress-")))
            config = dataclasses.replace(config, cache=folder, disk_cache=True)
        try:  # bind first: a busy port fails at once, before a build overwrites anything
            server = open_server(host, port, config.out.absolute(), state)
        except OSError as exc:
            say(f"error: {explain_bind_error(host, port, exc)}", error=True)
            return 1
        undo.callback(server.server_close)  # closing twice is harmless
        changes = Changes()
        watcher = InputWatcher(config, changes)
        undo.callback(watcher.stop)
        try:
            watcher.start()  # before the first build, so a save during it is not lost
        except OSError as exc:
            say(f"error: cannot watch the input folders: {exc}", error=True)
            return 1
        builder = Builder(config, state)
        builder.run(None)
        drawer = ChartDrawer(folder / "charts", changes.charts_drawn,
                             lambda text: builder.failed(f"cannot draw charts: {text}"))
        undo.callback(drawer.close)  # after the worker stops: it is the one that submits
        # A daemon thread: a hung build cannot keep the process alive after Ctrl-C.
        worker = threading.Thread(target=rebuild_forever,
                                  args=(changes, watcher, builder, drawer),
                                  name="progress-site rebuild", daemon=True)
        worker.start()
        undo.callback(stop_worker, changes, worker)
        undo.callback(server.stop, server.start())
        say(f"Serving {visible_path(str(config.out))} at {url_of(server)} (Ctrl-C to stop).")
        threading.Event().wait()  # until a signal raises Stop
    return 0


def run_watch(config: BuildConfig, host: str, port: int) -> int:
    """Build, serve on host:port, rebuild on every save; return the exit status."""
    with stop_on_signals():
        try:
            return serve(config, host, port)
        except Stop:
            say("Stopped.")
            return 0
