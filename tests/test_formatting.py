"""Table tests of how numbers, dates and units read in English and French.

Expected strings spell their spaces as escapes, since they are the point of several rows:
NNBSP (U+202F, narrow no-break space) groups French thousands and, in French, sits
between a number and its unit; NBSP (U+00A0, no-break space) sits before the French `%`
and between an English number and its unit.
"""

from __future__ import annotations

import datetime as dt
import random
from decimal import InvalidOperation

import pytest
from babel.numbers import format_decimal, format_percent
from babel.support import NullTranslations
from babel.units import format_unit

from progress_site.derive.namespace import Namespace
from progress_site.derive.quantity import Quantity
from progress_site.model.declare import Unit
from progress_site.model.schema import Site
from progress_site.model.units import CLDR_UNITS
from progress_site.model.values import Text
from progress_site.pipeline import ENGINE_ROOT
from progress_site.render import formatting
from progress_site.render.i18n import compile_catalog, po_path, read_catalog
from progress_site.render.words import Words

NNBSP = "\u202f"
NBSP = "\u00a0"


def words(en: str, fr: str) -> Text:
    """A text with its English and French words."""
    return Text((("en", en), ("fr", fr)))


CORES = Unit(id="cores", one=words("core", "cœur"), other=words("cores", "cœurs"))
PACKETS = Unit(id="packets", one=words("packet", "paquet"), other=words("packets", "paquets"))
CUSTOM = {u.id: (u.one, u.other) for u in (CORES, PACKETS)}


@pytest.mark.parametrize(("value", "decimals", "lang", "expected"), [
    (0, 0, "en", "0"),
    (0, 2, "fr", "0,00"),
    (1000.5, 1, "en", "1,000.5"),
    (1000.5, 1, "fr", "1\u202f000,5"),
    (1234567, 0, "en", "1,234,567"),
    (1234567, 0, "fr", "1\u202f234\u202f567"),
    (6.4, 2, "en", "6.40"),  # the decimals typed are kept
    (6.4, 2, "fr", "6,40"),
    (2.345, 2, "en", "2.34"),  # half to even, as Babel rounds
    (2.345, 2, "fr", "2,34"),
    (2.335, 2, "en", "2.34"),
    (0.125, 2, "en", "0.12"),
    (0.125, 2, "fr", "0,12"),
    (1.005, 2, "en", "1.00"),  # as written (1.005), not as the float's 1.00499999...
    (0.5, 0, "en", "0"),
    (2.5, 0, "en", "2"),
    (3.5, 0, "fr", "4"),
    (-2.5, 0, "en", "-2"),
    (-2.5, 0, "fr", "-2"),
    (-0.04, 1, "en", "0.0"),  # never "-0.0"
    (-0.04, 1, "fr", "0,0"),
    (-0.0, 0, "en", "0"),
])
def test_number(value: float, decimals: int, lang: str, expected: str) -> None:
    assert formatting.number(value, decimals, lang) == expected


def random_values(count: int) -> list[float]:
    """Seeded floats of magnitudes from 1e-6 to 1e12, either sign, and exact halves at
    each number of decimals (`0.125`, `2.5`): the same list on every run."""
    rng = random.Random(15)
    values: list[float] = []
    for _ in range(count):
        sign = rng.choice((1, -1))
        if rng.random() < 0.3:  # a half at 0 to 4 decimals: `12345e-3` is 12.345
            places = rng.randrange(5)
            values.append(sign * float(f"{rng.randrange(10**6)}5e-{places + 1}"))
        else:
            values.append(sign * rng.random() * 10 ** rng.randrange(-6, 13))
    return values


# A value and the shortest float text Python writes for it are what Babel rounds.
HALVES = [0.125, 2.5, 0.5, 1.005, 1.5, 0.0625, 10.25, 1234.5, -0.125, -2.5]
# Either side of the first group (`999.99`, `1,000.00`): Babel's group separator is only
# looked up for a number long enough to have one.
EDGES = [999.99, 999.994, 999.995, 999.5, 1000.0, 1000.004, -999.995, -1000.0, 99999.5]
VALUES = [*HALVES, *EDGES, 0.0, -0.0, 1.0, -1.0, 1e15, *random_values(3000)]
DECIMAL_PATTERNS = {d: "#,##0" + ("." + "0" * d if d else "") for d in range(5)}


