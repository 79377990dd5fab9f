"""Charts drawn before the pages that show them, on two cores: a first build lists the
charts its pages' blocks will miss, before it renders any page
(`render.drawings.ask_charts`, from `pipeline.rendering.draw_first`), draws them here, in a
forked child (about half of them when there are many), then renders its pages once, with
every chart at hand (bench/charts.py).

A first build (no chart in the cache folder) forks that child as it starts, before the
build's own modules load (`Drawer`, from `cli.run`): loading Altair and starting
vl-convert's engine, which every drawing waits for, then overlap importing, loading,
validating, deriving and rendering here. A thread would overlap nothing: vl-convert
holds the GIL while it starts and draws.

vl-convert draws one chart at a time in a process (one lock around its engine), so a
second core helps only as a second process. The child is forked before vl-convert is
loaded (`fork.fork_safe`), starts an engine of its own and sends its drawings back. A
chart's languages share one drawing (`svg.drawing`), so they are drawn in one process.
"""

from __future__ import annotations

import contextlib
import functools
import os
import pickle
import struct
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from progress_site.charts.cache import FOLDER, ChartCache
from progress_site.charts.spec import ChartSpec
from progress_site.fork import Forked, fork_safe, idle_core

# Drawings: below this many, a second process drawing half of them would cost its own
# start (Altair, vl-convert's engine) about what it saves: one process draws them all,
# the drawer's child when there is one, else this one.
MIN_SPLIT = 40
# What a drawing costs, counted in px of width: a fixed part (vl-convert's call, the axes
# and words every drawing has) and a part that grows with its width; narrow drawings are
# far from free, so halves are balanced on both (bench/charts.py measures the split).
_FIXED_COST_PX = 600


# A request's length, before its pickled specs.
_LENGTH = struct.Struct("!Q")


class Drawer:
    """A child forked before anything is drawn: it starts vl-convert's engine (and loads
    Altair) at once, then draws the charts it is sent (`ask`)."""

    def __init__(self, compiles: bool) -> None:
        """`compiles`: whether the charts' shapes are to be compiled (none is kept in
        the cache folder), which takes Altair."""
        read, self._write = os.pipe()
        self._child = Forked(functools.partial(_drawn_when_asked, read, self._write,
                                               compiles))
        os.close(read)
        self._asked = False

    def ask(self, directory: Path | None, specs: Sequence[ChartSpec]
            ) -> Forked[dict[str, str]]:
        """Send the charts to draw, and the cache folder they go in (None: none); the
        child, whose `result()` is their markup by key."""
        request = pickle.dumps((directory, list(specs)), protocol=pickle.HIGHEST_PROTOCOL)
        self._asked = True
        # A child that failed while starting has stopped reading: its result tells why.
        with contextlib.suppress(BrokenPipeError), os.fdopen(self._write, "wb") as pipe:
            pipe.write(_LENGTH.pack(len(request)) + request)
        return self._child

    def close(self) -> None:
        """Stop the child if it was never asked for anything (no chart was missing, or
        the build failed first)."""
        if not self._asked:
            os.close(self._write)
            self._child.cancel()


@contextlib.contextmanager
def drawer(cache_folder: Path, wanted: bool) -> Iterator[Drawer | None]:
    """A `Drawer`, when `wanted`, for a first build (nothing in `cache_folder`: no drawn
    chart, no record of a last build), where forking is safe and a core is idle; stopped
    on the way out if it was not used. None otherwise: a build that finds charts drawn
    redraws few, if any, and one of a site without charts (which left only its last
    build's record) draws none: neither is worth a child's start, about 0.35 s of
    processor (bench/hugo_peer.py); on a busy machine, the child would not run beside
    this process but take turns with it, and the listing of the charts and the second
    rendering of the pages it takes would be paid for nothing."""
    first = wanted and not (cache_folder.is_dir() and any(cache_folder.iterdir()))
    started = None
    if first and fork_safe() and idle_core():
        started = Drawer(not ChartCache(cache_folder / FOLDER).keeps_shapes())
    try:
        yield started
    finally:
        if started is not None:
            started.close()


def _drawn_when_asked(read: int, write: int, compiles: bool) -> dict[str, str]:
    """In the child: vl-convert made ready, and Altair if it `compiles` shapes, then the
    charts asked for drawn, by key; none if the build stopped without asking."""
    os.close(write)  # the parent's end: the child sees the end of the request without it
    if compiles:  # a chart drawn in a kept shape needs no Altair (shapes.py)
        import altair  # noqa: F401

    from progress_site.charts.measure import width
    from progress_site.charts.style import LABEL_PX
    from progress_site.charts.vega import TITLE_PX

    # The common letters of axis labels and titles, measured once (which starts
    # vl-convert's engine): every chart's layout reads them.
    width("", LABEL_PX)
    width("", TITLE_PX, bold=True)
    with os.fdopen(read, "rb") as pipe:
        head = pipe.read(_LENGTH.size)
        if len(head) < _LENGTH.size:
            return {}
        (length,) = _LENGTH.unpack(head)
        asked: tuple[Path | None, list[ChartSpec]] = pickle.loads(pipe.read(length))
    directory, specs = asked
    return ChartCache(directory).drawn(specs)


def draw_ahead(cache: ChartCache, specs: Sequence[ChartSpec], drawer: Drawer | None,
               meanwhile: Callable[[], None]) -> None:
    """Draw `specs` into `cache`: by `drawer`'s child, all of them or half when there are
    many; without one, half in a child forked now when there are many and forking is
    safe here; the rest in this process. `meanwhile`: work of this process done while a
    child draws, rather than waiting idle for it."""
    mine, theirs = halves(specs)
    if len(specs) < MIN_SPLIT:
        mine, theirs = ([], list(specs)) if drawer is not None else (list(specs), [])
    elif drawer is None and not fork_safe():
        mine, theirs = list(specs), []
    if theirs and drawer is None and not cache.keeps_shapes():
        # Imported once for both processes: each would import it to compile shapes.
        import altair  # noqa: F401
    child = None
    if theirs:  # `drawer`'s child, else one forked now
        child = drawer.ask(cache.directory, theirs) if drawer is not None \
            else Forked(functools.partial(cache.drawn, theirs))
    try:
        if child is not None:
            meanwhile()
        cache.drawn(mine)
    except BaseException:
        if child is not None:
            child.cancel()
        raise
    if child is not None:
        cache.keep(child.result())


def halves(specs: Sequence[ChartSpec]) -> tuple[list[ChartSpec], list[ChartSpec]]:
    """The specs in two parts of about the same cost, each chart (by id: all of its
    languages) in one of them, in the order given."""
    costs: dict[str, int] = {}
    for spec in specs:
        costs.setdefault(spec.id, _FIXED_COST_PX + spec.width)
    loads, side = [0, 0], {}
    for chart_id, cost in costs.items():
        lighter = 0 if loads[0] <= loads[1] else 1
        side[chart_id] = lighter
        loads[lighter] += cost
    return ([s for s in specs if side[s.id] == 0], [s for s in specs if side[s.id] == 1])
