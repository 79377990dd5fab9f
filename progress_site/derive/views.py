"""The records as the page reads them: each figure, comparison, budget and roadmap with
the ratio, change, share, count and range derived from it (site.py gathers them into the
`Model`)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from progress_site.derive.kinds import figure_quantity, kind_of
from progress_site.derive.quantity import Quantity, significant_decimals
from progress_site.errors import Problem
from progress_site.model.figure import Figure
from progress_site.model.keys import FigureKey
from progress_site.model.roadmap import Roadmap, Task
from progress_site.model.schema import Budget, BudgetItem, Comparison, Data, Headline, Study
from progress_site.model.values import Text, problem

EffectiveStatus = Literal["measured", "watch", "over-limit", "estimate", "not-judgeable"]


@dataclass(frozen=True, slots=True)
class FigureView:
    """A figure with its key and what the build derived: its number, status and freshness."""

    key: FigureKey
    figure: Figure
    quantity: Quantity
    status: EffectiveStatus
    stale: bool = False
    stale_because: Literal["age", "commit"] | None = None
    stale_reason: Text | None = None
    inputs: tuple[FigureKey, ...] = ()  # a derived figure's: the figures its formula reads
    # Whether its card says nothing but its number, status and source: no words, note or
    # reason of its own, not stale, not derived (templates/macros.html `figure`). Most
    # figures of a large site; worked out once here rather than asked in turn by the
    # card, in every language.
    bare: bool = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        fig = self.figure
        object.__setattr__(self, "bare", not (
            fig.text or fig.note or fig.formula or self.stale
            or (fig.status == "not-judgeable" and fig.reason)))


@dataclass(frozen=True, slots=True)
class ComparisonView:
    """A before/after comparison and the numbers derived from it."""

    comparison: Comparison
    before: FigureView
    after: FigureView
    ratio: Quantity | None  # how many times smaller or larger; None when not computable
    change: Quantity | None  # after against before, in percent
    direction: Literal["lower", "higher", "same", "unknown"]
    improved: bool | None
    within_allowance: bool | None
    within_noise: bool | None
    scale: float  # the bars' full width, in the comparison's unit
    # Ratio and change of each part both sides give (two distributions' p99), by part.
    by_part: tuple[tuple[str, Quantity | None, Quantity | None], ...] = ()

    @property
    def key(self) -> FigureKey:
        """`comparisons.ID`: its figures and numbers are parts of it."""
        return FigureKey.of("comparisons", self.comparison.id)

    @property
    def says_ratio(self) -> bool:
        """Whether its verdict is its ratio (macros.html, `verdict`): it has one, and no
        verdict of its own, no side not judgeable, no change shown instead, and it is
        not a control inside its noise."""
        comp = self.comparison
        return (self.ratio is not None and comp.verdict is None
                and "not-judgeable" not in (self.before.status, self.after.status)
                and not (comp.control and self.within_noise)
                and not (comp.show == "change" and self.change is not None))


@dataclass(frozen=True, slots=True)
class StudyView:
    """A study and its comparisons, derived."""

    study: Study
    comparisons: tuple[ComparisonView, ...]

    def summary(self) -> tuple[ComparisonView, ...]:
        """The comparisons shown as bars in the study's summary."""
        shown = [c for c in self.comparisons if c.comparison.summary is not None]
        return tuple(sorted(shown, key=lambda c: c.comparison.summary.rank
                            if c.comparison.summary else 0))


@dataclass(frozen=True, slots=True)
class BudgetItemView:
    """A resource used, as a share of its limit."""

    item: BudgetItem
    figure: FigureView  # over the limit: its status says so
    share: Quantity | None
    over: bool
    limit: Quantity | None  # in the figure's unit when the limit names none


@dataclass(frozen=True, slots=True)
class BudgetView:
    budget: Budget
    items: tuple[BudgetItemView, ...]


