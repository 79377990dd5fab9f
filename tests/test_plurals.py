"""plurals.py reads CLDR plural rules as Babel does: the same category for every number
in every locale Babel has, and an error for a rule it cannot read."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from babel import Locale
from babel.localedata import locale_identifiers
from babel.plural import PluralRule

from progress_site.render import locale_cache as localecache
from progress_site.render import plurals

# Whole numbers around every boundary CLDR's rules draw (ends in 1, 2-4, 11-14, 100s,
# millions), and numbers as printed with decimals: 1.0 is not 1, 1.50 is not 1.5.
NUMBERS = [*map(Decimal, range(0, 130)), *map(Decimal, [
    "1000", "1001", "1000000", "2000000", "1000001", "0.0", "1.0", "1.5", "2.50", "0.1",
    "11.3", "21.0", "0.00", "1.01", "3.14", "100.0", "1000000.0", "1.10", "1.000", "0.5",
    "2.1", "5.25", "101.1"])]


def test_every_locale_babel_has_gets_babels_categories() -> None:
    differ = []
    for code in locale_identifiers():
        babels = Locale.parse(code).plural_form
        ours = plurals.category(babels.rules)
        differ += [(code, str(n), babels(n), ours(n)) for n in NUMBERS if babels(n) != ours(n)]
    assert differ == []


@pytest.mark.parametrize("rules", [
    {"one": "n is 1", "few": "n in 2..4"},
    {"one": "n in 1,11", "few": "n in 3..10,13..19"},
    {"one": "n mod 10 = 1 and n mod 100 != 11", "few": "n % 10 = 2..4 and n % 100 != 12..14"},
    {"one": "n within 0..2 and n is not 2"},
    {"one": "n not within 1..5", "two": "n not in 7,9", "many": "i is not 3"},
    {"zero": "n = 0 @integer 0", "one": "v = 0 and i = 1 or t = 5 @decimal 1.5, …"},
    {"one": "w = 1", "two": "f = 20", "few": "e = 0 and c = 0 and n = 3"},
    {"one": "n = 1", "other": ""},
])
def test_rules_written_every_way_read_as_babel_reads_them(rules: dict[str, str]) -> None:
    babels, ours = PluralRule(rules), plurals.category(rules)
    for n in [*NUMBERS, 3, 7, 1.5, 2.0]:
        assert ours(n) == babels(n), (rules, n)


@pytest.mark.parametrize(("rules", "message"), [
    ({"one": "n is"}, "expected a number but got the end"),
    ({"one": "n in 1..2 or"}, "expected an operand"),
    ({"one": "x = 1"}, "unexpected 'x'"),
    ({"one": "n not = 1"}, "expected 'in' or 'within'"),
    ({"one": "n > 1"}, "unexpected '>'"),
    ({"one": "n = 1 1"}, "unexpected '1' in the one rule"),
    ({"single": "n = 1"}, "unknown plural tags ['single']"),
])
def test_a_rule_that_does_not_read_is_an_error(rules: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError) as info:
        plurals.category(rules)
    assert message in str(info.value)


def test_a_cached_entry_with_rules_that_do_not_read_is_not_used(tmp_path: Path) -> None:
    path = tmp_path / "locales" / "fr.json"
    localecache.write_entry(path, "fr", localecache.facts("fr"))
    assert localecache.read_entry(path, "fr") is not None
    entry = json.loads(path.read_text(encoding="utf-8"))
    entry["facts"]["plural"] = {"one": "i in 0..1 and"}
    path.write_text(json.dumps(entry), encoding="utf-8")
    assert localecache.read_entry(path, "fr") is None
