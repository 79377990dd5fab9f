"""Charts drawn at build time as inline SVG (Altair -> vl-convert), cached by their spec.

A chart is a frozen `ChartSpec`; `ChartCache.svg` returns its markup. A chart already in
the cache is read back without importing Altair or starting vl-convert's JavaScript
engine, which would otherwise be most of the time of a build that changed no chart.
How a spec is drawn is `chart_svg`'s business, and it is imported only to draw one.

Watch mode may ask a build to draw no chart (`deferred`): a chart missing from the cache
is then listed, and stands in as its last drawing, dimmed and marked busy, or as an
empty frame. The page with its new numbers is out at once; the charts follow.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from progress_site.cache import engine_stamp, write_atomically
from progress_site.cache import library_version as version
from progress_site.charts.style import FORMAT_LOCALES, MAX_SERIES, SVG_NS

_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")


@dataclass(frozen=True, slots=True)
class Series:
    """One line, or one group of bars, with its legend label."""

    name: str  # legend label, already translated
    points: tuple[tuple[float | str, float], ...]  # (x, y); x is a number or a label


@dataclass(frozen=True, slots=True)
class ChartSpec:
    """Everything that decides a chart's SVG, and nothing else (it is the cache key)."""

    id: str  # stable; prefixes the ids inside the SVG, so charts on one page do not clash
    kind: Literal["line", "bar"]
    title: str  # already translated, like the other words
    x_title: str
    y_title: str
    series: tuple[Series, ...]
    x_kind: Literal["quantitative", "ordinal"] = "quantitative"  # bars are always ordinal
    y_zero: bool = True  # start the y axis at zero (bars always do)
    width: int = 560  # of the whole SVG, in px
    height: int = 260
    rule: float | None = None  # a horizontal reference line, e.g. a limit, drawn dashed
    locale: str = "en"  # number format on the axes: "en" or "fr"

    def __post_init__(self) -> None:
        """Refuse a spec that would draw a wrong or misleading chart."""
        problems = _spec_problems(self)
        for series in self.series:
            problems += _point_problems(self, series)
        if problems:
            raise ValueError("\n".join(f"chart {self.id!r}: {problem}" for problem in problems))


def _spec_problems(spec: ChartSpec) -> list[str]:
    """What is wrong with a spec as a whole."""
    problems = []
    if not _ID.fullmatch(spec.id):
        problems.append("id: expected a letter, then letters, digits, '-' or '_'")
    if spec.kind not in ("line", "bar"):
        problems.append(f"kind: expected 'line' or 'bar', got {spec.kind!r}")
    if spec.x_kind not in ("quantitative", "ordinal"):
        problems.append(f"x_kind: expected 'quantitative' or 'ordinal', got {spec.x_kind!r}")
    if spec.locale not in FORMAT_LOCALES:
        problems.append(f"locale: expected one of {sorted(FORMAT_LOCALES)}, got {spec.locale!r}")
    if not 1 <= len(spec.series) <= MAX_SERIES:
        problems.append(f"series: expected 1 to {MAX_SERIES}, got {len(spec.series)}")
    names = [series.name for series in spec.series]
    if len(set(names)) < len(names):
        problems.append(f"series: two series share a name in {names}")
    if len({isinstance(x, str) for series in spec.series for x, _ in series.points}) > 1:
        problems.append("x: mixes numbers and labels; write every x the same way")
    if spec.kind == "bar" and not spec.y_zero:
        problems.append("y_zero: bars start at zero, or their lengths would mislead")
    if spec.width <= 0 or spec.height <= 0:
        problems.append(f"size: expected positive pixels, got {spec.width}x{spec.height}")
    if spec.rule is not None and not _is_number(spec.rule):
        problems.append(f"rule: expected a finite number, got {spec.rule!r}")
    return problems


def _point_problems(spec: ChartSpec, series: Series) -> list[str]:
    """What is wrong with the points of one series."""
    labels_allowed = spec.kind == "bar" or spec.x_kind == "ordinal"
    problems = []
    for index, (x, y) in enumerate(series.points):
        where = f"series {series.name!r}, point {index}"
        if isinstance(x, str) and not labels_allowed:
            problems.append(f"{where}: x {x!r} is a label, which needs x_kind='ordinal'")
        elif not isinstance(x, str) and not _is_number(x):
            problems.append(f"{where}: x: expected a finite number or a label, got {x!r}")
        if not _is_number(y):
            problems.append(f"{where}: y: expected a finite number, got {y!r}")
    return problems


