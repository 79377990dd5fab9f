"""Charts that say something: on the example's pages every word of a chart lies inside
its SVG (measured with vl-convert's metrics, and by Chromium's own layout), no chart
only joins two figures, and a trend is drawn from three points over commits or dates,
each chart with its sentence and its numbers as a table."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from progress_site.charts.measure import text_widths
from progress_site.charts.style import SVG_NS
from progress_site.pipeline import BuildConfig, make_site

from . import browser
from .conftest import TEMPLATES, TODAY

PAGES = ("index.html", "horizon-four-way/index.html", "fr/index.html",
         "fr/horizon-four-way/index.html")
SVG = re.compile(r"<svg [^>]*class=\"chart[ \"].*?</svg>", re.S)
FIGURE = re.compile(r'<figure class="chart-figure[^"]*" id="([^"]+)">(.*?)</figure>', re.S)
Matrix = tuple[float, float, float, float, float, float]  # a b c d e f, as SVG writes it
IDENTITY: Matrix = (1, 0, 0, 1, 0, 0)


def multiply(m: Matrix, n: Matrix) -> Matrix:
    """m then n applied inside it (SVG's order: the outer transform first)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + c * q, b * p + d * q, a * r + c * s, b * r + d * s,
            a * t + c * u + e, b * t + d * u + f)


def parse_transform(text: str) -> Matrix:
    """The translate() and rotate() steps vega writes, as one matrix."""
    matrix = IDENTITY
    for name, args in re.findall(r"(translate|rotate)\(([^)]*)\)", text):
        numbers = [float(n) for n in re.split(r"[\s,]+", args.strip())]
        if name == "translate":
            x, y = numbers[0], numbers[1] if len(numbers) > 1 else 0.0
            step: Matrix = (1, 0, 0, 1, x, y)
        else:
            angle = math.radians(numbers[0])
            step = (math.cos(angle), math.sin(angle), -math.sin(angle), math.cos(angle), 0, 0)
        matrix = multiply(matrix, step)
    return matrix


def texts_with_place(root: ET.Element) -> Iterator[tuple[ET.Element, Matrix]]:
    """Every text element of an SVG with the transform it is drawn under."""
    def walk(element: ET.Element, matrix: Matrix) -> Iterator[tuple[ET.Element, Matrix]]:
        here = multiply(matrix, parse_transform(element.get("transform", "")))
        x, y = float(element.get("x", 0)), float(element.get("y", 0))
        here = multiply(here, (1, 0, 0, 1, x, y))
        if element.tag == f"{{{SVG_NS}}}text":
            yield element, here
        for child in element:
            yield from walk(child, here)
    yield from walk(root, IDENTITY)


def chart_svgs(files: dict[str, bytes]) -> list[tuple[str, str]]:
    """(page, SVG) of every chart on the example's pages."""
    return [(page, svg) for page in PAGES for svg in SVG.findall(files[page].decode())]


def overflow(svg: str) -> list[str]:
    """The texts of a chart that reach past its SVG's box, as measured by vl-convert."""
    root = ET.fromstring(svg)
    width, height = float(root.get("width", 0)), float(root.get("height", 0))
    placed = list(texts_with_place(root))
    problems = []
    for text, (a, b, c, d, e, f) in placed:
        size = float(text.get("font-size", "11px").removesuffix("px"))
        [w] = text_widths([text.text or ""], size, text.get("font-weight") == "bold")
        start = {"middle": -w / 2, "end": -w}.get(text.get("text-anchor", "start"), 0.0)
        corners = [(x, y) for x in (start, start + w) for y in (-0.8 * size, 0.2 * size)]
        points = [(a * x + c * y + e, b * x + d * y + f) for x, y in corners]
        if not all(-0.5 <= px <= width + 0.5 and -0.5 <= py <= height + 0.5
                   for px, py in points):
            problems.append(f"{text.text!r} at {[(round(x), round(y)) for x, y in points]}"
                            f" in {width:g}x{height:g}")
    return problems


def test_every_word_of_the_examples_charts_lies_inside_its_svg(
        example_files: dict[str, bytes]) -> None:
    charts = chart_svgs(example_files)
    # The four-way page's three charts, in each language, each drawn wide and narrow.
    assert len(charts) == 12
    for page, svg in charts:
        assert overflow(svg) == [], page


def test_a_title_too_long_for_one_line_is_wrapped_not_cut(
        example_copy: Path) -> None:
    page = example_copy / "content" / "en" / "horizon-four-way.md"
    long = ("Average tick (MSPT) by number of bots, on the test PC, each server in "
            "turn, after five minutes of warm-up")
    page.write_text(page.read_text("utf-8").replace(
        "Average tick (MSPT) by number of bots", long), "utf-8")
    files = built(example_copy)
    wide, narrow = [s for s in SVG.findall(files["horizon-four-way/index.html"].decode())
                    if "mspt" in s]
    for svg, lines in ((wide, 2), (narrow, 3)):  # the phone's drawing is 320 px wide
        heading = ET.fromstring(svg).find(f"{{{SVG_NS}}}g[@class='chart-title']")
        assert heading is not None and len(heading) == lines
        assert " ".join(t.text or "" for t in heading) == long
        assert overflow(svg) == []