@dataclass(frozen=True, slots=True)
class TaskView:
    """A task and the count of its steps."""

    task: Task
    steps_done: int
    steps_total: int


@dataclass(frozen=True, slots=True)
class GroupView:
    title_status: str | None  # the status a group gathers, when grouped by status
    group_index: int | None  # the index of a group of the data's own
    tasks: tuple[TaskView, ...]


@dataclass(frozen=True, slots=True)
class RoadmapView:
    roadmap: Roadmap
    groups: tuple[GroupView, ...]
    done: int
    total: int

    @property
    def key(self) -> FigureKey:
        """`roadmaps.ID`: its counts are parts of it."""
        return FigureKey.of("roadmaps", self.roadmap.id)


@dataclass(frozen=True, slots=True)
class HeadlineView:
    headline: Headline
    quantity: Quantity
    status: EffectiveStatus

    @property
    def key(self) -> FigureKey:
        """`headlines.ID`, the name texts cite it by."""
        return FigureKey.of("headlines", self.headline.id)


@dataclass(frozen=True, slots=True)
class Freshness:
    """When a measured figure is too old to trust: past an age, or before a commit."""

    today: dt.date
    max_days: int | None = None
    since: dt.date | None = None  # the date of site.remeasure_since's commit
    reason: Text | None = None  # site.remeasure_since's reason

    def why(self, fig: Figure) -> tuple[Literal["age", "commit"], Text | None] | None:
        """('commit', reason) or ('age', None) for a stale figure, else None."""
        if fig.date is None or fig.status not in ("measured", "watch"):
            return None
        if self.since is not None and fig.date < self.since:
            return ("commit", self.reason)
        if self.max_days and (self.today - fig.date).days > self.max_days:
            return ("age", None)
        return None


def freshness(data: Data, today: dt.date) -> Freshness:
    """The site's freshness rules, with the remeasure commit's date looked up."""
    rule = data.site.remeasure_since
    since = next((c.date for c in data.commits if rule and c.id == rule.commit), None)
    return Freshness(today, data.site.stale_after_days, since, rule.reason if rule else None)


def view_figure(key: FigureKey, fig: Figure, rules: Freshness) -> FigureView:
    """A figure's quantity and status, and whether it is to re-measure (and why)."""
    why = rules.why(fig)
    return FigureView(key, fig, figure_quantity(fig), fig.status, why is not None,
                      why[0] if why else None, why[1] if why else None)


def compare(comp: Comparison, before: FigureView, after: FigureView) -> ComparisonView:
    """Ratio, change, direction and checks of one comparison."""
    b_kind, a_kind = kind_of(before.quantity), kind_of(after.quantity)
    # Each kind says which one number it is compared by (a distribution: its median).
    b, a = b_kind.compared(before.quantity), a_kind.compared(after.quantity)
    b_ends, a_ends = b_kind.ends(before.quantity), a_kind.ends(after.quantity)
    ratio = change = None
    direction: Literal["lower", "higher", "same", "unknown"] = "unknown"
    if b is not None and a is not None:
        direction = "same" if a == b else ("lower" if a < b else "higher")
        ratio, change = ratio_of(b, a, comp.decimals), change_of(b, a, comp.decimals)
    elif b_ends is not None and a_ends is not None:
        direction = ("lower" if a_ends[1] < b_ends[0] else "higher" if a_ends[0] > b_ends[1]
                     else "same")
    improved = None if direction == "unknown" else direction == comp.better
    allowance = noise = None
    if change is not None and comp.allowance is not None:
        allowance = abs(change.low) <= comp.allowance.value
    if change is not None and comp.noise is not None:
        noise = abs(change.low) <= comp.noise.value
    ends = [e[1] for e in (b_ends, a_ends) if e is not None]
    scale = max([before.quantity.top, after.quantity.top, *ends]
                + ([comp.scale.value] if comp.scale else []))
    b_parts = b_kind.compared_parts(before.quantity)
    a_parts = a_kind.compared_parts(after.quantity)
    by_part = tuple((n, ratio_of(b_parts[n], a_parts[n], comp.decimals),
                     change_of(b_parts[n], a_parts[n], comp.decimals))
                    for n in b_parts if n in a_parts)
    return ComparisonView(comp, before, after, ratio, change, direction, improved, allowance,
                          noise, scale, by_part)


