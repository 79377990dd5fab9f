"""The numbers the site prints, by their digits as printed: the index the typed-number
lint (typed.py) looks each number of a text up in, formatted once for every language."""

from __future__ import annotations

from collections.abc import Collection

from progress_site.derive.quantity import Quantity
from progress_site.derive.site import Model
from progress_site.render import formatting

# Names that print the same number as a shorter one: the reference to suggest is the other.
TWINS = (".value", ".ok", ".of")


# A name that prints a number, and the unit it prints it in.
Candidate = tuple[str, str | None]


def index(model: Model, wanted: Collection[str] | None = None) -> dict[str, list[Candidate]]:
    """Each number the site prints, by its digits as printed (`2.56`, `1383`: rounded as
    the page rounds it, `formatting.shown`) -> the names that print it. One index for
    every language: each reads a typed number into the same digits (`Numbers.digits`),
    so a text is checked by lookups, and no number is formatted to be compared. With
    `wanted` (the digits typed in the texts), only the numbers that print one of them."""
    near = None if wanted is None else nearby(wanted)
    found: dict[str, list[Candidate]] = {}
    rounded: dict[tuple[float, int], str] = {}
    entries = model.namespace.entries
    # The names of the data's order first, then their twins: a hint names the first.
    for name in sorted(entries, key=lambda n: n.endswith(TWINS)):
        entry = entries[name]
        if not isinstance(entry, Quantity) or entry.kind in ("none", "count"):
            continue  # a count's parts are named `.ok` and `.of`
        # Most are one number (a value's `high` is its `low`): one end to read.
        ends: tuple[float, ...] = ((entry.low,) if entry.high == entry.low
                                   else (entry.low, entry.top))
        if near is not None:
            ends = tuple(v for v in ends if maybe_printed(v, entry.decimals, near))
            if not ends:
                continue
        # A `.value` twin is the same number without its unit: the unit is its holder's.
        holder = entries.get(name.rpartition(".")[0]) if name.endswith(TWINS) else None
        unit = holder.unit if isinstance(holder, Quantity) else entry.unit
        for value in ends:
            digits = rounded.get((value, entry.decimals))
            if digits is None:  # a name and its `.value` twin round the same number
                digits = rounded[value, entry.decimals] = str(
                    formatting.shown(abs(value), entry.decimals))
            found.setdefault(digits, []).append((name, unit))
    return found


def nearby(wanted: Collection[str]) -> frozenset[tuple[int, int]]:
    """Each typed number as (its decimals, the whole number of its last decimal place,
    and one either side): `2.46` gives (2, 245), (2, 246) and (2, 247)."""
    out: set[tuple[int, int]] = set()
    for digits in wanted:
        whole, _, fraction = digits.partition(".")
        if len(whole) + len(fraction) > LONGEST:
            continue  # only a number beyond EXACT prints so many, and each is looked at
        units = int(whole + fraction)
        out.update((len(fraction), units + step) for step in (-1, 0, 1))
    return frozenset(out)


# Below this, a float times a power of ten is within a small fraction of a unit of the
# decimal it was written as; beyond it, every number gets the exact look. A number below
# it prints far fewer digits than LONGEST.
EXACT = 2**40
LONGEST = 40


def maybe_printed(value: float, decimals: int, near: frozenset[tuple[int, int]]) -> bool:
    """Whether `value` printed with `decimals` decimals may read as a wanted number: a
    number rounds to within half a unit of its last place, so a float's own rounding
    lands within one of it (larger numbers are always worth the exact look)."""
    scaled = abs(value) * 10**decimals
    # `not <`: a number that is no number (NaN) gets the exact look too.
    return not scaled < EXACT or (decimals, round(scaled)) in near
