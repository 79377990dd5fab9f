"""Watch mode's chart drawer: a process of its own that draws the charts a build left out.

vl-convert holds the interpreter lock while it draws, so drawing in the watch process
would make the next save wait, and the server with it (see bench/watch_latency.py). The drawer is
started on first use with `spawn` (a fresh interpreter: the watch process has threads,
which a fork would copy mid-step), writes the charts into the same cache the builds
read, and reports back; the watch then rebuilds, and this time every chart is there.
"""

from __future__ import annotations

import functools
import multiprocessing
import multiprocessing.pool
import signal
import time
from collections.abc import Callable
from pathlib import Path

from progress_site.charts.cache import draw
from progress_site.charts.spec import ChartSpec


class ChartDrawer:
    """Draws charts into a cache folder in the background, one batch after another."""

    def __init__(self, directory: Path, drawn: Callable[[int, float], None],
                 failed: Callable[[str], None]) -> None:
        """`drawn(count, seconds)` or `failed(message)` is called (from a pool thread)
        when a batch is done."""
        self.directory = directory
        self.drawn, self.failed = drawn, failed
        self.pool: multiprocessing.pool.Pool | None = None

    def submit(self, specs: tuple[ChartSpec, ...]) -> None:
        """Draw these charts after those already asked for."""
        if self.pool is None:
            context = multiprocessing.get_context("spawn")
            # Ctrl-C is the watch's to handle: it stops the drawer, which must not print.
            ignore_interrupts = functools.partial(signal.signal, signal.SIGINT, signal.SIG_IGN)
            self.pool = context.Pool(1, initializer=ignore_interrupts)
        started = time.perf_counter()
        self.pool.apply_async(
            draw, (list(specs), self.directory),  # charts already there are read back
            callback=lambda _: self.drawn(len(specs), time.perf_counter() - started),
            error_callback=lambda exc: self.failed(f"{type(exc).__name__}: {exc}"))

    def close(self) -> None:
        """Stop drawing now (a chart half drawn is never written: see ChartCache)."""
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None