def babel_number(value: float, decimals: int, lang: str) -> str:
    """Babel's format_decimal of a value with `decimals` decimals; a negative number that
    rounds to zero is printed as zero (Babel keeps its minus: `-0.0`)."""
    text: str = format_decimal(value, format=DECIMAL_PATTERNS[decimals], locale=lang)
    if text.startswith("-") and not any(c in "123456789" for c in text):
        return text[1:]
    return text


# Hindi groups by two after the first three (`10,00,000`).
@pytest.mark.parametrize("lang", ["en", "fr", "hi"])
@pytest.mark.parametrize("decimals", range(5))
def test_numbers_read_as_babel_prints_them(decimals: int, lang: str) -> None:
    for value in VALUES:
        assert formatting.number(value, decimals, lang) == babel_number(
            value, decimals, lang), value


# Welsh and Polish words a short unit by more plural categories than one and other.
@pytest.mark.parametrize("lang", ["en", "fr", "cy", "pl"])
@pytest.mark.parametrize("unit", sorted(set(CLDR_UNITS.values())))
def test_units_read_as_babel_prints_them(unit: str, lang: str) -> None:
    """A unit's forms read once a language print what format_unit prints, in every
    plural category."""
    for value in [0, 0.5, 1, 2, 3, 6, 11, 21, 101, *VALUES[:200]]:
        for decimals in range(4):
            fixed = formatting.shown(value, decimals)
            expected = format_unit(fixed, unit, length="short", locale=lang,
                                   format=formatting.decimal_format(decimals))
            assert formatting.cldr_unit(value, decimals, unit, lang) == formatting.as_symbol(
                expected.replace(" ", NBSP)), (value, decimals)


PERCENT_PATTERNS = {"en": "#,##0{}%", "fr": "#,##0{}\u00a0%"}


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("decimals", range(4))
def test_percentages_read_as_babel_prints_them(decimals: int, lang: str) -> None:
    pattern = PERCENT_PATTERNS[lang].format("." + "0" * decimals if decimals else "")
    for value in VALUES[:1000]:
        fraction = value / 100
        expected = format_percent(fraction, format=pattern, locale=lang)
        if expected.startswith("-") and not any(c in "123456789" for c in expected):
            expected = expected[1:]
        assert formatting.percent(fraction, decimals, lang) == expected, fraction


@pytest.mark.parametrize(("value", "decimals", "en", "fr"), [
    (0.125, 2, "0.12", "0,12"),
    (2.5, 0, "2", "2"),
    (0.5, 0, "0", "0"),
    (1.005, 2, "1.00", "1,00"),
    (1.5, 0, "2", "2"),
    (-2.5, 0, "-2", "-2"),
    (0.135, 2, "0.14", "0,14"),
])
def test_halves_round_to_even_as_babel_rounds_them(value: float, decimals: int, en: str,
                                                   fr: str) -> None:
    assert formatting.number(value, decimals, "en") == en == babel_number(value, decimals, "en")
    assert formatting.number(value, decimals, "fr") == fr == babel_number(value, decimals, "fr")


@pytest.mark.parametrize(("fraction", "decimals", "sign", "lang", "expected"), [
    (0.015, 1, False, "en", "1.5%"),
    (0.015, 1, False, "fr", "1,5\u00a0%"),
    (0.015, 1, True, "en", "+1.5%"),
    (0.015, 1, True, "fr", "+1,5\u00a0%"),
    (0.013, 1, True, "fr", "+1,3\u00a0%"),
    (-0.015, 1, True, "en", "-1.5%"),
    (-0.015, 1, True, "fr", "-1,5\u00a0%"),
    (0.0, 1, True, "en", "0.0%"),  # no sign on nothing
    (-0.0004, 1, True, "fr", "0,0\u00a0%"),  # rounds to zero: no sign, no minus
    (0.33, 0, False, "en", "33%"),
    (0.33, 0, False, "fr", "33\u00a0%"),
    (0.12345, 2, False, "en", "12.34%"),  # 12.345: half to even
    (0.12355, 2, False, "fr", "12,36\u00a0%"),
    (10, 0, False, "en", "1,000%"),
    (10, 0, False, "fr", "1\u202f000\u00a0%"),
])
def test_percent(fraction: float, decimals: int, sign: bool, lang: str, expected: str) -> None:
    assert formatting.percent(fraction, decimals, lang, sign=sign) == expected


