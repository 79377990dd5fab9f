"""Derived figures (`formula:`): computed in dependency order from other figures, shown
with their badge, unit and source in both languages, cited, headlined, budgeted, in
data.json; and every broken formula a located error, all of a build at once."""

from __future__ import annotations

import json
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from progress_site.derive.expressions import parse as parse_formula
from progress_site.derive.formula_units import unit_problem
from progress_site.derive.namespace import Namespace
from progress_site.derive.quantity import Quantity
from progress_site.errors import BuildFailed
from progress_site.model.figure import Figure
from progress_site.model.keys import FigureKey
from progress_site.pipeline import BuildConfig, make_site, prepare
from progress_site.publish import changes

from .conftest import TEMPLATES, TODAY, copy_example
from .dom import Node, parse

# Beside the example's data: measured figures, formulas over them (a chain of two, one
# over counts, one over ratios), a headline of each kind and a budget item derived.
DERIVED = """\
measurements:
  - id: requests
    title: {en: Requests served, fr: Requêtes servies}
    figure: {value: 120000, machine: test-pc, date: 2026-11-08, commit: c38a01e}
  - id: seconds
    title: {en: Time taken, fr: Durée}
    figure: {value: 60, unit: s, machine: test-pc, date: 2026-11-08, commit: c38a01e}
  - id: rate
    title: {en: Requests per second, fr: Requêtes par seconde}
    figure: {formula: requests / seconds, decimals: 0}
    history: [{value: 1500, label: v1}, {value: 1800, label: v2}]
  - id: rate-per-minute
    title: {en: Requests per minute, fr: Requêtes par minute}
    figure: {formula: "rate * 60"}
  - id: checks-per-run
    title: {en: Checks per run, fr: Vérifications par passage}
    figure: {formula: handover-checks / handover-runs.of, decimals: 1}
  - id: best-speedup
    title: {en: Best speed-up, fr: Meilleure accélération}
    figure:
      formula: max(comparisons.cpu-per-packet-500.ratio, comparisons.cpu-per-packet-1000.ratio)
  - id: extra-twice
    title: {en: Twice the estimate, fr: Le double de l'estimation}
    figure: {formula: online-mode-extra * 2, unit: cores}
  - id: cores-saved
    title: {en: Cores saved, fr: Cœurs gagnés}
    figure: {formula: comparisons.cores-1000.before - comparisons.cores-1000.after}
  - id: latency-twice
    title: {en: Twice the latency, fr: Le double de la latence}
    figure: {formula: comparisons.latency-1000.after * 2}
headlines:
  - id: rate
    figure: measurements.rate
    label: {en: requests a second, fr: requêtes par seconde}
  - id: thousands
    value: 2
    summarises: ["measurements.rate / 1000", measurements.best-speedup]
    label: {en: thousand requests a second, fr: milliers de requêtes par seconde}
budgets:
  - id: derived
    title: {en: A derived budget, fr: Un budget dérivé}
    items:
      - id: memory-all
        title: {en: Memory of a thousand players, fr: Mémoire de mille joueurs}
        figure: {formula: "measurements.memory-500-after * 1000", unit: KB}
        limit: {value: 400000, unit: KB}
"""
SHOWN = ("requests seconds rate rate-per-minute checks-per-run best-speedup extra-twice "
         "cores-saved latency-twice")
PROSE = {"en": "Rate: {{ measurements.rate }}, per minute {{ measurements.rate-per-minute }}.",
         "fr": "Débit : {{ measurements.rate }}, par minute {{ measurements.rate-per-minute }}."}


def derived_site(source: Path, data: str = DERIVED) -> Path:
    """The example with the derived figures, shown on both home pages."""
    (source / "data" / "derived.yaml").write_text(data, encoding="utf-8")
    for lang, words in PROSE.items():
        page = source / "content" / lang / "index.md"
        text = page.read_text(encoding="utf-8")
        assert text.count("{{< legend >}}") == 1
        page.write_text(text.replace("{{< legend >}}", f"{{{{< legend >}}}}\n\n{words}\n\n"
                                     f"{{{{< measurements {SHOWN} >}}}}\n\n"
                                     "{{< trend measurements rate >}}\n\n"
                                     "{{< budget derived >}}"), encoding="utf-8")
        (source / "content" / lang / "table.md").write_text(
            "---\ntitle: Table\n---\n{{< measurements rate form=table >}}\n", encoding="utf-8")
    return source


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, example_files: dict[str, bytes]
          ) -> dict[str, bytes]:
    """The example with derived figures, built once for this module's tests."""
    source = copy_example(tmp_path_factory.mktemp("formulas") / "src")
    config = BuildConfig(source=derived_site(source), out=source.parent / "site",
                         today=TODAY, strict=True, compiled=TEMPLATES)
    return make_site(config).files


