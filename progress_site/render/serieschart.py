"""A series' page chart, written as SVG: axes, thinned labels, the noise band of each
level, the detected steps. No vl-convert (a site may have 200 series) and
no JavaScript; colours are CSS classes read from the theme, so dark mode follows.
Where each thing goes (the scale, each point's x, the labels kept) is serieslayout.py's.

Every coordinate is rounded to one decimal, so the output is byte-identical across runs.
The SVG is written as text, not built as an ElementTree first: a site of 200 series has
800 of these charts, each of a few dozen elements and a line of hundreds of points, and
building and walking a tree of each cost more than drawing it. What comes from the data
or the words (titles, labels) is escaped as ElementTree escapes it (saxutils' `escape`,
with `ATTRIBUTE` in a value), so the bytes are those it wrote; every other attribute is
the engine's own or a number.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from xml.sax.saxutils import escape

from markupsafe import Markup

from progress_site.derive.regressions import Step
from progress_site.render.serieslayout import (
    BOTTOM,
    FONT,
    HEIGHT,
    LEFT,
    RIGHT,
    TOP,
    WIDTH,
    Lazy,
    Scale,
    label_width,
    scale_of,
    thinned,
    x_positions,
)

SVG = "http://www.w3.org/2000/svg"
DOT_SPACING = 5  # the least room between two points' dots (r 2.5), in viewBox units
# What ElementTree escapes in an attribute's value besides `&<>`: quotes, and the white
# space a parser would fold.
ATTRIBUTE = MappingProxyType({'"': "&quot;", "\r": "&#13;", "\n": "&#10;", "\t": "&#09;"})


@dataclass(frozen=True, slots=True)
class ChartText:
    """The words of one chart, already in the page's language."""

    title: str
    desc: str
    x_labels: Sequence[str]  # one per point (a `Lazy` one: only those shown are made)
    y_label: Callable[[float, int], str]  # a tick's value with its decimals, in its unit
    step_label: Callable[[Step], str]  # `+44.4 %`
    tags: tuple[tuple[int, str], ...] = ()  # labelled commits (a release): index, label


def series_chart(values: Sequence[float], steps: Sequence[Step], text: ChartText,
                 width: int = WIDTH, name: str = "wide", scale: Scale | None = None
                 ) -> Markup:
    """The chart of a series' values, its steps and its levels' noise band, `width`
    units wide (class `name`: the stylesheet shows one size per screen); `scale`, when
    the series' other chart has worked it out already (`scale_of`)."""
    scale = scale or scale_of(values, steps)
    bands, ticks, low, high = scale.bands, scale.ticks, scale.low, scale.high
    plot_w, plot_h = width - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    last = max(len(values) - 1, 1)

    def x(i: float) -> float:
        return LEFT + (i / last * plot_w if len(values) > 1 else plot_w / 2)

    def y(v: float) -> float:
        return TOP + plot_h - (v - low) / ((high - low) or 1.0) * plot_h

    xs = x_positions(len(values), width)

    out = [f'<svg xmlns="{SVG}" viewBox="0 0 {width} {HEIGHT}" width="100%" role="img" '
           f'class="series-svg {name}" aria-label="{escape(text.title, ATTRIBUTE)}" '
           f'font-size="{FONT}">', f"<title>{escape(text.title)}</title>",
           f"<desc>{escape(text.desc)}</desc>"]
    y_axis(out, ticks, scale.decimals, text, y, width)
    for first, end, mid, noise in bands:
        # A level of one point has no width: half a step either side shows it.
        x0, x1 = x(max(first - 0.5, 0)), x(min(end + 0.5, last))
        rect(out, "band", x0, y(mid + noise), x1 - x0, y(mid - noise) - y(mid + noise))
        line(out, "level", x0, y(mid), x1, y(mid))
    x_axis(out, xs, text, width)
    for step in steps:
        step_mark(out, step, text, x, values)
    for index, label in text.tags:
        tag_mark(out, index, label, x, len(values))
    points = line_points(len(values), width) % scale.ys
    out.append(f'<polyline class="line" points="{points}" fill="none" />')
    # A dot a point while dots stand apart; closer, they would only blot the line
    # (500 points on 620 units), so the line alone shows them.
    if plot_w >= DOT_SPACING * last:
        out += [f'<circle class="point" cx="{r(x(i))}" cy="{r(y(v))}" r="2.5" />'
                for i, v in enumerate(values)]
    out.append("</svg>")
    return Markup("".join(out))


