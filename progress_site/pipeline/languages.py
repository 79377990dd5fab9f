"""Every file of the site, language by language: a large site's other languages rendered
in a forked process, the templates compiled before it forks."""

from __future__ import annotations

import contextlib
import functools
from typing import TYPE_CHECKING

import jinja2

from progress_site import fork
from progress_site.publish.news import Candidate, newest
from progress_site.publish.outputs import extra_files
from progress_site.render.blocklines import Block
from progress_site.render.environment import make_environment
from progress_site.render.markdown import parts
from progress_site.render.pages import page_places, render, whole_site_files
from progress_site.render.templates import template_loader
from progress_site.render.words import Words

if TYPE_CHECKING:
    from progress_site.charts.cache import ChartCache
    from progress_site.charts.spec import ChartSpec
    from progress_site.errors import Problem
    from progress_site.pipeline.config import BuildConfig
    from progress_site.pipeline.prepared import Prepared

# The files made, the problems found, the charts left to draw.
Rendered = tuple[dict[str, bytes], list["Problem"], list["ChartSpec"]]


def render_all(config: BuildConfig, ready: Prepared, done: dict[str, bytes],
               charts: ChartCache) -> Rendered:
    """Every file of the site but the pages `done` (rendered already, and among the
    files), its charts from `charts`: a large site's other languages in a forked
    process."""
    languages = ready.model.data.site.languages
    # A series' page costs more than a figure's card, so each counts too: a site of 200
    # benchmarks with long histories is large though it has 200 figures.
    records = len(ready.model.figures) + len(ready.model.series)
    if len(languages) == 1 or not fork.can_fork(records):
        return render_languages(config, ready, languages, done, charts)
    # A large site renders its other languages in a forked process (bench/scale.py),
    # which finds the templates compiled and the feeds' news chosen rather than doing
    # either again.
    compile_templates(config, ready)
    news = None if ready.failing else newest(ready.model)  # the feeds are for a good build
    child = fork.Forked(functools.partial(render_languages, config, ready, languages[1:],
                                          done, charts, news))
    try:
        files, problems, missing = render_languages(config, ready, languages[:1], done,
                                                    charts, news)
    except BaseException:
        child.cancel()
        raise
    their_files, their_problems, their_missing = child.result()
    return files | their_files, problems + their_problems, missing + their_missing


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
             for part in parts(page) if isinstance(part, Block)}
    for name in env.list_templates(extensions=["html"]):
        if name in named or not name.startswith("blocks/"):
            with contextlib.suppress(jinja2.TemplateError):
                env.get_template(name)


def render_languages(config: BuildConfig, ready: Prepared, languages: tuple[str, ...],
                     done: dict[str, bytes], charts: ChartCache,
                     news: list[Candidate] | None = None) -> Rendered:
    """The pages of some languages (but those `done`), then their 404 pages and feeds
    (and the assets, the site's data.json, sitemap and robots.txt with the first
    language); none after an error. `news`: the feeds' entries, when chosen already."""
    places = page_places(ready.pages, ready.model.data.site.languages)
    these = tuple(p for p in ready.pages if p.language in languages
                  and places[(p.language, p.slug)].path not in done)
    folders = config.folders("templates")
    files, problems = render(ready.model, ready.pages, ready.catalogs, folders, charts,
                             config.base_url, these, config.compiled, config.strict)
    files |= done
    files |= whole_site_files(ready.model, ready.pages, ready.catalogs, folders, charts,
                              languages, config.base_url, config.compiled, problems)
    if not ready.failing and all(p.warning for p in problems):
        files |= extra_files(ready.model, ready.pages, ready.catalogs, files,
                             base_url=config.base_url, cache_dir=config.cache_dir,
                             languages=languages, news=news)
    return files, problems, charts.missing