def ratio_of(before: float, after: float, decimals: int | None = None) -> Quantity | None:
    """How many times smaller or larger, to three significant digits unless `decimals`
    says; None at zero."""
    if after <= 0 or before <= 0:
        return None
    times = max(after, before) / min(after, before)
    return Quantity("value", times,
                    decimals=significant_decimals(times) if decimals is None else decimals)


def change_of(before: float, after: float, decimals: int | None = None) -> Quantity | None:
    """After against before, in percent with its sign (one decimal unless `decimals`
    says); None from zero."""
    if not before:
        return None
    return Quantity("value", (after - before) / before * 100, unit="%", signed=True,
                    decimals=1 if decimals is None else decimals)


def derive_roadmap(roadmap: Roadmap) -> RoadmapView:
    """Group tasks (by status unless the data groups them) and count what is done."""
    def task_view(t: Task) -> TaskView:
        return TaskView(t, sum(s.status == "done" for s in t.steps), len(t.steps))

    if roadmap.groups:
        groups = tuple(GroupView(None, i, tuple(task_view(t) for t in g.tasks))
                       for i, g in enumerate(roadmap.groups))
        tasks = [t for g in roadmap.groups for t in g.tasks]
    else:
        tasks = list(roadmap.tasks)
        groups = tuple(GroupView(s, None, tuple(task_view(t) for t in tasks if t.status == s))
                       for s in ("done", "in-progress", "planned")
                       if any(t.status == s for t in tasks))
    done = sum(t.status == "done" for t in tasks)
    return RoadmapView(roadmap, groups, done, len(tasks))


def derive_budget(budget: Budget, figures: Mapping[FigureKey, FigureView]) -> BudgetView:
    """Each item's share of its limit; over 100 % makes it 'over the limit' (its view in
    the budget says so: derive gathers those views into the model's)."""
    items = []
    for item in budget.items:
        view = figures[FigureKey(("budgets", budget.id, item.id))]
        share, over, limit = None, False, None
        used = kind_of(view.quantity).compared(view.quantity)  # a distribution: its median
        if item.limit is not None:
            lim = item.limit
            limit = Quantity("value", lim.value.value, decimals=lim.value.decimals,
                             unit=lim.unit or item.figure.unit)
        if item.limit is not None and used is not None and item.limit.value.value > 0:
            fraction = used / item.limit.value.value
            share = Quantity("value", fraction * 100, decimals=0, unit="%")
            over = fraction > 1
            if over and view.status in ("measured", "watch"):
                view = dataclasses.replace(view, status="over-limit")
        items.append(BudgetItemView(item, view, share, over, limit))
    return BudgetView(budget, tuple(items))


def check_budget_units(budgets: tuple[Budget, ...]) -> list[Problem]:
    """A share only makes sense when the limit is in the figure's unit."""
    return [problem(item.limit.where, "unit", f"the limit is in '{item.limit.unit}' but the "
                    f"figure in '{item.figure.unit}'", "give both in the same unit")
            for budget in budgets for item in budget.items
            if item.limit and item.limit.unit not in (None, item.figure.unit)]


def check_controls(studies: tuple[StudyView, ...]) -> list[Problem]:
    """A control row whose change leaves its noise band means the bench moved, not the code."""
    return [problem(c.comparison.where, "noise", f"the control changed by {c.change.low:+.1f} "
                    f"%, outside its noise band of "
                    f"±{c.comparison.noise.value if c.comparison.noise else 0:g} %",
                    "re-measure: something other than the change moved")
            for study in studies for c in study.comparisons
            if c.comparison.control and c.within_noise is False and c.change is not None]
