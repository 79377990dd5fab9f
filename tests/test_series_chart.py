"""A series' page chart (render/serieschart.py, serieslayout.py): y ticks in each
language's numbers, thinned x labels that never touch, the step marked with its percent,
the noise band, a description computed from the data; the same bytes on every build."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from progress_site.derive.regressions import Step
from progress_site.derive.site import Model
from progress_site.pipeline import BuildConfig, make_site, prepare
from progress_site.render import formatting
from progress_site.render.serieschart import SVG, ChartText, series_chart
from progress_site.render.serieslayout import (
    CHAR,
    GAP,
    MAX_X_LABELS,
    Lazy,
    extremes,
    label_width,
    nice_ticks,
    thinned,
)

from .conftest import TEMPLATES, TODAY
from .dom import Node, parse
from .history_site import POINTS, commit, history_source

PAGES = {"en": "benchmarks/startup/index.html", "fr": "fr/benchmarks/startup/index.html"}


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example with three history files."""
    return history_source(tmp_path_factory.mktemp("chart") / "src")


@pytest.fixture(scope="module")
def files(source: Path) -> dict[str, bytes]:
    """Every file of the built site."""
    return make_site(BuildConfig(source=source, out=source / "site", today=TODAY,
                                 compiled=TEMPLATES)).files


@pytest.fixture(scope="module")
def model(source: Path) -> Model:
    """The site's model, for the numbers the chart must show."""
    return prepare(BuildConfig(source=source, out=source / "site", today=TODAY,
                               compiled=TEMPLATES)).model


def chart(files: dict[str, bytes], lang: str) -> Node:
    """The svg of the startup series' page."""
    return parse(files[PAGES[lang]]).find("figure", class_="series-chart").find("svg")


@pytest.mark.parametrize(("lang", "pattern"), [("en", r"^\d{2,3}(\.\d+)?\u00a0ms$"),
                                               ("fr", r"^\d{2,3}(,\d+)?\u202fms$")])
def test_y_ticks_are_written_in_each_language(files: dict[str, bytes], lang: str,
                                              pattern: str) -> None:
    """A few round ticks, each in the language's numbers and the site's unit spacing."""
    labels = [t.text() for t in chart(files, lang).find("g", class_="y-axis").find_all("text")]
    assert 3 <= len(labels) <= 8
    assert all(re.match(pattern, label) for label in labels), labels


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_x_labels_are_few_and_never_touch(files: dict[str, bytes], lang: str) -> None:
    """In both sizes (wide, and narrow for phones): at most MAX_X_LABELS, the newest
    point's among them, inside the box, each at least GAP apart with the widths the
    chart estimates."""
    figure = parse(files[PAGES[lang]]).find("figure", class_="series-chart")
    svgs = figure.find_all("svg")
    assert [s.attrs["class"] for s in svgs] == ["series-svg wide", "series-svg narrow"]
    for svg in svgs:
        right = float(svg.attrs["viewbox"].split()[2])
        texts = svg.find("g", class_="x-axis").find_all("text")
        assert 2 <= len(texts) <= MAX_X_LABELS
        spans = [(float(t.attrs["x"]), label_width(t.text())) for t in texts]
        for (x0, w0), (x1, w1) in itertools.pairwise(spans):
            assert x1 - w1 / 2 - (x0 + w0 / 2) >= GAP
        assert spans[-1][0] + spans[-1][1] / 2 <= right
        assert texts[-1].text() == ("October\u00a030" if lang == "en" else "30\u00a0octobre")


def test_a_day_of_many_pushes_is_written_once(tmp_path: Path) -> None:
    """A CI history of many commits a day: each day labels the axis once (26 pushes in
    one day read 'December 2' five times along the axis)."""
    source = history_source(tmp_path / "src")
    history = source / "data" / "history" / "measurements.startup.jsonl"
    days = ["2026-10-01"] * 12 + ["2026-10-02"] * (POINTS - 12)
    history.write_text("".join(
        re.sub(r'"date": "[0-9-]+"', f'"date": "{day}"', text) + "\n"
        for day, text in zip(days, history.read_text().splitlines(), strict=True)))
    built = make_site(BuildConfig(source=source, out=source / "site", today=TODAY,
                                  compiled=TEMPLATES)).files
    for svg in chart(built, "en").parent.find_all("svg"):
        labels = [t.text() for t in svg.find("g", class_="x-axis").find_all("text")]
        assert labels == ["October\u00a01", "October\u00a02"], labels


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_step_is_marked_with_its_percent(files: dict[str, bytes], model: Model,
                                             lang: str) -> None:
    """One step, a regression, labelled with the model's change as the language writes it."""
    (view,) = [v for v in model.series if v.key == "measurements.startup"]
    assert view.report is not None
    (step,) = view.report.steps
    marks = chart(files, lang).find_all("g", class_="step")
    assert len(marks) == 1 and "regression" in marks[0].attrs["class"].split()
    expected = formatting.percent_amount(step.percent, 1, lang, sign=True)
    assert marks[0].find("text").text() == expected
    assert expected.startswith("+") and ("," in expected) == (lang == "fr")


