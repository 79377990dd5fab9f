"""Formatting from a language's facts prints what Babel prints, and the facts keep.

formatting.py prints numbers, dates, units, lists and language names from the facts
localefacts.py reads from Babel once (localecache.py keeps them as JSON). Each function
is compared here with Babel's own call over a sweep of values, in the site's languages
and in others whose patterns differ: German's `d. MMMM`, Japanese's `y年M月d日`,
Hungarian's year first, Brazilian Portuguese's quoted `de`, Basque's `%` before the
number, Persian's stand-alone month names; languages whose own digits are not Latin
(Babel prints Latin digits for all, as the engine asks it to); and languages whose
patterns the facts leave to Babel: a quote in the group symbol (de_CH), a percentage
grouped by two (hi), an era in the date (th).
"""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from pathlib import Path

import pytest
from babel import Locale
from babel.dates import format_date, format_skeleton
from babel.lists import format_list
from babel.numbers import parse_pattern
from babel.units import format_unit

from progress_site.model.units import CLDR_UNITS
from progress_site.render import formatting
from progress_site.render import locale_cache as localecache
from progress_site.render.locale_cache import entry_key, from_json, read_entry, write_entry
from progress_site.render.locale_facts import extract, percent_source
from progress_site.render.notfound import language_name

# Formatted from the facts alone (ar, fa and my write other digits than Latin ones).
FAST = ["en", "fr", "de", "ja", "hu", "pt_BR", "es", "ru", "eu", "ko", "lv", "he", "cy", "sv",
        "ar", "fa", "my"]
# Some of it left to Babel: the group symbol of de_CH holds a quote, hi groups its
# percentages by two, th writes the era in its dates.
FALLBACK = ["de_CH", "hi", "th"]
LANGS = FAST + FALLBACK

VALUES = ["0", "-0", "0.5", "-0.5", "1", "-1", "1.5", "2", "2.345", "-2.345", "0.005", "0.0049",
          "0.015", "9.995", "99.5", "999.5", "999.995", "1000", "-1000", "1234.5678",
          "-1234567.891", "12345678901234.5", "0.000001", "1e-9", "3.14159265358979"]


def babel_number(value: Decimal, decimals: int, lang: str) -> str:
    """Babel's `#,##0.00` pattern, applied to the number rounded as formatting rounds it."""
    fraction = "." + "0" * decimals if decimals else ""
    fixed = formatting.rounded(value, decimals)
    text: str = parse_pattern("#,##0" + fraction).apply(fixed, Locale.parse(lang))
    return text


def babel_percent(value: Decimal, decimals: int, lang: str, sign: bool) -> str:
    """Babel's percent pattern of the locale, with the decimals and the sign."""
    base = Locale.parse(lang).percent_formats[None].pattern.split(";")[0]
    pattern = parse_pattern(percent_source(base, decimals, sign))
    text: str = pattern.apply(formatting.rounded(value, decimals) / 100, Locale.parse(lang))
    return text


def every_day(year: int) -> list[dt.date]:
    """Each day of a year."""
    first = dt.date(year, 1, 1)
    return [first + dt.timedelta(days=n) for n in range((dt.date(year + 1, 1, 1) - first).days)]


@pytest.mark.parametrize("lang", LANGS)
def test_facts_read_back_from_json_are_the_facts(lang: str) -> None:
    facts = extract(lang)
    assert from_json(json.loads(json.dumps(localecache.as_json(facts)))) == facts


