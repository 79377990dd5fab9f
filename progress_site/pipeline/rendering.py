"""Render: every file of the site in memory, each page once, the pages asked for first;
the charts the pages miss drawn before them (on both cores, when many, the templates
compiled meanwhile), or listed to draw after the build (watch mode's, which shows the
pages at once)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import jinja2

from progress_site.charts import ahead
from progress_site.charts.cache import FOLDER, ChartCache, LatestCharts
from progress_site.collector import collector_paused
from progress_site.derive.derived import fail_on_errors, with_source_lines
from progress_site.errors import BuildFailed
from progress_site.fork import fork_safe
from progress_site.publish.outputs import extra_files
from progress_site.render.anchors import broken_anchors
from progress_site.render.blocklines import Block
from progress_site.render.drawings import ask_charts
from progress_site.render.environment import make_environment
from progress_site.render.markdown import parts
from progress_site.render.pages import page_places, render, whole_site_files
from progress_site.render.sandbox import SourceLoader
from progress_site.render.words import Words

if TYPE_CHECKING:
    from progress_site.charts.spec import ChartSpec
    from progress_site.derive.site import Model
    from progress_site.errors import Problem
    from progress_site.pipeline.config import BuildConfig
    from progress_site.pipeline.prepared import Prepared

# The files made, the problems found, the charts left to draw.
Rendered = tuple[dict[str, bytes], list["Problem"], list["ChartSpec"]]


@dataclass(frozen=True, slots=True)
class Built:
    """A finished build: the files written and the warnings worth reading."""

    files: dict[str, bytes]
    warnings: list[Problem] = field(default_factory=list)
    model: Model | None = None
    # The charts the pages miss, listed rather than drawn (`last_drawings`), each once.
    charts_to_draw: tuple[ChartSpec, ...] = ()
    # What changed since the site it replaced (`build(changes=True)`); None when there
    # was none, or it was not asked for.
    changes: list[str] | None = None


def finish(config: BuildConfig, ready: Prepared, first: frozenset[str] = frozenset(),
           shown: Callable[[dict[str, bytes]], None] | None = None,
           last_drawings: LatestCharts | None = None,
           drawer: ahead.Drawer | None = None) -> Built:
    """The whole site, each page rendered once: the pages published at `first` ahead of
    the rest, handed to `shown` (watch mode serves the pages open in a browser before the
    rest is built; BuildFailed if they have errors), then every other page and the files
    made from all pages (feeds, data.json...). The charts the pages miss are drawn (by
    `drawer`, a child ready to draw them, when given); with `last_drawings`, listed
    instead (`Built.charts_to_draw`), each showing its drawing there (which every chart
    served fills), else an empty frame."""
    if ready.failing:
        raise checked(config, ready)
    charts = chart_cache(config, last_drawings)
    if charts.drawing:
        draw_first(config, ready, charts, drawer)
    done: dict[str, bytes] = {}
    problems = list(ready.problems)
    if first:
        places = page_places(ready.pages, ready.model.data.site.languages)
        these = tuple(p for p in ready.pages if places[(p.language, p.slug)].path in first)
        done, found = render(ready.model, ready.pages, ready.catalogs,
                             config.folders("templates"), charts, config.base_url, these,
                             config.compiled, config.strict)
        problems += found
        fail_on_errors(problems, config.source)
        if shown is not None:
            shown(done)
    # Rendering a large site makes many young objects and no cycles (bench/scale.py).
    with collector_paused():
        files, found, missing = render_all(config, ready, done, charts)
    problems += found
    if all(p.warning for p in problems):  # every page rendered: their ids are known
        problems += broken_anchors(ready.pages, ready.model.data.site.languages, files,
                                   config.strict)
    fail_on_errors(problems, config.source)
    return Built(files, problems, ready.model, tuple(dict.fromkeys(missing)))


def checked(config: BuildConfig, ready: Prepared) -> BuildFailed:
    """The errors of a build whose data has some, the pages' among them: every page is
    rendered in memory to check it (its references, blocks, charts, templates), no chart
    is drawn and nothing else is made. The pages' warnings are left out: they read a
    model that lacks what failed, and may only say so again."""
    listing = chart_cache(config, {})
    _files, found, _missing = render_all(config, ready, {}, listing)
    return BuildFailed(with_source_lines(ready.problems + [p for p in found if not p.warning],
                                         config.source))


def chart_cache(config: BuildConfig, last_drawings: LatestCharts | None) -> ChartCache:
    """The charts of one build: from the cache folder, else drawn; with `last_drawings`,
    listed to draw instead (`ChartCache.missing`)."""
    folder = config.cache_dir
    return ChartCache(folder / FOLDER if folder else None, drawing=last_drawings is None,
                      latest=last_drawings)


def draw_first(config: BuildConfig, ready: Prepared, charts: ChartCache,
               drawer: ahead.Drawer | None) -> None:
    """A build with a `drawer`, or that may fork, asks for the charts its pages' blocks
    show before it renders a page (`render.drawings.ask_charts`), and has those missing
    from the cache drawn ahead, on both cores when many (`charts/ahead.py`); the pages
    then find them drawn. Any other build (never forking: beside watch mode's threads)
    would draw them all here anyway: each is drawn as its page asks."""
    if drawer is None and not fork_safe():
        return
    listing = charts.lister()
    ask_charts(ready.pages, ready.model, ready.catalogs, listing)
    if listing.missing:
        # While a child draws, the templates the pages use are compiled, not waited for.
        ahead.draw_ahead(charts, tuple(dict.fromkeys(listing.missing)), drawer,
                         meanwhile=lambda: compile_templates(config, ready))


def compile_templates(config: BuildConfig, ready: Prepared) -> None:
    """The templates the pages will use compiled into `config.compiled`, as the first
    language's environment compiles them: every one but the blocks no page names. One
    that does not compile is left to the page that uses it, which reports it as before."""
    lang = ready.model.data.site.languages[0]
    translations = ready.catalogs.translations[lang]
    words = Words(lang, translations, ready.model.data.site, ready.model.namespace)
    env = make_environment(SourceLoader(config.folders("templates")), config.compiled,
                           translations, words, ready.model)
    named = {f"blocks/{part.name}.html" for page in ready.pages
             for part in parts(page) if isinstance(part, Block)}
    for name in env.list_templates(extensions=["html"]):
        if name in named or not name.startswith("blocks/"):
            with contextlib.suppress(jinja2.TemplateError):
                env.get_template(name)


def render_all(config: BuildConfig, ready: Prepared, done: dict[str, bytes],
               charts: ChartCache) -> Rendered:
    """Every file of the site but the pages `done` (rendered already, and among the
    files), its charts from `charts`: the pages of every language, then the 404 pages,
    feeds, assets, data.json, sitemap and robots.txt; none of those after an error."""
    languages = ready.model.data.site.languages
    places = page_places(ready.pages, languages)
    these = tuple(p for p in ready.pages if places[(p.language, p.slug)].path not in done)
    folders = config.folders("templates")
    files, problems = render(ready.model, ready.pages, ready.catalogs, folders, charts,
                             config.base_url, these, config.compiled, config.strict)
    files |= done
    files |= whole_site_files(ready.model, ready.pages, ready.catalogs, folders, charts,
                              languages, config.base_url, config.compiled, problems)
    if not ready.failing and all(p.warning for p in problems):
        files |= extra_files(ready.model, ready.pages, ready.catalogs, files,
                             base_url=config.base_url, cache_dir=config.cache_dir)
    return files, problems, charts.missing
