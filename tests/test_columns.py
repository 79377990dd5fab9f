"""Computed columns: a dataset field with a `formula:`, computed once a record in derive,
printed per language in tables, drawn in charts, cited in texts; each broken formula or
record an exact, located message, all at once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from progress_site.errors import BuildFailed
from progress_site.pipeline import BuildConfig, make_site

from .conftest import TEMPLATES, TODAY
from .dom import Node, parse

NBSP, NNBSP = "\u00a0", "\u202f"

DATA = """\
site: {title: T, tagline: T, languages: [en, fr]}
datasets:
  - id: suites
    title: {en: Test suites, fr: Suites de tests}
    records: suites.jsonl
    key: [project]
    notes: [{name: broken, label: {en: does not build, fr: ne compile pas}}]
    fields:
      - name: project
        label: {en: Project, fr: Projet}
        type: word
        choices:
          - {value: mdbook, label: mdBook}
          - {value: tokio, label: Tokio}
          - {value: omicron, label: Omicron}
      - {name: cargo, label: cargo test, unit: s, decimals: 2}
      - {name: nextest, label: nextest, unit: s, decimals: 2}
      - {name: speedup, label: {en: Speed-up, fr: Accélération}, formula: cargo / nextest}
      - {name: saved, label: {en: Saved, fr: Gagné}, formula: cargo - nextest}
      - {name: change, label: {en: Change, fr: Écart}, formula: "change(nextest, cargo)",
         decimals: 1}
      - {name: per-test, label: {en: Per test, fr: Par test}, formula: saved / 100,
         unit: s, decimals: 3}
"""

RECORDS = [
    {"project": "mdbook", "cargo": 31.5, "nextest": 12.0},
    {"project": "tokio", "cargo": 24.27, "nextest": 9.75},
    {"project": "omicron", "note": "broken"},
]

PAGE = """\
---
title: T
---
Tokio runs {{ suites[project=tokio].speedup }} times faster, and saves
{{ suites[project=tokio].saved }}.

{{< table suites columns=cargo,nextest,speedup,saved,change,per-test >}}

{{< chart suites x=project y=speedup kind=bar >}}
"""


def write_site(root: Path, data: str = DATA, records: list[dict[str, object]] | None = None
               ) -> Path:
    (root / "data").mkdir(parents=True)
    (root / "data" / "site.yaml").write_text(data, "utf-8")
    (root / "data" / "suites.jsonl").write_text("".join(
        json.dumps(r) + "\n" for r in (RECORDS if records is None else records)), "utf-8")
    for lang in ("en", "fr"):
        (root / "content" / lang).mkdir(parents=True)
        (root / "content" / lang / "index.md").write_text(PAGE, "utf-8")
    return root


def build(root: Path) -> dict[str, bytes]:
    return make_site(BuildConfig(source=root, out=root / "site", today=TODAY,
                                 compiled=TEMPLATES)).files


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Node]:
    files = build(write_site(tmp_path_factory.mktemp("columns")))
    return {"en": parse(files["index.html"]), "fr": parse(files["fr/index.html"])}


def rows(page: Node) -> list[list[str]]:
    table = page.find("table", class_="records")
    return [[c.text() for c in r.iter()[1:] if c.tag in ("th", "td")]
            for body in table.find_all("tbody") for r in body.find_all("tr")]


@pytest.mark.parametrize(("lang", "headers", "expected"), [
    ("en", ["Project", "cargo test (s)", "nextest (s)", "Speed-up", "Saved (s)",
            "Change (%)", "Per test (s)"],
     [["mdBook", "31.50", "12.00", "2.62", "19.50", "-61.9", "0.195"],
      ["Tokio", "24.27", "9.75", "2.49", "14.52", "-59.8", "0.145"],
      ["Omicron", "does not build"]]),
    ("fr", ["Projet", "cargo test (s)", "nextest (s)", "Accélération", "Gagné (s)",
            "Écart (%)", "Par test (s)"],
     [["mdBook", "31,50", "12,00", "2,62", "19,50", "-61,9", "0,195"],
      ["Tokio", "24,27", "9,75", "2,49", "14,52", "-59,8", "0,145"],
      ["Omicron", "ne compile pas"]]),
])
def test_a_table_prints_computed_columns_in_each_language(
        pages: dict[str, Node], lang: str, headers: list[str],
        expected: list[list[str]]) -> None:
    table = pages[lang].find("table", class_="records")
    assert [h.text() for h in table.find("thead").find_all("th")] == headers
    assert [[c.replace("\u2212", "-") for c in r] for r in rows(pages[lang])] == expected


@pytest.mark.parametrize(("lang", "sentence"), [
    ("en", f"Tokio runs 2.49 times faster, and saves 14.52{NBSP}s."),
    ("fr", f"Tokio runs 2,49 times faster, and saves 14,52{NNBSP}s.")])
def test_texts_cite_a_computed_column_as_any_field(
        pages: dict[str, Node], lang: str, sentence: str) -> None:
    assert pages[lang].find("main").find("p").text() == sentence


def test_a_chart_draws_a_computed_column(pages: dict[str, Node]) -> None:
    figure = pages["en"].find("figure", class_="chart-figure")
    assert figure.find("figcaption").text() == (
        "Speed-up: lowest 2.49 where Project is Tokio, highest 2.62 where Project is mdBook.")


CIRCLE = ("data/site.yaml:18:75: datasets[0].fields[3].formula: the formulas of speedup -> "
          "per-test -> saved -> speedup go round in a circle")
ZERO = ("data/suites.jsonl:3:1: records[2]: speedup = cargo / nextest: division by zero "
        "(cargo=444.08, nextest=0)")
GIVEN = ("data/suites.jsonl:1:55: records[0].speedup: speedup is computed by its formula "
         "(cargo / nextest), not given by a record")


def failure(tmp_path: Path, data: str = DATA,
            records: list[dict[str, object]] | None = None) -> str:
    with pytest.raises(BuildFailed) as caught:
        build(write_site(tmp_path, data, records))
    return str(caught.value)


def test_broken_formulas_are_located_at_once(tmp_path: Path) -> None:
    data = DATA.replace("formula: cargo / nextest", "formula: cargo / nextset").replace(
        "formula: cargo - nextest", "formula: project - nextest").replace(
        "formula: saved / 100", "formula: speedup * (")
    assert failure(tmp_path, data) == """\
