"""Charts drawn at build time as inline SVG (Altair -> vl-convert), cached by their spec.

`ChartCache.svg` returns a chart's markup. A chart already in the cache is read back
without importing Altair or starting vl-convert's JavaScript engine: a build that changed
no chart draws none (see bench/charts.py, which builds with and without this cache).
How a spec is drawn is `svg.py`'s business, and it is imported only to draw one.

An entry's name is the hash of its spec and of what draws it: the versions of Altair,
vl-convert and this engine, and the bytes of the drawing code. No path, no file date and
no secret of the machine goes in, so a cache restored on another machine (a CI run's)
serves the same charts. An entry is served only if it is an SVG of the kind our charts
are (`allowed.py`); anything else is drawn again and replaced.

A cache may also draw nothing (`drawing=False`): a chart missing from it is then listed
(`missing`), and stands in as its last drawing, dimmed and marked busy, or as an empty
frame. A first build lists so the charts its pages' blocks will ask for, to draw them
before the pages on both cores (`ahead.py`); watch mode renders so, to show the page with
its new numbers at once, and has the charts drawn after.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
from collections.abc import Hashable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from progress_site import cache
from progress_site.cache import library_version as version
from progress_site.charts.allowed import LIMIT, allowed_svg
from progress_site.charts.shapes import Shapes, digest
from progress_site.charts.spec import ChartSpec
from progress_site.charts.style import SVG_NS

if TYPE_CHECKING:
    from progress_site.charts.svg import Drawn

# The last drawing of each chart (id, locale) a process served: what a chart not drawn
# yet shows while it is redrawn. As many entries as the site has charts; watch mode's
# builds share one.
LatestCharts = dict[tuple[str, str], str]
FOLDER = "charts"  # the folder of drawn charts, in the cache folder
_SHAPES = "shapes"  # the folder of compiled shapes, in it


class ChartCache:
    """The SVG of charts by spec: from memory, else from disk, else drawn and stored."""

    def __init__(self, directory: Path | None, drawing: bool = True,
                 latest: LatestCharts | None = None) -> None:
        """Keep charts in `directory` (made on first write), or only in memory if None;
        not `drawing`, list those missing (see the module's docstring)."""
        self.directory = directory
        self.drawing = drawing
        self.missing: list[ChartSpec] = []
        self.latest: LatestCharts = {} if latest is None else latest
        self._memory: dict[str, str] = {}
        # What each chart block showed, by its call (`render/blocks/charts.Charts.kept`):
        # the charts a build asked for before its pages are not worked out again there.
        self.shown: dict[tuple[Hashable, ...], Any] = {}
        self._keys: dict[ChartSpec, str] = {}  # a page's charts are asked for twice
        self._drawn: Drawn | None = None  # what this cache drew, made at its first drawing

    def key(self, spec: ChartSpec) -> str:
        """The name of the spec's entry (worked out once: a spec is frozen)."""
        if spec not in self._keys:
            self._keys[spec] = cache_key(spec, _renderer_versions())
        return self._keys[spec]

    def svg(self, spec: ChartSpec) -> str:
        """The chart's SVG markup, ready to inline in HTML."""
        key = self.key(spec)
        markup = self._memory.get(key) or self._read(key)
        if markup is None and not self.drawing:
            self.missing.append(spec)
            return stand_in(spec, self.latest)
        if markup is None:
            markup = self._draw(spec)
            self._write(key, markup)
        self._memory[key] = markup
        self.latest[(spec.id, spec.locale)] = markup
        return markup

    def drawn(self, specs: Iterable[ChartSpec]) -> dict[str, str]:
        """Each chart of `specs`, by key, drawn or read back: one that cannot be drawn is
        left out, for the page that shows it to draw it again and report why (`ahead.py`)."""
        markups = {}
        for spec in specs:
            try:
                markups[self.key(spec)] = self.svg(spec)
            except ValueError:
                _absorb_failure()
        return markups

    def keeps_shapes(self) -> bool:
        """Whether the cache folder holds compiled chart shapes (`shapes.py`): none on a
        first build, which compiles them with Altair."""
        return self.directory is not None and (self.directory / _SHAPES).is_dir()

    def lister(self) -> ChartCache:
        """A cache of the same folder that lists what it misses rather than draw it, and
        shares this one's memory: what it reads, and the blocks it showed whole, this one
        serves without reading or working them out again."""
        listing = ChartCache(self.directory, drawing=False, latest=self.latest)
        listing._memory, listing.shown, listing._keys = self._memory, self.shown, self._keys
        return listing

    def keep(self, markups: dict[str, str]) -> None:
        """Serve these charts, by key, from memory (another process drew them)."""
        self._memory.update(markups)

    def _draw(self, spec: ChartSpec) -> str:
        """Draw a chart, its shape's Vega spec from the cache folder when kept there
        (`shapes.py`). A kept shape that cannot be drawn, or whose drawing is not of the
        kind ours are, is compiled afresh, and replaced."""
        # Here: a build of cached charts draws none.
        from progress_site.charts.svg import Drawn, ForeignDrawing, render_svg

        drawn = self._drawn = self._drawn or Drawn()
        if self.directory is None:
            return render_svg(spec, drawn=drawn)
        shapes = Shapes(self.directory / _SHAPES,
                        json.dumps(_renderer_versions(), sort_keys=True))
        try:
            return render_svg(spec, shapes, drawn=drawn)
        except ForeignDrawing:
            return render_svg(spec, shapes, fresh=True, drawn=drawn)
        except (ValueError, TypeError, KeyError, AttributeError, IndexError):
            _absorb_failure()
            return render_svg(spec, shapes, fresh=True, drawn=drawn)

    def _read(self, key: str) -> str | None:
        """The stored chart with this key, if it is a drawing of the kind ours are."""
        if self.directory is None:
            return None
        data = cache.read(self.directory / f"{key}.svg", LIMIT)
        return None if data is None else allowed_svg(data)

    def _write(self, key: str, markup: str) -> None:
        """Store a chart whole or not at all: a killed build leaves no half-written file."""
        if self.directory is not None:
            cache.store(self.directory / f"{key}.svg", markup.encode("utf-8"))


def _absorb_failure() -> None:
    """After vl-convert failed to draw, a blank drawing: the engine hands a failed
    drawing's error to the call after it too (vl-convert-python 1.9.0.post1), which
    would otherwise be the chart's own."""
    import vl_convert

    with contextlib.suppress(ValueError):
        vl_convert.vega_to_svg({"width": 1, "height": 1})


def cache_key(spec: ChartSpec, renderer: dict[str, str]) -> str:
    """The sha256 of the spec's canonical JSON and of what renders it."""
    return digest(spec=dataclasses.asdict(spec), renderer=renderer)


@functools.cache  # the same for the whole process; read once
def _renderer_versions() -> dict[str, str]:
    """Besides the spec, what decides a chart's bytes: the renderers' versions (read by
    importlib.metadata, without importing either) and the engine's code."""
    return {
        "altair": version("altair"),
        "vl-convert-python": version("vl-convert-python"),
        "code": cache.engine_stamp(),
    }


_REDRAWING = 'class="chart chart-redrawing" aria-busy="true" style="opacity:0.35"'


def stand_in(spec: ChartSpec, latest: LatestCharts | None = None) -> str:
    """What a chart not drawn yet shows until it is: its last drawing (in `latest`),
    dimmed and marked busy for assistive technology, or an empty frame of its size named
    by its title."""
    last = (latest or {}).get((spec.id, spec.locale))
    if last is not None:
        return last.replace('class="chart"', _REDRAWING, 1)
    from xml.etree import ElementTree as ET  # here: a build with every chart drawn has none

    frame = ET.Element("svg", {"xmlns": SVG_NS, "width": str(spec.width),
                               "height": str(spec.height), "role": "img",
                               "aria-label": spec.title})
    ET.SubElement(frame, "title").text = spec.title
    return ET.tostring(frame, encoding="unicode").replace("<svg ", f"<svg {_REDRAWING} ", 1)


def draw(specs: list[ChartSpec], directory: Path) -> None:
    """Draw the charts a build listed (`missing`) into the cache (a chart already there is
    read back, not drawn again)."""
    cache = ChartCache(directory)
    for spec in specs:
        cache.svg(spec)