def test_the_noise_band_is_drawn(files: dict[str, bytes]) -> None:
    """A band for each level (two, either side of the step), behind the line."""
    svg = chart(files, "en")
    assert len(svg.find_all("rect", class_="band")) == 2
    order = [n.attrs.get("class", "") for n in svg.iter()]
    assert order.index("band") < order.index("line")
    assert len(svg.find_all("circle", class_="point")) == POINTS


def drawn(svg: Node) -> list[float]:
    """The y of each point the chart's line draws, in order (lower is higher)."""
    points = svg.find("polyline", class_="line").attrs["points"].split()
    return [float(p.split(",")[1]) for p in points]


DESCRIPTIONS = {
    "en": "Lowest 98.10\u00a0ms at commit c00000c (October\u00a013), highest 152.85\u00a0ms at "
          "commit c00001b (October\u00a028), 30 points. Step of +50.2% between commits c000013 "
          "and c000014.",
    "fr": "Au plus bas 98,10\u202fms au commit c00000c (13\u00a0octobre), au plus haut "
          "152,85\u202fms au commit c00001b (28\u00a0octobre), 30 points. Saut de +50,2\u00a0% "
          "entre les commits c000013 et c000014.",
}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_description_names_the_lowest_and_highest_drawn(
        files: dict[str, bytes], model: Model, lang: str) -> None:
    """role=img, a title, and a desc that names the lowest and the highest point the
    line draws (not the first and last), each with its commit and date, then the step."""
    for svg in parse(files[PAGES[lang]]).find("figure", class_="series-chart").find_all("svg"):
        assert svg.attrs["role"] == "img"
        assert svg.attrs["aria-label"] == svg.find("title").text()
        ys = drawn(svg)
        low, high = ys.index(max(ys)), ys.index(min(ys))
        assert (commit(low), commit(high)) == ("c00000c", "c00001b")
        assert svg.find("desc").text() == DESCRIPTIONS[lang]
    (view,) = [v for v in model.series if v.key == "measurements.startup"]
    values = [p.value for p in view.points]
    assert (values[12], values[27]) == (min(values), max(values)) == (98.1, 152.85)


@pytest.mark.parametrize(("values", "expected"), [
    ([5.0], (0, 0)), ([3.0, 1.0, 2.0], (1, 0)), ([1.0, 1.0, 4.0, 4.0], (0, 2)),
    ([2.0, -1.0, 9.0, 0.5], (1, 2))])
def test_extremes_are_the_first_lowest_and_highest(values: list[float],
                                                   expected: tuple[int, int]) -> None:
    assert extremes(values) == expected


