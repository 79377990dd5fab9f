"""What unit a formula gives, as far as its inputs say, checked against its `unit:`.

The rule (docs/data-format.md, Derived figures): units follow the names as they print. A
figure's name brings its unit; its `.value`, a number or a dataset's field brings none
that is known, and then nothing is checked (that is how a formula converts:
`measurements.load-time.value / 1000` with `unit: s`). Adding keeps the unit; multiplying
or dividing by a number keeps it; `a / b` in one unit is a plain number, and in two is
"a per b"; a product of two units is not judged. A declared unit must be the unit found;
for "a per b", `a` (memory per player in MB) or `a/b` (MB/s); for a plain number, `%`.
"""

from __future__ import annotations

from collections.abc import Collection

from progress_site.derive.expressions import Node
from progress_site.derive.namespace import Namespace
from progress_site.derive.quantity import Quantity
from progress_site.errors import Problem
from progress_site.model.figure import Figure
from progress_site.model.values import problem

# A unit found: (over, under); ("", "") is a plain number; None is not known.
Dim = tuple[str, str] | None
PLAIN: Dim = ("", "")


def unit_problem(fig: Figure, tree: Node, ns: Namespace, scope: str,
                 units: Collection[str]) -> Problem | None:
    """The problem with a declared unit that the formula's inputs contradict. `units`:
    those the site knows; a fitting one it does not know (`requests/s`) is offered to
    declare, since writing it undeclared is one more error."""
    found = dimension(tree, ns, scope)
    if fig.unit is None or found is None:
        return None
    over, under = found
    allowed = {over, f"{over}/{under}"} if under else {over or "%"}
    if fig.unit in allowed:
        return None
    gives = (f"{over} per {under}" if under else over) or "a number without a unit"
    fixes = [" or ".join(f"`unit: {u}`" for u in sorted(allowed & set(units), key=len))]
    fixes = [f"write {fixes[0]}"] if fixes[0] else []
    fixes += [f"declare `{u}` under site.units and write it" for u in sorted(allowed - set(units))]
    return problem(fig.where, "unit", f"unit '{fig.unit}' does not fit the formula, which "
                   f"gives {gives}", ", or ".join([*fixes, "compute with `.value` (no "
                                                  "unit) to convert"]))


def dimension(node: Node, ns: Namespace, scope: str) -> Dim:
    """The unit a node gives, when its inputs say."""
    kind = node.kind
    if kind == "number":
        return PLAIN
    if kind in ("statement", "neg"):
        return dimension(node.parts[0], ns, scope)
    if kind == "name":
        entry = ns.lookup(node.parts[0], scope)
        unit = entry.unit if isinstance(entry, Quantity) else None
        return (unit, "") if unit else None
    if kind == "binary":
        op, left, right = node.parts
        return combined(op, dimension(left, ns, scope), dimension(right, ns, scope))
    if kind == "call":
        return called(node.parts[0], [dimension(a, ns, scope) for a in node.parts[1]
                                      if a.kind != "by"])
    return None  # a dataset's records: not judged


def combined(op: str, a: Dim, b: Dim) -> Dim:
    """The unit of `a op b`."""
    if a is None or b is None:
        return None
    if op in ("+", "-"):
        return a if b in (a, PLAIN) else b if a == PLAIN else None
    if b == PLAIN:
        return a
    if op == "*":
        return b if a == PLAIN else None
    if a == b:
        return PLAIN
    return (a[0], b[0]) if not a[1] and not b[1] else None


def called(name: str, args: list[Dim]) -> Dim:
    """The unit a function gives from its arguments'."""
    if name == "ratio" and len(args) == 2:
        return combined("/", args[0], args[1])
    if name == "change":
        return ("%", "")
    if name == "count":
        return PLAIN
    if name in ("abs", "round") and args:
        return args[0]
    if name in ("min", "max", "mean", "median", "geomean", "sum") and args and all(
            a == args[0] for a in args):
        return args[0]
    if name == "percentile" and args:  # its last argument is the percent, a plain number
        return args[0]
    return None
