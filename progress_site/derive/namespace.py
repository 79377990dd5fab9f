"""`{{ comparisons.cpu-500.ratio }}` in texts: the names derived numbers are known by.

Texts in data and in Markdown never type a derived number; they name it, and the
render stage prints it in the page's language. A name is the printed `FigureKey` of what
it stands for. A text inside a record may use the record's own names without the prefix
(`{{ ratio }}` inside a comparison: see scopes.py). Between the braces may also stand an
expression over the datasets' records (see `expressions`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from progress_site.derive.expressions import ExpressionError, heads, names, parse
from progress_site.derive.kinds import kind_of
from progress_site.derive.quantity import Quantity
from progress_site.derive.views import BudgetView, FigureView, RoadmapView, StudyView
from progress_site.errors import Names, closest, did_you_mean
from progress_site.model.dataset import Dataset
from progress_site.model.keys import FigureKey, Keyed
from progress_site.model.schema import Commit, Data
from progress_site.model.values import Text, Where
from progress_site.model.walk import holding_fields

# `{{ name }}`, `{{ name:1 }}` or `{{ expression | filter }}`, on one line (not `{{<`);
# not after a backslash, which Markdown reads as an escape (`\{{ x }}` prints as written).
REFERENCE = re.compile(r"(?<!(?<!\\)\\)\{\{(?!<)\s*([^{}\n]*?)\s*\}\}")

Entry = Quantity | Commit


@dataclass(frozen=True, slots=True)
class Namespace:
    """Every name a text may cite: the printed key of each derived number or commit.
    Made once while deriving, never changed after."""

    entries: Mapping[str, Entry]
    figures: Mapping[str, FigureKey]  # names that stand for a whole figure (for headlines)
    datasets: Mapping[str, Dataset] = field(default_factory=lambda: MappingProxyType({}))
    # What each (expression, scope) of the data's texts computes (derive computes every
    # one once): the pages of each language print these same numbers.
    computed: Mapping[tuple[str, str], Entry] = field(
        default_factory=lambda: MappingProxyType({}), compare=False, repr=False)
    # The names of figures whose records failed validation, and of what holds them
    # (`comparisons.C`): an error already told, so what cites them is not judged again.
    told: frozenset[str] = frozenset()
    # The records left out as their id was used twice (`comparisons.C`), each with where
    # it was written (`passed.left_out`): what a name no record has may have meant.
    left_out: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    # The names indexed for "did you mean" (`hint`), once a namespace rather than once a
    # bad name: a site of thousands of figures may cite thousands of names wrong.
    names: Names = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", Names(self.entries))

    @classmethod
    def build(cls, data: Data, keyed: Iterable[Keyed], views: Mapping[FigureKey, FigureView],
              studies: tuple[StudyView, ...], budgets: tuple[BudgetView, ...],
              roadmaps: tuple[RoadmapView, ...], told: frozenset[str] = frozenset(),
              left_out: Mapping[str, str] = MappingProxyType({})) -> Namespace:
        """The names of every derived number of the data (`told`, `left_out`: see the
        fields)."""
        entries: dict[str, Entry] = {}
        figures: dict[str, FigureKey] = {}
        for k in keyed:
            if k.named:
                name(entries, k.key, views[k.key].quantity)
                figures[str(k.key)] = k.key
        for s in studies:
            for c in s.comparisons:
                name(entries, c.key.child("ratio"), c.ratio)
                name(entries, c.key.child("change"), c.change)
                for part, ratio, change in c.by_part:  # `ratio.p99`: part against part
                    name(entries, c.key.child("ratio").child(part), ratio)
                    name(entries, c.key.child("change").child(part), change)
        for b in budgets:
            for item in b.items:
                name(entries, item.figure.key.child("share"), item.share)
                name(entries, item.figure.key.child("limit"), item.limit)
        for r in roadmaps:
            name(entries, r.key.child("done"), Quantity("value", r.done))
            name(entries, r.key.child("total"), Quantity("value", r.total))
        for commit in data.commits:
            entries[f"commits.{commit.id}"] = commit
        return cls(MappingProxyType(entries), MappingProxyType(figures),
                   MappingProxyType({d.id: d for d in data.datasets}), told=told,
                   left_out=left_out)

    def with_entries(self, more: Mapping[FigureKey, Quantity]) -> Namespace:
        """A namespace with these numbers named too (the headlines')."""
        entries = dict(self.entries)
        for key, q in more.items():
            name(entries, key, q)
        return replace(self, entries=MappingProxyType(entries))

    def lookup(self, name: str, scope: str = "") -> Entry | None:
        """What a name stands for, trying the scope's own names first."""
        if scope and f"{scope}.{name}" in self.entries:
            return self.entries[f"{scope}.{name}"]
        return self.entries.get(name)

    def cites_told(self, source: str, scope: str = "") -> bool:
        """Whether a statement cites a figure whose record failed validation (or a part
        of one, or a number derived from it): what it computes is not judgeable, and the
        error is its record's, told once, there."""
        if not self.told:
            return False
        # A dataset's name or a figure's, followed by anything but more of a name.
        if any(re.search(rf"(?<![\w.-]){re.escape(t)}(?![\w-])", source) for t in self.told):
            return True
        try:
            tree = parse(source)
        except ExpressionError:
            return False
        cited = [name for name, _at in names(tree)]
        return any(self._told(f"{scope}.{name}" if scope else name) or self._told(name)
                   for name in cited) or self._cites_unread_dataset(heads(tree))

    def _cites_unread_dataset(self, cited: set[str]) -> bool:
        """Whether a statement may read a dataset of those whose ids could not be read (a
        misspelt `datasets:` without them, a file that did not read): it names one that
        is neither a dataset read nor the start of another name."""
        if "datasets" not in self.told:
            return False
        known = {*self.datasets, *(name.partition(".")[0] for name in self.entries)}
        return bool(cited - known)

    def _told(self, name: str) -> bool:
        """Whether a name is a told one or a part of one."""
        return any(name == t or name.startswith(f"{t}.") for t in self.told)

    def hint(self, name: str, scope: str = "") -> str:
        """A 'did you mean' for a name that does not exist (among the scope's own names
        too: a formula names its neighbours by their ids)."""
        holder, _, part = name.rpartition(".")
        whole = self.entries.get(holder)
        advice = kind_of(whole).hint(holder, part, whole) if isinstance(whole, Quantity) else None
        advice = advice or self.twice_hint(name)
        if advice is not None:
            return advice
        # A neighbour's short name first: `first-version-memory-cots` in a measurement's
        # formula meant the short `first-version-memory-cost`, which is what it wrote.
        short = sorted(n[len(scope) + 1:] for n in self.entries
                       if n.startswith(f"{scope}.")) if scope else []
        known = short if scope and closest(name, short) is not None else self.names
        return did_you_mean(name, known, otherwise=(
            "names look like comparisons.ID.ratio, measurements.ID, budgets.B.ITEM.share "
            "(see docs/data-format.md)"))

    def twice_hint(self, name: str) -> str | None:
        """When a name's record is none of its collection's and a record of that collection
        was left out for an id used twice, that is what it may have named: the closest
        name would be the id now used twice, which misleads."""
        for holder, at in sorted(self.left_out.items()):
            collection = holder.rpartition(".")[0]
            if not name.startswith(f"{collection}.") or self._names_a_record(name, holder):
                continue
            ident = holder[len(collection) + 1:]
            return (f"no record of {collection} has this id; the one at {at} was left out as "
                    f"its id '{ident}' is used twice: if it is the one meant, give it back "
                    "its own id")
        return None

    def _names_a_record(self, name: str, holder: str) -> bool:
        """Whether a name lies under a record that is there, of the collection `holder`
        is one of (ids may hold a dot, so the records are read from the figures' keys)."""
        depth = len(FigureKey.parse(holder).parts)
        records = {".".join(k.parts[:depth]) for k in self.figures.values()
                   if len(k.parts) > depth}
        return any(name == r or name.startswith(f"{r}.") for r in records)


def name(entries: dict[str, Entry], key: FigureKey, quantity: Quantity | None) -> None:
    """Name a number by its key, and each of its parts its kind names (`KEY.value`, the
    number without its unit; a count's `KEY.share`, a distribution's `KEY.p95`)."""
    if quantity is None:
        return
    entries[str(key)] = quantity
    for part, q in kind_of(quantity).parts(quantity).items():
        entries[f"{key}.{part}"] = q


def texts(value: Any) -> Iterator[tuple[Text, Where, str]]:
    """Every text of the data, with where it was written and its field's name (its scope
    it carries: see scopes.py)."""
    # An explicit stack, in the order things are written: nested generators would add a
    # frame per level to every text passed up, on sites of many texts (bench/scale.py).
    # An entry is a value to enter (name ''), or a text to give, with its field's name.
    stack: list[tuple[Any, Any, str]] = [(value, None, "")]
    while stack:
        item, where, name = stack.pop()
        if name:
            yield item, where, name
            continue
        if isinstance(item, tuple):
            stack.extend((x, None, "") for x in reversed(item))
            continue
        holding = holding_fields(type(item))  # only fields that may hold texts or records
        if holding is None:
            continue
        where = getattr(item, "where", None)
        for name in reversed(holding):
            child = getattr(item, name)
            if child is None:
                continue
            if isinstance(child, Text) and where is not None:
                stack.append((child, where, name))
            elif isinstance(child, tuple) and where is not None and any(
                    isinstance(c, Text) for c in child):
                # A list of texts (a machine's facts); anything else in it is not read.
                stack.extend((c, where, name) for c in reversed(child)
                             if isinstance(c, Text))
            elif isinstance(child, tuple) or holding_fields(type(child)):
                stack.append((child, None, ""))  # a number or a word holds no text
