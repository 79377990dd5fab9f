"""The records of data.json: every field of each record, and what was derived for it.

Every record is written with all of its fields (null when not given) in the order the
data format declares them, and the records the build derives something from carry it
under `derived`: a figure its key, number and effective status, a comparison its ratio
and change, a budget item its share, a roadmap its counts. A dataset carries its records
under `rows` (datasetrows.py). A figure's `key` is the name
texts cite it by (`model/keys.py`), and the change summary compares figures by it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from progress_site.derive.kinds import kind_of
from progress_site.derive.quantity import Quantity
from progress_site.derive.site import Model
from progress_site.derive.views import (
    BudgetItemView,
    ComparisonView,
    FigureView,
    HeadlineView,
    RoadmapView,
)
from progress_site.model.dataset import Dataset
from progress_site.model.figure import Figure
from progress_site.model.keys import published_parts
from progress_site.model.roadmap import Roadmap, Task
from progress_site.model.schema import BudgetItem, Comparison, Headline
from progress_site.model.values import Number, Text, plain
from progress_site.model.walk import record_fields
from progress_site.publish.datasetrows import dataset_rows

# The records that carry `derived` (the schema says what each holds: dataschema.py).
DERIVED_RECORDS = frozenset({Figure, Comparison, BudgetItem, Roadmap, Task, Headline})


def quantity(q: Quantity | None) -> dict[str, Any] | None:
    """A derived number: its kind, both ends, decimals shown, unit; and what its kind
    adds (a distribution's parts)."""
    if q is None:
        return None
    return {"kind": q.kind, "low": q.low, "high": q.top, "decimals": q.decimals,
            "unit": q.unit, "signed": q.signed, **kind_of(q).serialised(q)}


def figure_derived(view: FigureView) -> dict[str, Any]:
    """What was derived for a figure: its key, number, effective status, inputs."""
    return {"key": str(view.key), "quantity": quantity(view.quantity), "status": view.status,
            "stale": view.stale, "inputs": [str(k) for k in view.inputs]}


def comparison_derived(c: ComparisonView) -> dict[str, Any]:
    """What was derived for a comparison: its ratio, change and verdicts."""
    out = {"key": str(c.key), "ratio": quantity(c.ratio), "change": quantity(c.change),
           "direction": c.direction, "improved": c.improved,
           "within_allowance": c.within_allowance, "within_noise": c.within_noise}
    if c.by_part:  # two distributions: each part both give, compared on its own
        out["parts"] = {part: {"ratio": quantity(r), "change": quantity(ch)}
                        for part, r, ch in c.by_part}
    return out


def roadmap_derived(roadmap: RoadmapView) -> dict[str, Any]:
    """How many of a roadmap's tasks are done."""
    return {"key": str(roadmap.key), "done": roadmap.done, "total": roadmap.total}


def headline_derived(headline: HeadlineView) -> dict[str, Any]:
    """A headline's number and status."""
    return {"key": str(headline.key), "quantity": quantity(headline.quantity),
            "status": headline.status}


def item_derived(item: BudgetItemView) -> dict[str, Any]:
    """A budget item's share of its limit, and whether it is over it."""
    return {"share": quantity(item.share), "over": item.over}


View = FigureView | ComparisonView | RoadmapView | HeadlineView | BudgetItemView
# Each view's `derived`, by the view's type.
DERIVED_JSON: Mapping[type, Callable[[Any], dict[str, Any]]] = MappingProxyType({
    FigureView: figure_derived, ComparisonView: comparison_derived,
    RoadmapView: roadmap_derived, HeadlineView: headline_derived, BudgetItemView: item_derived})


def derived_views(model: Model) -> dict[tuple[str, ...], View]:
    """The view each record's `derived` is made from, by the parts of the key of the
    figure or record it belongs to (a figure's key is its own), made JSON only as it is
    written. By parts, not keys: a plain tuple is hashed and compared in C, and each
    record of the file looks one up."""
    out: dict[tuple[str, ...], View] = {
        key.parts: view for key, view in model.figures.items()}
    out.update((c.key.parts, c) for study in model.studies for c in study.comparisons)
    out.update((roadmap.key.parts, roadmap) for roadmap in model.roadmaps)
    out.update((headline.key.parts, headline) for headline in model.headlines)
    return out


def budget_items(model: Model) -> dict[tuple[str, ...], View]:
    """Each budget item's view, by its key's parts (its figure has the same key)."""
    return {item.figure.key.parts: item for budget in model.budgets for item in budget.items}


def task_derived(task: Task) -> dict[str, Any]:
    """How many of a task's steps are done: the task's own, it needs no key."""
    return {"steps_done": sum(s.status == "done" for s in task.steps),
            "steps_total": len(task.steps)}


# Where a value is: (the path of what holds it, its field's name or list item's id),
# made in constant time for every value written; `()` at the top.
Path = tuple[Any, ...]
_AS_IS = frozenset({str, int, float, bool, type(None)})
_PLAIN = frozenset({Text, Number})


class Writer:
    """Model values as JSON, each record with what was derived for it, found by its key."""

    def __init__(self, model: Model) -> None:
        self.derived, self.items = derived_views(model), budget_items(model)

    def to_json(self, value: Any, path: Path) -> Any:
        """A model value as JSON: records as objects of every field, plus what was derived
        (`path`: the field names and list items' ids that lead to it)."""
        kind = type(value)
        if kind in _AS_IS:  # most values: tested first, by exact type
            return value
        if kind is tuple:
            return [self.to_json(v, (path, str(getattr(v, "id", i))))
                    for i, v in enumerate(value)]
        if isinstance(value, (Text, Number)):
            return plain(value)
        if isinstance(value, dt.date):
            return value.isoformat()
        if not hasattr(kind, "__dataclass_fields__"):
            return value
        out = {}
        for name in record_fields(kind):
            field = getattr(value, name)
            # Most fields are plain values, and many texts or numbers: written here,
            # without a path made or a call each.
            held = type(field)
            if held in _AS_IS:
                out[name] = field
            elif held in _PLAIN:
                out[name] = plain(field)
            else:
                out[name] = self.to_json(field, (path, name))
        if kind in DERIVED_RECORDS:
            out["derived"] = self.derived_of(value, path)
        elif kind is Dataset:  # its records, read from their file
            out["rows"] = dataset_rows(value)
        return out

    def derived_of(self, record: Any, path: Path) -> dict[str, Any] | None:
        """What was derived for the record at `path`."""
        if isinstance(record, Task):
            return task_derived(record)
        parts: list[str] = []
        while path:
            path, name = path
            parts.append(name)
        key = published_parts(tuple(reversed(parts)))
        table = self.items if isinstance(record, BudgetItem) else self.derived
        view = None if key is None else table.get(key)
        return None if view is None else DERIVED_JSON[type(view)](view)
