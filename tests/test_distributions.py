"""Distributions: a figure of percentiles, mean and spread, and count of readings.

Printed compactly in each language, cited part by part, compared by their medians,
published in data.json with their parts; every impossible one refused at its part
(the exact messages are cases under tests/cases/distribution-*).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from progress_site.derive.kinds import figure_quantity
from progress_site.model.figure import Distribution, Figure
from progress_site.model.values import Number
from progress_site.pipeline import BuildConfig, make_site

from .conftest import TEMPLATES, TODAY
from .dom import breakable, parse
from .test_formatting import words_for

NBSP, NNBSP = "\u00a0", "\u202f"
MU = "\u03bcs"

BEFORE = "{distribution: {p50: 19.03, p95: 41.2, p99: 65.0, n: 1000}}"
AFTER = "{distribution: {p50: 8.11, p95: 12.5, p99: 30.25, n: 1000}}"
STARTUP = """  - id: startup
    title: {en: Start-up time, fr: Temps de démarrage}
    figure: {distribution: {mean: 55.4, sd: 2.8, p50: 55.1, min: 51.0, max: 61.9, n: 10},
             unit: ms, machine: test-pc, date: 2026-11-08, commit: c38a01e}
"""
PROSE_EN = ("Latency: {{ comparisons.cpu-per-packet-1000.before }} before, p99 "
            "{{ comparisons.cpu-per-packet-1000.after.p99 }} after "
            "({{ comparisons.cpu-per-packet-1000.before.p99 }} before), "
            "{{ comparisons.cpu-per-packet-1000.ratio }} times less at the median, "
            "{{ comparisons.cpu-per-packet-1000.ratio.p99 }} at p99, p95 "
            "{{ comparisons.cpu-per-packet-1000.change.p95 }}; "
            "start-up {{ measurements.startup }}, sd {{ measurements.startup.sd }}, "
            "{{ measurements.startup.n }} runs, median twice {{ measurements.startup * 2 }}, "
            "to no decimal {{ measurements.startup:0 }}, bare {{ measurements.startup | bare }}"
            ", within {{ measurements.startup | positive }}.")
PROSE_FR = ("Latence : {{ comparisons.cpu-per-packet-1000.before }} avant, p99 "
            "{{ comparisons.cpu-per-packet-1000.after.p99 }} après ; démarrage "
            "{{ measurements.startup }}.")


def part(value: float, decimals: int = 0) -> Number:
    return Number(value, decimals)


@pytest.mark.parametrize(("dist", "unit", "lang", "expected"), [
    (Distribution(p50=part(16), p95=part(65), n=10), "us", "en",
     f"p50{NBSP}16{NBSP}{MU} · p95{NBSP}65{NBSP}{MU} (n{NBSP}={NBSP}10)"),
    (Distribution(p50=part(16), p95=part(65), n=10), "us", "fr",
     f"p50{NBSP}16{NNBSP}{MU} · p95{NBSP}65{NNBSP}{MU} (n{NBSP}={NBSP}10)"),
    (Distribution(mean=part(55.4, 1), sd=part(2.8, 1), n=10), "ms", "en",
     f"55.4{NBSP}ms{NBSP}±{NBSP}2.8{NBSP}ms (n{NBSP}={NBSP}10)"),
    (Distribution(mean=part(55.4, 1), sd=part(2.8, 1), n=10), "ms", "fr",
     f"55,4{NNBSP}ms{NBSP}±{NBSP}2,8{NNBSP}ms (n{NBSP}={NBSP}10)"),
    (Distribution(p50=part(1.5, 1), p999=part(1200), n=12000), "ms", "en",
     f"p50{NBSP}1.5{NBSP}ms · p99.9{NBSP}1,200{NBSP}ms (n{NBSP}={NBSP}12,000)"),
    (Distribution(p50=part(1.5, 1), p999=part(1200), n=12000), "ms", "fr",
     f"p50{NBSP}1,5{NNBSP}ms · p99,9{NBSP}1{NNBSP}200{NNBSP}ms (n{NBSP}={NBSP}12{NNBSP}000)"),
    (Distribution(mean=part(3.25, 2)), None, "fr", f"moyenne{NBSP}3,25"),
    (Distribution(p50=part(7), mean=part(9)), None, "en", f"p50{NBSP}7 · mean{NBSP}9"),
])
def test_a_distribution_prints_compactly(dist: Distribution, unit: str | None, lang: str,
                                         expected: str) -> None:
    q = figure_quantity(Figure(distribution=dist, unit=unit))
    assert words_for(lang, True).quantity(q) == expected


def test_its_headline_is_the_median_else_the_mean() -> None:
    both = figure_quantity(Figure(distribution=Distribution(p50=part(55.1, 1),
                                                            mean=part(58.0, 1))))
    assert (both.kind, both.low, both.decimals) == ("distribution", 55.1, 1)
    mean = figure_quantity(Figure(distribution=Distribution(mean=part(58.0, 1))))
    assert mean.low == 58.0


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), "utf-8")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory,
          example_files: dict[str, bytes]) -> dict[str, bytes]:
    """The example with one comparison of latency distributions and a start-up time as
    hyperfine gives it, cited in the prose of both languages."""
    from .sites import source_copy
    source = source_copy(tmp_path_factory.mktemp("distributions"), "src")
    studies = source / "data" / "studies.yaml"
    edit(studies, "        before: {value: 19.03}\n        after: {value: 8.11}",
         f"        before: {BEFORE}\n        after: {AFTER}\n"
         "        history: [{value: 21.5, commit: 1f2e3d4}]")
    edit(studies, "        before: {value: 20.31}\n        after: {value: 7.92}",
         "        before: {distribution: {p50: 20.31, p95: 31.5, p99: 44.0}}\n"
         "        after: {distribution: {p50: 7.92, p95: 11.0, p99: 16.25}}")
    edit(studies, "measurements:\n", "measurements:\n" + STARTUP)
    edit(source / "data" / "capacity.yaml", "figure: {value: 2.62, unit: cores,",
         "figure: {distribution: {p50: 2.62, p99: 9.5, n: 60}, unit: cores,")
    edit(source / "data" / "machines.yaml", "commits:\n",
         "commits:\n  - id: 1f2e3d4\n    date: 2026-10-20\n")
    edit(source / "content" / "en" / "index.md", "{{< legend >}}", PROSE_EN)
    edit(source / "content" / "fr" / "index.md", "{{< legend >}}", PROSE_FR)
    config = BuildConfig(source=source, out=source / "site", today=TODAY, strict=True,
                         compiled=TEMPLATES)
    return make_site(config).files


def paragraph(files: dict[str, bytes], page: str, start: str) -> str:
    root = parse(files[page].decode("utf-8"))
    found = [p.text() for p in root.find_all("p") if p.text().startswith(start)]
    assert len(found) == 1, found
    return found[0]


def test_parts_are_cited_and_compared_by_the_median_in_english(
        built: dict[str, bytes]) -> None:
    assert paragraph(built, "index.html", "Latency:") == (
        f"Latency: p50{NBSP}19.03{NBSP}{MU} · p95{NBSP}41.2{NBSP}{MU} · p99{NBSP}65.0{NBSP}{MU} "
        f"(n{NBSP}={NBSP}1,000) before, p99 30.25{NBSP}{MU} after (65.0{NBSP}{MU} before), "
        f"2.35 times less at the median, 2.15 at p99, p95 -69.7%; start-up "
        f"p50{NBSP}55.1{NBSP}ms · "
        f"mean{NBSP}55.4{NBSP}ms{NBSP}±{NBSP}2.8{NBSP}ms (n{NBSP}={NBSP}10), sd 2.8{NBSP}ms, "
        f"10 runs, median twice 110.2{NBSP}ms, to no decimal p50{NBSP}55{NBSP}ms · "
        f"mean{NBSP}55{NBSP}ms{NBSP}±{NBSP}3{NBSP}ms (n{NBSP}={NBSP}10), bare 55.1, "
        f"within 55.1{NBSP}ms.")


def test_parts_are_cited_in_french(built: dict[str, bytes]) -> None:
    assert paragraph(built, "fr/index.html", "Latence") == (
        f"Latence{NBSP}: p50{NBSP}19,03{NNBSP}{MU} · p95{NBSP}41,2{NNBSP}{MU} · "
        f"p99{NBSP}65,0{NNBSP}{MU} "
        f"(n{NBSP}={NBSP}1{NNBSP}000) avant, p99 30,25{NNBSP}{MU} après{NNBSP}; démarrage "
        f"p50{NBSP}55,1{NNBSP}ms · moyenne{NBSP}55,4{NNBSP}ms{NBSP}±{NBSP}2,8{NNBSP}ms "
        f"(n{NBSP}={NBSP}10).")


def test_data_json_holds_the_parts_and_the_ratio_of_medians(built: dict[str, bytes]) -> None:
    data = json.loads(built["data.json"])
    comp = next(c for c in data["studies"][0]["comparisons"]
                if c["id"] == "cpu-per-packet-1000")
    assert comp["before"]["distribution"] == {
        "p50": 19.03, "p90": None, "p95": 41.2, "p99": 65.0, "p999": None, "min": None,
        "max": None, "mean": None, "sd": None, "iqr": None, "n": 1000}
    assert comp["after"]["derived"]["quantity"] == {
        "kind": "distribution", "low": 8.11, "high": 8.11, "decimals": 2, "unit": "us",
        "signed": False, "parts": {"p50": 8.11, "p95": 12.5, "p99": 30.25, "n": 1000}}
    assert comp["derived"]["direction"] == "lower"
    assert comp["derived"]["ratio"]["low"] == pytest.approx(19.03 / 8.11)
    assert {part: round(both["ratio"]["low"], 4) for part, both in
            comp["derived"]["parts"].items()} == {"p50": 2.3465, "p95": 3.296, "p99": 2.1488}
    assert round(comp["derived"]["parts"]["p99"]["change"]["low"], 2) == -53.46
    startup = next(m for m in data["measurements"] if m["id"] == "startup")
    assert startup["figure"]["derived"]["quantity"]["parts"] == {
        "p50": 55.1, "min": 51.0, "max": 61.9, "mean": 55.4, "sd": 2.8, "n": 10}


def test_data_schema_declares_the_parts(built: dict[str, bytes]) -> None:
    schema = json.loads(built["data.schema.json"])
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator(schema).validate(json.loads(built["data.json"]))
    quantity = schema["$defs"]["Quantity"]
    assert "distribution" in quantity["properties"]["kind"]["enum"]
    assert sorted(quantity["properties"]["parts"]["properties"]) == sorted(
        ["p50", "p90", "p95", "p99", "p999", "min", "max", "mean", "sd", "iqr", "n"])
    assert "Distribution" in schema["$defs"]


def test_bars_draw_each_distribution_as_a_strip_over_its_median(
        built: dict[str, bytes]) -> None:
    # The bars' scale reaches the highest percentile (44.0): the fill goes to the
    # median, the strip from the lowest part given to the highest.
    card = parse(built["index.html"].decode("utf-8")).find("figure", id="bars-cpu-per-packet-500")
    rows = card.find_all("div", class_="bar-row")
    drawn = [(r.find("span", class_="fill").attrs["style"],
              r.find("span", class_="strip").attrs["style"],
              r.find("span", class_="bar-value").text()) for r in rows]
    assert drawn == [
        ("width: 46.2%", "left: 46.2%; width: 53.8%",
         f"p50{NBSP}20.31{NBSP}{MU} · p95{NBSP}31.5{NBSP}{MU} · p99{NBSP}44.0{NBSP}{MU}"),
        ("width: 18.0%", "left: 18.0%; width: 18.9%",
         f"p50{NBSP}7.92{NBSP}{MU} · p95{NBSP}11.0{NBSP}{MU} · p99{NBSP}16.25{NBSP}{MU}")]
    # The headline that summarises this ratio still agrees: it is a ratio of medians.
    assert "2.56" in card.find("p", class_="verdict").text()


def test_a_value_has_no_strip(example_files: dict[str, bytes]) -> None:
    page = parse(example_files["index.html"].decode("utf-8"))
    assert page.find_all("span", class_="strip") == []


def test_a_trend_ends_with_the_medians_of_before_and_after(built: dict[str, bytes]) -> None:
    # The comparisons block draws a comparison's history as a trend, before and after last.
    chart = parse(built["index.html"].decode("utf-8")).find(
        "figure", id="trend-cpu-per-packet-1000-figure")
    rows = [[cell.text() for cell in row.find_all("th") + row.find_all("td")]
            for row in chart.find("tbody").find_all("tr")]
    assert rows == [["1f2e3d4", f"21.5{NBSP}{MU}"], ["57930e6", f"19.03{NBSP}{MU}"],
                    ["c38a01e", f"8.11{NBSP}{MU}"]]


def test_a_budget_takes_a_distributions_median_for_its_share(built: dict[str, bytes]) -> None:
    # 2.62 of 8 cores is 33 %, under the limit, though its p99 (9.5) is over it.
    data = json.loads(built["data.json"])
    item = next(i for i in data["budgets"][0]["items"] if i["id"] == "processor")
    assert item["derived"]["share"]["low"] == pytest.approx(32.75)
    assert item["derived"]["over"] is False


@pytest.mark.parametrize("page", ["index.html", "fr/index.html"])
def test_no_number_parts_from_its_label_at_a_lines_end(built: dict[str, bytes],
                                                       page: str) -> None:
    """`p99 65.0 μs (n = 1,000)`, `55.4 ms ± 2.8 ms`, `2.35 times less`: each number keeps
    its label, sign and unit on its line, in figures, bars and verdicts."""
    nodes = [n for n in parse(built[page]).iter()
             if {"value", "bar-value", "verdict"} & set(n.attrs.get("class", "").split())]
    assert len(nodes) > 20
    assert breakable(nodes) == []