def measurement(page: Node, mid: str) -> Node:
    return page.find("div", id=f"measurement-{mid}")


def value_and_badge(node: Node) -> tuple[str, str]:
    figure = node.find("span", class_="figure")
    return figure.find("span", class_="value").text(), figure.find("span", class_="badge").text()


@pytest.mark.parametrize(("mid", "en", "fr"), [
    ("rate", ("2,000", "Measured"), ("2\u202f000", "Mesuré")),
    ("rate-per-minute", ("120,000", "Measured"), ("120\u202f000", "Mesuré")),  # a chain
    ("checks-per-run", ("10.3", "Measured"), ("10,3", "Mesuré")),  # from two counts
    ("best-speedup", ("2.56", "Measured"), ("2,56", "Mesuré")),  # the larger ratio
    ("extra-twice", ("2.8\u00a0cores", "Estimate"), ("2,8\u202fcœurs", "Estimation")),
    ("cores-saved", ("3.55\u00a0cores", "Measured, to watch"),
     ("3,55\u202fcœurs", "Mesuré, à surveiller")),
    ("latency-twice", ("no number", "Not judgeable"), ("pas de chiffre", "Non jugeable")),
])
def test_a_derived_figure_shows_its_number_and_the_status_of_its_inputs(
        built: dict[str, bytes], mid: str, en: tuple[str, str], fr: tuple[str, str]) -> None:
    for page, expected in (("index.html", en), ("fr/index.html", fr)):
        assert value_and_badge(measurement(parse(built[page]), mid)) == expected


def test_its_source_shows_the_formula_and_links_each_input_the_page_shows(
        built: dict[str, bytes]) -> None:
    en, fr = parse(built["index.html"]), parse(built["fr/index.html"])
    source = measurement(en, "rate").find("details", class_="source")
    assert [n.text() for n in source.find_all("dt")] == ["Formula", "Computed from"]
    assert source.find("code").text() == "requests / seconds"
    inputs = source.find_all("li")
    assert [li.text() for li in inputs] == ["measurements.requests: 120,000 Measured",
                                            "measurements.seconds: 60\u00a0s Measured"]
    assert [a.attrs["href"] for a in source.find_all("a")] == [
        "#measurement-requests", "#measurement-seconds"]
    french = measurement(fr, "rate").find("details", class_="source")
    assert [n.text() for n in french.find_all("dt")] == ["Formule", "Calculé à partir de"]
    # French sets a no-break space before its colon, as every other one the page prints.
    assert [li.text() for li in french.find_all("li")] == [
        "measurements.requests\u00a0: 120\u202f000 Mesuré",
        "measurements.seconds\u00a0: 60\u202fs Mesuré"]
    # The budget's input is not shown on the page: named, not linked to nowhere.
    item = en.find("dl", id="budget-derived")
    assert item.find_all("a", class_="input") == []
    assert item.find("span", class_="input").text() == "measurements.memory-500-after"
    # Every input link of the page leads to an element of it.
    ids = {n.attrs["id"] for n in en.iter() if "id" in n.attrs}
    links = [a.attrs["href"][1:] for a in en.find_all("a", class_="input")]
    assert links and set(links) <= ids


def test_the_pages_are_the_same_made_by_a_sites_own_templates(
        built: dict[str, bytes], tmp_path: Path) -> None:
    """A site's own templates (here an empty folder of them: the engine's are read
    through it, sandboxed) make the same bytes, input links made plain words included."""
    source = copy_example(tmp_path / "src")
    (derived_site(source) / "templates").mkdir()
    config = BuildConfig(source=source, out=tmp_path / "site", today=TODAY, strict=True)
    files = make_site(config).files
    assert b'<span class="input">' in files["index.html"]
    assert files == built


