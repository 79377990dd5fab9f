"""Watch mode: build once, serve the site, rebuild on every save, refresh open pages.

A thin shell around the same pipeline stages as `python build.py` (rebuild.py runs them,
the pages open in a browser first): nothing in the pipeline knows it is watched. Three
threads besides the main one, each with one job: watchdog's observer notes changed
inputs (inputs.py), the rebuild worker waits for saves to settle and builds (one build at
a time, imports and caches warm), and the HTTP server serves the site and tells open
pages when their page changed (see server.py and livestate.py).
"""

from __future__ import annotations

import contextlib
import dataclasses
import signal
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

from progress_site.errors import visible_path
from progress_site.pipeline import BuildConfig
from progress_site.watch.drawer import ChartDrawer
from progress_site.watch.inputs import Changes, InputWatcher
from progress_site.watch.livestate import LiveState
from progress_site.watch.rebuild import Builder, say
from progress_site.watch.server import PreviewServer, explain_bind_error, url_of


# A BaseException, as KeyboardInterrupt is: the build's `except Exception` must not eat it.
class Stop(BaseException):
    """Ctrl-C or SIGTERM asked watch mode to stop."""


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


def serve(config: BuildConfig, host: str, port: int) -> int:
    """Watch, build, serve and rebuild until Stop; every part is undone on the way out."""
    state = LiveState()
    with contextlib.ExitStack() as undo:
        folder = config.cache_dir
        if folder is None:  # refused: the charts drawn meanwhile last this session only
            folder = Path(undo.enter_context(tempfile.TemporaryDirectory(prefix="progress-")))
            config = dataclasses.replace(config, cache=folder, disk_cache=True)
        try:  # bind first: a busy port fails at once, before a build overwrites anything
            server = PreviewServer((host, port), config.out.absolute(), state)
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
        drawer = ChartDrawer(folder / "charts", changes.charts_drawn,
                             lambda text: builder.failed(f"cannot draw charts: {text}"))
        undo.callback(drawer.close)  # after the worker stops: it is the one that submits
        # The first build too leaves its charts to the drawer: its pages are served at
        # once, each chart missing from the cache an empty frame until it is drawn.
        charts = builder.run(None)
        if charts:
            drawer.submit(charts)
        # A daemon thread: a hung build cannot keep the process alive after Ctrl-C.
        worker = threading.Thread(target=rebuild_forever,
                                  args=(changes, watcher, builder, drawer),
                                  name="progress-site rebuild", daemon=True)
        worker.start()
        undo.callback(worker.join, 30)
        undo.callback(changes.close)  # first: the worker finishes its build, if any, and ends
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
