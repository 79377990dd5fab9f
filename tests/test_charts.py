"""Charts: real renders through Altair and vl-convert, the cache, and the SVG clean-up."""

from __future__ import annotations

import dataclasses
import math
import pickle
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from babel.numbers import (
    format_decimal,
    format_percent,
    get_decimal_symbol,
    get_group_symbol,
    get_minus_sign_symbol,
)

from progress_site import cache as disk
from progress_site.charts.cache import ChartCache, cache_key
from progress_site.charts.spec import ChartSpec, Series
from progress_site.charts.style import FORMAT_LOCALES, SVG_NS
from progress_site.charts.svg import finish_svg

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


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_axis_number_symbols_are_babels(lang: str) -> None:
    symbols = FORMAT_LOCALES[lang]
    assert symbols["decimal"] == get_decimal_symbol(lang)
    assert symbols["thousands"] == get_group_symbol(lang)
    assert symbols["minus"] == get_minus_sign_symbol(lang)
    assert format_percent(0.5, locale=lang) == "50" + symbols["percent"]


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


def test_text_uses_a_generic_font(svgs: dict[str, str]) -> None:
    for svg in svgs.values():
        fonts = {element.get("font-family") for element in ET.fromstring(svg).iter()}
        assert fonts - {None} == {"system-ui, sans-serif"}


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


def test_svg_is_sized_as_asked(svgs: dict[str, str]) -> None:
    root = ET.fromstring(svgs[BAR.id])
    assert (root.get("width"), root.get("height")) == ("560", "260")
    assert root.get("viewBox") == "0 0 560 260"


# --- the cache -------------------------------------------------------------------------


def test_first_cache_drew_each_chart_once_then_remembers(first_cache: ChartCache) -> None:
    hits = first_cache.hits
    first_cache.svg(LINE)
    assert (first_cache.hits, first_cache.misses) == (hits + 1, len(SPECS))


def test_second_cache_reads_the_same_bytes_from_disk(cache_dir: Path, svgs: dict[str, str]) -> None:
    cache = ChartCache(cache_dir)
    assert cache.svg(BAR) == svgs[BAR.id]
    assert (cache.hits, cache.misses) == (1, 0)


def test_cache_holds_one_whole_file_per_chart(cache_dir: Path, svgs: dict[str, str]) -> None:
    names = sorted(path.name for path in cache_dir.iterdir())
    assert len(names) == len(SPECS)  # no temporary file left behind
    assert all(re.fullmatch(r"[0-9a-f]{64}\.svg", name) for name in names)
    stored = {(disk.read(cache_dir / name) or b"").decode("utf-8") for name in names}
    assert stored == set(svgs.values())


def test_memory_only_cache(svgs: dict[str, str]) -> None:
    cache = ChartCache(None)
    assert cache.svg(BAR) == cache.svg(BAR) == svgs[BAR.id]
    assert (cache.hits, cache.misses) == (1, 1)


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
cache = ChartCache(Path(sys.argv[1]))
cache.svg(pickle.load(sys.stdin.buffer))
assert (cache.hits, cache.misses) == (1, 0), (cache.hits, cache.misses)
assert "altair" not in sys.modules, "altair was imported"
assert "vl_convert" not in sys.modules, "vl_convert was imported"
assert "progress_site.charts.svg" not in sys.modules, "the drawing code was imported"
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


def test_finish_svg() -> None:
    assert finish_svg(RAW, prefix="chart-x", title="A & B", font="serif") == (
        '<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="10" height="10"'
        ' viewBox="0 0 10 10" role="img" aria-labelledby="chart-x-title">'
        '<title id="chart-x-title">A &amp; B</title>'
        '<defs><clipPath id="chart-x-1"><rect width="10" height="10" /></clipPath></defs>'
        '<g clip-path="url(#chart-x-1)">'
        '<path d="M0.12,30L0,0" stroke="currentColor" />'
        '<use href="#chart-x-1" /><g clip-path="url(#clip12)" />'
        '<text font-family="serif" transform="translate(1,2)">1,5 &amp; 2</text>'
        "</g></svg>"
    )


def test_a_chart_of_known_shape_skips_altair_and_draws_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Re-measured points redraw a chart whose Vega-Lite spec is Altair's for its shape."""
    from progress_site.charts import svg as chart_svg

    def line(ys: tuple[float, ...]) -> ChartSpec:
        return ChartSpec(id="shape", kind="line", title="T", x_title="x", y_title="y",
                         series=(Series("s", tuple(zip((1, 2, 3), ys, strict=True))),),
                         rule=2.5)

    chart_svg._SHAPES.clear()
    chart_svg._vega_lite(line((2.0, 3.5, 1.0)))
    memo = chart_svg.render_svg(line((2.5, 3.0, 1.5)))
    chart_svg._SHAPES.clear()
    assert memo == chart_svg.render_svg(line((2.5, 3.0, 1.5)))  # Altair again: the same

    def no_altair(spec: ChartSpec) -> dict[str, object]:
        raise AssertionError("Altair was called for a known shape")

    monkeypatch.setattr(chart_svg, "_altair_spec", no_altair)
    assert "3.5" not in str(chart_svg._vega_lite(line((9.0, 8.0, 7.0))))
    with pytest.raises(AssertionError):  # a new x is a new shape
        chart_svg._vega_lite(ChartSpec(id="shape", kind="line", title="T", x_title="x",
                                       y_title="y", series=(Series("s", ((4, 1.0),)),),
                                       rule=2.5))
