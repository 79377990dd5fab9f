"""Render: every file of the site in memory, the pages asked for first; the charts the
pages miss drawn (ahead, on both cores, when many) or listed to draw after the build."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from progress_site.charts import ahead
from progress_site.charts.cache import FOLDER, ChartCache, Serving
from progress_site.collector import collector_paused
from progress_site.errors import BuildFailed
from progress_site.fork import fork_safe
from progress_site.pipeline.languages import Rendered, render_all
from progress_site.pipeline.prepared import fail_on_errors, with_source_lines
from progress_site.render.anchors import broken_anchors
from progress_site.render.drawings import charts_shown
from progress_site.render.pages import render

if TYPE_CHECKING:
    from progress_site.charts.spec import ChartSpec
    from progress_site.derive.site import Model
    from progress_site.errors import Problem
    from progress_site.pipeline.config import BuildConfig
    from progress_site.pipeline.prepared import Prepared


@dataclass(frozen=True, slots=True)
class Built:
    """A finished build: the files written and the warnings worth reading."""

    files: dict[str, bytes]
    warnings: list[Problem] = field(default_factory=list)
    model: Model | None = None
    charts_to_draw: tuple[ChartSpec, ...] = ()  # those `Serving.later` left out
    # What changed since the site it replaced (`build`); None when there was none.
    changes: list[str] | None = None


def finish(config: BuildConfig, ready: Prepared, first: frozenset[str] = frozenset(),
           shown: Callable[[dict[str, bytes]], None] | None = None,
           serving: Serving | None = None, drawer: ahead.Drawer | None = None) -> Built:
    """The whole site: the pages published at `first` ahead of the rest, handed to `shown`
    (watch mode shows the pages open in a browser first; BuildFailed if they have
    errors), then every other page and the files made from all pages (feeds, data.json...).
    `serving`: how the charts missing from the cache are served (drawn, by default);
    `drawer`: a child ready to draw them."""
    if ready.failing:
        raise checked(config, ready)
    serving = serving or Serving()
    early: Rendered = ({}, [], [])
    if first:
        early = render_pages(config, ready, first, serving)
        if shown is not None:
            shown(early[0])
    # Rendering a large site makes many young objects and no cycles (bench/scale.py).
    with collector_paused():
        files, found, deferred = render_site(config, ready, early[0], serving, drawer)
    problems = ready.problems + early[1] + found
    if all(p.warning for p in problems):  # every page rendered: their ids are known
        problems += broken_anchors(ready.pages, ready.model.data.site.languages, files,
                                   config.strict)
    fail_on_errors(problems, config.source)
    return Built(files, problems, ready.model, tuple(early[2] + deferred))


def checked(config: BuildConfig, ready: Prepared) -> BuildFailed:
    """The errors of a build whose data has some, the pages' among them: every page is
    rendered in memory to check it (its references, blocks, charts, templates), no chart
    is drawn and nothing else is made. The pages' warnings are left out: they read a
    model that lacks what failed, and may only say so again."""
    listing = chart_cache(config, Serving(later=True))
    _files, found, _later = render_all(config, ready, {}, listing)
    return BuildFailed(with_source_lines(ready.problems + [p for p in found if not p.warning],
                                         config.source))


def render_pages(config: BuildConfig, ready: Prepared, paths: frozenset[str],
                 serving: Serving) -> Rendered:
    """Only the pages published at `paths`; BuildFailed if they have errors."""
    charts = chart_cache(config, serving)
    files, problems = render(ready.model, ready.pages, ready.catalogs,
                             config.folders("templates"), charts, config.base_url,
                             only=paths, compiled=config.compiled, strict=config.strict)
    fail_on_errors(ready.problems + problems, config.source)
    return files, problems, charts.deferred or []


def chart_cache(config: BuildConfig, serving: Serving) -> ChartCache:
    """The charts of one rendering: from the cache folder, else drawn; with
    `serving.later`, listed to draw instead (`ChartCache.deferred`)."""
    folder = config.cache_dir
    return ChartCache(folder / FOLDER if folder else None,
                      [] if serving.later else None, serving.latest)


def render_site(config: BuildConfig, ready: Prepared, done: dict[str, bytes],
                serving: Serving, drawer: ahead.Drawer | None = None) -> Rendered:
    """Every file of the site; files and problems come in language order. A build with a
    `drawer`, or that may draw many charts, first renders its pages with stand-ins for
    the charts missing from the cache, draws those on both cores (`charts/ahead.py`),
    then renders its pages again with them; with none missing, the first rendering is
    the site."""
    if serving.later or (drawer is None and not drawing_ahead(ready)):
        return render_all(config, ready, done, chart_cache(config, serving))
    listing = dataclasses.replace(serving, later=True)
    files, problems, missing = render_all(config, ready, done, chart_cache(config, listing))
    if not missing or any(not p.warning for p in problems):
        return files, problems, []
    charts = chart_cache(config, serving)
    ahead.draw_ahead(charts, missing, drawer)
    return render_all(config, ready, done, charts)


def drawing_ahead(ready: Prepared) -> bool:
    """Whether the charts the pages miss are listed, then drawn on both cores: where
    forking is safe (never beside watch mode's threads), for many charts."""
    return fork_safe() and charts_shown(ready.pages, ready.model) >= ahead.MIN_SPLIT
