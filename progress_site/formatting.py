"""Numbers, percentages, dates and units in each language, through Babel only."""

from __future__ import annotations

import datetime as dt
import functools
from decimal import ROUND_HALF_UP, Decimal

from babel import Locale
from babel.dates import format_date
from babel.numbers import NumberPattern, get_decimal_symbol, get_group_symbol, parse_pattern
from babel.units import _find_unit_pattern, format_unit

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
def digit_marks(lang: str) -> dict[int, str] | None:
    """A table from Python's `,` and `.` to the language's group and decimal symbols.

    None when a symbol holds a `'`: Babel's output drops quotes, which this table would not.
    """
    group = get_group_symbol(locale(lang), numbering_system="latn")
    point = get_decimal_symbol(locale(lang), numbering_system="latn")
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
    base = locale(lang).percent_formats[None].pattern.split(";")[0]
    fraction = "." + "0" * decimals if decimals else ""
    body = base.replace("#,##0", "#,##0" + fraction, 1)
    return parse_pattern(f"+{body};-{body}" if sign else body)


@functools.cache
def quantum(decimals: int) -> Decimal:
    """The step of a number printed with `decimals` decimals (`0.01` for 2)."""
    return Decimal(1).scaleb(-decimals)


def rounded(value: float | Decimal, decimals: int) -> Decimal:
    """Half-up rounding, as readers expect (Babel's default rounds half to even); never -0."""
    exact = value if isinstance(value, Decimal) else Decimal(repr(value))
    fixed = exact.quantize(quantum(decimals), ROUND_HALF_UP)
    return abs(fixed) if fixed == 0 else fixed


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
    `fixed`; Babel's general code is kept for any pattern that does not group by three.
    """
    pattern = percent_pattern(lang, decimals, sign)
    marks = digit_marks(lang)
    affixes = "".join((*pattern.prefix, *pattern.suffix))
    if (marks is None or not fixed.is_finite() or "'" in affixes or pattern.scale != 2
            or pattern.grouping != (3, 3) or pattern.int_prec[0] != 1
            or pattern.frac_prec != (decimals, decimals)):
        text: str = pattern.apply(fixed / 100, locale(lang))
        return text
    negative = int(fixed.is_signed())
    digits = f"{abs(fixed):,.{decimals}f}".translate(marks)
    return f"{pattern.prefix[negative]}{digits}{pattern.suffix[negative]}"


# Pages print the same few days thousands of times: each is formatted once per language.
@functools.lru_cache(maxsize=4096)
def date(day: dt.date, lang: str) -> str:
    """`November 8, 2026` / `8 novembre 2026`."""
    return format_date(day, "long", locale=locale(lang))


@functools.lru_cache(maxsize=4096)
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
        return cldr_unit(rounded(value, decimals), decimals, CLDR_UNITS[unit], lang)
    return f"{number(value, decimals, lang)}{unit_space(lang)}{SYMBOL_UNITS.get(unit, unit)}"


@functools.cache
def unit_patterns(cldr: str, lang: str) -> dict[str, str] | None:
    """A CLDR unit's short patterns by plural category, looked up as format_unit does.

    None when a category has none: format_unit then prints its own fallback.
    """
    loc = locale(lang)
    key = _find_unit_pattern(cldr, locale=loc)
    if key is None:
        return None
    short = loc._data["unit_patterns"][key].get("short", {})
    patterns: dict[str, str] = {}
    for tag in loc.plural_form.tags | {"other"}:
        pattern = short.get(tag) or short.get("other")
        if not pattern:
            return None
        patterns[tag] = pattern
    return patterns


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
        fmt = "#,##0" + ("." + "0" * decimals if decimals else "")
        text: str = format_unit(fixed, cldr, length="short", format=fmt, locale=locale(lang))
    else:
        pattern = same_pattern(cldr, lang) or patterns[locale(lang).plural_form(fixed)]
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