@pytest.mark.parametrize(("day", "lang", "expected"), [
    # No-break spaces: a line never ends inside a date.
    (dt.date(2026, 11, 8), "en", "November\u00a08,\u00a02026"),
    (dt.date(2026, 11, 8), "fr", "8\u00a0novembre\u00a02026"),
    # French writes the first of a month as an ordinal; the 11th and 21st stay numbers.
    (dt.date(2026, 1, 1), "fr", "1er\u00a0janvier\u00a02026"),
    (dt.date(2026, 12, 11), "fr", "11\u00a0décembre\u00a02026"),
    (dt.date(2026, 12, 21), "fr", "21\u00a0décembre\u00a02026"),
    (dt.date(2026, 1, 1), "en", "January\u00a01,\u00a02026"),
])
def test_date(day: dt.date, lang: str, expected: str) -> None:
    assert formatting.date(day, lang) == expected


@pytest.mark.parametrize(("day", "lang", "expected"), [
    (dt.date(2026, 11, 8), "en", "November\u00a08"),
    (dt.date(2026, 11, 8), "fr", "8\u00a0novembre"),
    (dt.date(2026, 12, 1), "fr", "1er\u00a0décembre"),
])
def test_short_date(day: dt.date, lang: str, expected: str) -> None:
    assert formatting.short_date(day, lang) == expected