def test_in_a_table_too_its_source_shows_the_formula_and_its_inputs(
        built: dict[str, bytes]) -> None:
    for page, words in (("table/index.html", ["Formula", "Computed from"]),
                        ("fr/table/index.html", ["Formule", "Calculé à partir de"])):
        row = parse(built[page]).find("tr", id="measurement-rate")
        source = row.find("td", class_="remarks").find("details", class_="source")
        assert [n.text() for n in source.find_all("dt")] == words
        assert source.find("code").text() == "requests / seconds"
        assert len(source.find_all("li")) == 2
    # Its `history:` ends at 1,800, the figure is 2,000: +11.1% since the previous point.
    changes = [parse(built[page]).find("tr", id="measurement-rate").find(
        "td", class_="change").text() for page in ("table/index.html", "fr/table/index.html")]
    assert [c.rsplit(":", 1)[1].strip() for c in changes] == ["+11.1%", "+11,1\u00a0%"]


def test_texts_headlines_and_budgets_read_derived_figures(built: dict[str, bytes]) -> None:
    en, fr = built["index.html"].decode(), built["fr/index.html"].decode()
    assert "Rate: 2,000, per minute 120,000." in en
    assert "Débit\u00a0: 2\u202f000, par minute 120\u202f000." in fr
    page = parse(en)
    assert page.find("li", id="headline-rate").find("strong").text() == "2,000"
    assert page.find("li", id="headline-thousands").find("strong").text() == "2"
    item = page.find("dl", id="budget-derived")
    assert value_and_badge(item) == ("499,000\u00a0KB", "Measured, over the limit")
    assert item.find("p", class_="share").text() == "125% of 400,000\u00a0KB."


def test_a_derived_figure_ends_its_trend(built: dict[str, bytes]) -> None:
    for page, rows in (("index.html", [["v1", "1,500"], ["v2", "1,800"], ["3", "2,000"]]),
                       ("fr/index.html", [["v1", "1\u202f500"], ["v2", "1\u202f800"],
                                          ["3", "2\u202f000"]])):
        chart = parse(built[page]).find("figure", id="trend-rate-figure")
        assert chart.find("svg")
        assert [[cell.text() for cell in row.find_all() if cell.tag in ("th", "td")]
                for row in chart.find("tbody").find_all("tr")] == rows


def test_data_json_writes_the_formula_and_its_inputs(built: dict[str, bytes]) -> None:
    data: dict[str, Any] = json.loads(built["data.json"])
    figures = {m["id"]: m["figure"] for m in data["measurements"]}
    rate = figures["rate"]
    assert (rate["formula"], rate["decimals"], rate["value"]) == ("requests / seconds", 0, None)
    assert rate["derived"] == {
        "key": "measurements.rate", "status": "measured", "stale": False,
        "inputs": ["measurements.requests", "measurements.seconds"],
        "quantity": {"kind": "value", "low": 2000.0, "high": 2000.0, "decimals": 0,
                     "unit": None, "signed": False}}
    assert figures["rate-per-minute"]["derived"]["inputs"] == ["measurements.rate"]
    assert figures["best-speedup"]["derived"]["inputs"] == [
        "comparisons.cpu-per-packet-500.before", "comparisons.cpu-per-packet-500.after",
        "comparisons.cpu-per-packet-1000.before", "comparisons.cpu-per-packet-1000.after"]
    assert figures["requests"]["derived"]["inputs"] == []
    budget = next(b for b in data["budgets"] if b["id"] == "derived")
    assert budget["items"][0]["figure"]["derived"]["status"] == "over-limit"


def test_the_change_summary_follows_a_derived_figure(
        built: dict[str, bytes], tmp_path: Path) -> None:
    """An input re-measured (and now an estimate): what is computed from it changes too."""
    copy_example(tmp_path)
    data = DERIVED.replace("figure: {value: 120000,", "figure: {value: 126000, status: "
                           "estimate,")
    files = make_site(BuildConfig(source=derived_site(tmp_path, data), out=tmp_path / "site",
                                  today=TODAY, compiled=TEMPLATES)).files
    assert changes.lines_between(built["data.json"], json.loads(files["data.json"])) == [
        "figure headlines.rate: 2000 -> 2100 (measured -> estimate)",
        # The stated 2 (thousand) still agrees, but summarises an estimate now.
        "figure headlines.thousands: measured -> estimate",
        "figure Requests per second (measurements.rate): 2000 -> 2100 (measured -> estimate)",
        "figure Requests per minute (measurements.rate-per-minute): 120000 -> 126000 "
        "(measured -> estimate)",
        "figure Requests served (measurements.requests): 120000 -> 126000 "
        "(measured -> estimate)"]


