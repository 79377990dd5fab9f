"""The words under a chart match what it draws: every kind of chart (one series of bars,
grouped bars, lines, a trend) is built, its drawn marks read back from the SVG (their
heights, by the y axis' ticks; their category, by the x axis' labels; their series, by
their colour), and its sentence checked against the lowest and the highest of them."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

from progress_site.charts.measure import width
from progress_site.charts.vega import LABEL_PX
from progress_site.errors import BuildFailed
from progress_site.pipeline import BuildConfig, make_site

from .conftest import TEMPLATES, TODAY
from .dom import parse

DATA = """\
site: {title: T, tagline: T, languages: [en, fr]}
machines: [{id: pc, name: PC}]
commits: [{id: aaa1111}]
measurements:
  - id: start
    title: Start
    # Out of order, and across a new year: drawn by date, each date with its year.
    history: [{value: 9.1, date: 2026-03-20}, {value: 12.5, date: 2025-11-02},
              {value: 7.25, date: 2026-01-15}]
    figure: {value: 8.2, unit: s, machine: pc, date: 2026-11-01, commit: aaa1111}
  - id: many
    title: Many
    history: [HISTORY]
    figure: {value: 5, unit: s, machine: pc, date: 2026-11-01, commit: aaa1111}
datasets:
  - id: suites
    title: Test suites
    records: suites.jsonl
    key: [project, runner]
    fields:
      - name: project
        label: {en: Project, fr: Projet}
        type: word
        choices:
          - {value: crucible, label: Crucible}
          - {value: mdbook, label: mdBook}
          - {value: omicron, label: Omicron}
          - {value: tokio, label: Tokio}
      - name: runner
        label: {en: Runner, fr: Lanceur}
        type: word
        choices:
          - {value: cargo, label: cargo test}
          - {value: nextest, label: nextest}
      - {name: threads, label: {en: Threads, fr: Fils}, type: whole}
      - {name: time, label: {en: Time, fr: Durée}, unit: s, decimals: 2}
"""

# The largest time is neither the first nor the last record: a sentence from the first
# to the last bar said 5.14 to 24.27 where a bar reached 444.08.
RECORDS = [
    ("crucible", "cargo", 1, 5.14), ("mdbook", "cargo", 2, 31.5),
    ("omicron", "cargo", 4, 444.08), ("tokio", "cargo", 8, 24.27),
    ("crucible", "nextest", 1, 3.02), ("mdbook", "nextest", 2, 12.0),
    ("omicron", "nextest", 4, 101.6), ("tokio", "nextest", 8, 9.75),
]

PAGE = """\
---
title: T
---
{{< chart suites x=project y=time kind=bar id=one title="One" >}}

{{< chart suites x=project y=time series=runner kind=bar id=grouped title="Grouped" >}}

{{< chart suites x=threads y=time series=runner kind=line id=lines title="Lines" >}}

{{< trend measurements start >}}

{{< trend measurements many >}}
"""
# Forty points ten days apart, from one year into the next: more dates than fit.
MANY = [(dt.date(2025, 9, 1) + dt.timedelta(days=10 * i), 6 + i % 5) for i in range(40)]


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The test site's home page in each language (the `one` chart charts cargo only)."""
    root = tmp_path_factory.mktemp("chart-words")
    (root / "data").mkdir()
    history = ", ".join(f"{{value: {v}, date: {day}}}" for day, v in MANY)
    (root / "data" / "site.yaml").write_text(DATA.replace("HISTORY", history), "utf-8")
    (root / "data" / "suites.jsonl").write_text("".join(
        json.dumps({"project": p, "runner": r, "threads": t, "time": v}) + "\n"
        for p, r, t, v in RECORDS), "utf-8")
    (root / "data" / "cargo.yaml").write_text(
        DATA.replace("HISTORY", "").split("datasets:\n")[1].join(["datasets:\n", ""]).replace(
            "id: suites", "id: cargo").replace("Test suites", "Cargo").replace(
            "suites.jsonl", "cargo.jsonl").replace("key: [project, runner]", "key: [project]"),
        "utf-8")
    (root / "data" / "cargo.jsonl").write_text("".join(
        json.dumps({"project": p, "runner": r, "threads": t, "time": v}) + "\n"
        for p, r, t, v in RECORDS if r == "cargo"), "utf-8")
    for lang in ("en", "fr"):
        (root / "content" / lang).mkdir(parents=True)
        (root / "content" / lang / "index.md").write_text(
            PAGE.replace("chart suites x=project y=time kind", "chart cargo x=project y=time "
                         "kind"), "utf-8")
    files = make_site(BuildConfig(source=root, out=root / "site", today=TODAY,
                                  compiled=TEMPLATES)).files
    return {"en": files["index.html"].decode(), "fr": files["fr/index.html"].decode()}