@pytest.fixture(scope="module")
def new_year(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The history site with the startup series moved to cross a new year: its 30 days
    from December 20, 2025 to January 18, 2026."""
    source = history_source(tmp_path_factory.mktemp("new-year") / "src")
    path = source / "data" / "history" / "measurements.startup.jsonl"
    lines = []
    for i, text in enumerate(path.read_text(encoding="utf-8").splitlines()):
        point = json.loads(text)
        point["date"] = (dt.date(2025, 12, 20) + dt.timedelta(days=i)).isoformat()
        lines.append(json.dumps(point, ensure_ascii=False, separators=(", ", ": ")) + "\n")
    path.write_text("".join(lines), encoding="utf-8")
    return make_site(BuildConfig(source=source, out=source / "site", today=TODAY,
                                 compiled=TEMPLATES)).files


@pytest.mark.parametrize(("lang", "newest", "desc"), [
    ("en", "January\u00a018,\u00a02026",
     "Lowest 98.10\u00a0ms at commit c00000c (January\u00a01,\u00a02026), highest "
     "152.85\u00a0ms at commit c00001b (January\u00a016,\u00a02026), 30 points."),
    ("fr", "18\u00a0janvier\u00a02026",
     "Au plus bas 98,10\u202fms au commit c00000c (1er\u00a0janvier\u00a02026), au plus haut "
     "152,85\u202fms au commit c00001b (16\u00a0janvier\u00a02026), 30 points.")])
def test_dates_carry_their_year_when_the_points_cross_one(
        new_year: dict[str, bytes], files: dict[str, bytes], lang: str, newest: str,
        desc: str) -> None:
    """Across a new year every x label and the description's dates say their year; the
    same series within one year says none (its labels: `October 30`)."""
    for svg in parse(new_year[PAGES[lang]]).find("figure", class_="series-chart").find_all(
            "svg"):
        labels = [t.text() for t in svg.find("g", class_="x-axis").find_all("text")]
        assert labels[-1] == newest
        assert all(re.search(r"\b202[56]$", label) for label in labels), labels
        assert any(label.endswith("2025") for label in labels), labels
        assert svg.find("desc").text().startswith(desc)
    within = chart(files, lang).find("g", class_="x-axis").find_all("text")
    assert not any(re.search(r"\b20\d\d$", t.text()) for t in within)


@pytest.fixture(scope="module")
def released(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The history site where the highest point's commit is a release, with a label."""
    source = history_source(tmp_path_factory.mktemp("released") / "src")
    (source / "data" / "releases.yaml").write_text(
        "commits:\n  - id: c00001b\n    label: {en: v2.0, fr: version 2.0}\n",
        encoding="utf-8")
    return make_site(BuildConfig(source=source, out=source / "site", today=TODAY,
                                 compiled=TEMPLATES)).files


@pytest.mark.parametrize(("lang", "desc"), [
    ("en", "Lowest 98.10\u00a0ms at commit c00000c (October\u00a013), highest 152.85\u00a0ms "
           "at v2.0 (October\u00a028), 30 points."),
    ("fr", "Au plus bas 98,10\u202fms au commit c00000c (13\u00a0octobre), au plus haut "
           "152,85\u202fms à version 2.0 (28\u00a0octobre), 30 points.")])
def test_a_release_is_told_by_its_label(released: dict[str, bytes], lang: str,
                                        desc: str) -> None:
    """A point at a labelled commit (a release) is told at its label, not as a commit
    named by the label; the other points at their commit."""
    for svg in parse(released[PAGES[lang]]).find("figure", class_="series-chart").find_all(
            "svg"):
        assert svg.find("desc").text().startswith(desc)


def test_the_chart_takes_the_content_width(files: dict[str, bytes]) -> None:
    """A viewBox and width 100 %: the browser scales it to the page."""
    svg = chart(files, "en")
    # HTMLParser lowers attribute names.
    assert svg.attrs["width"] == "100%" and svg.attrs["viewbox"].startswith("0 0 ")


def test_the_chart_is_the_same_on_every_build(source: Path, files: dict[str, bytes],
                                              tmp_path: Path) -> None:
    """Built again, the series' pages are byte-identical."""
    again = make_site(BuildConfig(source=source, out=tmp_path / "site", today=TODAY,
                                  compiled=TEMPLATES)).files
    assert all(again[p] == files[p] for p in PAGES.values())


@pytest.mark.parametrize(("low", "high"), [(0.0, 1.0), (97.3, 151.2), (0.0012, 0.0019),
                                           (5.0, 5.0), (-3.0, 8.0)])
def test_nice_ticks_are_round_and_cover(low: float, high: float) -> None:
    """Ticks of 1, 2 or 5 times a power of ten, about five, covering the values."""
    ticks, decimals = nice_ticks(low, high)
    assert 2 <= len(ticks) <= 8 and ticks[0] <= low and ticks[-1] >= high - (ticks[1] - ticks[0])
    step = round(ticks[1] - ticks[0], 12)
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert round(mantissa, 6) in (1.0, 2.0, 5.0)
    assert all(round(t, decimals) == pytest.approx(t) for t in ticks)


@pytest.mark.parametrize("count", [1, 2, 7, 30, 200])
def test_thinned_labels_fit_at_any_count(count: int) -> None:
    """However many points, the labels kept are few, inside the box and apart."""
    centres = [10 + i * 600 / max(count - 1, 1) for i in range(count)]
    widths = [11 * CHAR] * count
    placed = thinned(centres, widths, 0, 620)
    assert 1 <= len(placed) <= MAX_X_LABELS and placed[-1][0] == count - 1
    for (_, a), (_, b) in itertools.pairwise(placed):
        assert b - a >= 11 * CHAR + GAP
    assert all(c - widths[0] / 2 >= 0 and c + widths[0] / 2 <= 620 for _, c in placed)


def words(title: str) -> ChartText:
    """English words for a chart made in a test."""
    return ChartText(title=title, desc=title, x_labels=tuple(f"day {i}" for i in range(40)),
                     y_label=lambda v, d: f"{v:.{d}f} ms", step_label=lambda s: "+1%")


@pytest.mark.parametrize("values", [[5.0], [5.0, 5.0], [0.001, 0.0012, 0.0011]])
def test_tiny_and_flat_series_draw(values: list[float]) -> None:
    """One point, a flat line, tiny values: a chart with ticks and the last label."""
    svg = ET.fromstring(str(series_chart(values, (), words("t"))))
    texts = [t.text for t in svg.iter(f"{{{SVG}}}text")]
    assert f"day {len(values) - 1}" in texts and len(texts) >= 3


def test_words_from_the_data_are_escaped() -> None:
    """A hostile title is text in the chart, never markup."""
    html = str(series_chart([1.0, 2.0], (), words('<script>alert("x")</script>')))
    assert "<script>" not in html and "&lt;script&gt;" in html


HOSTILE = 'a & b < c > d "e" \'f\'\tg\nh'


@pytest.mark.parametrize("label", [HOSTILE, ""])
def test_every_word_reads_back_as_written(label: str) -> None:
    """The chart is written as text: its title (an attribute too), description, tick,
    date, step and tag labels read back through an XML parser exactly as given, an
    empty label included."""
    step = Step(last_before="a", first_after="b", index=2, commits=1, before=1.0, after=2.0,
                before_interval=(1.0, 1.0), after_interval=(2.0, 2.0), noise=0.01,
                p_value=0.001, samples_p_value=None, points_after=1,
                direction="regression", status="regressed")
    text = ChartText(title=HOSTILE, desc=HOSTILE, x_labels=(label, label, label),
                     y_label=lambda v, d: label, step_label=lambda s: label,
                     tags=((0, label),))
    svg = ET.fromstring(str(series_chart([1.0, 1.0, 2.0], (step,), text)))
    assert svg.get("aria-label") == HOSTILE
    assert svg.find(f"{{{SVG}}}title").text == svg.find(f"{{{SVG}}}desc").text == HOSTILE
    texts = [t.text or "" for t in svg.iter(f"{{{SVG}}}text")]
    assert len(texts) >= 5 and set(texts) == {label}


def test_a_long_series_is_a_line_with_few_dates_made() -> None:
    """500 points: the line holds them all, dots would only blot it and are left out,
    and only the dates the axis tries are formatted (a few dozen of 500)."""
    made: list[int] = []

    def label(i: int) -> str:
        made.append(i)
        return f"September {i % 30 + 1}"

    values = [100 + (i % 7) for i in range(500)]
    text = ChartText(title="t", desc="t", x_labels=Lazy(500, label),
                     y_label=lambda v, d: f"{v:.{d}f} ms", step_label=lambda s: "+1%")
    for width in (720, 360):
        svg = ET.fromstring(str(series_chart(values, (), text, width)))
        assert len(svg.find(f"{{{SVG}}}polyline").get("points", "").split()) == 500
        assert list(svg.iter(f"{{{SVG}}}circle")) == []
        axis = svg.find(f"{{{SVG}}}g[@class='x-axis']")
        assert axis is not None
        labels = [t.text for t in axis.iter(f"{{{SVG}}}text")]
        assert 2 <= len(labels) <= MAX_X_LABELS and labels[-1] == "September 20"
    assert len(made) == len(set(made)) <= 60


@pytest.mark.parametrize(("lang", "label"), [("en", "Release 1.0"), ("fr", "Version 1.0")])
def test_a_labelled_commit_is_marked_on_the_chart_and_in_the_table(
        tmp_path: Path, lang: str, label: str) -> None:
    """A commit of data/commits with a `label:` (a release) gets a rule at its point,
    with its label, in both sizes of the chart, and its label beside its hash in the
    table of points."""
    source = history_source(tmp_path / "src")
    machines = source / "data" / "machines.yaml"
    text = machines.read_text(encoding="utf-8")
    machines.write_text(text.replace("commits:\n", "commits:\n  - id: " + commit(25)
                                     + "\n    label: {en: Release 1.0, fr: Version 1.0}\n",
                                     1), encoding="utf-8")
    files = make_site(BuildConfig(source=source, out=source / "site", today=TODAY,
                                  compiled=TEMPLATES)).files
    page = parse(files[PAGES[lang]])
    for svg in page.find("figure", class_="series-chart").find_all("svg"):
        (tag,) = svg.find_all("g", class_="tag")
        assert tag.find("text").text() == label
        rule = tag.find("line", class_="tag-rule")
        dot = svg.find_all("circle", class_="point")[25]
        assert rule.attrs["x1"] == rule.attrs["x2"] == dot.attrs["cx"]
    rows = page.find("table", class_="points").find_all("tr")
    marked = [r for r in rows if r.find_all("span", class_="tag")]
    assert len(marked) == 1 and commit(25) in marked[0].text()
    assert marked[0].find("span", class_="tag").text() == label
