"""The charts a site's pages show, found from their blocks before any page is rendered:
each one asked of a cache that lists those it misses, so that a build draws them (on
both cores, when many) before it renders its pages, once (`pipeline.rendering`). What a
block showed with all of its charts at hand (every one, on a warm build) is kept, and its
page shows it without working it out again (`Charts.kept`).

A forecast, not a promise: a chart whose block is in error, a trend of too few points or a
site's own template that draws more all change what is drawn. A chart it misses is drawn
as its page asks for it: only the time a build takes depends on it, never its output.
"""

from __future__ import annotations

from collections.abc import Iterable

from progress_site.charts.cache import ChartCache
from progress_site.derive.site import Model
from progress_site.load.pages import Page
from progress_site.render.blocklines import Block
from progress_site.render.blocks.charts import Charts
from progress_site.render.blocks.tables import Tables
from progress_site.render.i18n import Catalogs
from progress_site.render.markdown import parts
from progress_site.render.words import Words


def ask_charts(pages: Iterable[Page], model: Model, catalogs: Catalogs,
               cache: ChartCache) -> None:
    """Ask `cache` for the chart of every block that shows one, in each page's language,
    as the block templates ask (templates/blocks/chart.html, trend.html,
    comparisons.html), without rendering a page."""
    helpers: dict[str, Charts] = {}
    for page in pages:
        if page.language not in helpers:
            words = Words(page.language, catalogs.translations[page.language],
                          model.data.site, model.namespace)
            helpers[page.language] = Charts(model, Tables(words, model.namespace.datasets),
                                            cache)
        for part in parts(page):
            if isinstance(part, Block) and part.name in ("chart", "trend", "comparisons"):
                _ask(helpers[page.language], part, model)


def _ask(charts: Charts, block: Block, model: Model) -> None:
    """The charts of one block asked for; a block in error asks for none (its page says
    why when it renders)."""
    options = dict(block.options)
    try:
        if block.name == "chart":
            charts.chart(block.args, options)
        elif block.name == "trend":
            charts.trend(block.args, options)
        elif options.get("trends", "yes") != "no" and block.args:
            for view in model.studies:
                if view.study.id == block.args[0]:
                    for c in view.comparisons:
                        charts.comparison_trend(c, view.study)
    # Whatever a block's mistake raises is its page's to report: a forecast only skips it.
    except Exception:
        return