data/site.yaml:18:75: datasets[0].fields[3].formula: suites has no field 'nextset'
          - {name: speedup, label: {en: Speed-up, fr: Accélération}, formula: cargo / nextset}
                                                                              ^
    hint: did you mean 'nextest'?
data/site.yaml:19:63: datasets[0].fields[4].formula: project is a word field, not a number
          - {name: saved, label: {en: Saved, fr: Gagné}, formula: project - nextest}
                                                                  ^
    hint: a formula computes with the record's number and whole fields
data/site.yaml:22:72: datasets[0].fields[6].formula: expected a number, a name or '(', got the end
          - {name: per-test, label: {en: Per test, fr: Par test}, formula: speedup * (,
                                                                           ^
Aborted with 3 data errors."""


def test_a_minus_without_spaces_is_part_of_a_name(tmp_path: Path) -> None:
    data = DATA.replace("formula: cargo - nextest", "formula: cargo-nextest")
    assert failure(tmp_path, data) == """\
data/site.yaml:19:63: datasets[0].fields[4].formula: suites has no field 'cargo-nextest'
          - {name: saved, label: {en: Saved, fr: Gagné}, formula: cargo-nextest}
                                                                  ^
    hint: to subtract, put spaces around '-'
Aborted with 1 data error."""


def test_formulas_ok(pages: dict[str, Node]) -> None:
    """The twin of the broken cases: the same formulas, written right, build."""
    assert rows(pages["en"])[0][3] == "2.62"


def test_formulas_that_go_round_are_a_circle(tmp_path: Path) -> None:
    data = DATA.replace("formula: cargo / nextest", "formula: per-test / nextest").replace(
        "formula: cargo - nextest", "formula: speedup * nextest")
    assert failure(tmp_path, data) == CIRCLE + """
          - {name: speedup, label: {en: Speed-up, fr: Accélération}, formula: per-test / nextest}
                                                                              ^
    hint: compute one of them from fields the records give
Aborted with 1 data error."""


@pytest.mark.parametrize(("formula", "message", "hint"), [
    ("range(cargo, nextest)", "gives a range, not one number",
     "compute one number: cargo / nextest, ratio(a, b), change(a, b)"),
    ("cargo / suites[project=tokio].cargo", "a formula computes from its own record's "
     "fields, not from a selection of suites", "name the fields alone: cargo / nextest")])
def test_a_formula_gives_one_number_from_its_record(tmp_path: Path, formula: str,
                                                    message: str, hint: str) -> None:
    data = DATA.replace("formula: cargo / nextest", f'formula: "{formula}"')
    assert failure(tmp_path, data) == f"""\
data/site.yaml:18:75: datasets[0].fields[3].formula: {message}
          - {{name: speedup, label: {{en: Speed-up, fr: Accélération}}, formula: "{formula}"}}
                                                                              ^
    hint: {hint}
Aborted with 1 data error."""


def test_a_division_by_zero_is_located_at_its_record(tmp_path: Path) -> None:
    records = [*RECORDS[:2], {"project": "omicron", "cargo": 444.08, "nextest": 0}]
    assert failure(tmp_path, records=records) == ZERO + """
    {"project": "omicron", "cargo": 444.08, "nextest": 0}
    ^
    hint: correct the record, or leave its numbers out with a `note` that says why
Aborted with 1 data error."""


def test_a_record_does_not_give_a_computed_field(tmp_path: Path) -> None:
    records = [{**RECORDS[0], "speedup": 3}, *RECORDS[1:]]
    assert failure(tmp_path, records=records) == GIVEN + """
    {"project": "mdbook", "cargo": 31.5, "nextest": 12.0, "speedup": 3}
                                                          ^
    hint: leave "speedup" out of the records
Aborted with 1 data error."""


def test_only_a_number_field_has_a_formula(tmp_path: Path) -> None:
    data = DATA.replace("formula: cargo - nextest", "type: text, formula: cargo - nextest")
    assert failure(tmp_path, data) == """\
data/site.yaml:19:75: datasets[0].fields[4].formula: a text field has no formula
          - {name: saved, label: {en: Saved, fr: Gagné}, type: text, formula: cargo - nextest}
                                                                              ^
    hint: a formula computes a number: set `type: number`
Aborted with 1 data error."""


def test_the_key_is_not_computed(tmp_path: Path) -> None:
    data = DATA.replace("key: [project]", "key: [project, speedup]")
    assert failure(tmp_path, data) == """\
data/site.yaml:6:10: datasets[0].key: the key names 'speedup', which a formula computes
        key: [project, speedup]
             ^
    hint: a key tells records apart by what they give
Aborted with 1 data error."""
