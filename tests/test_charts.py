"""Charts: real renders through Altair and vl-convert, the cache, and the SVG clean-up."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import pickle
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from babel.numbers import (
    format_decimal,
    get_decimal_symbol,
    get_group_symbol,
    get_minus_sign_symbol,
)

from progress_site import cache as disk
from progress_site.charts import sizes, vega
from progress_site.charts import svg as chart_svg
from progress_site.charts.allowed import LIMIT
from progress_site.charts.cache import ChartCache, cache_key
from progress_site.charts.measure import MEASURE_FONT, text_widths
from progress_site.charts.spec import ChartSpec, Series
from progress_site.charts.style import FORMAT_LOCALES, MARKERS, SVG_NS
from progress_site.charts.svg import FONT, cleaned
from progress_site.model.limits import MAX_CATEGORIES, MAX_POINTS, MAX_SERIES, MAX_WORDS

from .sites import source_copy
from .test_cases import run_build

ROOT = Path(__file__).resolve().parents[1]
NS = {"svg": SVG_NS}

# x between 0.5 and 2.5 forces decimals on the x axis, y in the thousands forces grouping.
LINE = ChartSpec(
    id="latency",
    kind="line",
    title="Latency by load",
    x_title="Load factor",
    y_title="Round trip (us)",
    series=(
        Series("Before", ((0.5, 1210.0), (1.5, 1890.5), (2.5, 2410.0))),
        Series("After", ((0.5, 1020.0), (1.5, 1330.25), (2.5, 1705.0))),
    ),
    rule=2000.0,
)
LINE_FR = dataclasses.replace(
    LINE,
    id="latency-fr",
    title="Latence selon la charge",
    x_title="Facteur de charge",
    y_title="Aller-retour (us)",
    series=(
        Series("Avant", LINE.series[0].points),
        Series("Après", LINE.series[1].points),
    ),
    locale="fr",
)
BAR = ChartSpec(
    id="memory",
    kind="bar",
    title="Memory per player",
    x_title="Players",
    y_title="Memory (KB)",
    series=(
        Series("Before", (("500 players", 514.0), ("1,000 players", 524.0))),
        Series("After", (("500 players", 499.0), ("1,000 players", 532.0))),
    ),
)
SPECS = (LINE, LINE_FR, BAR)


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A chart cache shared by the module, so vl-convert starts once."""
    return tmp_path_factory.mktemp("charts")


@pytest.fixture(scope="module")
def first_cache(cache_dir: Path) -> ChartCache:
    """The cache that drew every chart of the module (into `cache_dir`)."""
    cache = ChartCache(cache_dir)
    for spec in SPECS:
        cache.svg(spec)
    return cache


@pytest.fixture(scope="module")
def svgs(first_cache: ChartCache) -> dict[str, str]:
    """The markup of each chart, by chart id."""
    return {spec.id: first_cache.svg(spec) for spec in SPECS}


def texts(svg: str) -> list[str]:
    """The visible words and numbers of a chart, in document order."""
    return [text.text or "" for text in ET.fromstring(svg).iter(f"{{{SVG_NS}}}text")]


def run_python(script: str, *args: str, stdin: bytes) -> bytes:
    """Run a script in a fresh interpreter (warnings as errors) and return its stdout."""
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", script, *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


# --- what the charts show --------------------------------------------------------------


@pytest.mark.parametrize("spec", [LINE, BAR], ids=["line", "bar"])
def test_chart_shows_title_series_and_axis_titles(svgs: dict[str, str], spec: ChartSpec) -> None:
    words = texts(svgs[spec.id])
    for expected in (spec.title, spec.x_title, spec.y_title, "Before", "After"):
        assert expected in words


def test_english_axes_use_a_decimal_point_and_comma_grouping(svgs: dict[str, str]) -> None:
    labels = texts(svgs[LINE.id])
    assert any(re.fullmatch(r"\d\.\d", label) for label in labels), labels
    assert any(re.fullmatch(r"\d,\d{3}", label) for label in labels), labels


def test_french_axes_use_a_decimal_comma_and_narrow_space_grouping(svgs: dict[str, str]) -> None:
    labels = texts(svgs[LINE_FR.id])
    assert any(re.fullmatch(r"\d,\d", label) for label in labels), labels
    assert any(re.fullmatch("\\d\u202f\\d{3}", label) for label in labels), labels
    assert not any(re.fullmatch(r"\d\.\d", label) for label in labels), labels
    assert format_decimal(2000, locale="fr") in labels  # the same text as the page's numbers


