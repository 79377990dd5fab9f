"""A chart as a page shows it: its drawing (and its phone's), described by its sentence
(its lowest and highest marks, where they stand and in which series, and why a series
stops short), and its numbers as a table. The SVG comes from the build's `ChartCache`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from markupsafe import Markup

from progress_site.charts.spec import narrow, wide_from
from progress_site.charts.style import FORMAT_LOCALES
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


def summary(w: Words, title: str, lines: list[Line], x_header: str,
            xs: list[tuple[float | str, str]], by_commit: bool = False,
            labelled: frozenset[str] = frozenset()) -> str:
    """One sentence that says what the chart shows, from exactly the points it draws:
    the lowest and the highest of all its marks, where they are and in which series
    (a bar chart's categories have no order that "from the first to the last" reads);
    `by_commit`: one line over commits, whose places are told as commits, but those
    `labelled` (a release's label), told by their label."""
    marks = [(p.y, i, p) for i, line in enumerate(lines) for p in line.points]
    low = min(marks, key=lambda m: m[0])
    high = max(marks, key=lambda m: m[0])
    if len(lines) == 1 and by_commit:  # as a series' chart says it (seriespage.py)
        at_low, at_high = (w.at_point(x, x if x in labelled else None)
                           for x in (low[2].x_text, high[2].x_text))
        sentence = w._("%(title)s: lowest %(low)s %(at_low)s, highest %(high)s "
                       "%(at_high)s.", title=title, low=low[2].y_text,
                       at_low=at_low, high=high[2].y_text, at_high=at_high)
    elif len(lines) == 1:
        sentence = w._("%(title)s: lowest %(low)s where %(x)s is %(low_x)s, highest "
                       "%(high)s where %(x)s is %(high_x)s.", title=title, x=x_header,
                       low=low[2].y_text, low_x=low[2].x_text, high=high[2].y_text,
                       high_x=high[2].x_text)
    else:
        sentence = w._("%(title)s: lowest %(low)s (%(low_name)s, where %(x)s is "
                       "%(low_x)s), highest %(high)s (%(high_name)s, where %(x)s is "
                       "%(high_x)s).", title=title, x=x_header, low=low[2].y_text,
                       low_name=lines[low[1]].name, low_x=low[2].x_text,
                       high=high[2].y_text, high_name=lines[high[1]].name,
                       high_x=high[2].x_text)
    return sentence + stopped_short(w, lines, x_header, xs[-1])


def stopped_short(w: Words, lines: list[Line], x_header: str,
                  last: tuple[float | str, str]) -> str:
    """For each series that stops before the last x, why, when a record's note tells
    (each sentence after a space)."""
    at, text = last
    return "".join(" " + w._("%(name)s has no number where %(x)s is %(value)s: %(why)s.",
                             name=line.name, x=x_header, value=text, why=line.missing)
                   for line in lines if line.missing and line.at(at) is None)
