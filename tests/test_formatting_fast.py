"""The fast paths of number formatting print exactly what the slow ones print.

Numbers skip Babel's general pattern code and units look their pattern up once: each is
compared here with the full path, on hand-picked and on generated inputs, so that a
divergence fails a test rather than changes a published page. (Inline Markdown's plain
words are compared with the parser in tests/test_markdown.py.)
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from babel.dates import format_date
from babel.units import format_unit
from hypothesis import given, settings
from hypothesis import strategies as st

from progress_site.model.units import CLDR_UNITS
from progress_site.render import formatting

# The site's languages, and others whose symbols or plural rules differ: a `'` that Babel
# strips (de_CH, fr_CH), other symbols (hi, ar, sv), three to six plural forms (ru, pl, cy).
LANGS = ["en", "fr", "de_CH", "fr_CH", "hi", "ar", "sv", "ru", "pl", "cy"]
VALUES = ["0", "1", "1.0", "1.5", "2", "3", "5", "11", "21", "101", "999.995", "1000",
          "1234567.891", "1000000", "-1", "-0.5", "-1234.5", "0.001", "1e6", "12345678901234"]


def babel_number(fixed: Decimal, decimals: int, lang: str) -> str:
    """What formatting.number printed before its fast path: Babel's pattern, applied."""
    text: str = formatting.decimal_pattern(lang, decimals).apply(fixed, formatting.locale(lang))
    return text


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("decimals", [0, 1, 2, 3, 6])
def test_grouped_numbers_read_as_babel_prints_them(lang: str, decimals: int) -> None:
    for value in VALUES:
        fixed = formatting.rounded(Decimal(value), decimals)
        assert formatting.grouped(fixed, decimals, lang) == babel_number(fixed, decimals, lang)


@settings(max_examples=2000, derandomize=True, deadline=None)
@given(st.decimals(allow_nan=False, allow_infinity=False, places=None,
                   min_value=-10**15, max_value=10**15),
       st.integers(0, 6), st.sampled_from(LANGS))
def test_any_number_reads_as_babel_prints_it(value: Decimal, decimals: int, lang: str) -> None:
    fixed = formatting.rounded(value, decimals)
    assert formatting.grouped(fixed, decimals, lang) == babel_number(fixed, decimals, lang)


@settings(max_examples=2000, derandomize=True, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12),
       st.integers(0, 4), st.sampled_from(["en", "fr"]))
def test_numbers_from_floats_read_as_before(value: float, decimals: int, lang: str) -> None:
    fixed = formatting.rounded(value, decimals)
    assert formatting.number(value, decimals, lang) == babel_number(fixed, decimals, lang)


def babel_percent(fixed: Decimal, decimals: int, lang: str, sign: bool) -> str:
    """What formatting.percent_amount printed before its fast path."""
    pattern = formatting.percent_pattern(lang, decimals, sign)
    text: str = pattern.apply(fixed / 100, formatting.locale(lang))
    return text


@settings(max_examples=2000, derandomize=True, deadline=None)
@given(st.decimals(allow_nan=False, allow_infinity=False, places=None,
                   min_value=-10**12, max_value=10**12),
       st.integers(0, 4), st.sampled_from([*LANGS, "tr", "hi", "fa"]), st.booleans())
def test_any_percentage_reads_as_babel_prints_it(value: Decimal, decimals: int, lang: str,
                                                 sign: bool) -> None:
    fixed = formatting.rounded(value, decimals)
    assert formatting.percent_text(fixed, decimals, lang, sign) == babel_percent(
        fixed, decimals, lang, sign)


@pytest.mark.parametrize("lang", [*LANGS, "tr", "hi"])
def test_percentages_read_as_babel_prints_them(lang: str) -> None:
    for sign in (False, True):
        for decimals in (0, 1, 2):
            for value in VALUES:
                fixed = formatting.rounded(Decimal(value), decimals)
                assert formatting.percent_text(fixed, decimals, lang, sign) == babel_percent(
                    fixed, decimals, lang, sign), (value, decimals, sign)


def babel_unit(fixed: Decimal, decimals: int, cldr: str, lang: str) -> str:
    """What formatting.with_unit printed before: format_unit on each call."""
    fmt = "#,##0" + ("." + "0" * decimals if decimals else "")
    text: str = format_unit(fixed, cldr, length="short", format=fmt,
                            locale=formatting.locale(lang))
    return text.replace(" ", formatting.NBSP)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("cldr", sorted(set(CLDR_UNITS.values())))
def test_units_read_as_format_unit_prints_them(cldr: str, lang: str) -> None:
    for decimals in (0, 1, 2):
        for value in VALUES:
            fixed = formatting.rounded(Decimal(value), decimals)
            assert formatting.cldr_unit(fixed, decimals, cldr, lang) == babel_unit(
                fixed, decimals, cldr, lang), (value, decimals)


@settings(max_examples=2000, derandomize=True, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e9, max_value=1e9),
       st.integers(0, 3), st.sampled_from(sorted(CLDR_UNITS)), st.sampled_from(LANGS))
def test_with_unit_reads_as_before(value: float, decimals: int, unit: str, lang: str) -> None:
    fixed = formatting.rounded(value, decimals)
    assert formatting.with_unit(value, decimals, unit, lang, {}) == babel_unit(
        fixed, decimals, CLDR_UNITS[unit], lang)


def test_units_whose_words_follow_the_number_still_do() -> None:
    assert formatting.same_pattern("duration-millisecond", "cy") is None  # 0 is "milieil"
    for value in ("0", "1", "2", "3", "6", "1.5"):
        fixed = Decimal(value)
        decimals = 1 if "." in value else 0
        assert formatting.cldr_unit(fixed, decimals, "duration-millisecond", "cy") == (
            babel_unit(fixed, decimals, "duration-millisecond", "cy"))
    assert formatting.cldr_unit(Decimal(0), 0, "duration-millisecond", "cy") == "0\xa0milieil"


def test_an_unknown_unit_falls_back_to_format_unit() -> None:
    assert formatting.unit_patterns("length-horse", "en") is None


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_remembered_dates_are_the_dates(lang: str) -> None:
    day = dt.date(2026, 11, 8)
    for _ in range(2):
        assert formatting.date(day, lang) == format_date(day, "long", locale=lang)