@dataclass(frozen=True)
class Mark:
    value: float  # read back from its height on the y axis
    category: str  # the x label under it
    series: str  # the legend entry of its colour ('' for a chart of one series)


def svg_of(page: str, figure: str) -> ET.Element:
    """The drawn chart of a figure, as an ElementTree without namespaces."""
    found = re.search(f'id="{figure}".*?(<svg .*?</svg>)', page, re.S)
    assert found, figure
    root = ET.fromstring(found[1])
    for element in root.iter():
        element.tag = element.tag.rpartition("}")[2]
    return root


def groups(root: ET.Element, role: str) -> list[ET.Element]:
    """The groups vega drew for one role (`role-axis`, `role-legend-label`...)."""
    return [g for g in root.iter("g") if role in g.get("class", "").split()]


def translate(element: ET.Element) -> tuple[float, float]:
    found = re.match(r"translate\(([-\d.]+),([-\d.]+)\)", element.get("transform", ""))
    assert found, element.attrib
    return float(found[1]), float(found[2])


def number(text: str, lang: str) -> float:
    """A number as a language prints it (`1,250.5`, `1 250,5`)."""
    text = re.sub("[\u202f\u00a0 ]", "", text.replace("\u2212", "-"))
    return float(text.replace(",", "") if lang == "en" else text.replace(",", "."))


def texts(group: ET.Element) -> list[ET.Element]:
    return [t for g in groups(group, "role-axis-label") for t in g.iter("text")]


def marks(root: ET.Element, lang: str) -> list[Mark]:
    """Every point drawn, with its value, category and series, read from the SVG alone."""
    axes = [a for a in groups(root, "role-axis") if texts(a)]
    y_axis = next(a for a in axes if texts(a)[0].get("text-anchor") == "end")
    x_axis = next(a for a in axes if a is not y_axis)
    # The y axis' ticks and their numbers: a mark's height, read back as a number.
    ticks = [translate(line)[1] for g in groups(y_axis, "role-axis-tick")
             for line in g.iter("line")]
    values = [number(t.text or "", lang) for t in texts(y_axis)]
    (p0, v0), (p1, v1) = (ticks[0], values[0]), (ticks[-1], values[-1])
    x_labels = [(translate(t)[0], t.text or "") for t in texts(x_axis)]
    symbols = [p.get("fill") for g in groups(root, "role-legend-symbol") for p in g.iter("path")]
    names = [t.text for g in groups(root, "role-legend-label") for t in g.iter("text")]
    legend = dict(zip(symbols, names, strict=True))
    out = []
    for g in groups(root, "role-mark"):
        if "mark-symbol" not in g.get("class", "").split():
            continue
        for path in g.iter("path"):
            x, y = translate(path)
            category = min(x_labels, key=lambda label: abs(label[0] - x))[1]
            out.append(Mark(v0 + (y - p0) * (v1 - v0) / (p1 - p0), category,
                            legend.get(path.get("fill"), "") or ""))
    return out


# What the sentence says, in each language: the lowest and highest numbers and what
# follows each (the series and the category it names).
SAID = {"en": re.compile(r"lowest ([\d.,]+)\W+s(?P<low>.*)highest ([\d.,]+)\W+s(?P<high>.*)"),
        "fr": re.compile(r"plus bas ([\d ,\u202f]+?)\W+s(?P<low>.*)plus haut "
                         r"([\d ,\u202f]+?)\W+s(?P<high>.*)")}


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("figure", ["one-figure", "grouped-figure", "lines-figure",
                                    "trend-start-figure"])
