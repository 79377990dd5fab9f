"""Kinds of number, one module each: a value, a range, a count, a distribution, none.

Each keeps the protocol of `base.Kind` (compute, parts, compare, print, data.json), and
everything else finds a quantity's kind here (`kind_of`) instead of switching on its
name: docs/architecture.md, "How to add a kind of number".
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from progress_site.derive.kinds import count, distribution, none, value
from progress_site.derive.kinds import range as range_kind
from progress_site.derive.kinds.base import Kind
from progress_site.derive.quantity import Quantity
from progress_site.model.figure import Figure

# In the order a figure is tried: the first kind that reads it is its kind; none is last.
KINDS: tuple[Kind, ...] = (value.KIND, range_kind.KIND, count.KIND, distribution.KIND,
                           none.KIND)
BY_NAME: Mapping[str, Kind] = MappingProxyType({k.name: k for k in KINDS})


def kind_of(q: Quantity) -> Kind:
    """The kind that owns a quantity."""
    return BY_NAME[q.kind]


def figure_quantity(fig: Figure) -> Quantity:
    """The quantity a figure states, in whichever way it was written (none, the last kind
    tried, reads every figure)."""
    return next(q for kind in KINDS if (q := kind.compute(fig)) is not None)