def test_a_title_that_fits_is_one_line_ok(example_files: dict[str, bytes]) -> None:
    for _, svg in chart_svgs(example_files):
        if 'class="chart narrow"' in svg:
            continue  # drawn for a phone: its title may take two lines
        heading = ET.fromstring(svg).find(f"{{{SVG_NS}}}g[@class='chart-title']")
        assert heading is not None and len(heading) == 1


def figures(html: str) -> dict[str, str]:
    """The chart figures of a page, by id."""
    return dict(FIGURE.findall(html))


def test_no_chart_on_the_examples_pages_only_joins_two_figures(
        example_files: dict[str, bytes]) -> None:
    for page in PAGES:
        for chart_id, figure in figures(example_files[page].decode()).items():
            rows = re.findall(r"<tr><th scope=\"row\">", figure)
            assert len(rows) >= 3, (page, chart_id)
            assert 'class="chart-summary"' in figure and "<table>" in figure
    # The example's comparisons have no history: their two sides are the figures shown.
    assert not any("trend-" in html.decode() for html in example_files.values()
                   if isinstance(html, bytes))


def built(source: Path) -> dict[str, bytes]:
    """The files of a site built from `source`, strictly."""
    return make_site(BuildConfig(source=source, out=source / "site", today=TODAY,
                                 strict=True, compiled=TEMPLATES)).files


def add_history(source: Path, points: str) -> None:
    """Give the comparison cpu-per-packet-500 a history before its two sides."""
    studies = source / "data" / "studies.yaml"
    text = studies.read_text("utf-8")
    anchor = "        before: {value: 20.31}\n"
    assert anchor in text
    studies.write_text(text.replace(anchor, f"        history: {points}\n{anchor}", 1),
                       "utf-8")


def test_a_comparison_with_history_gets_a_trend_over_its_commits(example_copy: Path) -> None:
    add_history(example_copy, "[{value: 24.5, commit: 57930e6, label: {en: May, fr: Mai}}]")
    for page, commit, may in (("index.html", "Commit", "May"), ("fr/index.html", "Commit",
                                                                 "Mai")):
        html = built(example_copy)[page].decode()
        trend = figures(html)["trend-cpu-per-packet-500-figure"]
        header = re.search(r'<th scope="col">([^<]*)</th>', trend)
        assert header is not None and header.group(1) == commit
        rows = re.findall(r'<tr><th scope="row">([^<]*)</th>', trend)
        assert rows == [may, "57930e6", "c38a01e"], page
        assert 'class="chart-summary"' in trend
        assert overflow(SVG.findall(trend)[0]) == []


def test_a_comparison_without_history_gets_no_trend_ok(example_copy: Path) -> None:
    add_history(example_copy, "[]")
    html = built(example_copy)["index.html"].decode()
    assert "trend-cpu-per-packet-500" not in html


def test_a_measurement_trend_needs_three_points(example_copy: Path) -> None:
    content = example_copy / "content" / "en" / "index.md"
    data = example_copy / "data" / "measurements.yaml"
    figure = ("{value: %s, unit: ms, machine: test-pc, date: 2026-11-08, "
              "commit: c38a01e}")
    data.write_text(
        "measurements:\n"
        f"  - id: two\n    title: {{en: Two, fr: Deux}}\n    figure: {figure % 3}\n"
        "    history: [{value: 4, date: 2026-10-01}]\n"
        f"  - id: three\n    title: {{en: Three, fr: Trois}}\n    figure: {figure % 3}\n"
        "    history: [{value: 5, date: 2026-09-01}, {value: 4, date: 2026-10-01}]\n",
        "utf-8")
    content.write_text(content.read_text("utf-8") + "\n{{< trend measurements two >}}\n\n"
                       "{{< trend measurements three >}}\n", "utf-8")
    html = built(example_copy)["index.html"].decode()
    assert "trend-two" not in html
    trend = figures(html)["trend-three-figure"]
    header = re.search(r'<th scope="col">([^<]*)</th>', trend)
    assert header is not None and header.group(1) == "Date"
    assert len(re.findall(r'<tr><th scope="row">', trend)) == 3


# In Chromium, with the fonts the page asks for: each text's box, in the SVG's own units.
BOXES = """() => [...document.querySelectorAll('svg.chart')].map(svg => {
  const box = svg.viewBox.baseVal, toSvg = svg.getScreenCTM().inverse();
  return [box.width, box.height, [...svg.querySelectorAll('text')].map(t => {
    const b = t.getBBox(), m = toSvg.multiply(t.getScreenCTM());
    const xs = [], ys = [];
    for (const [x, y] of [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height],
                          [b.x + b.width, b.y + b.height]]) {
      xs.push(m.a * x + m.c * y + m.e); ys.push(m.b * x + m.d * y + m.f);
    }
    return [t.textContent, Math.min(...xs), Math.max(...xs), Math.min(...ys),
            Math.max(...ys)];
  })];
})"""