def test_each_charts_sentence_names_its_lowest_and_highest_mark(
        pages: dict[str, str], lang: str, figure: str) -> None:
    drawn = marks(svg_of(pages[lang], figure), lang)
    assert len(drawn) == {"one-figure": 4, "trend-start-figure": 4}.get(figure, 8)
    low, high = min(drawn, key=lambda m: m.value), max(drawn, key=lambda m: m.value)
    sentence = parse(pages[lang]).find(id=figure).find("figcaption").text()
    said = SAID[lang].search(sentence)
    assert said, sentence
    # Its numbers are the lowest and the highest mark's, to a pixel's worth...
    pixel = (high.value - low.value) / 100
    assert abs(number(said[1], lang) - low.value) < pixel, (sentence, low)
    assert abs(number(said[3], lang) - high.value) < pixel, (sentence, high)
    # ...each with the category and the series it is drawn at.
    assert low.category in said["low"] and low.series in said["low"], (sentence, low)
    assert high.category in said["high"] and high.series in said["high"], (sentence, high)


def x_labels(page: str, figure: str) -> list[tuple[float, str]]:
    """The x axis' labels a chart shows, with where each is centred."""
    root = svg_of(page, figure)
    axis = next(a for a in groups(root, "role-axis")
                if texts(a) and texts(a)[0].get("text-anchor") == "middle")
    return [(translate(t)[0], t.text or "") for t in texts(axis)]


@pytest.mark.parametrize(("lang", "dates"), [
    ("en", ["November\u00a02,\u00a02025", "January\u00a015,\u00a02026",
            "March\u00a020,\u00a02026", "November\u00a01,\u00a02026"]),
    ("fr", ["2\u00a0novembre\u00a02025", "15\u00a0janvier\u00a02026", "20\u00a0mars\u00a02026",
            "1er\u00a0novembre\u00a02026"])])
def test_a_trend_is_drawn_in_date_order_with_years_when_it_spans_two(
        pages: dict[str, str], lang: str, dates: list[str]) -> None:
    assert [text for _, text in x_labels(pages[lang], "trend-start-figure")] == dates
    rows = parse(pages[lang]).find(id="trend-start-figure").find("tbody").find_all("tr")
    assert [r.find("th").text() for r in rows] == dates


def test_a_trend_takes_the_page_width(pages: dict[str, str]) -> None:
    # style.css: the page's text is 60rem wide, less its padding; the axes take the rest.
    assert float(svg_of(pages["en"], "trend-start-figure").get("width", "0")) >= 850


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_trends_date_labels_are_thinned_until_none_touches(
        pages: dict[str, str], lang: str) -> None:
    labels = x_labels(pages[lang], "trend-many-figure")
    assert 4 <= len(labels) < len(MANY)
    boxes = sorted((x - width(text, LABEL_PX) / 2, x + width(text, LABEL_PX) / 2)
                   for x, text in labels)
    gaps = [right[0] - left[1] for left, right in itertools.pairwise(boxes)]
    assert min(gaps) >= 4, (labels, gaps)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_axis_and_legend_show_the_labels_the_dataset_declares(
        pages: dict[str, str], lang: str) -> None:
    assert [text for _, text in x_labels(pages[lang], "grouped-figure")] == [
        "Crucible", "mdBook", "Omicron", "Tokio"]
    legend = [t.text for g in groups(svg_of(pages[lang], "grouped-figure"),
                                     "role-legend-label") for t in g.iter("text")]
    assert legend == ["cargo test", "nextest"]


def test_two_values_of_x_labelled_alike_are_refused(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "site.yaml").write_text(
        DATA.replace("HISTORY", "").replace("label: mdBook", "label: Tokio"), "utf-8")
    (tmp_path / "data" / "suites.jsonl").write_text("".join(
        json.dumps({"project": p, "runner": r, "threads": t, "time": v}) + "\n"
        for p, r, t, v in RECORDS), "utf-8")
    for lang in ("en", "fr"):
        (tmp_path / "content" / lang).mkdir(parents=True)
        (tmp_path / "content" / lang / "index.md").write_text(
            "---\ntitle: T\n---\n{{< chart suites x=project y=time series=runner kind=bar >}}\n",
            "utf-8")
    with pytest.raises(BuildFailed) as failed:
        make_site(BuildConfig(source=tmp_path, out=tmp_path / "site", today=TODAY,
                              compiled=TEMPLATES))
    block = "{{< chart suites x=project y=time series=runner kind=bar >}}"
    assert str(failed.value) == "\n".join(
        f"content/{lang}/index.md:4:1: chart: two values of x are labelled 'Tokio'\n"
        f"    {block}\n    ^\n    hint: give each choice of the x field a label of its own"
        for lang in ("en", "fr")) + "\nAborted with 2 data errors."
