"""Computing a parsed `{{ ... }}` statement against the derived numbers and the datasets.

The numbers of a selection are keyed by the records they come from (the dataset's `key:`
fields the conditions leave open: selection.py); arithmetic pairs them by key, a single
number goes with every one, and min/max/mean/geomean/sum gather them, all together or `by=` a
field.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Literal

from progress_site.derive.expressions import ExpressionError, Node, parse
from progress_site.derive.kinds import kind_of
from progress_site.derive.namespace import Entry, Namespace
from progress_site.derive.quantity import Quantity, significant_decimals
from progress_site.derive.selection import Key, Numbers, records, select, spell
from progress_site.errors import did_you_mean
from progress_site.model.limits import LARGEST, MAX_DECIMALS, in_range
from progress_site.model.schema import Commit


def evaluate(source: str, ns: Namespace, scope: str = "") -> Entry:
    """What a `{{ ... }}` prints: a commit, or a number with its decimals and unit. The
    data's texts were computed while deriving; a page's own reference is computed when
    asked. One that cites a figure whose record failed computes no number: its error is
    told at the record (`Namespace.told`)."""
    entry = ns.computed.get((source, scope))
    if entry is not None:
        return entry
    try:
        return _evaluate(source, ns, scope)
    except ExpressionError:
        if ns.cites_told(source, scope):
            return Quantity("none")
        raise


def _evaluate(source: str, ns: Namespace, scope: str) -> Entry:
    tree = parse(source)
    body, filters, decimals = tree.parts
    if body.kind == "name" and isinstance(entry := ns.lookup(body.parts[0], scope), Commit):
        if filters or decimals is not None:
            raise ExpressionError("a commit takes no filter and no decimals", offset=body.offset)
        return entry
    result = Evaluator(ns, scope).quantity(body)
    for name in filters:
        result = apply_filter(name, result, tree.offset)
    within(result, tree.offset)
    return result if decimals is None else result.with_decimals(decimals)


def within(q: Quantity, offset: int) -> None:
    """Refuse a result no page can print: not a number, or beyond the data's limits
    (a product of two large numbers, a division by a tiny one)."""
    for end in (q.low, q.top):
        if not in_range(end):
            raise ExpressionError(f"the result, {end:g}, is out of range", "results are at "
                                  f"most {LARGEST:.0e}: check what is multiplied or divided",
                                  offset)


class Evaluator:
    """Computes a parse tree against the namespace and the datasets."""

    def __init__(self, ns: Namespace, scope: str) -> None:
        self.ns, self.scope = ns, scope

    def quantity(self, node: Node) -> Quantity:
        """The one number (or range) a whole expression stands for."""
        if node.kind == "call" and node.parts[0] == "range":
            parts = [self.numbers(a) for a in node.parts[1]]
            low, high = (aggregate(end, parts, None, node.offset) for end in ("min", "max"))
            ends = low.items[0][1], high.items[0][1]
            kind: Literal["value", "range"] = "range" if ends[0] != ends[1] else "value"
            return Quantity(kind, *ends, low.decimals, low.unit)
        if node.kind == "name":
            entry = self.ns.lookup(node.parts[0], self.scope)
            if isinstance(entry, Quantity):
                return entry  # a derived number as it is: a range or a count prints whole
        numbers = self.numbers(node)
        if len(numbers.items) != 1:
            keys = "; ".join(spell(k) for k, _ in numbers.items)
            raise ExpressionError(f"this gives {len(numbers.items)} numbers ({keys})",
                                  "select one record, or wrap it in min(), max(), mean() or "
                                  "range()", node.offset)
        return Quantity("value", numbers.items[0][1], decimals=numbers.decimals,
                        unit=numbers.unit)

    def numbers(self, node: Node) -> Numbers:
        """The numbers a node stands for."""
        if node.kind == "number":
            return Numbers.one(*node.parts)
        if node.kind == "neg":
            inner = self.numbers(node.parts[0])
            return Numbers(tuple((k, -v) for k, v in inner.items), inner.decimals, inner.unit)
        if node.kind == "binary":
            return self.binary(node)
        if node.kind == "call":
            return self.call(node)
        if node.kind == "by":
            raise ExpressionError("`by=` goes inside min(), max(), mean() or sum()",
                                  offset=node.offset)
        if node.kind == "select":
            dataset, conditions, field = node.parts
            return select(self.ns.datasets, dataset, conditions, field, node.offset)
        name = node.parts[0]
        entry = self.ns.lookup(name, self.scope)
        dataset, _, field = name.partition(".")
        if entry is None and dataset in self.ns.datasets:  # `DATASET.FIELD`: every record
            return select(self.ns.datasets, dataset, (), field or None, node.offset)
        if entry is None:
            raise ExpressionError(f"no number named '{name}'", self.ns.hint(name, self.scope),
                                  node.offset)
        # Each kind says what it computes with: a count what passed (as `.ok`), a
        # distribution its median; a range none.
        one = kind_of(entry).number(entry) if isinstance(entry, Quantity) else None
        if not isinstance(entry, Quantity) or one is None:
            raise ExpressionError(f"'{name}' is not one number", "only a single value or a "
                                  "count can be computed with; print a range on its own",
                                  node.offset)
        return Numbers.one(one, entry.decimals, entry.unit)

    def binary(self, node: Node) -> Numbers:
        """a + b, a - b, a * b, a / b, pair by pair; units must agree to add."""
        op, left_node, right_node = node.parts
        left, right = self.numbers(left_node), self.numbers(right_node)
        pairs = _pairs(left, right, node.offset)
        if op == "/":
            if any(b == 0 for _, _, b in pairs):
                raise ExpressionError("division by zero", "a number it divides by is 0: "
                                      "check the figures it names", node.offset)
            unit = left.unit if right.unit is None else None
            quotients = tuple((k, a / b) for k, a, b in pairs)
            return Numbers(quotients, quotient_decimals(v for _, v in quotients), unit)
        if op == "*":
            return Numbers(tuple((k, a * b) for k, a, b in pairs),
                           max(left.decimals, right.decimals), left.unit or right.unit)
        if left.unit and right.unit and left.unit != right.unit:
            raise ExpressionError(f"cannot add or subtract {left.unit} and {right.unit}",
                                  offset=node.offset)
        sign = 1 if op == "+" else -1
        return Numbers(tuple((k, a + sign * b) for k, a, b in pairs),
                       max(left.decimals, right.decimals), left.unit or right.unit)

    def call(self, node: Node) -> Numbers:
        """A function of the numbers of its arguments."""
        name, args = node.parts
        by = [a.parts[0] for a in args if a.kind == "by"]
        values = [a for a in args if a.kind != "by"]
        if by and name not in AGGREGATES and name != "percentile":
            raise ExpressionError("`by=` goes inside min(), max(), mean(), median(), "
                                  "percentile(), geomean() or sum()", offset=node.offset)
        if name in ("ratio", "change") and len(values) != 2:
            raise ExpressionError(f"{name}() takes two numbers: {name}(a, b)", offset=node.offset)
        if name == "ratio":
            return self.binary(Node("binary", ("/", *values), node.offset))
        if name == "change":
            quotient = self.binary(Node("binary", ("/", *values), node.offset))
            return Numbers(tuple((k, (v - 1) * 100) for k, v in quotient.items), 0, "%")
        if name == "range":
            raise ExpressionError("range() gives two numbers: use it outermost",
                                  offset=node.offset)
        if name == "count":
            return Numbers.one(sum(len(records(self.ns.datasets, a)) for a in values))
        if name == "round":
            return self.rounded(values, node.offset)
        if name == "percentile":
            rank = percent_of(values, node.offset)
            return aggregate(name, [self.numbers(a) for a in values[:-1]],
                             by[0] if by else None, node.offset, lambda v: percentile(v, rank))
        gathered = [self.numbers(a) for a in values]
        if name == "abs":
            return Numbers(tuple((k, abs(v)) for k, v in gathered[0].items),
                           gathered[0].decimals, gathered[0].unit)
        return aggregate(name, gathered, by[0] if by else None, node.offset)

    def rounded(self, values: list[Node], offset: int) -> Numbers:
        """round(x) or round(x, N): each number to N decimals (none by default), printed
        with N decimals."""
        places = values[1] if len(values) == 2 else None
        if len(values) > 2 or (places is not None and (
                places.kind != "number" or places.parts[1] or places.parts[0] > MAX_DECIMALS)):
            raise ExpressionError("round() takes a number and, after it, how many decimals: "
                                  "round(x) or round(x, 1)", f"at most {MAX_DECIMALS} "
                                  "decimals", offset)
        digits = int(places.parts[0]) if places is not None else 0
        inner = self.numbers(values[0])
        return Numbers(tuple((k, round(v, digits)) for k, v in inner.items), digits,
                       inner.unit)


# What each aggregate computes, by its name: the names `by=` may follow.
AGGREGATES: Mapping[str, Callable[[list[float]], float]] = MappingProxyType({
    "min": min, "max": max, "sum": sum, "mean": lambda v: sum(v) / len(v),
    "median": statistics.median, "geomean": statistics.geometric_mean})


def percent_of(values: list[Node], offset: int) -> float:
    """The P of percentile(X, P): a plain number above 0 and at most 100, given last."""
    last = values[-1] if len(values) >= 2 else None
    if last is None or last.kind != "number" or not 0 < last.parts[0] <= 100:
        raise ExpressionError("percentile() takes numbers, then the percentile: "
                              "percentile(runs.ms, 99)", "the last argument is a number "
                              "above 0 and at most 100, such as 50, 95 or 99.9", offset)
    return float(last.parts[0])


def percentile(values: list[float], rank: float) -> float:
    """The rank-th percentile, between the two nearest numbers in order (linear, as
    numpy's default and spreadsheets' PERCENTILE.INC): statistics has no such one."""
    ordered = sorted(values)
    at = (len(ordered) - 1) * rank / 100
    low = int(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def aggregate(name: str, parts: list[Numbers], by: str | None, offset: int,
              of: Callable[[list[float]], float] | None = None) -> Numbers:
    """min, max, mean, median, geomean, sum or a percentile (`of`) of every number, or of
    each group of `by`."""
    if name == "geomean" and any(v <= 0 for p in parts for _, v in p.items):
        raise ExpressionError("geomean() takes numbers above zero", "a geometric mean "
                              "multiplies its numbers: average ratios or times with it, "
                              "not changes in %", offset)
    groups: dict[Key, list[float]] = {}
    for part in parts:
        for key, value in part.items:
            if by is not None and by not in dict(key):
                raise ExpressionError(f"cannot group by '{by}' here: the numbers are keyed by "
                                      f"{spell(key) or 'nothing'}", did_you_mean(
                                          by, dict(key), "fields to group by",
                                          None if key else ""), offset)
            group = ((by, dict(key)[by]),) if by is not None else ()
            groups.setdefault(group, []).append(value)
    compute = of or AGGREGATES[name]
    items = tuple((k, compute(v)) for k, v in groups.items())
    unit = next((p.unit for p in parts if p.unit), None)
    decimals = max(p.decimals for p in parts)
    if name == "geomean" and unit is None:
        # A mean of ratios is a ratio: three significant digits of its own, not the most
        # of the ratios it averages (one of 0.984 printed a mean speed-up as 1.224).
        decimals = quotient_decimals(v for _, v in items)
    return Numbers(items, decimals, unit)


def quotient_decimals(values: Iterable[float]) -> int:
    """Decimals that give every quotient three significant digits (2.46, 12.5, 0.735):
    one decimal printed 2.46 as 2.5; several quotients (a range) share the most."""
    return min(MAX_DECIMALS, max((significant_decimals(v) for v in values), default=0))


def apply_filter(name: str, q: Quantity, offset: int) -> Quantity:
    """One `| filter` applied to the result."""
    if q.parts:  # a distribution filtered is its headline (its median, else its mean)
        q = Quantity("value", q.low, decimals=q.decimals, unit=q.unit, signed=q.signed)
    if name == "percent":
        return Quantity(q.kind, q.low * 100, q.top * 100, 0, "%", q.signed)
    if name == "signed":
        return Quantity(q.kind, q.low, q.high, q.decimals, q.unit, True)
    if name == "bare":
        return q.bare()
    if name == "abs":
        ends = sorted((abs(q.low), abs(q.top)))
        return Quantity(q.kind, ends[0], ends[1], q.decimals, q.unit, q.signed)
    if (name == "positive" and q.low <= 0) or (name == "negative" and q.top >= 0):
        raise ExpressionError(f"the text expects a {name} number, but the data gives "
                              f"{q.low:g}" + (f" to {q.top:g}" if q.kind == "range" else ""),
                              "the data no longer says what the text says: reword it",
                              offset)
    return q


def _pairs(left: Numbers, right: Numbers, offset: int) -> list[tuple[Key, float, float]]:
    """Numbers of both sides paired by their records (a single number goes with every one)."""
    if len(right.items) == 1 and right.items[0][0] == ():
        return [(k, a, right.items[0][1]) for k, a in left.items]
    if len(left.items) == 1 and left.items[0][0] == ():
        return [(k, left.items[0][1], b) for k, b in right.items]
    other = dict(right.items)
    names = [{n for k, _ in side.items for n, _ in k} for side in (left, right)]
    if names[0] != names[1]:
        per = [", ".join(sorted(n)) or "nothing" for n in names]
        raise ExpressionError(f"the two sides do not pair up: one gives a number per {per[0]}, "
                              f"the other per {per[1]}", "select the same records on both "
                              "sides", offset)
    if set(other) != {k for k, _ in left.items}:
        only = [spell(k) for k, _ in left.items if k not in other] or [
            spell(k) for k in other if k not in dict(left.items)]
        raise ExpressionError(f"the two sides do not pair up: {only[0]} is on one side only",
                              "select the same records on both sides", offset)
    return [(k, a, other[k]) for k, a in left.items]