@pytest.mark.parametrize("lang", LANGS)
def test_numbers_read_as_babel_prints_them(lang: str) -> None:
    for decimals in range(9):
        for value in VALUES:
            assert formatting.number(float(value), decimals, lang) == babel_number(
                Decimal(repr(float(value))), decimals, lang), (value, decimals)
            assert formatting.grouped(formatting.rounded(Decimal(value), decimals), decimals,
                                      lang) == babel_number(Decimal(value), decimals, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_percentages_read_as_babel_prints_them(lang: str) -> None:
    for sign in (False, True):
        for decimals in range(7):
            for value in VALUES:
                fixed = formatting.rounded(Decimal(value), decimals)
                assert formatting.percent_text(fixed, decimals, lang, sign) == babel_percent(
                    fixed, decimals, lang, sign), (value, decimals, sign)


@pytest.mark.parametrize("lang", LANGS)
def test_every_day_reads_as_babel_prints_it(lang: str) -> None:
    for day in every_day(2024) + every_day(2026) + [dt.date(1, 1, 1), dt.date(987, 6, 5),
                                                      dt.date(9999, 12, 31)]:
        assert formatting.date(day, lang) == format_date(day, "long", locale=lang)
        assert formatting.short_date(day, lang) == format_skeleton("MMMMd", day, locale=lang)


@pytest.mark.parametrize("lang", FAST)
def test_dates_are_printed_from_the_facts(lang: str) -> None:
    known = localecache.facts(lang)
    day = dt.date(2026, 11, 8)
    assert formatting.dated(known.long_date, day, lang) == format_date(day, "long", locale=lang)
    assert formatting.dated(known.short_date, day, lang) is not None


def test_a_date_field_the_facts_do_not_print_is_left_to_babel() -> None:
    day = dt.date(2026, 11, 8)
    assert "G" in "".join(formatting.fields_of(localecache.facts("th").long_date or ""))
    assert formatting.dated(localecache.facts("th").long_date, day, "th") is None
    assert formatting.date(day, "th") == format_date(day, "long", locale="th")


def test_patterns_the_facts_leave_to_babel_are_none() -> None:
    assert formatting.digit_marks("de_CH") is None  # its group symbol is `'`
    assert localecache.facts("hi").percent is None  # `#,##,##0%`
    assert localecache.facts("eu").percent == ((("%\xa0", "-%\xa0"), ("", "")),
                                               (("+%\xa0", "-%\xa0"), ("", "")))


@pytest.mark.parametrize("lang", LANGS)
def test_plural_categories_are_babels(lang: str) -> None:
    rule = Locale.parse(lang).plural_form
    for decimals in range(4):
        for value in [*VALUES, *map(str, range(200)), "1000000", "1.0", "21.5"]:
            shown = formatting.rounded(Decimal(value), decimals)
            assert formatting.plural_category(float(value), decimals, lang) == rule(
                formatting.rounded(float(value), decimals)), (value, decimals)
            assert formatting.plural_rule(lang)(shown) == rule(shown)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("cldr", sorted(set(CLDR_UNITS.values())))
def test_units_read_as_format_unit_prints_them(lang: str, cldr: str) -> None:
    for decimals in range(4):
        for value in VALUES:
            fixed = formatting.rounded(Decimal(value), decimals)
            fmt = "#,##0" + ("." + "0" * decimals if decimals else "")
            expected = format_unit(fixed, cldr, length="short", format=fmt, locale=lang)
            assert formatting.cldr_unit(fixed, decimals, cldr, lang) == expected.replace(
                " ", formatting.NBSP), (value, decimals)


@pytest.mark.parametrize("lang", LANGS)
def test_the_space_before_a_unit_is_babels(lang: str) -> None:
    text = format_unit(1, "digital-byte", length="short", locale=lang)
    space = text[1] if len(text) > 1 else " "
    assert formatting.unit_space(lang) == (formatting.NBSP if space == " " else space)


@pytest.mark.parametrize("lang", LANGS)
def test_lists_read_as_format_list_prints_them(lang: str) -> None:
    items = ["alpha", "beta", "{0}", "delta", "epsilon"]
    for count in range(len(items) + 1):
        assert formatting.word_list(items[:count], lang) == format_list(items[:count],
                                                                         locale=lang)


@pytest.mark.parametrize("lang", LANGS)
def test_language_names_are_babels(lang: str) -> None:
    name = Locale.parse(lang).get_display_name(lang) or lang
    assert language_name(lang) == name[:1].upper() + name[1:]


# The entries on disk.

def test_an_entry_is_written_once_and_read_back(tmp_path: Path) -> None:
    localecache.load(tmp_path, ["fr", "en"])
    entry = tmp_path / "locales" / "fr.json"
    assert read_entry(entry, "fr") == localecache.facts("fr")
    written = entry.stat().st_mtime_ns
    localecache.load(tmp_path, ["fr"])  # this process has it: the file is not read again
    assert entry.stat().st_mtime_ns == written


def test_an_entry_made_under_another_key_is_not_used(tmp_path: Path) -> None:
    entry = tmp_path / "fr.json"
    write_entry(entry, "fr", localecache.facts("fr"))
    data = json.loads(entry.read_bytes())
    assert read_entry(entry, "en") is None  # the key names the language
    entry.write_text(json.dumps({**data, "key": "0" * 128}))
    assert read_entry(entry, "fr") is None


@pytest.mark.parametrize("damage", [
    lambda data: b"",
    lambda data: data[: len(data) // 2],
    lambda data: b"\xff" + data,
    lambda data: b"[]",
    lambda data: json.dumps({"key": json.loads(data)["key"]}).encode(),
])
def test_a_damaged_entry_counts_as_missing(tmp_path: Path, damage: object) -> None:
    entry = tmp_path / "en.json"
    write_entry(entry, "en", localecache.facts("en"))
    entry.write_bytes(damage(entry.read_bytes()))  # type: ignore[operator]
    assert read_entry(entry, "en") is None


@pytest.mark.parametrize(("field", "value"), [
    ("group", 3),
    ("long_date", "%(MMMM)s %d"),  # `%` would raise when applied
    ("long_date", "%(MMMM)r"),
    ("months", {"MMMM": ["janvier"]}),
    ("plural", {"one": "n is what"}),
    ("units", {"duration-second": {"one": "{1} s"}}),
    ("list_patterns", {"start": "{0}, {1}", "end": "{0} et {1}"}),  # no middle
    ("list_patterns", {"start": "{0}, {2}", "middle": "{0}, {1}", "end": "{0} et {1}"}),
    ("percent", [[["", "-"], ["%"]], [["+", "-"], ["%", "%"]]]),
])
def test_an_entry_holding_what_formatting_cannot_use_counts_as_missing(
        tmp_path: Path, field: str, value: object) -> None:
    entry = tmp_path / "fr.json"
    facts = localecache.as_json(localecache.facts("fr"))
    entry.write_text(json.dumps({"key": entry_key("fr"), "facts": {**facts, field: value}}))
    assert read_entry(entry, "fr") is None
    entry.write_text(json.dumps({"key": entry_key("fr"), "facts": facts}))
    assert read_entry(entry, "fr") == localecache.facts("fr")  # the _ok twin


def test_a_folder_that_cannot_be_written_is_no_error(tmp_path: Path) -> None:
    (tmp_path / "locales").write_text("a file where the folder would be")
    localecache.load(tmp_path, ["en"])
    assert formatting.number(1234.5, 1, "en") == "1,234.5"
