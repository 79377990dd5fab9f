"""Numbers, percentages, dates, units and lists in each language, as Babel prints them.

What Babel would look up in a language's CLDR data comes from its facts (localefacts.py,
kept in the cache by localecache.py), so that a build need not load that data nor import
Babel's formatting modules. Each function prints from the facts what Babel prints
(tests/test_locale_facts.py compares the two), and calls Babel itself for what a
pattern holds that the facts do not cover: a quote in a digit symbol, a percent pattern
that does not group by three, a date field other than a day, month or year.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING

from progress_site.model.units import CLDR_UNITS, PERCENT, SYMBOL_UNITS
from progress_site.model.values import Text
from progress_site.render import plurals
from progress_site.render.locale_cache import facts
from progress_site.render.locale_facts import date_fields, percent_source

if TYPE_CHECKING:
    from babel import Locale
    from babel.numbers import NumberPattern

NBSP = "\u00a0"


@functools.cache
def locale(lang: str) -> Locale:
    """The Babel locale of a language code (Babel's own formatting is given it)."""
    from babel import Locale  # a build that prints from the facts alone never imports Babel

    return Locale.parse(lang)


@functools.cache
def decimal_pattern(lang: str, decimals: int) -> NumberPattern:
    """The locale's grouping with a fixed number of decimals, parsed once."""
    from babel.numbers import parse_pattern

    fraction = "." + "0" * decimals if decimals else ""
    return parse_pattern("#,##0" + fraction)


@functools.cache
def digit_marks(lang: str) -> dict[int, str] | None:
    """A table from Python's `,` and `.` to the language's group and decimal symbols.

    None when a symbol holds a `'`: Babel's output drops quotes, which this table would not.
    """
    known = facts(lang)
    group, point = known.group, known.decimal
    return None if "'" in group + point else str.maketrans({",": group, ".": point})


def grouped(fixed: Decimal, decimals: int, lang: str) -> str:
    """Babel's `#,##0.00` pattern (decimal_pattern) applied to a number already rounded.

    Python groups digits by three and writes `-` as that pattern does, so only the
    symbols differ; this takes ~1 µs where the pattern's general code takes ~8.
    tests/test_formatting_fast.py compares the two.
    """
    marks = digit_marks(lang)
    if marks is None or not fixed.is_finite():
        text: str = decimal_pattern(lang, decimals).apply(fixed, locale(lang))
        return text
    return f"{fixed:,.{decimals}f}".translate(marks)


@functools.cache
def percent_pattern(lang: str, decimals: int, sign: bool) -> NumberPattern:
    """The locale's percent pattern (`#,##0 %` in French), with decimals and a sign."""
    from babel.numbers import parse_pattern

    base = locale(lang).percent_formats[None].pattern.split(";")[0]
    return parse_pattern(percent_source(base, decimals, sign))


@functools.cache
def quantum(decimals: int) -> Decimal:
    """The step of a number printed with `decimals` decimals (`0.01` for 2)."""
    return Decimal(1).scaleb(-decimals)


def rounded(value: float | Decimal, decimals: int) -> Decimal:
    """Half-up rounding, as readers expect (Babel's default rounds half to even); never -0."""
    exact = value if isinstance(value, Decimal) else Decimal(repr(value))
    fixed = exact.quantize(quantum(decimals), ROUND_HALF_UP)
    return abs(fixed) if fixed == 0 else fixed


# A build prints the same numbers again and again (a table's column of bot counts, a
# figure on its study's page and in the feed): each is worked out once per language.
# Typed: 1, 1.0 and True are three entries (True is no number: it fails as it did).
@functools.lru_cache(maxsize=4096, typed=True)
def number(value: float, decimals: int, lang: str) -> str:
    """`1,000.5` in English, `1 000,5` (narrow no-break space) in French."""
    return grouped(rounded(value, decimals), decimals, lang)


def percent(fraction: float, decimals: int, lang: str, *, sign: bool = False) -> str:
    """`+1.5%` in English, `+1,5 %` in French; `fraction` is 0.015 for 1.5 %."""
    return percent_amount(Decimal(repr(fraction)) * 100, decimals, lang, sign=sign)


def percent_amount(amount: float | Decimal, decimals: int, lang: str, *,
                   sign: bool = False) -> str:
    """A percentage given in percent (`6.85` -> `6.9%`), rounded before any division."""
    fixed = rounded(amount, decimals)
    text = percent_text(fixed, decimals, lang, sign)
    if sign and fixed == 0:
        text = text.lstrip("+-")
    return text


def percent_text(fixed: Decimal, decimals: int, lang: str, sign: bool) -> str:
    """percent_pattern applied to `fixed` percent (already rounded), as grouped() does.

    The pattern scales by 100 what it is given, so `fixed / 100` prints the digits of
    `fixed`; Babel's general code is kept for any pattern that does not group by three
    (the facts hold no affixes for it then).
    """
    shape = facts(lang).percent
    marks = digit_marks(lang)
    if shape is None or marks is None or not fixed.is_finite():
        text: str = percent_pattern(lang, decimals, sign).apply(fixed / 100, locale(lang))
        return text
    prefix, suffix = shape[sign]
    negative = int(fixed.is_signed())
    digits = f"{abs(fixed):,.{decimals}f}".translate(marks)
    return f"{prefix[negative]}{digits}{suffix[negative]}"


# Pages print the same few days thousands of times: each is formatted once per language.
@functools.lru_cache(maxsize=4096)
def date(day: dt.date, lang: str) -> str:
    """`November 8, 2026` / `8 novembre 2026`."""
    text = dated(facts(lang).long_date, day, lang)
    if text is None:
        from babel.dates import format_date

        text = format_date(day, "long", locale=locale(lang))
    return text


@functools.lru_cache(maxsize=4096)
def short_date(day: dt.date, lang: str) -> str:
    """`November 8` / `8 novembre`: a date within the page's own year."""
    text = dated(facts(lang).short_date, day, lang)
    if text is None:
        from babel.dates import format_skeleton

        text = format_skeleton("MMMMd", day, locale=locale(lang))
    return text


def dated(format: str | None, day: dt.date, lang: str) -> str | None:
    """A date printed with one of Babel's date %-formats, as its DateTimePattern prints
    it; None when the format has a field this does not print."""
    if format is None:
        return None
    values = {}
    for field in fields_of(format):
        value = date_field(field, day, lang)
        if value is None:
            return None
        values[field] = value
    return format % values


@functools.cache
def fields_of(format: str) -> tuple[str, ...]:
    """The fields of a date %-format (parsed once)."""
    return tuple(dict.fromkeys(date_fields(format)))


def date_field(field: str, day: dt.date, lang: str) -> str | None:
    """One field of a date as babel.dates.DateTimeFormat prints it: the day, the month
    (a number, or a name from the facts), the year; None for any other field."""
    char, size = field[0], len(field)
    if char == "d" and size <= 2:
        return f"{day.day:0{size}d}"
    if char in "ML":
        if size <= 2:
            return f"{day.month:0{size}d}"
        names = facts(lang).months.get(field)
        return names[day.month - 1] if names else None
    if char == "y":
        year = f"{day.year:0{size}d}"
        return year[-2:] if size == 2 else year
    return None


@functools.cache
def plural_rule(lang: str) -> plurals.Category:
    """The language's plural rules, as Babel's locale has them (from the facts)."""
    return plurals.category(facts(lang).plural)


# The rules read the operands of a Decimal in Python (~12 us a number), and a site's
# own unit asks for every number it follows. Keyed by what is printed, not by the
# rounded Decimal: 1 and 1.0 are equal Decimals of different plural categories.
@functools.lru_cache(maxsize=4096)
def plural_category(value: float, decimals: int, lang: str) -> str:
    """CLDR plural category of a number as printed ("one" for 1 in English, 1,5 in French)."""
    shown = rounded(value, decimals)
    category: str = plural_rule(lang)(shown)
    return category


@functools.cache
def unit_space(lang: str) -> str:
    """The space the language puts between a number and its unit (narrow in French)."""
    space = facts(lang).unit_space
    return NBSP if space == " " else space


def with_unit(value: float, decimals: int, unit: str | None, lang: str,
              custom: dict[str, tuple[Text, Text]]) -> str:
    """A number followed by its unit, spelled for the language and the number."""
    if unit is not None and unit != PERCENT and unit in custom:
        one, other = custom[unit]
        words = one if plural_category(value, decimals, lang) == "one" else other
        return f"{number(value, decimals, lang)}{unit_space(lang)}{words.get(lang)}"
    return known_unit(value, decimals, unit, lang)


# As `number`: the site's own units (`custom`) are words of its data, not kept here.
@functools.lru_cache(maxsize=4096, typed=True)
def known_unit(value: float, decimals: int, unit: str | None, lang: str) -> str:
    """A number followed by a unit that is not the site's own: none, a percent sign, a
    CLDR unit or a symbol."""
    if unit is None:
        return number(value, decimals, lang)
    if unit == PERCENT:
        return percent_amount(value, decimals, lang)
    if unit in CLDR_UNITS:
        return cldr_unit(rounded(value, decimals), decimals, CLDR_UNITS[unit], lang)
    return f"{number(value, decimals, lang)}{unit_space(lang)}{SYMBOL_UNITS.get(unit, unit)}"


@functools.cache
def unit_patterns(cldr: str, lang: str) -> dict[str, str] | None:
    """A CLDR unit's short patterns by plural category, looked up as format_unit does
    (those of the engine's units are in the facts).

    None when a category has none: format_unit then prints its own fallback.
    """
    known = facts(lang).units
    if cldr in known:
        return known[cldr]
    from progress_site.render.locale_facts import unit_patterns as looked_up

    return looked_up(locale(lang), cldr)


@functools.cache
def same_pattern(cldr: str, lang: str) -> str | None:
    """The pattern when every plural category reads the same (`{0} ms`), else None."""
    patterns = unit_patterns(cldr, lang)
    distinct = set(patterns.values()) if patterns else set()
    return distinct.pop() if len(distinct) == 1 else None


def cldr_unit(fixed: Decimal, decimals: int, cldr: str, lang: str) -> str:
    """Babel's format_unit (short, decimals kept), with its patterns found once per unit.

    The plural category is worked out only when the unit's words depend on it.
    """
    patterns = unit_patterns(cldr, lang)
    if patterns is None:
        from babel.units import format_unit

        fmt = "#,##0" + ("." + "0" * decimals if decimals else "")
        text: str = format_unit(fixed, cldr, length="short", format=fmt, locale=locale(lang))
    else:
        pattern = same_pattern(cldr, lang) or patterns[plural_rule(lang)(fixed)]
        text = pattern.format(grouped(fixed, decimals, lang))
    return text.replace(" ", NBSP)


def unit_words(value: float, decimals: int, unit: str | None, lang: str,
               custom: dict[str, tuple[Text, Text]]) -> str:
    """Only the unit's words for a number (used after a range: '12 to 17 packets')."""
    full = with_unit(value, decimals, unit, lang, custom)
    shown = number(value, decimals, lang)
    if unit == PERCENT:
        return full.replace(shown, "", 1).strip()
    return full.replace(shown, "", 1).strip(NBSP + " \u202f")


def word_list(items: Sequence[str], lang: str) -> str:
    """Items joined as the language lists them: `a, b, and c` / `a, b et c` (as Babel's
    format_list joins them, with its 'standard' patterns)."""
    if len(items) < 2:
        return items[0] if items else ""
    patterns = facts(lang).list_patterns
    if len(items) == 2 and "2" in patterns:
        return patterns["2"].format(*items)
    text = patterns["start"].format(items[0], items[1])
    for item in items[2:-1]:
        text = patterns["middle"].format(text, item)
    return patterns["end"].format(text, items[-1])