@pytest.mark.parametrize("lang", sorted(FORMAT_LOCALES))
def test_axis_number_symbols_are_babels(lang: str) -> None:
    # Below zero, with decimals and thousands: every sign an axis number may hold.
    spec = dataclasses.replace(LINE, id=f"signs-{lang}", locale=lang, rule=None, series=(
        Series("Before", ((-1.5, -2500.0), (0.5, 0.0), (2.5, 2500.0))),))
    labels = texts(chart_svg.render_svg(spec))
    signs = get_minus_sign_symbol(lang), get_decimal_symbol(lang), get_group_symbol(lang)
    assert f"{signs[0]}2{signs[2]}000" in labels, labels
    assert f"{signs[0]}1{signs[1]}5" in labels, labels


def test_each_series_a_chart_may_have_has_its_colour_dash_and_marker() -> None:
    assert len(vega._PALETTE) == len(vega._DASHES) == len(MARKERS) == MAX_SERIES
    assert len(set(vega._PALETTE)) == len(set(vega._DASHES)) == len(set(MARKERS)) == MAX_SERIES


def test_series_differ_by_dash_and_marker_not_only_colour(svgs: dict[str, str]) -> None:
    root = ET.fromstring(svgs[LINE.id])
    lines = root.findall(".//svg:g[@class='mark-line role-mark layer_0_marks']/svg:path", NS)
    markers = root.findall(".//svg:g[@class='mark-symbol role-mark layer_1_marks']/svg:path", NS)
    assert len({line.get("stroke-dasharray") for line in lines}) == 2
    assert len({marker.get("d") for marker in markers}) == 2
    assert len(markers) == 6


def test_colours_follow_the_page(svgs: dict[str, str]) -> None:
    for svg in svgs.values():
        assert re.search(r'(fill|stroke)="#', svg) is None  # every colour can be themed
        assert 'fill="var(--chart-1, #' in svg
        assert 'stroke="var(--chart-2, #' in svg
        root = ET.fromstring(svg)
        assert {text.get("fill") for text in root.iter(f"{{{SVG_NS}}}text")} == {"currentColor"}
        assert root.find("svg:rect", NS) is None  # no background: the page's shows through


def test_text_is_shown_in_fonts_of_the_metrics_it_was_measured_with(
        svgs: dict[str, str]) -> None:
    for svg in svgs.values():
        fonts = {element.get("font-family") for element in ET.fromstring(svg).iter()}
        assert fonts - {None} == {FONT}
    assert MEASURE_FONT in FONT


def test_no_external_reference(svgs: dict[str, str]) -> None:
    for svg in svgs.values():
        assert re.findall(r"https?:[^\"'\s<>)]*", svg) == [SVG_NS]
        assert re.findall(r"url\((?!#)", svg) == []
        for tag in ("script", "image", "foreignObject", "style"):
            assert f"<{tag}" not in svg


def test_root_is_one_image_named_by_its_title(svgs: dict[str, str]) -> None:
    for spec in SPECS:
        root = ET.fromstring(svgs[spec.id])
        assert root.get("role") == "img"
        assert root.get("aria-labelledby") == f"chart-{spec.id}-title"
        title = root.find("svg:title", NS)
        assert title is not None
        assert (title.get("id"), title.text) == (f"chart-{spec.id}-title", spec.title)
        inner = [name for element in root.iter() if element is not root for name in element.attrib]
        assert [name for name in inner if name == "role" or name.startswith("aria-")] == []


def test_ids_are_prefixed_by_chart(svgs: dict[str, str]) -> None:
    ids = {
        spec.id: [element.get("id") for element in ET.fromstring(svgs[spec.id]).iter()]
        for spec in SPECS
    }
    for spec in SPECS:
        present = [value for value in ids[spec.id] if value is not None]
        assert present
        assert all(value.startswith(f"chart-{spec.id}-") for value in present)
    assert (set(ids[LINE.id]) - {None}).isdisjoint(ids[BAR.id])


def test_svg_is_about_the_size_asked_with_its_title_above(svgs: dict[str, str]) -> None:
    root = ET.fromstring(svgs[BAR.id])
    width, height = float(root.get("width", "0")), float(root.get("height", "0"))
    assert root.get("viewBox") == f"0 0 {width:g} {height:g}"
    assert abs(width - BAR.width) <= 20 and abs(height - BAR.height - 23) <= 30
    heading = root.find("svg:g[@class='chart-title']", NS)
    assert heading is not None and [t.text for t in heading] == [BAR.title]
    drawing = root.find("svg:g[@transform='translate(0,23)']", NS)
    assert drawing is not None  # the drawing, under the title's one line