@pytest.fixture(scope="module")
def example_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example site on disk."""
    from .conftest import REPO

    out = tmp_path_factory.mktemp("fit") / "site"
    files = make_site(BuildConfig(source=REPO, out=out, today=TODAY, strict=True,
                                  compiled=TEMPLATES)).files
    for path, data in files.items():
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        (out / path).write_bytes(data)
    return out


@pytest.mark.slow  # a real browser or tool run after run: CI runs it
def test_in_chromium_every_word_of_a_chart_lies_inside_its_svg(example_site: Path) -> None:
    problems: list[Any] = []
    with browser.chromium() as chromium, browser.serve(example_site) as base:
        page = chromium.new_page(viewport=browser.DESKTOP)
        for path in PAGES:
            page.goto(f"{base}{path}")
            for width, height, boxes in page.evaluate(BOXES):
                problems += [(path, text, round(x1), round(x2), width)
                             for text, x1, x2, y1, y2 in boxes
                             if x1 < -0.5 or x2 > width + 0.5 or y1 < -0.5
                             or y2 > height + 0.5]
        page.close()
    assert problems == []


# In Chromium: every word of every chart shown, with the size it is drawn at on the screen
# (its font size times the scale the SVG is shown at); and how many drawings each chart's
# figure shows.
SHOWN_WORDS = """() => [...document.querySelectorAll('svg.chart text')]
  .filter(t => t.getClientRects().length > 0).map(t => {
    const m = t.getScreenCTM();
    return [t.closest('figure').id, t.textContent,
            parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b)];
  })"""
SHOWN_DRAWINGS = """() => [...document.querySelectorAll('figure.chart-figure')].map(f =>
  [f.id, [...f.querySelectorAll('svg.chart')].filter(s => s.getClientRects().length).length])"""
PHONE_NARROW = {"width": 375, "height": 812}


def trend_site(source: Path) -> Path:
    """The example with a comparison's trend and a trend over two tools' versions on its
    home pages, built on disk beside its source."""
    from .test_contenders import with_tools

    add_history(source, "[{value: 24.5, commit: 57930e6, label: {en: May, fr: Mai}}]")
    with_tools(source)
    out = source.parent / "site"
    for path, data in built(source).items():
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        (out / path).write_bytes(data)
    return out


@pytest.mark.slow  # a real browser: CI runs it
def test_every_chart_word_reads_at_10px_or_more_on_a_phone_and_a_desktop(
        example_site: Path, example_copy: Path) -> None:
    sites = {example_site: PAGES[1::2], trend_site(example_copy): PAGES[0::2]}
    small, shown = [], []
    with browser.chromium() as chromium:
        for site, paths in sites.items():
            with browser.serve(site) as base:
                for viewport in (PHONE_NARROW, browser.PHONE, browser.DESKTOP):
                    for scheme in ("light", "dark"):
                        page = chromium.new_page(viewport=viewport, color_scheme=scheme)
                        for path in paths:
                            page.goto(f"{base}{path}")
                            where = (path, viewport["width"], scheme)
                            small += [(*where, figure, text, round(px, 1)) for figure,
                                      text, px in page.evaluate(SHOWN_WORDS) if px < 9.95]
                            shown += [(*where, figure, count) for figure, count
                                      in page.evaluate(SHOWN_DRAWINGS)]
                        page.close()
    assert small == []
    # Each chart shows one drawing at every width: the trends on the home pages (two),
    # the four-way page's three charts.
    assert {count for *_, count in shown} == {1}
    assert len(shown) == 2 * 3 * (3 * 2 + 2 * 2)


def test_a_measurement_trend_draws_its_history_file(example_copy: Path) -> None:
    # A series recorded with `record --history` or `import` keeps its points in
    # data/history/: its trend draws them, as it drew `history:` before the move.
    history = example_copy / "data" / "history"
    history.mkdir(exist_ok=True)
    (history / "measurements.startup.jsonl").write_text("".join(
        f'{{"commit": "{c}", "date": "2026-11-0{d}", "machine": "test-pc", '
        f'"value": {v}, "unit": "ms"}}\n'
        for c, d, v in (("aaaaaa1", 1, 12.5), ("aaaaaa2", 2, 11.25), ("aaaaaa3", 3, 10))),
        "utf-8")
    content = example_copy / "content" / "en" / "index.md"
    content.write_text(content.read_text("utf-8") + "\n{{< trend measurements startup >}}\n",
                       "utf-8")
    trend = figures(built(example_copy)["index.html"].decode())["trend-startup-figure"]
    header = re.search(r'<th scope="col">([^<]*)</th>', trend)
    assert header is not None and header.group(1) == "Commit"
    rows = re.findall(r'<tr><th scope="row">([^<]*)</th><td[^>]*>([^<]*)</td>', trend)
    assert rows == [("aaaaaa1", "12.5\u00a0ms"), ("aaaaaa2", "11.25\u00a0ms"),
                    ("aaaaaa3", "10\u00a0ms")]