@pytest.mark.parametrize(("value", "decimals", "unit", "lang", "expected"), [
    # No unit: the number alone.
    (5, 0, None, "en", "5"),
    # CLDR units: each language spells them its own way (KB is "ko" in French).
    (20.31, 2, "us", "en", "20.31\u00a0\u03bcs"),
    (20.31, 2, "us", "fr", "20,31\u202f\u03bcs"),
    (2.67, 2, "ms", "en", "2.67\u00a0ms"),
    (2.67, 2, "ms", "fr", "2,67\u202fms"),
    (2.345, 2, "ms", "en", "2.34\u00a0ms"),  # half to even here too
    (1.5, 1, "s", "fr", "1,5\u202fs"),
    (524, 0, "KB", "fr", "524\u202fko"),
    # Bytes too: octets in French beside ko and Mo (asv's mem_ benchmarks are in B).
    (80056, 0, "B", "fr", "80\u202f056\u202fo"),
    (80056, 0, "B", "en", "80,056\u00a0B"),
    (1, 0, "B", "en", "1\u00a0B"),
    # SI symbols in both languages where CLDR's English writes a word or another case
    # (sec, hr, kB): the symbol the data and benchmark tools write.
    (69.1, 2, "s", "en", "69.10\u00a0s"),
    (69.1, 2, "s", "fr", "69,10\u202fs"),
    (1, 0, "s", "en", "1\u00a0s"),
    (2, 0, "h", "en", "2\u00a0h"),
    (2, 0, "h", "fr", "2\u202fh"),
    (5, 0, "min", "en", "5\u00a0min"),
    (5, 0, "min", "fr", "5\u00a0min"),  # CLDR's French space for minutes
    (12, 0, "ns", "en", "12\u00a0ns"),
    (12, 0, "ns", "fr", "12\u202fns"),
    (20.31, 2, "\u00b5s", "en", "20.31\u00a0\u03bcs"),
    (20.31, 2, "\u00b5s", "fr", "20,31\u202f\u03bcs"),
    (524, 0, "KB", "en", "524\u00a0KB"),
    (1, 0, "KB", "en", "1\u00a0KB"),
    (1500, 0, "MB", "en", "1,500\u00a0MB"),
    (2, 0, "TB", "en", "2\u00a0TB"),
    (2, 0, "TB", "fr", "2\u202fTo"),
    (0.53, 2, "GB", "en", "0.53\u00a0GB"),
    (0.53, 2, "GB", "fr", "0,53\u202fGo"),
    (1500, 0, "MB", "fr", "1\u202f500\u202fMo"),
    (-0.04, 1, "ms", "fr", "0,0\u202fms"),
    # Symbol units: the same in every language, after the language's space.
    (660, 0, "Mbit/s", "en", "660\u00a0Mbit/s"),
    (1000, 0, "Mbit/s", "fr", "1\u202f000\u202fMbit/s"),
    (3, 0, "TPS", "en", "3\u00a0TPS"),
    # Percent: the locale's own pattern.
    (19, 0, "%", "en", "19%"),
    (19, 0, "%", "fr", "19\u00a0%"),
    (1.5, 1, "%", "fr", "1,5\u00a0%"),
    (6.85, 1, "%", "en", "6.8%"),  # rounded as written, in percent: 6.85 is a half
    (6.75, 1, "%", "fr", "6,8\u00a0%"),
    (-0.04, 1, "%", "fr", "0,0\u00a0%"),
    # Units of the site's own: singular or plural as the number is printed.
    (1, 0, "cores", "en", "1\u00a0core"),
    (1, 0, "cores", "fr", "1\u202fcœur"),
    (0, 0, "cores", "en", "0\u00a0cores"),
    (0, 0, "cores", "fr", "0\u202fcœur"),  # French: 0 takes the singular
    (1.5, 1, "cores", "en", "1.5\u00a0cores"),
    (1.5, 1, "cores", "fr", "1,5\u202fcœur"),  # French: 1,5 takes the singular
    (1.0, 1, "cores", "en", "1.0\u00a0cores"),  # English: visible decimals take the plural
    (0.95, 1, "cores", "fr", "1,0\u202fcœur"),  # rounded first, then counted
    (1.96, 1, "cores", "fr", "2,0\u202fcœurs"),
    (2.62, 2, "cores", "en", "2.62\u00a0cores"),
    (2.62, 2, "cores", "fr", "2,62\u202fcœurs"),
    (1000, 0, "packets", "fr", "1\u202f000\u202fpaquets"),
])
def test_with_unit(value: float, decimals: int, unit: str | None, lang: str,
                   expected: str) -> None:
    assert formatting.with_unit(value, decimals, unit, lang, CUSTOM) == expected


@pytest.mark.parametrize(("unit", "lang", "expected"), [
    ("s", "en", "s"),
    ("s", "fr", "s"),
    ("h", "en", "h"),
    ("us", "en", "\u03bcs"),
    ("ms", "fr", "ms"),
    ("KB", "en", "KB"),
    ("KB", "fr", "ko"),
    ("GB", "en", "GB"),
    ("GB", "fr", "Go"),
    ("MB", "fr", "Mo"),
    ("B", "en", "B"),
    ("B", "fr", "o"),
])
def test_unit_words_are_symbols(unit: str, lang: str, expected: str) -> None:
    """The unit alone, as a range (`12 to 17 s`) and a column header (`Start (s)`) print it."""
    assert formatting.unit_words(12, 0, unit, lang, CUSTOM) == expected


def test_each_language_prints_a_number_its_own_way() -> None:
    # The same number asked for in turn in each language, as a build's languages do;
    # 1 and 1.0 print alike, and True is no number.
    assert formatting.number(1234.5, 1, "en") == "1,234.5"
    assert formatting.number(1234.5, 1, "fr") == f"1{NNBSP}234,5"
    assert formatting.number(1234.5, 1, "en") == "1,234.5"
    assert formatting.with_unit(1234.5, 1, "ms", "fr", {}) == f"1{NNBSP}234,5{NNBSP}ms"
    assert formatting.with_unit(1234.5, 1, "ms", "en", {}) == f"1,234.5{NBSP}ms"
    assert formatting.number(1, 0, "en") == formatting.number(1.0, 0, "en") == "1"
    with pytest.raises(InvalidOperation):
        formatting.number(True, 0, "en")


