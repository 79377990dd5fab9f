"""Issue #22's "Done when", as one site (tests/done_site.py): derived figures in headlines
and budgets, a latency distribution before and after a change, two tools compared by name
and version, a count computed with. Built in both languages with --strict and no
warning; every number its pages show is the one computed here from the data's numbers."""

from __future__ import annotations

import json
import math
from decimal import Decimal
from typing import Any

import pytest
from babel.numbers import format_decimal, format_percent

from progress_site.pipeline import BuildConfig, Built, make_site

from .conftest import TEMPLATES, TODAY
from .dom import Node, parse
from .done_site import NUMBERS, done_source

N = {name: Decimal(typed) for name, typed in NUMBERS.items()}
UNITS = {"en": {"MB": "MB", "requests": "requests", "of": "of", "less": "times less"},
         "fr": {"MB": "Mo", "requests": "requêtes", "of": "sur", "less": "fois moins"}}
BADGE = {"en": {"measured": "Measured", "estimate": "Estimate"},
         "fr": {"measured": "Mesuré", "estimate": "Estimation"}}
# Between a number and its unit: a no-break space, narrow in French.
SEP = {"en": "\u00a0", "fr": "\u202f"}


def decimals(typed: str) -> int:
    """The decimals a number was typed with (69.10: 2)."""
    return len(typed.partition(".")[2])


def num(value: Decimal | float, places: int, lang: str) -> str:
    """A number as each language prints it, with `places` decimals, through Babel."""
    fixed = Decimal(str(value)).quantize(Decimal(1).scaleb(-places))
    return str(format_decimal(fixed, format="#,##0" + ("." + "0" * places if places else ""),
                              locale=lang))


def typed(name: str, lang: str) -> str:
    """A number of the data printed with the decimals it was typed with."""
    return num(N[name], decimals(NUMBERS[name]), lang)


def three_significant(value: float) -> int:
    """The decimals of a ratio printed to three significant digits (2.46, 12.5)."""
    return max(0, 2 - math.floor(math.log10(abs(value))))


def distribution(side: str, lang: str) -> str:
    """A distribution as the page prints it: each percentile, then the count."""
    parts = " · ".join(f"{p}\u00a0{typed(f'{side}_{p}', lang)}{SEP[lang]}ms"
                       for p in ("p50", "p95", "p99"))
    return f"{parts} (n\u00a0=\u00a0{typed('n', lang)})"


