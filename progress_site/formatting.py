"""Numbers, percentages, dates and units in each language, through Babel only."""

from __future__ import annotations

import datetime as dt
import functools
from decimal import ROUND_HALF_UP, Decimal

from babel import Locale
from babel.dates import format_date
from babel.numbers import NumberPattern, parse_pattern
from babel.units import format_unit

from .units import CLDR_UNITS, PERCENT, SYMBOL_UNITS
from .values import Text

NBSP = "\u00a0"


@functools.cache
def locale(lang: str) -> Locale:
    """The Babel locale of a language code."""
    return Locale.parse(lang)


@functools.cache
def decimal_pattern(lang: str, decimals: int) -> NumberPattern:
    """The locale's grouping with a fixed number of decimals, parsed once."""
    fraction = "." + "0" * decimals if decimals else ""
    return parse_pattern("#,##0" + fraction)


@functools.cache
def percent_pattern(lang: str, decimals: int, sign: bool) -> NumberPattern:
    """The locale's percent pattern (`#,##0 %` in French), with decimals and a sign."""
    base = locale(lang).percent_formats[None].pattern.split(";")[0]
    fraction = "." + "0" * decimals if decimals else ""
    body = base.replace("#,##0", "#,##0" + fraction, 1)
    return parse_pattern(f"+{body};-{body}" if sign else body)


def rounded(value: float | Decimal, decimals: int) -> Decimal:
    """Half-up rounding, as readers expect (Babel's default rounds half to even); never -0."""
    exact = value if isinstance(value, Decimal) else Decimal(repr(value))
    fixed = exact.quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP)
    return abs(fixed) if fixed == 0 else fixed


def number(value: float, decimals: int, lang: str) -> str:
    """`1,000.5` in English, `1 000,5` (narrow no-break space) in French."""
    fixed = rounded(value, decimals)
    text: str = decimal_pattern(lang, decimals).apply(fixed, locale(lang))
    return text


def percent(fraction: float, decimals: int, lang: str, *, sign: bool = False) -> str:
    """`+1.5%` in English, `+1,5 %` in French; `fraction` is 0.015 for 1.5 %."""
    return percent_amount(Decimal(repr(fraction)) * 100, decimals, lang, sign=sign)


def percent_amount(amount: float | Decimal, decimals: int, lang: str, *,
                   sign: bool = False) -> str:
    """A percentage given in percent (`6.85` -> `6.9%`), rounded before any division."""
    fixed = rounded(amount, decimals)
    text: str = percent_pattern(lang, decimals, sign).apply(fixed / 100, locale(lang))
    if sign and fixed == 0:
        text = text.lstrip("+-")
    return text


def date(day: dt.date, lang: str) -> str:
    """`November 8, 2026` / `8 novembre 2026`."""
    return format_date(day, "long", locale=locale(lang))


def short_date(day: dt.date, lang: str) -> str:
    """`November 8` / `8 novembre`: a date within the page's own year."""
    skeleton = "MMMMd"
    from babel.dates import format_skeleton

    return format_skeleton(skeleton, day, locale=locale(lang))


def plural_category(value: float, decimals: int, lang: str) -> str:
    """CLDR plural category of a number as printed ("one" for 1 in English, 1,5 in French)."""
    shown = rounded(value, decimals)
    return locale(lang).plural_form(shown)


@functools.cache
def unit_space(lang: str) -> str:
    """The space the language puts between a number and its unit (narrow in French)."""
    text: str = format_unit(1, "digital-byte", length="short", locale=locale(lang))
    space = text[1] if len(text) > 1 else " "
    return NBSP if space == " " else space


def with_unit(value: float, decimals: int, unit: str | None, lang: str,
              custom: dict[str, tuple[Text, Text]]) -> str:
    """A number followed by its unit, spelled for the language and the number."""
    if unit is None:
        return number(value, decimals, lang)
    if unit == PERCENT:
        return percent_amount(value, decimals, lang)
    if unit in custom:
        one, other = custom[unit]
        words = one if plural_category(value, decimals, lang) == "one" else other
        return f"{number(value, decimals, lang)}{unit_space(lang)}{words.get(lang)}"
    if unit in CLDR_UNITS:
        fixed = rounded(value, decimals)
        fmt = "#,##0" + ("." + "0" * decimals if decimals else "")
        text: str = format_unit(fixed, CLDR_UNITS[unit], length="short", format=fmt,
                                locale=locale(lang))
        return text.replace(" ", NBSP)
    return f"{number(value, decimals, lang)}{unit_space(lang)}{SYMBOL_UNITS.get(unit, unit)}"


def unit_words(value: float, decimals: int, unit: str | None, lang: str,
               custom: dict[str, tuple[Text, Text]]) -> str:
    """Only the unit's words for a number (used after a range: '12 to 17 packets')."""
    full = with_unit(value, decimals, unit, lang, custom)
    shown = number(value, decimals, lang)
    if unit == PERCENT:
        return full.replace(shown, "", 1).strip()
    return full.replace(shown, "", 1).strip(NBSP + " \u202f")