def test_a_sites_own_unit_is_not_kept_for_another_site() -> None:
    other = {"cores": (words("CPU", "CPU"), words("CPUs", "CPUs"))}
    assert formatting.with_unit(2.62, 2, "cores", "en", CUSTOM) == f"2.62{NBSP}cores"
    assert formatting.with_unit(2.62, 2, "cores", "en", other) == f"2.62{NBSP}CPUs"
    assert formatting.with_unit(1, 0, "cores", "en", other) == f"1{NBSP}CPU"
    assert formatting.with_unit(1, 0, "cores", "en", {}) == f"1{NBSP}cores"  # a symbol
    assert formatting.with_unit(1, 0, "cores", "en", CUSTOM) == f"1{NBSP}core"


def french_catalog() -> NullTranslations | None:
    """The repo's French catalog, compiled; None when the repo has none."""
    path = po_path(ENGINE_ROOT / "locales", "fr")
    if not path.is_file():
        return None
    catalog, problems = read_catalog(path, "locales/fr/LC_MESSAGES/messages.po")
    assert catalog is not None, [p.render() for p in problems]
    return compile_catalog(catalog)


FRENCH = french_catalog()
NO_CATALOG = "no locales/fr/LC_MESSAGES/messages.po: this row needs translated words"
SITE = Site(title=Text((("*", "T"),), neutral=True), tagline=Text((("*", "T"),), neutral=True),
            units=(CORES, PACKETS))


def words_for(lang: str, translated: bool) -> Words:
    """The Words of a language; French rows with template words need the catalog."""
    if lang == "en":
        return Words("en", NullTranslations(), SITE, Namespace({}, {}))
    if FRENCH is None:
        if translated:
            pytest.skip(NO_CATALOG)
        return Words("fr", NullTranslations(), SITE, Namespace({}, {}))
    return Words("fr", FRENCH, SITE, Namespace({}, {}))


@pytest.mark.parametrize(("quantity", "lang", "expected"), [
    # One value: the number with its unit.
    (Quantity("value", 2.62, decimals=2, unit="cores"), "en", "2.62\u00a0cores"),
    (Quantity("value", 2.62, decimals=2, unit="cores"), "fr", "2,62\u202fcœurs"),
    (Quantity("value", 1, unit="packets"), "en", "1\u00a0packet"),
    (Quantity("value", 1.5, decimals=1, unit="packets"), "fr", "1,5\u202fpaquet"),
    (Quantity("value", 2.5635, decimals=1), "en", "2.6"),  # a ratio, to one decimal
    (Quantity("value", 2.5635, decimals=1), "fr", "2,6"),
    (Quantity("value", 20.31, decimals=2, unit="us"), "fr", "20,31\u202f\u03bcs"),
    (Quantity("value", 19, unit="%"), "en", "19%"),
    # A change: signed percent.
    (Quantity("value", 1.5267, decimals=1, unit="%", signed=True), "en", "+1.5%"),
    (Quantity("value", 1.5267, decimals=1, unit="%", signed=True), "fr", "+1,5\u00a0%"),
    (Quantity("value", -2.86, decimals=1, unit="%", signed=True), "fr", "-2,9\u00a0%"),
    (Quantity("value", -0.01, decimals=1, unit="%", signed=True), "en", "0.0%"),
    # A range: both ends, the unit once.
    (Quantity("range", 12.5, 17.1, 1, "packets"), "en", "12.5 to 17.1\u00a0packets"),
    (Quantity("range", 12.5, 17.1, 1, "packets"), "fr", "12,5 à 17,1\u202fpaquets"),
    (Quantity("range", 1.4, 2.1, 1), "en", "1.4 to 2.1"),
    (Quantity("range", 1.4, 2.1, 1), "fr", "1,4 à 2,1"),
    (Quantity("range", 67, 105, 0, "MB"), "fr", "67 à 105\u202fMo"),
    (Quantity("range", 0.011, 0.123, 3, "s"), "fr", "0,011 à 0,123\u202fs"),
    # A count: how many of how many.
    (Quantity("count", 56, 56), "en", "56 of 56"),
    (Quantity("count", 56, 56), "fr", "56 sur 56"),
    (Quantity("count", 1000, 1200), "en", "1,000 of 1,200"),
    (Quantity("count", 1000, 1200), "fr", "1\u202f000 sur 1\u202f200"),
    # Nothing to show.
    (Quantity("none"), "en", "no number"),
    (Quantity("none"), "fr", "pas de chiffre"),
    (None, "fr", "pas de chiffre"),
])
def test_quantity(quantity: Quantity | None, lang: str, expected: str) -> None:
    kind = quantity.kind if quantity is not None else "none"
    translated = kind in ("range", "count", "none")  # these rows have template words
    assert words_for(lang, translated).quantity(quantity) == expected


