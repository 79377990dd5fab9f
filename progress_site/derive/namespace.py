"""`{{ comparisons.cpu-500.ratio }}` in texts: the names derived numbers are known by.

Texts in data and in Markdown never type a derived number; they name it, and the
render stage prints it in the page's language. A text inside a record may use the
record's own names without the prefix (`{{ ratio }}` inside a comparison). Between the
braces may also stand an expression over the datasets' records (see `expressions`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from progress_site.derive.quantity import Quantity, figure_quantity
from progress_site.derive.views import (
    BudgetView,
    FigureView,
    HeadlineView,
    RoadmapView,
    StudyView,
)
from progress_site.errors import closest
from progress_site.model.dataset import Dataset
from progress_site.model.schema import Commit, Data, Figure
from progress_site.model.values import Text, Where
from progress_site.model.walk import holding_fields

# `{{ name }}`, `{{ name:1 }}` or `{{ expression | filter }}`, on one line (not `{{<`);
# not after a backslash, which Markdown reads as an escape (`\{{ x }}` prints as written).
REFERENCE = re.compile(r"(?<!(?<!\\)\\)\{\{(?!<)\s*([^{}\n]*?)\s*\}\}")

Entry = Quantity | Commit


@dataclass(frozen=True, slots=True)
class Namespace:
    """Every name a text may cite, and which figure or record each stands for."""

    entries: dict[str, Entry]
    figures: dict[str, Figure]  # names that stand for a whole figure (for headlines)
    scopes: dict[int, str] = field(default_factory=dict)  # id(record) -> its own prefix
    datasets: dict[str, Dataset] = field(default_factory=dict)  # what expressions select
    # What each (expression, scope) computed (evaluation.evaluate): validation computes
    # every reference once, and the pages of each language print the same numbers.
    computed: dict[tuple[str, str], Entry] = field(default_factory=dict, compare=False,
                                                   repr=False)

    @classmethod
    def build(cls, data: Data, studies: tuple[StudyView, ...], budgets: tuple[BudgetView, ...],
              roadmaps: tuple[RoadmapView, ...], views: dict[int, FigureView]) -> Namespace:
        """The names of every derived number of the data."""
        ns = cls({}, {})

        def named(name: str, fig: Figure, holder: Any = None) -> None:
            ns.add_figure(name, fig, holder, views=views)  # the number derive worked out

        for m in data.measurements:
            named(f"measurements.{m.id}", m.figure, m)
        for s in studies:
            for c in s.comparisons:
                prefix = f"comparisons.{c.comparison.id}"
                ns.scopes[id(c.comparison)] = prefix
                named(f"{prefix}.before", c.before.figure)
                named(f"{prefix}.after", c.after.figure)
                ns.add(f"{prefix}.ratio", c.ratio)
                ns.add(f"{prefix}.change", c.change)
        for p in data.profiles:
            for claim in p.claims:
                named(f"profiles.{p.id}.{claim.id}", claim.figure, claim)
                if claim.uses is not None:
                    named(f"profiles.{p.id}.{claim.id}.uses", claim.uses)
        for b in budgets:
            for item in b.items:
                prefix = f"budgets.{b.budget.id}.{item.item.id}"
                named(prefix, item.item.figure, item.item)
                ns.add(f"{prefix}.share", item.share)
                if item.item.limit is not None:
                    lim = item.item.limit
                    ns.add(f"{prefix}.limit", Quantity("value", lim.value.value,
                                                       decimals=lim.value.decimals,
                                                       unit=lim.unit or item.item.figure.unit))
        for run in data.runs:
            for run_item in run.items:
                named(f"runs.{run.id}.{run_item.id}", run_item.figure, run_item)
        for r in roadmaps:
            ns.scopes[id(r.roadmap)] = f"roadmaps.{r.roadmap.id}"
            ns.add(f"roadmaps.{r.roadmap.id}.done", Quantity("value", r.done))
            ns.add(f"roadmaps.{r.roadmap.id}.total", Quantity("value", r.total))
        for commit in data.commits:
            ns.entries[f"commits.{commit.id}"] = commit
        ns.datasets.update((d.id, d) for d in data.datasets)
        return ns

    def add(self, name: str, quantity: Quantity | None) -> None:
        """Name a number, and the same number without its unit (`NAME.value`)."""
        if quantity is not None:
            self.entries[name] = quantity
            self.entries[f"{name}.value"] = quantity.bare()

    def add_figure(self, name: str, fig: Figure, holder: Any = None, *,
                   views: dict[int, FigureView] | None = None) -> None:
        """Name a figure (and make it the scope of the record that holds it); its number
        is taken from its view, when derive made one, rather than worked out again."""
        view = views.get(id(fig)) if views is not None else None
        self.add(name, view.quantity if view is not None else figure_quantity(fig))
        self.figures[name] = fig
        self.scopes[id(fig)] = name
        if holder is not None:
            self.scopes[id(holder)] = name

    def with_headlines(self, headlines: tuple[HeadlineView, ...]) -> Namespace:
        """The namespace, with each headline's number added."""
        for h in headlines:
            self.add(f"headlines.{h.headline.id}", h.quantity)
        return self

    def lookup(self, name: str, scope: str = "") -> Entry | None:
        """What a name stands for, trying the scope's own names first."""
        if scope and f"{scope}.{name}" in self.entries:
            return self.entries[f"{scope}.{name}"]
        return self.entries.get(name)

    def quantity(self, name: str) -> Quantity | None:
        """The number a name stands for, if it is one."""
        entry = self.entries.get(name)
        return entry if isinstance(entry, Quantity) else None

    def figure_view(self, name: str, views: dict[int, FigureView]) -> FigureView | None:
        """The derived view of the figure a name stands for."""
        fig = self.figures.get(name)
        return views.get(id(fig)) if fig is not None else None

    def hint(self, name: str) -> str:
        """A 'did you mean' for a name that does not exist."""
        close = closest(name, sorted(self.entries))
        return f"did you mean '{close}'?" if close else (
            "names look like comparisons.ID.ratio, measurements.ID, budgets.B.ITEM.share "
            "(see docs/data-format.md)")


def texts(value: Any, scope: str, ns: Namespace) -> Iterator[tuple[Text, str, Where, str]]:
    """Every text of the data, with the scope it is read in and where it was written."""
    # An explicit stack, in the order things are written: nested generators would add a
    # frame per level to every text passed up, on sites of many texts (bench/scale.py).
    # An entry is a value to enter (name ''), or a text to give, with its field's name.
    stack: list[tuple[Any, str, Any, str]] = [(value, scope, None, "")]
    while stack:
        item, scope, where, name = stack.pop()
        if name:
            ns.scopes[id(item)] = scope
            yield item, scope, where, name
            continue
        if isinstance(item, tuple):
            stack.extend((x, scope, None, "") for x in reversed(item))
            continue
        holding = holding_fields(type(item))  # only fields that may hold texts or records
        if holding is None:
            continue
        scope = ns.scopes.get(id(item), scope)
        where = getattr(item, "where", None)
        for name in reversed(holding):
            child = getattr(item, name)
            if child is None:
                continue
            if isinstance(child, Text) and where is not None:
                stack.append((child, scope, where, name))
            elif isinstance(child, tuple) and where is not None and any(
                    isinstance(c, Text) for c in child):
                # A list of texts (a machine's facts); anything else in it is not read.
                stack.extend((c, scope, where, name) for c in reversed(child)
                             if isinstance(c, Text))
            elif isinstance(child, tuple) or holding_fields(type(child)):
                stack.append((child, scope, None, ""))  # a number or a word holds no text
