"""Numbers, percentages, dates, units, lists and plurals in each language: Babel's functions.

Every number is printed by Babel (`format_decimal`, `format_percent`, `format_unit`), so
it rounds as Babel rounds: half to even, on the number as Python writes it (0.125 with
two decimals is 0.12, 2.5 with none is 2). What is ours: a number that rounds to zero
prints without a minus (`0.0`, never `-0.0`), a signed percentage of zero has no sign,
and a number's plural category is that of the number as printed (`1.0 cores`).
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Sequence
from decimal import Decimal
from typing import cast

from babel import Locale
from babel.dates import format_date, format_skeleton
from babel.lists import format_list
from babel.numbers import NumberPattern, format_decimal, format_percent, parse_pattern
from babel.units import format_unit

from progress_site.model.units import CLDR_UNITS, NOT_SYMBOLS, PERCENT
from progress_site.model.values import Text

NBSP = "\u00a0"


# Babel parses a language code again on each call it is given one; a build formats
# every figure of the site (see bench/scale.py).
@functools.cache
def locale(lang: str) -> Locale:
    """The Babel locale of a language code, parsed once."""
    return Locale.parse(lang)


def fraction_digits(decimals: int) -> str:
    """The fraction part of a number pattern with `decimals` decimals: `.00` for 2."""
    return "." + "0" * decimals if decimals else ""


def decimal_format(decimals: int) -> str:
    """`#,##0.00`: the locale's grouping with a fixed number of decimals."""
    return "#,##0" + fraction_digits(decimals)


# Babel parses a pattern string again on every call; a site's numbers use a handful of
# patterns, and a 100,000-point history formats tens of thousands of numbers with them
# (bench/history_scale.py). Babel's own compiled form is kept, one per decimals.
@functools.cache
def decimal_pattern(decimals: int) -> NumberPattern:
    """`#,##0.00` compiled by Babel once, for `format_decimal` and `format_unit`."""
    return parse_pattern(decimal_format(decimals))


def percent_format(lang: str, decimals: int, sign: bool) -> str:
    """The locale's percent pattern (`#,##0 %` in French), with decimals and a sign."""
    base = locale(lang).percent_formats[None].pattern.split(";")[0]
    body = base.replace("#,##0", "#,##0" + fraction_digits(decimals), 1)
    return f"+{body};-{body}" if sign else body


def shown(value: float | Decimal, decimals: int) -> Decimal:
    """The number as printed with `decimals` decimals, rounded as Babel rounds it (the
    decimal context's half to even, on the number as Python writes it); never -0."""
    exact = value if isinstance(value, Decimal) else Decimal(str(value))
    fixed = exact.quantize(Decimal(1).scaleb(-decimals))
    return abs(fixed) if fixed.is_zero() else fixed


def number(value: float | Decimal, decimals: int, lang: str) -> str:
    """`1,000.5` in English, `1 000,5` (narrow no-break space) in French."""
    return number_of(shown(value, decimals), decimals, lang)


def number_of(fixed: Decimal, decimals: int, lang: str) -> str:
    """A number already rounded by `shown`, in the language's digits and separators."""
    pattern = decimal_pattern(decimals)
    # Babel's pattern applied as `format_decimal` applies it, but without looking up
    # the group separator for a number whose whole part has no more digits than a
    # group: most of a site's numbers, and the look-up is much of the work of each.
    grouped = fixed.adjusted() >= pattern.grouping[0]  # 1000 has 3, 999.99 has 2
    text: str = pattern.apply(fixed, locale(lang), group_separator=grouped)
    return text


def percent(fraction: float, decimals: int, lang: str, *, sign: bool = False) -> str:
    """`+1.5%` in English, `+1,5 %` in French; `fraction` is 0.015 for 1.5 %."""
    return percent_amount(Decimal(str(fraction)).scaleb(2), decimals, lang, sign=sign)


def percent_amount(amount: float | Decimal, decimals: int, lang: str, *,
                   sign: bool = False) -> str:
    """A percentage given in percent (`6.85` -> `6.8%`), rounded before any division."""
    fixed = shown(amount, decimals)
    pattern = percent_format(lang, decimals, sign and not fixed.is_zero())
    text: str = format_percent(fixed.scaleb(-2), format=pattern, locale=locale(lang))
    return text


def date(day: dt.date, lang: str) -> str:
    """`November 8, 2026` / `8 novembre 2026`, its words held on one line (`whole`)."""
    return whole(first_of_month(format_date(day, "long", locale=locale(lang)), day, lang))


def short_date(day: dt.date, lang: str) -> str:
    """`November 8` / `8 novembre`: a date within the page's own year, on one line."""
    return whole(first_of_month(format_skeleton("MMMMd", day, locale=locale(lang)), day, lang))


def first_of_month(text: str, day: dt.date, lang: str) -> str:
    """French writes the first of a month as an ordinal, `1er novembre`, which CLDR's
    patterns (`d MMMM y`) cannot say: every other day is a plain number."""
    if day.day == 1 and locale(lang).language == "fr" and text.startswith("1 "):
        return "1er" + text[1:]
    return text


def whole(day: str) -> str:
    """A date with no-break spaces between its words: a line broken after `8` or
    `November 8,` leaves a number apart from what it counts, as `n =` or `±` would."""
    return day.replace(" ", NBSP)


def plural_category(value: float, decimals: int, lang: str) -> str:
    """CLDR plural category of a number as printed ("one" for 1 in English, 1,5 in French)."""
    category: str = locale(lang).plural_form(shown(value, decimals))
    return category


# One answer a language, asked for by every number with a symbol or a site's own unit.
@functools.cache
def unit_space(lang: str) -> str:
    """The space Babel puts between a number and a short unit (narrow in French), no-break."""
    text: str = format_unit(1, "digital-byte", length="short", locale=locale(lang))
    space = text[1] if len(text) > 1 else " "
    return NBSP if space == " " else space