def test_a_quantity_is_kept_by_its_words_not_shared_between_languages() -> None:
    english, french = words_for("en", False), words_for("fr", False)
    q = Quantity("value", 2.62, decimals=2, unit="cores")
    assert english.quantity(q) == english.quantity(q) == "2.62\u00a0cores"
    assert french.quantity(q) == "2,62\u202fcœurs"
    assert english.quantity(Quantity("value", 2.62, decimals=1, unit="cores")) == (
        "2.6\u00a0cores")  # another quantity: its own words


@pytest.mark.parametrize(("value", "decimals", "expected"), [
    (1, 0, "one"), (1.0, 1, "other"), (1, 0, "one"), (1.0, 0, "one"), (1.0, 1, "other"),
])
def test_the_plural_category_is_that_of_the_number_as_printed(
        value: float, decimals: int, expected: str) -> None:
    # 1 and 1.0 are equal numbers, but `1 core` and `1.0 cores`: the category is that of
    # the number as printed, asked for again in any order.
    assert formatting.plural_category(value, decimals, "en") == expected


@pytest.mark.parametrize("lang", ["en", "fr", "cy", "ar", "ru"])
@pytest.mark.parametrize("unit", ["duration-millisecond", "duration-second", "digital-kilobyte"])
def test_a_unit_reads_as_babel_writes_it_for_every_plural_category(lang: str, unit: str
                                                                   ) -> None:
    # The unit's words are Babel's pattern for the number's category, asked once a
    # category: every category reads as format_unit would write it.
    for value, decimals in [(0, 0), (1, 0), (2, 0), (3, 0), (6, 0), (11, 0), (1000000, 0),
                            (1, 1), (0.5, 2), (21, 0), (101, 0), (2.67, 2)]:
        fixed = formatting.shown(value, decimals)
        babel = format_unit(fixed, unit, length="short", format=formatting.decimal_format(
            decimals), locale=lang)
        assert formatting.cldr_unit(value, decimals, unit, lang) == formatting.as_symbol(
            babel.replace(" ", formatting.NBSP))


@pytest.mark.parametrize(("pairs", "neutral", "lang", "expected"), [
    ((("en", "box"), ("fr", "boîte")), False, "fr", "boîte"),
    ((("en", "box"), ("fr", "boîte")), False, "en", "box"),
    ((("en", "box"),), False, "fr", "box"),  # the fallback language's words
    ((("en", "box"), ("fr", "")), False, "fr", "box"),  # empty words count as none
    ((("fr", "boîte"), ("de", "Kiste")), False, "it", "boîte"),  # else the first
    ((("fr", ""), ("en", "")), False, "fr", ""),
    ((), False, "fr", ""),
    ((("*", "box"),), True, "fr", "box"),  # one string for every language
])
def test_a_text_reads_in_its_language_else_the_fallback_else_any(
        pairs: tuple[tuple[str, str], ...], neutral: bool, lang: str, expected: str) -> None:
    assert Text(pairs, neutral=neutral).get(lang, "en") == expected