# Every kind of broken formula in one file: the build reports them all at once, each at
# its formula (or unit), with what is wrong and how to fix it.
BROKEN = """\
measurements:
  - id: requests
    title: Requests
    figure: {value: 120000, machine: test-pc, date: 2026-11-08, commit: c38a01e}
  - id: unknown
    title: Unknown
    figure: {formula: requsts * 2}
  - id: loop-a
    title: A
    figure: {formula: loop-b * 2}
  - id: loop-b
    title: B
    figure: {formula: loop-a + 1}
  - id: by-zero
    title: By zero
    figure: {formula: requests / players-lost}
  - id: per-player
    title: Per player
    figure: {formula: memory-500-after / profiles.typical.held, unit: ms}
  - id: syntax
    title: Syntax
    figure: {formula: "requests / "}
  - id: constant
    title: Constant
    figure: {formula: 2 * 3}
  - id: count
    title: Count
    figure: {formula: handover-checks}
  - id: downstream
    title: Reads a broken one
    figure: {formula: unknown + 1}
headlines:
  - id: stated
    value: 2
    summarises: [measurements.requests, "measurements.requests / nothing"]
    label: words
"""
BROKEN_EXPECTED = """\
data/derived.yaml:7:23: measurements[1].figure.formula: no number named 'requsts'
        figure: {formula: requsts * 2}
                          ^
    hint: did you mean 'requests'?
data/derived.yaml:10:23: measurements[2].figure.formula: the formulas read each other in a cycle: measurements.loop-a -> measurements.loop-b -> measurements.loop-a
        figure: {formula: loop-b * 2}
                          ^
    hint: one of them must be measured, or computed from other figures
data/derived.yaml:16:32: measurements[4].figure.formula: division by zero
        figure: {formula: requests / players-lost}
                                   ^
    hint: a number it divides by is 0: check the figures it names
data/derived.yaml:19:71: measurements[5].figure.unit: unit 'ms' does not fit the formula, which gives KB per players
        figure: {formula: memory-500-after / profiles.typical.held, unit: ms}
                                                                          ^
    hint: write `unit: KB`, or declare `KB/players` under site.units and write it, or compute with `.value` (no unit) to convert
data/derived.yaml:22:35: measurements[6].figure.formula: expected a number, a name or '(', got the end
        figure: {formula: "requests / "}
                                      ^
data/derived.yaml:25:23: measurements[7].figure.formula: the formula '2 * 3' names no figure
        figure: {formula: 2 * 3}
                          ^
    hint: a formula computes from other figures (`measurements.ID`); a number of your own goes in `value:`
data/derived.yaml:28:23: measurements[8].figure.formula: the formula gives a count, not one number
        figure: {formula: handover-checks}
                          ^
    hint: a figure's formula computes one number: a count's parts (.ok, .of, .share) are numbers
data/derived.yaml:35:66: headlines[0].summarises[1]: 'measurements.requests / nothing': no number named 'nothing'
        summarises: [measurements.requests, "measurements.requests / nothing"]
                                                                     ^
    hint: names look like comparisons.ID.ratio, measurements.ID, budgets.B.ITEM.share (see docs/data-format.md)
Aborted with 8 data errors."""  # noqa: E501 (the messages as printed)


def test_every_broken_formula_is_a_located_error_all_at_once(example_copy: Path) -> None:
    (example_copy / "data" / "derived.yaml").write_text(BROKEN, encoding="utf-8")
    config = BuildConfig(source=example_copy, out=example_copy / "site", today=TODAY,
                         compiled=TEMPLATES)
    with pytest.raises(BuildFailed) as failed:
        make_site(config)
    assert failed.value.render() == BROKEN_EXPECTED


# What the rules of evidence refuse before anything is computed.
RULES = """\
measurements:
  - id: both
    title: Both
    figure: {formula: players-lost * 2, value: 3, status: estimate}
  - id: decimals
    title: Decimals
    figure: {value: 3, decimals: 2, machine: test-pc, date: 2026-11-08, commit: c38a01e}
  - id: many
    title: Many
    figure: {formula: players-lost * 2, decimals: 13}
"""
RULES_EXPECTED = """\
data/derived.yaml:4:48: measurements[0].figure.value: the figure gives both a formula and value
        figure: {formula: players-lost * 2, value: 3, status: estimate}
                                                   ^
    hint: keep the formula, or the number measured
data/derived.yaml:4:59: measurements[0].figure.status: a formula's status comes from its inputs
        figure: {formula: players-lost * 2, value: 3, status: estimate}
                                                              ^
    hint: remove `status:`: a derived figure is as sure as its least sure input
data/derived.yaml:7:34: measurements[1].figure.decimals: `decimals:` is for a figure with a `formula:`
        figure: {value: 3, decimals: 2, machine: test-pc, date: 2026-11-08, commit: c38a01e}
                                     ^
    hint: a number prints with the decimals typed: write `6.40` for two
data/derived.yaml:10:51: measurements[2].figure.decimals: decimals must be 0 to 12
        figure: {formula: players-lost * 2, decimals: 13}
                                                      ^
    hint: write how many decimals the page prints
Aborted with 4 data errors."""  # noqa: E501 (the messages as printed)