# --- the cache -------------------------------------------------------------------------


def no_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """vl-convert refusing to draw: what a cache serves now it serves without drawing."""
    import vl_convert

    def refused(*args: object, **kwargs: object) -> str:
        raise AssertionError("drawn again")

    monkeypatch.setattr(vl_convert, "vega_to_svg", refused)


def test_first_cache_remembers_what_it_drew(first_cache: ChartCache, svgs: dict[str, str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    no_drawing(monkeypatch)
    assert first_cache.svg(LINE) == svgs[LINE.id]


def test_second_cache_reads_the_same_bytes_from_disk(cache_dir: Path, svgs: dict[str, str]) -> None:
    cache = ChartCache(cache_dir, drawing=False)  # a chart not on disk would be listed
    assert cache.svg(BAR) == svgs[BAR.id]
    assert cache.missing == []


def test_cache_holds_only_whole_entries(cache_dir: Path, svgs: dict[str, str]) -> None:
    """Every file the cache wrote is a whole entry (no temporary file left behind): each
    chart once, and beside them whole JSON objects (however the folder is laid out)."""
    entries = [(disk.read(path, LIMIT) or b"").decode("utf-8")
               for path in sorted(cache_dir.rglob("*")) if path.is_file()]
    drawn = [text for text in entries if text.startswith("<svg")]
    assert sorted(drawn) == sorted(svgs.values())
    others = [text for text in entries if not text.startswith("<svg")]
    assert others and all(isinstance(json.loads(text), dict) for text in others)


def test_memory_only_cache(svgs: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    cache = ChartCache(None)
    assert cache.svg(BAR) == svgs[BAR.id]
    no_drawing(monkeypatch)
    assert cache.svg(BAR) == svgs[BAR.id]


def test_cache_key_is_the_spec_and_the_renderer() -> None:
    renderer = {"altair": "6.3.0", "vl-convert-python": "1.9.0", "code": "abc"}
    key = cache_key(LINE, renderer)
    assert re.fullmatch(r"[0-9a-f]{64}", key)
    assert cache_key(dataclasses.replace(LINE), dict(reversed(renderer.items()))) == key
    assert cache_key(dataclasses.replace(LINE, title="Other"), renderer) != key
    assert cache_key(LINE, {**renderer, "altair": "6.4.0"}) != key


# Another value for each field of a spec (valid with the others of LINE), and of a series.
OTHER_VALUES: dict[str, dict[str, Any]] = {
    "id": {"id": "latency-2"}, "title": {"title": "Latency"}, "x_title": {"x_title": "Load"},
    "y_title": {"y_title": "Round trip (ms)"}, "x_kind": {"x_kind": "ordinal"},
    "y_zero": {"y_zero": False}, "width": {"width": 561}, "height": {"height": 261},
    "rule": {"rule": 2000.5}, "locale": {"locale": "fr"},
    "series": {"series": (Series("Before", ((0.5, 1210.0), (1.5, 1890.5))),)},
    "kind": {"kind": "bar", "x_kind": "ordinal"},
}
OTHER_SERIES: dict[str, Any] = {"name": "Earlier", "points": ((0.5, 1210.0), (1.5, 1890.25))}


def test_every_field_of_a_spec_changes_its_key() -> None:
    assert set(OTHER_VALUES) == {f.name for f in dataclasses.fields(ChartSpec)}
    assert set(OTHER_SERIES) == {f.name for f in dataclasses.fields(Series)}
    renderer = {"code": "abc"}
    key = cache_key(LINE, renderer)
    keys = {name: cache_key(dataclasses.replace(LINE, **changes), renderer)
            for name, changes in OTHER_VALUES.items()}
    for name, value in OTHER_SERIES.items():
        changed = dataclasses.replace(LINE.series[0], **{name: value})
        keys[f"series.{name}"] = cache_key(
            dataclasses.replace(LINE, series=(changed, *LINE.series[1:])), renderer)
    assert len(set(keys.values()) | {key}) == len(keys) + 1, keys


CACHED_RENDER = """
import pickle, sys
from pathlib import Path
from progress_site.charts.cache import ChartCache
cache = ChartCache(Path(sys.argv[1]), drawing=False)
cache.svg(pickle.load(sys.stdin.buffer))
assert cache.missing == [], cache.missing
assert "altair" not in sys.modules, "altair was imported"
assert "vl_convert" not in sys.modules, "vl_convert was imported"
print("served without altair or vl_convert")
"""


def test_cached_chart_needs_neither_altair_nor_vl_convert(
    cache_dir: Path, svgs: dict[str, str]
) -> None:
    out = run_python(CACHED_RENDER, str(cache_dir), stdin=pickle.dumps(LINE))
    assert out.decode().strip() == "served without altair or vl_convert"


FRESH_RENDER = """
import pickle, sys
from progress_site.charts.cache import ChartCache
cache = ChartCache(None)
svgs = [cache.svg(spec) for spec in pickle.load(sys.stdin.buffer)]
sys.stdout.buffer.write(svgs[-1].encode("utf-8"))
"""


@pytest.mark.slow  # new processes drawing again: CI's; the quick run keeps the in-process checks
def test_same_spec_same_bytes_in_any_process(svgs: dict[str, str]) -> None:
    # One process draws another chart first: nothing it leaves behind may show in the next.
    after_bar = run_python(FRESH_RENDER, stdin=pickle.dumps([BAR, LINE]))
    alone = run_python(FRESH_RENDER, stdin=pickle.dumps([LINE]))
    assert after_bar == alone == svgs[LINE.id].encode("utf-8")


# --- what a spec may say ---------------------------------------------------------------


def series(*points: tuple[Any, Any], name: str = "A") -> tuple[Series, ...]:
    """One series of the given points."""
    return (Series(name, tuple(points)),)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"id": "2 fast"},
            "chart '2 fast': id: expected a letter, then letters, digits, '-' or '_'",
        ),
        ({"kind": "pie"}, "chart 'latency': kind: expected 'line' or 'bar', got 'pie'"),
        (
            {"x_kind": "time"},
            "chart 'latency': x_kind: expected 'quantitative' or 'ordinal', got 'time'",
        ),
        ({"locale": "de"}, "chart 'latency': locale: expected one of ['en', 'fr'], got 'de'"),
        ({"series": ()}, "chart 'latency': series: expected 1 to 6, got 0"),
        (
            {"series": series((1, 2)) + series((1, 3))},
            "chart 'latency': series: two series share a name in ['A', 'A']",
        ),
        (
            {"kind": "bar", "series": series(("v1", 2.0)) + series((1, 2), name="B")},
            "chart 'latency': x: mixes numbers and labels; write every x the same way",
        ),
        (
            {"kind": "bar", "y_zero": False},
            "chart 'latency': y_zero: bars start at zero, or their lengths would mislead",
        ),
        ({"width": 0}, "chart 'latency': size: expected 50 to 4000 pixels a side, got 0x260"),
        ({"width": 10**8, "height": 10**8},
         "chart 'latency': size: expected 50 to 4000 pixels a side, got 100000000x100000000"),
        ({"rule": math.inf}, "chart 'latency': rule: expected a finite number, got inf"),
        (
            {"series": series(("v1.2", 3.0))},
            "chart 'latency': series 'A', point 0: x 'v1.2' is a label,"
            " which needs x_kind='ordinal'",
        ),
        (
            {"series": series((1, math.nan))},
            "chart 'latency': series 'A', point 0: y: expected a finite number, got nan",
        ),
        (
            {"series": series(*((i, 1.0) for i in range(MAX_POINTS + 1)))},
            f"chart 'latency': points: expected at most {MAX_POINTS}, got {MAX_POINTS + 1}",
        ),
        (
            {"x_kind": "ordinal", "series": series(*((i, 1.0) for i in range(MAX_CATEGORIES + 1)))},
            f"chart 'latency': x: expected at most {MAX_CATEGORIES} categories, got "
            f"{MAX_CATEGORIES + 1}",
        ),
        (
            {"title": "t" * (MAX_WORDS + 1), "series": series((1, 2), name="s" * (MAX_WORDS + 1))},
            f"chart 'latency': title: expected at most {MAX_WORDS} characters, got "
            f"{MAX_WORDS + 1}\nchart 'latency': series 0: expected at most {MAX_WORDS} "
            f"characters, got {MAX_WORDS + 1}",
        ),
        (
            {"x_kind": "ordinal", "series": series(("x" * (MAX_WORDS + 1), 2.0))},
            f"chart 'latency': x label: expected at most {MAX_WORDS} characters, got "
            f"{MAX_WORDS + 1}",
        ),
        (
            {"series": series((1, 2), (None, True))},
            "chart 'latency': series 'A', point 1: x: expected a finite number or a label,"
            " got None\n"
            "chart 'latency': series 'A', point 1: y: expected a finite number, got True",
        ),
    ],
)
def test_spec_refused(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as refused:
        dataclasses.replace(LINE, **changes)
    assert str(refused.value) == message


@pytest.mark.parametrize(
    "changes",
    [
        {"id": "a_B-9"},
        {"kind": "bar"},
        {"x_kind": "ordinal", "series": series(("v1.2", 3.0), ("v2", 5))},
        {"x_kind": "ordinal", "series": series((2026, 3.0), (2027.5, 5))},
        {"kind": "bar", "series": series(("v1.2", 3.0))},
        {"series": series()},
        {"rule": -1},
        {"series": series(*((i, 1.0) for i in range(MAX_POINTS)))},
        {"x_kind": "ordinal", "series": series(*((i, 1.0) for i in range(MAX_CATEGORIES)))},
        {"title": "t" * MAX_WORDS, "series": series(("x" * MAX_WORDS, 2.0), name="s" * MAX_WORDS),
         "x_kind": "ordinal"},
    ],
)
def test_spec_refused_ok(changes: dict[str, Any]) -> None:
    dataclasses.replace(LINE, **changes)


# --- the SVG clean-up, on its own ------------------------------------------------------

RAW = (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
    ' version="1.1" class="marks" width="10" height="10" viewBox="0 0 10 10">'
    '<defs><clipPath id="clip7"><rect width="10" height="10"/></clipPath></defs>'
    '<g clip-path="url(#clip7)" role="graphics-object" aria-roledescription="group">'
    '<path class="background" aria-hidden="true" d="M0,0h0v0h0Z" pointer-events="none"/>'
    '<path d="M0.123456,30.00000000000003L-0.0001,2e-3" stroke="currentColor" opacity="1"/>'
    '<use xlink:href="#clip7"/><g clip-path="url(#clip12)"/>'
    '<text font-family="Liberation Sans" transform="translate(1.005,2)">1,5 &amp; 2</text>'
    '<path class="foreground" aria-hidden="true" d="" display="none"/>'
    "</g></svg>"
)


def test_a_drawing_cleaned_for_a_page() -> None:
    """vl-convert's SVG without what a page does not need: ids under the chart's prefix,
    invisible marks and unused attributes dropped, geometry rounded, the page's font."""
    drawn = cleaned(RAW, prefix="chart-x", font="serif")
    assert (drawn.width, drawn.height) == (10, 10)
    assert "".join(ET.tostring(child, encoding="unicode") for child in drawn.root) == (
        '<defs><clipPath id="chart-x-1"><rect width="10" height="10" /></clipPath></defs>'
        '<g clip-path="url(#chart-x-1)">'
        '<path d="M0.12,30L0,0" stroke="currentColor" />'
        '<use href="#chart-x-1" /><g clip-path="url(#clip12)" />'
        '<text font-family="serif" transform="translate(1,2)">1,5 &amp; 2</text>'
        "</g>"
    )


def line_of(labels: tuple[str, ...], ys: tuple[float, ...], **changes: Any) -> ChartSpec:
    """A one-series line over labels."""
    spec = ChartSpec(id="shape", kind="line", title="T", x_title="x", y_title="y",
                     series=(Series("s", tuple(zip(labels, ys, strict=True))),),
                     x_kind="ordinal", rule=2.5)
    return dataclasses.replace(spec, **changes)


def calls_to(monkeypatch: pytest.MonkeyPatch, name: str) -> list[object]:
    """The calls to one of vl-convert's functions from now on (the library's boundary)."""
    import vl_convert

    calls: list[object] = []
    real = getattr(vl_convert, name)
    monkeypatch.setattr(vl_convert, name, lambda *a, **k: calls.append(a) or real(*a, **k))
    return calls


def test_charts_of_one_shape_are_compiled_once_and_drawn_as_if_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = calls_to(monkeypatch, "vegalite_to_vega")
    charts = ChartCache(None)  # a build's, keeping nothing on disk
    charts.svg(line_of(("a", "b", "c"), (2.0, 3.5, 1.0)))
    other = line_of(("d", "e\u00e9", "f"), (9.0, 8.0, 7.0), rule=8.5)
    memo = charts.svg(other)
    assert len(compiled) == 1  # the shape was known: its words and points were filled in
    assert texts(memo).count("e\u00e9") == 1 and "3.5" not in texts(memo)
    assert ChartCache(None).svg(other) == memo and len(compiled) == 2


# Four series whose legend takes one column a row at 320 px, three at 560.
LEGEND = dataclasses.replace(LINE, series=tuple(
    Series(f"Server {i}, {'long name ' * 3}", ((1, 1.0 + i), (2, 2.0))) for i in range(4)))


@pytest.mark.parametrize("width", [320, 559, 880, 4000])
@pytest.mark.parametrize("spec", [LINE, BAR, LEGEND], ids=["line", "bar", "legend"])
def test_a_chart_of_any_width_is_drawn_as_altair_alone_would_draw_it(
        spec: ChartSpec, width: int) -> None:
    """Charts of one shape share its compiled spec whatever their width (a chart and its
    phone's drawing): each is drawn as its own spec, compiled, would be."""
    import vl_convert

    drawn = chart_svg.Drawn()
    chart_svg.drawing(chart_svg.neutral(spec), None, False, drawn)  # its shape compiled
    resized = chart_svg.neutral(dataclasses.replace(spec, width=width))
    columns = sizes.legend_columns([s.name for s in resized.series], width)
    # Altair's Vega-Lite of the chart at that width, as vega.py writes it for a shape.
    alone = vl_convert.vegalite_to_vega(vega._altair_spec(resized, columns))
    assert chart_svg.drawing(resized, None, False, drawn)[0] == vl_convert.vega_to_svg(alone)

def test_a_charts_languages_share_one_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = calls_to(monkeypatch, "vega_to_svg")
    english = line_of(("v1", "v2", "v3"), (1200.5, 800.0, 1500.0), title="Round trip")
    french = dataclasses.replace(english, title="Aller-retour", x_title="Versions",
                                 y_title="Durée", locale="fr")
    charts = ChartCache(None)
    svgs = [charts.svg(english), charts.svg(french)]
    assert len(drawn) == 1
    assert "Round trip" in texts(svgs[0]) and "Aller-retour" in texts(svgs[1])
    assert "1,000" in texts(svgs[0]) and "1\u202f000" in texts(svgs[1])
    assert {"Versions", "Durée"} <= set(texts(svgs[1])) and "x" in texts(svgs[0])
    assert [t for t in texts(svgs[1]) if t.startswith("v")] == ["v1", "v2", "v3"]


def test_a_long_title_is_wrapped_to_the_width() -> None:
    title = "Processor per packet, 500 typical players, measured on the slowest machine"
    root = ET.fromstring(chart_svg.render_svg(line_of(("a", "b", "c"), (1.0, 2.0, 3.0),
                                                      title=title, width=320)))
    heading = root.find("svg:g[@class='chart-title']", NS)
    assert heading is not None
    lines = [t.text or "" for t in heading]
    assert len(lines) == 2 and " ".join(lines) == title
    width = float(root.get("width", "0"))
    assert all(w <= width - 10 for w in text_widths(lines, 14, bold=True))



# --- words from the data are drawn as themselves -----------------------------------------

# Labels that once read as the drawing's own stand-ins, or as markup, or broke its JSON.
HOSTILE = ("@1@", "vanilla", "@x-title@", "@rows@", "a\u2028b", '"</text><script>')


def by_class(root: ET.Element, name: str) -> list[ET.Element]:
    """The groups vega drew with one class (`role-legend-label`, `layer_0_marks`...)."""
    return [g for g in root.iter(f"{{{SVG_NS}}}g") if name in g.get("class", "").split()]


def legend(root: ET.Element) -> dict[str, str]:
    """Each legend entry's label, with the colour of its symbol."""
    entries = {}
    for parent in root.iter():
        symbols = [g for g in parent if "role-legend-symbol" in g.get("class", "")]
        labels = [g for g in parent if "role-legend-label" in g.get("class", "")]
        if symbols and labels:
            text = labels[0].find("svg:text", NS)
            path = symbols[0].find("svg:path", NS)
            assert text is not None and path is not None
            entries[text.text or ""] = path.get("stroke", "")
    return entries


def line_heights(root: ET.Element) -> dict[str, float]:
    """Each line's colour, with the height on the page of its first point."""
    heights = {}
    for group in by_class(root, "layer_0_marks"):
        for path in group.iter(f"{{{SVG_NS}}}path"):
            first = re.match(r"M(-?[\d.]+),(-?[\d.]+)", path.get("d", ""))
            assert first is not None
            heights[path.get("stroke", "")] = float(first.group(2))
    return heights


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_series_labels_are_drawn_as_themselves_under_their_own_line(locale: str) -> None:
    # Series i is drawn at y = 10 (i + 1): the higher the value, the higher its line.
    spec = ChartSpec(id="hostile", kind="line", title="@0@", x_title="@y-title@",
                     y_title="@x-title@", locale=locale,
                     series=tuple(Series(name, ((1, 10.0 * (i + 1)), (2, 10.0 * (i + 1))))
                                  for i, name in enumerate(HOSTILE)))
    root = ET.fromstring(chart_svg.render_svg(spec))
    colours = legend(root)
    assert list(colours) == list(HOSTILE)
    heights = line_heights(root)
    assert [heights[colours[name]] for name in HOSTILE] == sorted(heights.values(),
                                                                  reverse=True)
    titles = [t.text for g in by_class(root, "role-axis-title")
              for t in g.iter(f"{{{SVG_NS}}}text")]
    assert titles == ["@y-title@", "@x-title@"]  # x's, then y's
    heading = root.find("svg:g[@class='chart-title']/svg:text", NS)
    assert heading is not None and heading.text == "@0@"
    assert root.find(".//svg:script", NS) is None


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_category_labels_are_drawn_as_themselves_in_their_order(locale: str) -> None:
    labels = ("@0@", "@x-title@", "1.5", "@rows@", "a\u2028b", '"</text><script>')
    spec = line_of(labels, (1.0, 2.0, 3.0, 4.0, 5.0, 1500.0), locale=locale,
                   x_title="@y-title@", y_title="@x-title@")
    root = ET.fromstring(chart_svg.render_svg(spec))
    axes = [[t.text for t in g.iter(f"{{{SVG_NS}}}text")]
            for g in by_class(root, "role-axis-label")]
    assert axes[0] == list(labels)  # words on the x axis, "1.5" left as written
    assert ("1,000" if locale == "en" else "1\u202f000") in axes[1]  # numbers on the y



def test_an_axis_label_past_vegas_limit_is_cut_and_one_within_it_drawn_whole() -> None:
    # At 11 px, 29 letters "a" are 177 px wide and 30 are 184: vega cuts past 180 px.
    whole, cut = "a" * 29, "b" * 40
    spec = line_of((whole, cut, "c"), (1.0, 2.0, 3.0), width=1200)  # room for each
    root = ET.fromstring(chart_svg.render_svg(spec))
    x_axis = by_class(root, "role-axis-label")[0]
    x_labels = [t.text or "" for t in x_axis.iter(f"{{{SVG_NS}}}text")]
    assert x_labels[0] == whole and x_labels[2] == "c"
    assert x_labels[1].startswith("bbb") and x_labels[1].endswith("\u2026")
    assert len(x_labels[1]) < len(cut)



def test_a_legend_name_past_its_limit_is_cut_and_one_within_it_drawn_whole() -> None:
    # A 320 px chart's legend cuts names at 256 px: 60 letters "n" are about 367 px.
    names = ("Before", "n" * 60)
    spec = ChartSpec(id="legend", kind="line", title="T", x_title="x", y_title="y",
                     width=320, series=tuple(Series(name, ((1, 1.0 + i), (2, 2.0)))
                                             for i, name in enumerate(names)))
    drawn = list(legend(ET.fromstring(chart_svg.render_svg(spec))))
    assert drawn[0] == "Before"
    assert drawn[1].startswith("nnn") and drawn[1].endswith("\u2026")
    assert len(drawn[1]) < len(names[1])


KEY = """
import sys
from progress_site.charts.cache import ChartCache
from progress_site.charts.spec import ChartSpec, Series
print(ChartCache(None).key(ChartSpec(id="k", kind="bar", title="T", x_title="x", y_title="y",
                                series=(Series("s", (("a", 1.0),)),))))
"""


def test_the_cache_key_is_the_same_on_another_machine(tmp_path: Path) -> None:
    """A CI run restores the cache into another checkout: other paths, other file dates."""
    moved = tmp_path / "elsewhere"
    shutil.copytree(ROOT / "progress_site", moved / "progress_site",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for path in (moved / "progress_site").rglob("*.py"):
        os.utime(path, (1_000_000_000, 1_000_000_000))
    keys = [subprocess.run([sys.executable, "-c", KEY], capture_output=True, text=True,
                           check=True, env={**os.environ, "PYTHONPATH": str(where)},
                           cwd=tmp_path).stdout for where in (ROOT, moved)]
    assert re.fullmatch(r"[0-9a-f]{64}\n", keys[0]) and keys[0] == keys[1]


# --- a chart at its limits, built as a user builds -----------------------------------------

MANY = """datasets:
  - id: many
    title: Many
    records: runs.jsonl
    key: [n, s]
    fields:
      - {name: n, label: N, type: whole}
      - {name: s, label: Series, type: word}
      - {name: v, label: Value, type: number}
"""


def many_points(tmp_path: Path, points: int, series: int) -> Path:
    """The example with a page charting `points` points in `series` series."""
    source = source_copy(tmp_path, "src")
    (source / "data" / "many").mkdir()
    (source / "data" / "many" / "many.yaml").write_text(MANY, "utf-8")
    rows = "".join(f'{{"n": {i // series}, "s": "s{i % series}", "v": {i % 7}}}\n'
                   for i in range(points))
    (source / "data" / "many" / "runs.jsonl").write_text(rows, "utf-8")
    for lang in ("en", "fr"):
        (source / "content" / lang / "many.md").write_text(
            "---\ntitle: Many\n---\n{{< chart many x=n y=v series=s >}}\n", "utf-8")
    return source


def test_a_chart_at_the_points_limit_is_drawn_with_its_table(tmp_path: Path) -> None:
    source = many_points(tmp_path, MAX_POINTS, 4)
    # A timeout that catches a hang (a lookup of every point in every point), not a time.
    result = run_build(source, tmp_path / "out", [], timeout=60)
    assert (result.status, result.stderr) == (0, "")
    page = (tmp_path / "out" / "many" / "index.html").read_text("utf-8")
    root = ET.fromstring(re.findall(r"<svg [^>]*class=\"chart[ \"].*?</svg>", page, re.S)[0])
    assert list(legend(root)) == ["s0", "s1", "s2", "s3"]
    assert page.count("<tr>") == MAX_POINTS // 4 + 1  # a row an x, under the header's


SERIES_PAST = "more than the 6 a reader can tell apart (each has its own colour, dash and marker)"


# Just past each limit, and far past it (a dataset of 60,000 records: no hang, and the
# same one error; CI runs those).
@pytest.mark.parametrize(("points", "series", "message"), [
    (MAX_POINTS + 1, 1, "chart: 2,001 points, more than the 2,000 a chart can show"),
    (MAX_SERIES + 1, MAX_SERIES + 1, f"chart: 7 series, {SERIES_PAST}"),
    pytest.param(60_000, 1, "chart: 60,000 points, more than the 2,000 a chart can show",
                 marks=pytest.mark.slow),
    pytest.param(60_000, 60_000, f"chart: 60,000 series, {SERIES_PAST}",
                 marks=pytest.mark.slow),
])
def test_a_chart_past_a_limit_is_an_error_at_its_block(tmp_path: Path, points: int,
                                                        series: int, message: str) -> None:
    source = many_points(tmp_path, points, series)
    result = run_build(source, tmp_path / "out", [], timeout=60)
    assert result.status == 1
    assert f"content/en/many.md:4:1: {message}\n" in result.stderr
    assert f"content/fr/many.md:4:1: {message}\n" in result.stderr
    assert "Aborted with 2 data errors." in result.stderr


BENCHMARKS = ("compile-small", "compile-large", "link-heavy", "startup", "template-heavy",
              "constexpr")
MANY_WORDS = ChartSpec(
    id="benchmarks", kind="bar", title="Time by benchmark", x_title="Benchmark",
    y_title="Time (ms)",
    series=tuple(Series(name, tuple((b, 10.0 + i + j) for j, b in enumerate(BENCHMARKS)))
                 for i, name in enumerate(("gcc 13.2", "clang 17", "ours 0.4"))))


@pytest.mark.parametrize("width", [560, 320])
def test_a_bar_chart_keeps_every_category_label_on_a_phone(first_cache: ChartCache,
                                                           width: int) -> None:
    """Six benchmark names do not fit side by side 320 px wide (a phone's drawing): they
    are turned, and every one is drawn, where vega left out every other one."""
    svg = first_cache.svg(dataclasses.replace(MANY_WORDS, id=f"benchmarks-{width}",
                                              width=width))
    labels = [t for t in ET.fromstring(svg).iter(f"{{{SVG_NS}}}text") if t.text in BENCHMARKS]
    assert [t.text for t in labels] == list(BENCHMARKS)
    turned = {"rotate(-45)" in (t.get("transform") or "") for t in labels}
    assert turned == {width == 320}  # as wide as asked, they fit: left as they were
