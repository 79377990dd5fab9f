"""How many charts a site's pages show, counted from their blocks before any is rendered:
what tells a build that it may have many charts to draw (`pipeline.rendering.render_site`).

A count, not a promise: a chart whose block is in error, a trend of too few points or a
site's own template that draws more all change what is drawn. Only the time a build
takes depends on it, never its output.
"""

from __future__ import annotations

from collections.abc import Iterable

from progress_site.derive.site import Model
from progress_site.load.pages import Page
from progress_site.render.blocklines import Block
from progress_site.render.markdown import split_blocks


def charts_shown(pages: Iterable[Page], model: Model) -> int:
    """The charts the pages' blocks show, in every language: one a `chart` or `trend`
    block, one a comparison with a history in a `comparisons` block."""
    trends = {s.study.id: sum(1 for c in s.comparisons if c.comparison.history)
              for s in model.studies}
    count = 0
    for page in pages:
        for part in split_blocks(page.body, page.body_line):
            if isinstance(part, Block):
                count += _charts_of(part, trends)
    return count


def _charts_of(block: Block, trends: dict[str, int]) -> int:
    """The charts one block shows (`trends`: a study's comparisons with a history)."""
    if block.name in ("chart", "trend"):
        return 1
    if block.name == "comparisons" and block.args and ("trends", "no") not in block.options:
        return trends.get(block.args[0], 0)
    return 0