def test_a_formula_beside_a_number_or_a_status_is_refused(example_copy: Path) -> None:
    (example_copy / "data" / "derived.yaml").write_text(RULES, encoding="utf-8")
    config = BuildConfig(source=example_copy, out=example_copy / "site", today=TODAY,
                         compiled=TEMPLATES)
    with pytest.raises(BuildFailed) as failed:
        make_site(config)
    assert failed.value.render() == RULES_EXPECTED


def test_the_same_formulas_mended_build(example_copy: Path) -> None:
    """The `_ok` twin: each broken formula written as meant."""
    mended = (BROKEN.replace("requsts", "requests").replace("loop-a + 1", "requests + 1")
              .replace("requests / players-lost", "requests / seconds")
              .replace("unit: ms", "unit: KB").replace('"requests / "', "requests / 2")
              .replace("2 * 3", "requests * 3").replace("formula: handover-checks}",
                                                        "formula: handover-checks.share}")
              .replace("requests / nothing", "requests / 60000"))
    mended = mended.replace("measurements:\n", "measurements:\n  - id: seconds\n"
                            "    title: Seconds\n    figure: {value: 60, unit: s, machine: "
                            "test-pc, date: 2026-11-08, commit: c38a01e}\n", 1)
    (example_copy / "data" / "derived.yaml").write_text(mended + NEIGHBOURS, encoding="utf-8")
    model = prepare(BuildConfig(source=example_copy, out=example_copy / "site",
                                today=TODAY, compiled=TEMPLATES)).model
    assert model.view("measurements.loop-a").quantity.low == 240002
    assert model.view("measurements.per-player").quantity.unit == "KB"
    assert model.view("measurements.count").quantity.unit == "%"
    assert model.view("measurements.downstream").quantity.low == 240001
    # A comparison's side computed from the other side: its ratio is computed from it.
    halved = model.view("comparisons.halved.after")
    assert (halved.quantity.low, halved.quantity.unit, halved.inputs) == (
        10, "us", (FigureKey.parse("comparisons.halved.before"),))
    assert model.namespace.entries["comparisons.halved.ratio"].low == 2
    # A budget item computed from another item of its budget, named by its id.
    rest = model.view("budgets.derived.rest")
    assert (rest.quantity.low, rest.status) == (6, "estimate")
    item = model.budgets[-1].items[1]
    assert item.share is not None and item.share.low == 75


# A comparison whose after side, and a budget item, are computed from their neighbours.
NEIGHBOURS = """\
studies:
  - id: derived-study
    title: {en: A derived study, fr: Une étude dérivée}
    before: {commit: 57930e6}
    after: {commit: c38a01e}
    machine: test-pc
    date: 2026-11-08
    comparisons:
      - id: halved
        title: {en: Halved, fr: Divisé par deux}
        unit: us
        before: {value: 20}
        after: {formula: before * 0.5}
budgets:
  - id: derived
    title: {en: A derived budget, fr: Un budget dérivé}
    items:
      - id: used
        title: {en: Used, fr: Utilisé}
        figure: {value: 2, unit: cores, status: estimate, method: a guess}
      - id: rest
        title: {en: The rest, fr: Le reste}
        figure: {formula: used * 3, unit: cores}
        limit: {value: 8, unit: cores}
"""


def test_a_formula_not_on_one_line_is_located_at_its_start(example_copy: Path) -> None:
    """A folded formula's characters are not where its text says: the error is at the
    formula's start, never at a column that is not it."""
    (example_copy / "data" / "derived.yaml").write_text(
        "measurements:\n  - id: folded\n    title: Folded\n    figure:\n"
        "      formula: >-\n        players-lost * 2 /\n        players-lost\n",
        encoding="utf-8")
    with pytest.raises(BuildFailed) as failed:
        make_site(BuildConfig(source=example_copy, out=example_copy / "site", today=TODAY,
                            compiled=TEMPLATES))
    [found] = failed.value.problems
    assert (str(found.location), found.message) == ("data/derived.yaml:5:16",
                                                    "division by zero")


