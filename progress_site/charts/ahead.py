"""Charts drawn before the pages that show them, on two cores: a first build of a site
of many charts lists those its pages miss (rendering them with stand-ins, see
`pipeline.rendering.render_site`), draws them here, about half in a forked child, then
renders its pages again with every chart at hand (bench/charts.py).

vl-convert draws one chart at a time in a process (one lock around its engine), so a
second core helps only as a second process. The child is forked before vl-convert is
loaded (`fork.fork_safe`), starts an engine of its own and sends its drawings back. A
chart's languages share one drawing (`svg.drawing`), so they are drawn in one process.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from progress_site.charts.cache import ChartCache
from progress_site.charts.spec import ChartSpec
from progress_site.fork import Forked, fork_safe

# Drawings: below this many, the child's own start (Altair, vl-convert's engine) costs
# about what it saves.
MIN_SPLIT = 40
# What a drawing costs, counted in px of width: a fixed part (vl-convert's call, the axes
# and words every drawing has) and a part that grows with its width; narrow drawings are
# far from free, so halves are balanced on both (bench/charts.py measures the split).
_FIXED_COST_PX = 600


def draw_ahead(cache: ChartCache, specs: Sequence[ChartSpec]) -> None:
    """Draw `specs` into `cache`: half of the work in a forked child when there is enough
    of it and forking is safe here, the rest in this process."""
    mine, theirs = halves(specs)
    if len(specs) < MIN_SPLIT or not fork_safe():
        mine, theirs = list(specs), []
    if theirs and not cache.keeps_shapes():
        # Imported once for both processes: each would import it to compile shapes.
        import altair  # noqa: F401
    child = Forked(functools.partial(cache.drawn, theirs)) if theirs else None
    try:
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
