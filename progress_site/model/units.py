"""Units the data may name without declaring them, and how each is spelled."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from types import MappingProxyType

from progress_site.errors import closest

# Units Babel knows (CLDR), so each language gets its own spelling: KB is "ko" in French.
CLDR_UNITS = MappingProxyType({
    "ns": "duration-nanosecond",
    "us": "duration-microsecond",
    "µs": "duration-microsecond",
    "ms": "duration-millisecond",
    "s": "duration-second",
    "min": "duration-minute",
    "h": "duration-hour",
    "B": "digital-byte",
    "KB": "digital-kilobyte",
    "MB": "digital-megabyte",
    "GB": "digital-gigabyte",
    "TB": "digital-terabyte",
})

# Babel's short spellings that are not a symbol (CLDR's English writes "sec", "hr",
# "byte", and "kB" for the data's KB): the symbol is printed instead, as benchmark tools and the
# reference page write it. Other spellings are the language's own and kept: French
# writes s, h, ms, and octets (ko, Mo, Go).
NOT_SYMBOLS = MappingProxyType({"sec": "s", "hr": "h", "kB": "KB", "byte": "B"})

# Units written the same in every language, after a no-break space; rates as benchmark
# tools print them (github-action-benchmark's ops/sec).
SYMBOL_UNITS = frozenset({"KiB", "MiB", "GiB", "kbit/s", "Mbit/s", "Gbit/s", "MB/s", "GB/s",
                          "TPS", "ops/s", "req/s"})

PERCENT = "%"

# Durations by their power of ten of a second, largest first: what `import` converts
# results between and the one unit a series of times is shown in (load/history_scale.py).
TIME_POWERS = MappingProxyType({"s": 0, "ms": -3, "us": -6, "µs": -6, "ns": -9})


def fitting_time_unit(seconds: Decimal) -> str:
    """The largest duration unit in which `seconds` is 1 or more (ns below a microsecond):
    the unit `import` writes a new series in and a series of times is shown in."""
    if not seconds:
        return "ns"
    # A number other than 0 is 10**p or more (in size) exactly when its leading digit's
    # place is p or more: no power of ten made and compared a unit and a series.
    place = seconds.adjusted()
    return next((u for u in ("s", "ms", "us") if place >= TIME_POWERS[u]), "ns")

BUILTIN_UNITS = frozenset(CLDR_UNITS) | SYMBOL_UNITS | {PERCENT}


def unit_hint(value: str, known: Iterable[str], declared: str = "site.units") -> str:
    """The hint for a unit no one declared: the known unit of another case (`kB` is
    `KB`), else the one near it, else where units are declared and every known one."""
    known = sorted(known)
    by_case = {k.lower(): k for k in known}
    if value.lower() in by_case:
        return f"did you mean '{by_case[value.lower()]}'?"
    # A unit near a known one may be one of its own (`requests` is not `req/s`); one
    # that does not even start alike is a word of its own (`cores` is no `req/s`).
    close = closest(value, known)
    if close and close[0].lower() == value[:1].lower():
        return f"did you mean '{close}'? A unit of its own is declared under {declared}"
    return (f"declare it under {declared}, or use a known unit: "
            + ", ".join(sorted(known, key=str.lower)))