def test_an_input_to_re_measure_makes_the_derived_figure_to_re_measure(
        example_copy: Path) -> None:
    site = example_copy / "data" / "site.yaml"
    site.write_text(site.read_text(encoding="utf-8").replace(
        "  footer:\n", "  stale_after_days: 10\n  footer:\n", 1), encoding="utf-8")
    (example_copy / "data" / "derived.yaml").write_text(
        DERIVED.replace("figure: {value: 120000, machine: test-pc, date: 2026-11-08",
                        "figure: {value: 120000, machine: test-pc, date: 2026-11-25"),
        encoding="utf-8")
    model = prepare(BuildConfig(source=example_copy, out=example_copy / "site",
                                today=TODAY, compiled=TEMPLATES)).model
    fresh, old = model.view("measurements.requests"), model.view("measurements.seconds")
    assert (fresh.stale, old.stale) == (False, True)
    rate = model.view("measurements.rate")  # reads both: one is too old
    assert (rate.stale, rate.stale_because) == (True, "age")
    assert model.view("measurements.rate-per-minute").stale  # through the chain


UNITS = Namespace(MappingProxyType({
    "a": Quantity("value", 4, unit="MB"), "a.value": Quantity("value", 4),
    "a2": Quantity("value", 2, unit="MB"), "b": Quantity("value", 2, unit="players")}),
    MappingProxyType({}))


@pytest.mark.parametrize(("formula", "unit", "message"), [
    ("a / b", "MB", None),  # memory per player, in MB
    ("a / b", "MB/players", None),
    ("a / b", "ms", "unit 'ms' does not fit the formula, which gives MB per players"),
    ("a + a2", "MB", None),
    ("a - a2 * 2", "GB", "unit 'GB' does not fit the formula, which gives MB"),
    ("a / a2", "%", None),
    ("a / a2", "MB", "unit 'MB' does not fit the formula, which gives a number without a unit"),
    ("a.value / 1000", "s", None),  # no unit known: how a formula converts
    ("a * b", "ms", None),  # a product of two units: not judged
    ("change(a, a2)", "MB", "unit 'MB' does not fit the formula, which gives %"),
    ("round(a, 1)", "MB", None),
    ("max(a, a2)", "GB", "unit 'GB' does not fit the formula, which gives MB"),
    ("ratio(a, b)", "MB", None),
    ("count(runs)", "MB", "unit 'MB' does not fit the formula, which gives a number without "
     "a unit"),
])
def test_a_declared_unit_is_checked_where_the_inputs_say(formula: str, unit: str,
                                                        message: str | None) -> None:
    found = unit_problem(Figure(formula=formula, unit=unit), parse_formula(formula), UNITS,
                        "", {"MB", "GB", "ms", "s", "%", "players", "MB/players"})
    assert (found.message if found else None) == message


CONTENDERS = """\
measurements:
  - id: gcc
    title: {en: gcc, fr: gcc}
    figure:
      distribution: {p50: 166, p95: 215.6, mean: 157.3, sd: 36.6, n: 12}
      unit: ms
      machine: test-pc
      date: 2026-11-08
      commit: c38a01e
studies:
  - id: compilers
    title: {en: gcc against ours, fr: gcc face au nôtre}
    before: {name: gcc, version: "12.2"}
    after: {name: ours, version: "0.4"}
    machine: test-pc
    date: 2026-11-08
    comparisons:
      - id: compile
        title: {en: Compile time, fr: Temps de compilation}
        unit: ms
        wording: {en: less time, fr: moins de temps}
        before: {formula: measurements.gcc}
        after: {value: 60.1}
"""


def test_a_formula_naming_a_distribution_is_its_headline(example_copy: Path) -> None:
    """A study's side computed from an imported series' figure (a distribution) is that
    figure's median, as in arithmetic: the ratio follows; it was refused as 'a
    distribution, not one number'."""
    (example_copy / "data" / "contenders.yaml").write_text(CONTENDERS, encoding="utf-8")
    model = prepare(BuildConfig(source=example_copy, out=example_copy / "site",
                                today=TODAY, compiled=TEMPLATES)).model
    before = model.view(FigureKey(("comparisons", "compile", "before"))).quantity
    assert (before.kind, before.low, before.unit) == ("value", 166.0, "ms")
    (view,) = [c for s in model.studies for c in s.comparisons if c.comparison.id == "compile"]
    assert view.ratio is not None and round(view.ratio.low, 2) == 2.76