def line_points(count: int, width: int) -> str:
    """The line's `points` on a chart `width` units wide: each x written, each y a `%.1f`
    to fill in (one formatting of the series' ys a chart, not one a point). Inside the
    plot every coordinate is positive, so `.1f` writes what `r` would (no `-0.0`)."""
    return " ".join(f"{at:.1f},%.1f" for at in x_positions(count, width))


def y_axis(out: list[str], ticks: list[float], decimals: int, text: ChartText,
           y: Callable[[float], float], width: int) -> None:
    """Grid lines and the ticks' labels, right-aligned left of the plot."""
    out.append('<g class="y-axis">')
    for tick in ticks:
        line(out, "grid", LEFT, y(tick), width - RIGHT, y(tick))
        label(out, r(LEFT - 6), r(y(tick) + FONT * 0.35), "end", text.y_label(tick, decimals))
    out.append("</g>")


def x_axis(out: list[str], xs: Sequence[float], text: ChartText, width: int) -> None:
    """The baseline and the thinned labels of the commits' dates (`xs`: each point's x)."""
    out.append('<g class="x-axis">')
    base = HEIGHT - BOTTOM
    line(out, "axis", LEFT, base, width - RIGHT, base)
    widths = Lazy(len(xs), lambda i: label_width(text.x_labels[i]))
    picked = thinned(xs, widths, LEFT - 8, width)
    # A CI run pushes many commits a day: a day is written once, at its newest point.
    nexts = [text.x_labels[i] for i, _ in picked[1:]] + [None]
    for (i, centre), after in zip(picked, nexts, strict=True):
        if text.x_labels[i] == after:
            continue
        line(out, "tick", xs[i], base, xs[i], base + 4)
        label(out, r(centre), r(base + 6 + FONT), "middle", text.x_labels[i])
    out.append("</g>")


def step_mark(out: list[str], step: Step, text: ChartText, x: Callable[[float], float],
              values: Sequence[float]) -> None:
    """A step: a shaded rule over its commit range, and its change in percent."""
    kind = "regression" if step.direction == "regression" else "improvement"
    out.append(f'<g class="step {kind}">')
    # The change happened after the old level's last point, at or before the new one's
    # first: the range spans those two points (`commits` of them may be unmeasured).
    before = max(step.index - 1, 0)
    x0, x1 = x(before), x(step.index)
    rect(out, "step-range", x0, TOP, max(x1 - x0, 2.0), HEIGHT - TOP - BOTTOM)
    line(out, "step-rule", x1, TOP, x1, HEIGHT - BOTTOM)
    label(out, r(x1), r(TOP - 8), "end" if step.index > len(values) / 2 else "start",
          text.step_label(step))
    out.append("</g>")


def tag_mark(out: list[str], index: int, words: str, x: Callable[[float], float],
             count: int) -> None:
    """A labelled commit (a release): a rule at its point, its label at the plot's
    foot, on the side with room."""
    out.append('<g class="tag">')
    at = x(index)
    # The axis's colour (class `tick`): a tag is context, not a change of level.
    line(out, "tick tag-rule", at, TOP, at, HEIGHT - BOTTOM)
    right = index > count / 2
    label(out, r(at - 3 if right else at + 3), r(HEIGHT - BOTTOM - 4),
          "end" if right else "start", words)
    out.append("</g>")


def label(out: list[str], x: str, y: str, anchor: str, words: str) -> None:
    """One text at (`x`, `y`), anchored at its `anchor`; an empty one as an empty
    element, as ElementTree writes it."""
    opened = f'<text x="{x}" y="{y}" text-anchor="{anchor}"'
    out.append(f"{opened}>{escape(words)}</text>" if words else opened + " />")


def line(out: list[str], cls: str, x1: float, y1: float, x2: float, y2: float) -> None:
    """One line of class `cls`."""
    out.append(f'<line class="{cls}" x1="{r(x1)}" y1="{r(y1)}" x2="{r(x2)}" y2="{r(y2)}" />')


def rect(out: list[str], cls: str, x: float, y: float, w: float, h: float) -> None:
    """One rectangle of class `cls`."""
    out.append(f'<rect class="{cls}" x="{r(x)}" y="{r(y)}" width="{r(w)}" '
               f'height="{r(max(h, 0.0))}" />')


def r(value: float) -> str:
    """A coordinate, rounded to a tenth (and no `-0.0`)."""
    return f"{round(value, 1) + 0.0:.1f}"
