"""The build, top to bottom: load -> validate -> derive -> render -> publish."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2

from progress_site.cache import refusal, user_folder
from progress_site.charts.ahead import MIN_SPLIT, draw_ahead
from progress_site.charts.cache import ChartCache, LatestCharts
from progress_site.collector import collector_paused
from progress_site.derive.site import Model, derive
from progress_site.engine_theme import theme_root
from progress_site.errors import BuildFailed, Problem, source_line
from progress_site.fork import Forked, can_fork, fork_safe
from progress_site.load.pages import Page
from progress_site.load.site import load
from progress_site.publish import changes
from progress_site.publish.news import Candidate, newest
from progress_site.publish.outputs import extra_files
from progress_site.publish.swap import publish
from progress_site.render.anchors import broken_anchors
from progress_site.render.blocklines import Block
from progress_site.render.dashboard import dashboard_pages, unlinked_series, unused_group_titles
from progress_site.render.drawings import charts_shown
from progress_site.render.environment import make_environment
from progress_site.render.i18n import Catalogs, load_catalogs
from progress_site.render.markdown import split_blocks
from progress_site.render.pages import render
from progress_site.render.templates import CompiledTemplates, template_loader
from progress_site.render.typed import typed_numbers
from progress_site.render.words import Words
from progress_site.validate.dates import check_dates
from progress_site.validate.placeholders import check_placeholders
from progress_site.validate.rules import validate

ENGINE_ROOT = theme_root()

if TYPE_CHECKING:
    from progress_site.charts.spec import ChartSpec


@dataclass(frozen=True, slots=True)
class BuildConfig:
    """What to build, where, and as of which day (never read from the clock in here)."""

    source: Path
    out: Path
    today: dt.date
    strict: bool = False
    engine_root: Path = ENGINE_ROOT
    base_url: str | None = None  # the public address, ending in '/'; None: all relative
    # Watch mode: charts missing from the cache are listed in `Built`, not drawn, so
    # that the pages with the new numbers come out first.
    draw_charts_later: bool = False
    # Render the other languages in a forked process when the site is large enough
    # (fork.can_fork says when forking is safe: never in watch mode's threaded process).
    parallel: bool = True
    # --cache-dir (checked by cli.config_from); None: the user's cache folder.
    cache: Path | None = None
    disk_cache: bool = True  # False: nothing kept between builds (every chart drawn)
    # Templates compiled by this process, in memory only (never a file: compiled code
    # runs): the languages of a build and watch mode's rebuilds share them.
    compiled: CompiledTemplates = field(default_factory=CompiledTemplates, compare=False)
    # The last drawing of each chart, which watch mode's rebuilds show while redrawing it.
    latest_charts: LatestCharts = field(default_factory=dict, compare=False)

    @property
    def cache_dir(self) -> Path | None:
        """Where drawn charts are kept between builds (safe to delete: the next build
        draws them again): `cache`, else the user's cache folder; None for no cache on
        disk, and never a folder the source or the output holds (`cache.refusal`)."""
        if not self.disk_cache:
            return None
        folder = self.cache if self.cache is not None else user_folder()
        return None if refusal(folder, self.source, self.out) else folder

    def own_folders(self) -> list[Path]:
        """The project's folders that publishing must never replace: what the build reads
        (the source's and the engine's), the cache, the repository."""
        names = ("data", "content", "templates", "locales", ".git")
        cache = [] if self.cache_dir is None else [self.cache_dir]
        return [*(self.source / n for n in names), *cache,
                *(self.engine_root / n for n in ("templates", "locales"))]

    def folders(self, name: str) -> list[Path]:
        """The source's folder of that name, then the engine's (overrides come first)."""
        found = [self.source / name, self.engine_root / name]
        unique = list(dict.fromkeys(p.resolve() for p in found))
        return [p for p in unique if p.is_dir()]


@dataclass(frozen=True, slots=True)
class Built:
    """A finished build: the files written and the warnings worth reading."""

    files: dict[str, bytes]
    warnings: list[Problem] = field(default_factory=list)
    model: Model | None = None
    charts_to_draw: tuple[ChartSpec, ...] = ()  # with `draw_charts_later`
    # What changed since the site it replaced (`build`); None when there was none.
    changes: list[str] | None = None


@dataclass(frozen=True, slots=True)
class Prepared:
    """What rendering reads, once load, validate and derive passed: the model, the pages,
    the catalogs, and the warnings found so far."""

    model: Model
    pages: tuple[Page, ...]
    catalogs: Catalogs
    problems: list[Problem]


Rendered = tuple[dict[str, bytes], list[Problem], list["ChartSpec"]]


def build(config: BuildConfig) -> Built:
    """Build the site and publish it: every file is made in memory, and what changed
    since the published site worked out, before `out` is touched; on any error `out` is
    left as it was."""
    # The old data.json is read now; one of another day, large, is parsed beside the build.
    with changes.Previous(config.out, config.parallel, config.today) as previous:
        ready = prepare(config)  # load -> validate -> derive
        built = finish(config, ready)  # render
        # Before the swap, which replaces the data.json to compare with: nothing may fail
        # once the new site is out (a summary that cannot be made is a warning).
        lines, found = changes.before_swap(previous, built.files, ready.model)
    publish(built.files, config.out)
    return dataclasses.replace(built, warnings=built.warnings + found, changes=lines)


def make_site(config: BuildConfig) -> Built:
    """Every file of the site in memory, nothing written (`--changes`, tests)."""
    return finish(config, prepare(config))


def prepare(config: BuildConfig) -> Prepared:
    """Load, validate and derive every input; BuildFailed with all the errors found."""
    # Large sites make about a million objects here and no cycles (bench/scale.py).
    with collector_paused():
        source, problems = load(config.source, config.strict)
        # All errors at once: the data is checked past those that spoiled a part only.
        if source is None or not source.checkable:
            fail_on_errors(problems, config.source)
        assert source is not None
        data, found = validate(source.data, config.today, source.aside)
        # Checked on the data as written: a study's date once, not once per figure.
        found += with_source_lines(check_dates(source.data, config.today, config.strict),
                                   config.source)
        problems += found + with_source_lines(check_placeholders(data, config.strict),
                                              config.source)
        fail_on_errors(problems, config.source)
        model, found = derive(data, config.today, source.history)
        catalogs = load_catalogs([(f, config.source) for f in config.folders("locales")],
                                 data.site.languages, config.strict)
        problems += with_source_lines(found, config.source) + list(catalogs.problems)
        problems += typed_numbers(model, source.pages, config.source, config.strict)
        fail_on_errors(problems, config.source)
    pages = source.pages + dashboard_pages(model, source.pages, catalogs)
    problems += with_source_lines(unlinked_series(model, source.pages, config.strict)
                                  + unused_group_titles(model, config.strict), config.source)
    fail_on_errors(problems, config.source)
    return Prepared(model, pages, catalogs, problems)


def finish(config: BuildConfig, ready: Prepared, first: frozenset[str] = frozenset(),
           shown: Callable[[dict[str, bytes]], None] | None = None) -> Built:
    """The whole site: the pages published at `first` ahead of the rest, handed to `shown`
    (watch mode shows the pages open in a browser first; BuildFailed if they have
    errors), then every other page and the files made from all pages (feeds, data.json...)."""
    early: Rendered = ({}, [], [])
    if first:
        early = render_pages(config, ready, first)
        if shown is not None:
            shown(early[0])
    # Rendering a large site makes many young objects and no cycles (bench/scale.py).
    with collector_paused():
        files, found, deferred = render_site(config, ready, early[0])
    problems = ready.problems + early[1] + found
    if all(p.warning for p in problems):  # every page rendered: their ids are known
        problems += broken_anchors(ready.pages, ready.model.data.site.languages, files,
                                   config.strict)
    fail_on_errors(problems, config.source)
    return Built(files, problems, ready.model, tuple(early[2] + deferred))


def render_pages(config: BuildConfig, ready: Prepared, paths: frozenset[str]) -> Rendered:
    """Only the pages published at `paths`; BuildFailed if they have errors."""
    charts = chart_cache(config)
    files, problems = render(ready.model, ready.pages, ready.catalogs,
                             config.folders("templates"), charts, config.base_url,
                             only=paths, compiled=config.compiled, strict=config.strict)
    fail_on_errors(ready.problems + problems, config.source)
    return files, problems, charts.deferred or []


def chart_cache(config: BuildConfig) -> ChartCache:
    """The charts of one rendering: from the cache folder, else drawn; with
    `draw_charts_later`, listed to draw instead (`ChartCache.deferred`)."""
    folder = config.cache_dir
    return ChartCache(folder / "charts" if folder else None,
                      [] if config.draw_charts_later else None, config.latest_charts)


def render_site(config: BuildConfig, ready: Prepared, done: dict[str, bytes]) -> Rendered:
    """Every file of the site; files and problems come in language order. A build that
    may draw many charts first renders its pages with stand-ins for the charts missing
    from the cache, draws those on both cores (`charts/ahead.py`), then renders its
    pages again with them; with none missing, the first rendering is the site."""
    if not drawing_ahead(config, ready):
        return render_all(config, ready, done, chart_cache(config))
    listing = dataclasses.replace(config, draw_charts_later=True)
    files, problems, missing = render_all(listing, ready, done, chart_cache(listing))
    if not missing or any(not p.warning for p in problems):
        return files, problems, []
    charts = chart_cache(config)
    draw_ahead(charts, missing)
    return render_all(config, ready, done, charts)


def drawing_ahead(config: BuildConfig, ready: Prepared) -> bool:
    """Whether the charts the pages miss are listed, then drawn on both cores: in a build
    that draws them (not watch mode's), where forking is safe, for many charts."""
    return (config.parallel and not config.draw_charts_later and fork_safe()
            and charts_shown(ready.pages, ready.model) >= MIN_SPLIT)


def render_all(config: BuildConfig, ready: Prepared, done: dict[str, bytes],
               charts: ChartCache) -> Rendered:
    """Every file of the site, its charts from `charts`: a large site's other languages
    in a forked process."""
    languages = ready.model.data.site.languages
    # A series' page costs more than a figure's card, so each counts too: a site of 200
    # benchmarks with long histories is large though it has 200 figures.
    records = len(ready.model.figures) + len(ready.model.series)
    if len(languages) == 1 or not config.parallel or not can_fork(records):
        return render_languages(config, ready, languages, done, charts)
    # A large site renders its other languages in a forked process (bench/scale.py),
    # which finds the templates compiled and the feeds' news chosen rather than doing
    # either again.
    compile_templates(config, ready)
    news = newest(ready.model)
    child = Forked(functools.partial(render_languages, config, ready, languages[1:], done,
                                     charts, news))
    try:
        files, problems, deferred = render_languages(config, ready, languages[:1], done,
                                                     charts, news)
    except BaseException:
        child.cancel()
        raise
    their_files, their_problems, their_deferred = child.result()
    return files | their_files, problems + their_problems, deferred + their_deferred


def compile_templates(config: BuildConfig, ready: Prepared) -> None:
    """The templates the pages will use compiled into `config.compiled`, as the first
    language's environment compiles them: every one but the blocks no page names. One
    that does not compile is left to the page that uses it, which reports it as before."""
    lang = ready.model.data.site.languages[0]
    translations = ready.catalogs.translations[lang]
    words = Words(lang, translations, ready.model.data.site, ready.model.namespace)
    env = make_environment(template_loader(config.folders("templates")), config.compiled,
                           translations, words, ready.model)
    named = {f"blocks/{part.name}.html" for page in ready.pages
             for part in split_blocks(page.body, page.body_line) if isinstance(part, Block)}
    for name in env.list_templates(extensions=["html"]):
        if name in named or not name.startswith("blocks/"):
            with contextlib.suppress(jinja2.TemplateError):
                env.get_template(name)


def render_languages(config: BuildConfig, ready: Prepared, languages: tuple[str, ...],
                     done: dict[str, bytes], charts: ChartCache,
                     news: list[Candidate] | None = None) -> Rendered:
    """The pages of some languages (but those `done`), then their feeds and 404 pages
    (and the site's data.json, sitemap and robots.txt with the first language); none
    after an error. `news`: the feeds' entries, when chosen already."""
    files, problems = render(ready.model, ready.pages, ready.catalogs,
                             config.folders("templates"), charts, config.base_url,
                             languages, skip=frozenset(done), compiled=config.compiled,
                             strict=config.strict)
    files |= done
    if all(p.warning for p in problems):
        files |= extra_files(ready.model, ready.pages, ready.catalogs, files,
                             base_url=config.base_url, cache_dir=config.cache_dir,
                             languages=languages, news=news)
    return files, problems, charts.deferred or []


def fail_on_errors(problems: list[Problem], root: Path) -> None:
    """Stop the build once, with every problem found so far."""
    if any(not p.warning for p in problems):
        raise BuildFailed(with_source_lines(problems, root))


def with_source_lines(problems: list[Problem], root: Path) -> list[Problem]:
    """Problems found after loading (cross-checks, blocks) with their source line too."""
    return [p if p.source_line or not p.location.line else
            dataclasses.replace(p, source_line=source_line(root / p.location.file,
                                                           p.location.line))
            for p in problems]
