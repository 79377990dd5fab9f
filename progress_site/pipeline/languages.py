"""Every file of the site, language by language; the templates its pages use compiled
ahead, while a child draws charts (`pipeline.rendering.draw_first`)."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import jinja2

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
