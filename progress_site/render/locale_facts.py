"""What the build needs to know of a language, read from Babel's CLDR data once.

Babel loads a language's CLDR data whole (`babel.localedata.load`: a pickle of the root
and of the language, merged), and its dates, numbers, units and lists modules cost as
much again to import: together a tenth of a build of the example site, for a few dozen
strings that change only with Babel. These are they: the digit symbols, the shape of
the percent pattern, two date patterns and the month names they print, the plural
rules, the short patterns of the units the engine knows, the list pattern and the
language's own name. `extract` reads them from Babel; formatting.py prints from them
what Babel prints, and hands Babel whatever a pattern holds that it does not handle
(None here). They are plain strings: localecache.py keeps them as JSON.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from progress_site.model.units import CLDR_UNITS

if TYPE_CHECKING:
    from babel import Locale

# A number pattern's prefix and suffix (as babel.numbers.NumberPattern holds them): each
# a pair, for a positive and a negative number.
Affixes = tuple[tuple[str, str], tuple[str, str]]
# What the month fields of 3 to 5 letters print (babel.dates.DateTimeFormat.format_month).
MONTH_WIDTHS: dict[int, Literal["abbreviated", "wide", "narrow"]] = {
    3: "abbreviated", 4: "wide", 5: "narrow"}
MONTH_CONTEXTS: dict[str, Literal["format", "stand-alone"]] = {
    "M": "format", "L": "stand-alone"}
SHORT_DATE = "MMMMd"  # the skeleton of formatting.short_date


@dataclass(frozen=True, slots=True)
class LocaleFacts:
    """The strings formatting.py prints a language's numbers, dates and units with."""

    group: str  # the digit group symbol, in Latin digits: `,` / narrow no-break space
    decimal: str  # the decimal symbol: `.` / `,`
    # The percent pattern's affixes without and with a sign (formatting.percent_pattern),
    # or None when that pattern is not `#,##0` with affixes (Babel applies it then).
    percent: tuple[Affixes, Affixes] | None
    # Babel's own %-formats of the dates: `%(MMMM)s %(d)s, %(y)s`, `%(MMMM)s %(d)s`.
    long_date: str | None
    short_date: str | None
    months: dict[str, tuple[str, ...]]  # the twelve names each month field prints
    plural: dict[str, str]  # the CLDR plural rules, by category: {"one": "i = 1 and v = 0"}
    # Each CLDR unit's short patterns by plural category; None: Babel's fallback prints it.
    units: dict[str, dict[str, str] | None]
    unit_space: str  # what separates a number from its unit (formatting.unit_space)
    list_patterns: dict[str, str]  # the 'standard' list pattern: `{0}, and {1}`
    name: str  # the language's name in itself, as Babel spells it: `français`


def percent_source(base: str, decimals: int, sign: bool) -> str:
    """The percent pattern with `decimals` decimals (and a sign), from the locale's own."""
    fraction = "." + "0" * decimals if decimals else ""
    body = base.replace("#,##0", "#,##0" + fraction, 1)
    return f"+{body};-{body}" if sign else body


def percent_affixes(loc: Locale) -> tuple[Affixes, Affixes] | None:
    """The affixes of the percent pattern, when it groups by three with one digit at
    least and the same affixes whatever the decimals; else None."""
    from babel.numbers import parse_pattern

    base = loc.percent_formats[None].pattern.split(";")[0]
    found = []
    for sign in (False, True):
        shapes: set[Affixes] = set()
        for decimals in range(4):
            pattern = parse_pattern(percent_source(base, decimals, sign))
            affixes = ((pattern.prefix[0], pattern.prefix[1]),
                       (pattern.suffix[0], pattern.suffix[1]))
            # Babel strips quotes from its whole output, which the affixes alone would not.
            if ("'" in "".join((*pattern.prefix, *pattern.suffix)) or pattern.scale != 2
                    or pattern.grouping != (3, 3) or pattern.int_prec[0] != 1
                    or pattern.frac_prec != (decimals, decimals)):
                return None
            shapes.add(affixes)
        if len(shapes) != 1:
            return None
        found.append(shapes.pop())
    return found[0], found[1]


def date_formats(loc: Locale) -> tuple[str | None, str | None]:
    """The %-formats Babel applies for the 'long' date and for the MMMMd skeleton."""
    from babel.dates import match_skeleton

    skeletons = loc.datetime_skeletons
    skeleton = SHORT_DATE
    if skeleton not in skeletons:  # as format_skeleton matches it
        skeleton = match_skeleton(skeleton, skeletons) or skeleton
    short = skeletons[skeleton].format if skeleton in skeletons else None
    return loc.date_formats["long"].format, short


def date_fields(format: str) -> list[str]:
    """The fields of a date %-format, in order: `%(MMMM)s %(d)s` -> ['MMMM', 'd']."""
    return [m for m in re.findall(r"%%|%\(([A-Za-z]+)\)s", format) if m]


def month_names(loc: Locale, formats: tuple[str | None, ...]) -> dict[str, tuple[str, ...]]:
    """The names of the months, for each field of the formats that prints them."""
    from babel.dates import get_month_names

    out = {}
    for field in sorted({f for fmt in formats if fmt for f in date_fields(fmt)}):
        if field[0] in MONTH_CONTEXTS and len(field) in MONTH_WIDTHS:
            names = get_month_names(MONTH_WIDTHS[len(field)], MONTH_CONTEXTS[field[0]], loc)
            out[field] = tuple(names[month] for month in range(1, 13))
    return out


def unit_patterns(loc: Locale, cldr: str) -> dict[str, str] | None:
    """A CLDR unit's short patterns by plural category, looked up as format_unit does.

    None when a category has none: format_unit then prints its own fallback.
    """
    from babel.units import _find_unit_pattern

    key = _find_unit_pattern(cldr, locale=loc)
    if key is None:
        return None
    short = loc._data["unit_patterns"][key].get("short", {})
    patterns: dict[str, str] = {}
    for tag in sorted(loc.plural_form.tags | {"other"}):
        pattern = short.get(tag) or short.get("other")
        if not pattern:
            return None
        patterns[tag] = pattern
    return patterns


def unit_space(loc: Locale) -> str:
    """The character Babel puts between a number and its short unit (a space if none)."""
    from babel.units import format_unit

    text: str = format_unit(1, "digital-byte", length="short", locale=loc)
    return text[1] if len(text) > 1 else " "


def extract(lang: str) -> LocaleFacts:
    """A language's facts, read from Babel (which loads its CLDR data to answer)."""
    from babel import Locale
    from babel.numbers import get_decimal_symbol, get_group_symbol

    loc = Locale.parse(lang)
    dates = date_formats(loc)
    return LocaleFacts(
        group=get_group_symbol(loc, numbering_system="latn"),
        decimal=get_decimal_symbol(loc, numbering_system="latn"),
        percent=percent_affixes(loc),
        long_date=dates[0],
        short_date=dates[1],
        months=month_names(loc, dates),
        plural=dict(loc.plural_form.rules),
        units={cldr: unit_patterns(loc, cldr) for cldr in sorted(set(CLDR_UNITS.values()))},
        unit_space=unit_space(loc),
        list_patterns=dict(loc.list_patterns["standard"]),
        name=loc.get_display_name(lang) or lang,
    )
