"""A chart as a page shows it: its drawing (and its phone's), described by its sentence,
and its numbers as a table. The SVG comes from the build's `ChartCache`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from markupsafe import Markup

from progress_site.charts.spec import narrow, wide_from
from progress_site.charts.style import FORMAT_LOCALES
from progress_site.render.blocks.chartsummary import summary
from progress_site.render.blocks.lines import every_x
from progress_site.render.blocks.options import BlockError

if TYPE_CHECKING:
    from progress_site.charts.cache import ChartCache
    from progress_site.charts.spec import ChartSpec
    from progress_site.render.blocks.lines import Line
    from progress_site.render.words import Words


@dataclass(frozen=True, slots=True)
class ChartView:
    """A drawn chart, its sentence, and its numbers as a table."""

    id: str
    svg: Markup
    narrow: Markup | None  # the drawing a phone shows, for a chart wider than one
    wide_from: int  # the least width, in rem, that shows `svg` (style.css: wide-from-N)
    summary: str
    x_header: str
    series: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str, ...]], ...]


def chart_locale(w: Words) -> str:
    """The number format of the axes (English where the chart engine has none)."""
    return w.lang if w.lang in FORMAT_LOCALES else "en"


def chart_view(w: Words, cache: ChartCache, spec: ChartSpec, lines: list[Line],
               x_header: str, by_commit: bool = False,
               labelled: frozenset[str] = frozenset()) -> ChartView:
    """The drawn chart (and its phone's drawing) with its sentence and its table;
    `by_commit`: its x axis is the commits measured (a trend's), `labelled` the x
    texts that are a point's label (a release) rather than its commit."""
    figure = f"{spec.id}-figure"
    small = narrow(spec)
    svg = drawn(cache, spec, figure, "wide" if small else "")
    xs = every_x(lines)
    rows = tuple((text, tuple(line.cell(x) for line in lines)) for x, text in xs)
    phone = drawn(cache, small, figure, "narrow") if small else None
    return ChartView(figure, svg, phone, wide_from(spec),
                     summary(w, spec.title, lines, x_header, xs, by_commit, labelled),
                     x_header, tuple(line.name for line in lines), rows)


def drawn(cache: ChartCache, spec: ChartSpec, figure: str, size: str) -> Markup:
    """A chart's SVG, described by its figure's sentence, of class `size` besides
    `chart` (the stylesheet shows one size a column width)."""
    try:
        svg = cache.svg(spec)
    except ValueError as exc:
        raise BlockError(str(exc)) from None
    if size:
        svg = svg.replace('class="chart', f'class="chart {size}', 1)
    return Markup(svg.replace("<svg ", f'<svg aria-describedby="{figure}-summary" ', 1))
