"""What a chart's sentence says, in one language: its lowest and highest marks, where
they stand and in which series, and why a series stops short (a record's note)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from progress_site.render.blocks.lines import Line
    from progress_site.render.words import Words


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