def _is_number(value: object) -> bool:
    """Whether a value is a finite int or float (a bool is not a number here)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return math.isfinite(value)


class ChartCache:
    """The SVG of charts by spec: from memory, else from disk, else drawn and stored."""

    def __init__(self, directory: Path | None,
                 deferred: list[ChartSpec] | None = None) -> None:
        """Keep charts in `directory` (made on first write), or only in memory if None.

        With a `deferred` list, a chart not in the cache is not drawn: its spec is added
        to the list and a stand-in is served (see `stand_in`).
        """
        self.directory = directory
        self.deferred = deferred
        self.hits = 0  # served from memory or disk
        self.misses = 0  # drawn
        self._memory: dict[str, str] = {}

    @staticmethod
    @functools.lru_cache(maxsize=4096)
    def _key(spec: ChartSpec) -> str:
        """The spec's cache key, worked out once a process (a spec is frozen)."""
        return cache_key(spec, _renderer_versions())

    def svg(self, spec: ChartSpec) -> str:
        """The chart's SVG markup, ready to inline in HTML."""
        key = self._key(spec)
        markup = self._memory.get(key) or self._read(key)
        if markup is None and self.deferred is not None:
            self.deferred.append(spec)
            return stand_in(spec)
        if markup is None:
            from progress_site.charts.svg import (
                render_svg,  # here: a build of cached charts draws none
            )

            self.misses += 1
            markup = render_svg(spec)
            self._write(key, markup)
        else:
            self.hits += 1
        self._memory[key] = markup
        _LATEST[(spec.id, spec.locale)] = markup
        return markup

    def _read(self, key: str) -> str | None:
        """The stored chart with this key, if any."""
        if self.directory is None:
            return None
        try:
            return (self.directory / f"{key}.svg").read_bytes().decode("utf-8")
        except FileNotFoundError:
            return None

    def _write(self, key: str, markup: str) -> None:
        """Store a chart whole or not at all: a killed build leaves no half-written file."""
        if self.directory is not None:
            write_atomically(self.directory / f"{key}.svg", markup.encode("utf-8"))


def cache_key(spec: ChartSpec, renderer: dict[str, str]) -> str:
    """The sha256 of the spec's canonical JSON and of what renders it."""
    payload = {"spec": spec_fields(spec), "renderer": renderer}
    text = json.dumps(
        payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def spec_fields(spec: ChartSpec) -> dict[str, object]:
    """The spec as `dataclasses.asdict` gives it, for JSON, without its deep copies (a
    spec holds only numbers and strings): three times faster, for every chart of every
    build. tests/test_charts.py checks that the two agree, so a new field counts too."""
    fields: dict[str, object] = {name: getattr(spec, name) for name in _SPEC_FIELDS}
    fields["series"] = [{name: getattr(series, name) for name in _SERIES_FIELDS}
                        for series in spec.series]
    return fields


_SPEC_FIELDS = tuple(f.name for f in dataclasses.fields(ChartSpec))
_SERIES_FIELDS = tuple(f.name for f in dataclasses.fields(Series))


@functools.cache  # the same for the whole process; read once
def _renderer_versions() -> dict[str, str]:
    """Besides the spec, what decides a chart's bytes: the renderers' versions, this code.

    importlib.metadata reads the versions without importing either package. The code is
    hashed too, so that changing how charts look cannot serve stale ones from the cache.
    """
    return {
        "altair": version("altair"),
        "vl-convert-python": version("vl-convert-python"),
        "code": engine_stamp(),
    }


# The last drawing of each chart (id, locale) this process served: what a deferred
# chart shows while it is redrawn. As many entries as the site has charts.
_LATEST: dict[tuple[str, str], str] = {}
_REDRAWING = 'class="chart chart-redrawing" aria-busy="true" style="opacity:0.35"'


def stand_in(spec: ChartSpec) -> str:
    """What a deferred chart shows until it is drawn: its last drawing, dimmed and marked
    busy for assistive technology, or an empty frame of its size named by its title."""
    last = _LATEST.get((spec.id, spec.locale))
    if last is not None:
        return last.replace('class="chart"', _REDRAWING, 1)
    from xml.etree import ElementTree as ET  # here: a build with every chart drawn has none

    frame = ET.Element("svg", {"xmlns": SVG_NS, "width": str(spec.width),
                               "height": str(spec.height), "role": "img",
                               "aria-label": spec.title})
    ET.SubElement(frame, "title").text = spec.title
    return ET.tostring(frame, encoding="unicode").replace("<svg ", f"<svg {_REDRAWING} ", 1)


def draw(specs: list[ChartSpec], directory: Path) -> int:
    """Draw the charts a deferred build listed into the cache; return how many were new
    (a chart already there is read back, not drawn again)."""
    cache = ChartCache(directory)
    for spec in specs:
        cache.svg(spec)
    return cache.misses