def expected(lang: str) -> dict[str, Any]:
    """What each page must show, computed from the data's numbers."""
    unit, sep = UNITS[lang], SEP[lang]
    rate = N["requests"] / N["seconds"]
    memory = N["per_request"] * N["connections"]
    places = int(N["decimals"])
    suite = float(N["suite_before"] / N["suite_after"])
    return {
        "headlines": [num(rate, 0, lang), typed("thousands", lang), typed("extra", lang)],
        "values": [f"{typed('requests', lang)}{sep}{unit['requests']}",
                   f"{typed('seconds', lang)}{sep}s", num(rate, 0, lang),
                   f"{typed('ok', lang)} {unit['of']} {typed('of', lang)}",
                   num(N["of"] - N["ok"], 0, lang),
                   f"{typed('per_request', lang)}{sep}{unit['MB']}",
                   typed("extra", lang), f"{num(memory, 0, lang)}{sep}{unit['MB']}",
                   distribution("before", lang), distribution("after", lang),
                   f"{typed('suite_before', lang)}{sep}s", f"{typed('suite_after', lang)}{sep}s"],
        "share": str(format_percent(memory / N["limit"], locale=lang)),
        "ratios": [num(N["before_p50"] / N["after_p50"], places, lang),
                   num(suite, three_significant(suite), lang)],
        "p99": [f"{typed('before_p99', lang)}{sep}ms", f"{typed('after_p99', lang)}{sep}ms",
                f"{num(N['before_p99'] / N['after_p99'], places, lang)} {unit['less']}"],
        "rate": num(rate, 0, lang), "failed": num(N["of"] - N["ok"], 0, lang),
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The site, built once with --strict."""
    root = tmp_path_factory.mktemp("done")
    return make_site(BuildConfig(source=done_source(root / "src"), out=root / "site",
                                 today=TODAY, strict=True, compiled=TEMPLATES))


PAGES = {"en": "index.html", "fr": "fr/index.html"}


def main(built: Built, lang: str) -> Node:
    return parse(built.files[PAGES[lang]]).find("main")


def texts(page: Node, tag: str, class_: str) -> list[str]:
    return [n.text() for n in page.find_all(tag, class_=class_)]


def test_the_build_is_clean_with_strict(built: Built) -> None:
    assert built.warnings == []
    assert set(PAGES.values()) <= set(built.files)


def test_the_data_agree_with_the_stated_headline() -> None:
    """`value: 2` over `measurements.rate / 1000`: what the build accepts, checked here."""
    assert round(N["requests"] / N["seconds"] / 1000) == N["thousands"]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_figure_shows_the_number_computed_from_the_data(built: Built, lang: str) -> None:
    page, want = main(built, lang), expected(lang)
    assert [n.text() for n in page.find_all("strong", class_="big")] == want["headlines"]
    assert texts(page, "span", "value") == want["values"]
    assert texts(page, "p", "share")[0].startswith(want["share"] + " ")
    verdicts = texts(page, "p", "verdict")
    # Each ratio is bound to its "times" by a no-break space: they never part at a line's end.
    assert [v.split("\u00a0")[0] for v in verdicts] == want["ratios"]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_prose_cites_the_derived_figures_and_the_percentiles(built: Built, lang: str) -> None:
    want = expected(lang)
    prose = [p.text() for p in main(built, lang).find_all("p") if not p.attrs.get("class")]
    throughput = next(p for p in prose if want["rate"] in p)
    assert want["failed"] in throughput and typed("of", lang) in throughput
    latency = next(p for p in prose if "p99" in p)
    positions = [latency.index(part) for part in want["p99"]]
    assert positions == sorted(positions)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_headline_badges_follow_what_they_show_or_summarise(built: Built, lang: str) -> None:
    """A stated number over an estimate is an Estimate, not the default Measured."""
    page = main(built, lang)
    badges = [page.find("li", id=f"headline-{h}").find("span", class_="badge").text()
              for h in ("rate", "thousands", "encryption")]
    assert badges == [BADGE[lang]["measured"], BADGE[lang]["measured"], BADGE[lang]["estimate"]]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_tools_are_named_with_their_versions_never_commit(built: Built, lang: str) -> None:
    html = built.files[PAGES[lang]].decode()
    runners = html[html.index('id="runners"'):html.index('id="badges"')]
    assert "commit" not in parse(runners).text().lower()
    versions = parse(runners).find("ul", class_="versions")
    assert [li.text() for li in versions.find_all("li")] == ["cargo test 1.66.0",
                                                           "cargo nextest 0.9.67"]
    sides = [side.find("dt").text() for side in parse(runners).find("dl", class_="sides").children
             if isinstance(side, Node) and side.tag == "div"]
    assert sides == ["cargo test 1.66.0", "cargo nextest 0.9.67"]


def derived_of(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every figure's `derived` entry of data.json, by its key."""
    found: dict[str, dict[str, Any]] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("derived"), dict) and "key" in node["derived"]:
                found[node["derived"]["key"]] = node["derived"]
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(data)
    return found


def test_data_json_holds_each_derived_key(built: Built) -> None:
    derived = derived_of(json.loads(built.files["data.json"]))
    low = {key: derived[key]["quantity"]["low"] for key in (
        "measurements.rate", "measurements.checks-failed", "budgets.server.memory")}
    assert low == {"measurements.rate": float(N["requests"] / N["seconds"]),
                   "measurements.checks-failed": float(N["of"] - N["ok"]),
                   "budgets.server.memory": float(N["per_request"] * N["connections"])}
    assert derived["measurements.checks-failed"]["inputs"] == ["measurements.checks"]
    assert derived["budgets.server.memory"]["inputs"] == ["measurements.per-request"]
    assert {"comparisons.latency.before", "comparisons.latency.after",
            "comparisons.suite-time.before", "comparisons.suite-time.after"} <= set(derived)

