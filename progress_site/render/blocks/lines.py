"""The lines a chart block draws, and the spec they make: refused, at the block's line,
when past what one chart can show (model/limits.py) or otherwise not drawable.

The checks run before the spec is made, and the spec's own are turned into a
`BlockError` too: nothing a page or its data holds reaches the drawing unchecked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from progress_site.charts.spec import ChartSpec, Series
from progress_site.errors import shorten
from progress_site.model.limits import MAX_CATEGORIES, MAX_POINTS, MAX_SERIES, MAX_WORDS
from progress_site.render.blocks.options import BlockError

QUOTED = 60  # a word of the data as a message quotes it: its start and end if longer


@dataclass(frozen=True, slots=True)
class Point:
    """One point of a series: where it is, and how the page prints it."""

    x: float | str
    x_text: str
    y: float
    y_text: str


@dataclass(frozen=True, slots=True)
class Line:
    """One series to draw: its name, its points, and why it has none at the last x."""

    name: str
    points: tuple[Point, ...]
    missing: str = ""  # a record's note
    # Why a record has no point, by its x (its note): the table says it in its cell.
    notes: tuple[tuple[float | str, str], ...] = ()
    # The points by x: the table and the sentence look every x up in every series.
    by_x: dict[float | str, Point] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """Index the points by their x."""
        object.__setattr__(self, "by_x", {p.x: p for p in self.points})

    def at(self, x: float | str) -> Point | None:
        """The point at one x, if the series has one."""
        return self.by_x.get(x)

    def cell(self, x: float | str) -> str:
        """The table's cell at one x: the point as printed, else its record's note."""
        point = self.by_x.get(x)
        return point.y_text if point else dict(self.notes).get(x, "")


# How to chart fewer categories: a chart block's data, or a trend's history.
FEWER_X = "chart numbers on a line (x= a number field, kind=line), or fewer values of x"
FEWER_MOMENTS = "keep the latest points of its `history:` (older ones can stay in a dataset)"


def checked_spec(lines: list[Line], fewer: str = FEWER_X, **fields: Any) -> ChartSpec:
    """The spec of a chart of these lines, or a `BlockError` that says what is past the
    limits of a chart (model/limits.py) or else wrong with it; `fewer` is how to chart
    fewer categories."""
    ordinal = fields.get("kind") == "bar" or fields.get("x_kind") == "ordinal"
    check_limits(lines, ordinal, fewer, (("title", fields["title"]),
                                         ("x axis title", fields["x_title"]),
                                         ("y axis title", fields["y_title"])))
    # An axis of words shows what the table under the chart shows: the labels the
    # dataset declares (`mdBook`), never the word records write (`mdbook`).
    series = tuple(Series(line.name, tuple((p.x_text if isinstance(p.x, str) else p.x, p.y)
                                           for p in line.points))
                   for line in lines)
    try:
        return ChartSpec(series=series, **fields)
    except ValueError as exc:  # what the checks above let through, said as the spec does
        raise BlockError(str(exc), "see what a chart may show in docs/data-format.md") \
            from None


def check_limits(lines: list[Line], ordinal: bool, fewer: str,
                 titles: tuple[tuple[str, str], ...]) -> None:
    """Refuse a chart past what one can show (model/limits.py), at the block's line."""
    check_counts(len(lines), sum(len(line.points) for line in lines))
    twice = repeated([line.name for line in lines])
    if twice is not None:
        raise BlockError(f"chart: two series are labelled '{shorten(twice, QUOTED)}'",
                         "give each value of `series=` a label of its own (the labels of "
                         "the field's choices, in each language)")
    xs = every_x(lines)
    twice = repeated([text for x, text in xs if isinstance(x, str)])
    if twice is not None:
        raise BlockError(f"chart: two values of x are labelled '{shorten(twice, QUOTED)}'",
                         "give each choice of the x field a label of its own")
    categories = len(xs) if ordinal else 0
    if categories > MAX_CATEGORIES:
        raise BlockError(f"chart: {categories:,} values on the x axis, more than the "
                         f"{MAX_CATEGORIES:,} it can label", fewer)
    words = [*titles, *(("series label", line.name) for line in lines),
             *(("x label", p.x_text) for line in lines for p in line.points
               if isinstance(p.x, str))]
    for what, word in words:
        if len(word) > MAX_WORDS:
            raise BlockError(f"chart: the {what} '{shorten(word, QUOTED)}' has {len(word):,} "
                             f"characters, more than the {MAX_WORDS} a chart can show",
                             "shorten it in the data; a longer text belongs in the page")


def check_counts(series: int, points: int) -> None:
    """Refuse more series, or more points, than a chart can show."""
    if series > MAX_SERIES:
        raise BlockError(f"chart: {series:,} series, more than the {MAX_SERIES} a reader "
                         "can tell apart (each has its own colour, dash and marker)",
                         f"chart a field with at most {MAX_SERIES} values in `series=`, "
                         "or split the dataset in two")
    if points > MAX_POINTS:
        raise BlockError(f"chart: {points:,} points, more than the {MAX_POINTS:,} a chart "
                         "can show", "chart a part of the data (a dataset of its own, or "
                         "fewer records); the whole of it can go in a table")


def every_x(lines: list[Line]) -> list[tuple[float | str, str]]:
    """Every x of a chart with its printed form: numbers rising, labels as they come."""
    xs = list(dict.fromkeys((p.x, p.x_text) for line in lines for p in line.points))
    if all(not isinstance(x, str) for x, _ in xs):
        xs.sort(key=lambda p: p[0])
    return xs


def repeated(values: list[Any]) -> Any:
    """The first value that comes a second time, else None."""
    seen: set[Any] = set()
    for value in values:
        if value in seen:
            return value
        seen.add(value)
    return None