def with_unit(value: float, decimals: int, unit: str | None, lang: str,
              custom: dict[str, tuple[Text, Text]]) -> str:
    """A number followed by its unit, spelled for the language and the number."""
    if unit is not None and unit != PERCENT and unit in custom:
        one, other = custom[unit]
        words = one if plural_category(value, decimals, lang) == "one" else other
        return f"{number(value, decimals, lang)}{unit_space(lang)}{words.get(lang)}"
    return known_unit(value, decimals, unit, lang)


def known_unit(value: float, decimals: int, unit: str | None, lang: str) -> str:
    """A number followed by a unit that is not the site's own: none, a percent sign, a
    CLDR unit or a symbol."""
    if unit is None:
        return number(value, decimals, lang)
    if unit == PERCENT:
        return percent_amount(value, decimals, lang)
    if unit in CLDR_UNITS:
        return cldr_unit(value, decimals, CLDR_UNITS[unit], lang)
    return f"{number(value, decimals, lang)}{unit_space(lang)}{unit}"


def cldr_unit(value: float, decimals: int, cldr: str, lang: str) -> str:
    """Babel's short unit (`2.67 ms`, `524 ko`), its words chosen for the number as
    printed, its space no-break, a symbol where CLDR writes a word (`69.10 s`)."""
    fixed = shown(value, decimals)
    words = cldr_words(cldr, lang)
    if words is None:
        # format_unit hands `format` to format_decimal, which takes a compiled pattern
        # as well as a string (its annotation names only the string).
        pattern = cast(str, decimal_pattern(decimals))
        text: str = format_unit(fixed, cldr, length="short", format=pattern,
                                locale=locale(lang))
        return as_symbol(text.replace(" ", NBSP))
    # Most short units read the same in every plural category: then the number's
    # category is not worked out at all.
    before, after = words if isinstance(words, tuple) else words[
        locale(lang).plural_form(fixed)]
    return before + number_of(fixed, decimals, lang).replace(" ", NBSP) + after


# Numbers of each plural category in the languages Babel knows: `unit_affixes` asks
# Babel for a unit's words with the first of them whose category is the one wanted.
SAMPLES = tuple(Decimal(n) for n in ("1", "2", "0", "3", "5", "11", "21", "100",
                                     "1000000", "0.5", "1.5", "2.5"))


# A unit's words depend only on the plural category of its number (CLDR's patterns:
# format_unit fills one with the number it formats); a large site or a long history
# prints thousands of numbers in a few units, and format_unit looks its pattern up again
# each time (bench/scale.py, bench/history_scale.py). They are made no-break and given
# their symbol here, once a unit (`as_symbol` reads only the end of the text, which is
# the words after the number: a number ends with a digit).
@functools.cache
def cldr_words(cldr: str, lang: str) -> tuple[str, str] | dict[str, tuple[str, str]] | None:
    """What a page prints around a number in Babel's short unit, its spaces no-break and
    its symbol ours (`as_symbol`): one pair when every plural category reads the same,
    else the pair of each category; None when a category's words cannot be told (then
    format_unit is asked for each number)."""
    rule = locale(lang).plural_form
    words = {category: printed_affixes(unit_affixes(cldr, lang, category))
             for category in (*sorted(rule.tags), "other")}
    if any(pair is None for pair in words.values()):
        return None
    pairs = cast(dict[str, tuple[str, str]], words)
    return pairs["other"] if len(set(pairs.values())) == 1 else pairs


def printed_affixes(pair: tuple[str, str] | None) -> tuple[str, str] | None:
    """A unit's words before and after a number as a page prints them: no-break spaces,
    and the symbol where Babel spells a word (`as_symbol`)."""
    if pair is None:
        return None
    before, after = (part.replace(" ", NBSP) for part in pair)
    return before, as_symbol(after)


def unit_affixes(cldr: str, lang: str, category: str) -> tuple[str, str] | None:
    """What Babel's short unit writes before and after a number of this plural
    category (`("", " ms")`); None when no sample number has that category."""
    rule = locale(lang).plural_form
    sample = next((n for n in SAMPLES if rule(n) == category), None)
    if sample is None:
        return None
    printed = format_decimal(sample, locale=locale(lang))
    text: str = format_unit(sample, cldr, length="short", locale=locale(lang))
    before, found, after = text.partition(printed)
    return (before, after) if found else None


def as_symbol(text: str) -> str:
    """A number and its unit with the unit's symbol where Babel spells it otherwise: `1.5 sec`
    is `1.5 s`, `524 kB` is `524 KB`."""
    for word, symbol in NOT_SYMBOLS.items():
        # The whole last word only: a unit written after the number, never inside it.
        if text.endswith(NBSP + word) or text.endswith("\u202f" + word):
            return text[: -len(word)] + symbol
    return text


def unit_words(value: float, decimals: int, unit: str | None, lang: str,
               custom: dict[str, tuple[Text, Text]]) -> str:
    """Only the unit's words for a number (used after a range: '12 to 17 packets')."""
    full = with_unit(value, decimals, unit, lang, custom)
    printed = number(value, decimals, lang)
    if unit == PERCENT:
        return full.replace(printed, "", 1).strip()
    return full.replace(printed, "", 1).strip(NBSP + " \u202f")


def word_list(items: Sequence[str], lang: str) -> str:
    """Items joined as the language lists them: `a, b, and c` / `a, b et c`."""
    text: str = format_list(items, locale=locale(lang))
    return text


def own_name(lang: str) -> str:
    """A language's name in itself, as Babel spells it: `français`."""
    return locale(lang).get_display_name(lang) or lang
