"""The four-way report of the example site: its tables, statements, checks and charts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import REPO, SOURCE_DATE_EPOCH, TEMPLATES, copy_example
from .dom import Node, parse

NBSP, NNBSP = "\u00a0", "\u202f"
REPORT = {"en": "horizon-four-way/index.html", "fr": "fr/horizon-four-way/index.html"}
PROGRESS = {"en": "index.html", "fr": "fr/index.html"}


@pytest.fixture(scope="module")
def report(example_files: dict[str, bytes]) -> dict[str, Node]:
    return {lang: parse(example_files[path]) for lang, path in REPORT.items()}


def table(page: Node, caption_start: str) -> Node:
    """The table whose caption starts with these words."""
    found = [t for t in page.find_all("table")
             if t.find_all("caption") and t.find("caption").text().startswith(caption_start)]
    assert len(found) == 1, caption_start
    return found[0]


def cells(row: Node) -> list[str]:
    return [c.text() for c in row.iter()[1:] if c.tag in ("th", "td")]


def body_rows(t: Node) -> list[Node]:
    return [r for body in t.find_all("tbody") for r in body.find_all("tr")]


@pytest.mark.parametrize(("lang", "caption", "headers", "first", "stopped"), [
    ("en", "Results: each server at each bot count",
     ["Bots", "Server", "MSPT (ms)", "P95 (ms)", "P99 (ms)", "Worst P99 (ms)", "TPS",
      "RSS mean (GB)", "RSS max (GB)", "CPU (%)", "Start (s)", "Chunks sent (chunks/s)",
      "First-time chunks (chunks/s)", "Pulled back"],
     ["1", "Horizon", "13.70", "19.06", "27.38", "43.4", "20", "0.72", "0.72", "46", "8.3",
      "9.94", "0.01", "0"],
     ["50", "vanilla", "stopped by its watchdog"]),
    ("fr", "Résultats\u00a0: chaque serveur à chaque nombre de bots",
     ["Bots", "Serveur", "MSPT (ms)", "P95 (ms)", "P99 (ms)", "Pire P99 (ms)", "TPS",
      "RSS moyen (Go)", "RSS max (Go)", "Processeur (%)", "Démarrage (s)",
      "Chunks envoyés (chunks/s)", "Chunks nouveaux (chunks/s)", "Ramenés"],
     ["1", "Horizon", "13,70", "19,06", "27,38", "43,4", "20", "0,72", "0,72", "46", "8,3",
      "9,94", "0,01", "0"],
     ["50", "vanilla", "arrêté par son watchdog"]),
])
def test_results_table(report: dict[str, Node], lang: str, caption: str,
                       headers: list[str], first: list[str], stopped: list[str]) -> None:
    t = table(report[lang], caption)
    assert [h.text() for h in t.find("thead").find_all("th")] == headers
    assert all(h.attrs["scope"] == "col" for h in t.find("thead").find_all("th"))
    rows = body_rows(t)
    assert len(rows) == 16 and len(t.find_all("tbody")) == 4  # one group per bot count
    assert cells(rows[0]) == first
    assert [h.attrs["scope"] for h in rows[0].find_all("th")] == ["row", "row"]
    assert cells(rows[13]) == stopped
    assert rows[13].find("td").attrs["colspan"] == "12"
    assert cells(rows[15])[:3] == ["50", "Fabric + Lithium", "58,30" if lang == "fr" else
                                   "58.30"]


def test_chunks_by_behaviour(report: dict[str, Node]) -> None:
    t = table(report["en"], "Chunks each bot received")
    rows = body_rows(t)
    # With one bot, the bot walks: the other behaviours are empty, and said to be.
    assert cells(rows[0]) == ["1", "Horizon", "6,280", "–no value", "–no value"]
    assert cells(rows[4]) == ["10", "Horizon", "6,460", "1,195", "473"]
    assert cells(rows[13]) == ["50", "vanilla", "stopped by its watchdog"]


@pytest.mark.parametrize(("lang", "statements"), [
    ("en", [
        "Chunks sent a second were within 3% of each other at every count, and first-time "
        "chunks a second within 4% from 10 bots up (with one bot there are almost none: "
        f"0.00 to 0.02{NBSP}chunks/s)",
        f"({'6,049 to 6,506'}{NBSP}chunks)",
        f"Horizon used 0.72{NBSP}GB with one player and 1.11{NBSP}GB with 50. The three Java "
        f"servers used 3.4 to 4.5{NBSP}GB (a 4 GB heap each), so Horizon was 3.8 to 4.8 times "
        "smaller at every count.",
        f"Start: 8.2 to 8.5{NBSP}s to Done for Horizon, against 14.7 to 15.5{NBSP}s for "
        f"vanilla, 16.6 to 17.6{NBSP}s for Fabric + Lithium and 19.0 to 22.3{NBSP}s for "
        "Paper.",
        "Horizon used the least: 143% at 50, against Paper's 210% and Fabric's 236%.",
        f"With 1 player, Paper (10.3{NBSP}ms) and Fabric + Lithium (12.5) were faster than "
        "Horizon (13.7). Vanilla was slowest (17.3).",
        f"Fabric + Lithium fell to 17.2 TPS (58.3{NBSP}ms)",
        f"Paper is ahead at every count, by 0.97 to 3.39{NBSP}ms: Horizon's average tick is "
        "33% longer than Paper's with one player and 2% longer with 50.",
        "runs.jsonl holds the 16 run lines used here: 7 from the first pass and 9 from the "
        "second.",
        'Horizon pulled no bot back for moving too quickly ("moved too quickly": 0 at every '
        'count).',
    ]),
    ("fr", [
        f"ne s'écartaient pas de plus de 3{NBSP}% les uns des autres à chaque nombre de bots, "
        f"et les chunks nouveaux par seconde pas de plus de 4{NBSP}% à partir de 10 bots",
        f"(6{NNBSP}049 à 6{NNBSP}506{NNBSP}chunks)",
        f"Horizon a utilisé 0,72{NNBSP}Go avec un joueur et 1,11{NNBSP}Go avec 50. Les trois "
        f"serveurs Java ont utilisé 3,4 à 4,5{NNBSP}Go (un tas de 4 Go chacun){NBSP}: Horizon "
        "occupait donc 3,8 à 4,8 fois moins de mémoire",
        f"19,0 à 22,3{NNBSP}s pour Paper.",
        f"Paper le devance à chaque nombre de bots, de 0,97 à 3,39{NNBSP}ms{NBSP}: le tick "
        f"moyen de Horizon est 33{NBSP}% plus long que celui de Paper avec un joueur, et "
        f"2{NBSP}% plus long avec 50.",
        f"runs.jsonl contient les 16 lignes de passage utilisées ici{NBSP}: 7 de la première "
        "passe et 9 de la seconde.",
    ]),
])
def test_statements_come_from_the_records(report: dict[str, Node], lang: str,
                                          statements: list[str]) -> None:
    text = report[lang].find("main").text()
    for statement in statements:
        assert statement in text


@pytest.mark.parametrize(("lang", "rule"), [
    ("en", "In each row, each value of Chunks sent and First-time chunks is compared with the "
           f"highest in the row: they agree when the gap is at most 10% of it, or at most "
           f"1{NBSP}chunk/s."),
    ("fr", None),  # the words are the catalog's; the numbers are checked in English
])
def test_equal_work(report: dict[str, Node], lang: str, rule: str | None) -> None:
    block = report[lang].find(class_="agreement")
    rows = body_rows(block.find("table"))
    assert [cells(r)[0] for r in rows] == ["1", "10", "25", "50"]
    assert [r.find_all("td")[-1].attrs["class"] for r in rows] == ["verdict-cell yes"] * 4
    comma = "," if lang == "fr" else "."
    assert cells(rows[3])[1:3] == [f"302{comma}68", f"11{comma}02"]
    stopped = rows[3].find_all("td", class_="note")
    assert len(stopped) == 1 and stopped[0].attrs["colspan"] == "2"
    header = [h.text() for h in block.find("thead").find_all("th", scope="colgroup")]
    assert header == ["Horizon", "vanilla", "Paper", "Fabric + Lithium"]
    assert not block.find_all(class_="off")
    if rule is not None:
        assert block.find(class_="rule").text() == rule


def test_charts(report: dict[str, Node]) -> None:
    figures = report["en"].find_all("figure", class_="chart-figure")
    assert [f.attrs["id"] for f in figures] == [
        "four-way-mspt-bots-figure", "four-way-p99-bots-figure", "four-way-rss_max-bots-figure"]
    for figure in figures:
        svg = figure.find("svg")
        assert svg.attrs["role"] == "img" and "chart" in svg.attrs["class"]
        assert svg.attrs["aria-describedby"] == figure.attrs["id"] + "-summary"
        numbers = figure.find("details").find("table")
        assert [cells(r)[0] for r in numbers.find("tbody").find_all("tr")] == [
            "1", "10", "25", "50"]
    # The lowest and the highest of every point drawn (tests/test_chart_words.py reads
    # them back from the SVG), with their series and x.
    assert figures[0].find("figcaption").text() == (
        f"Average tick (MSPT) by number of bots: lowest 10.31{NBSP}ms (Paper, where Bots is "
        f"1), highest 58.30{NBSP}ms (Fabric + Lithium, where Bots is 50). vanilla has no "
        "number where Bots is 50: stopped by its watchdog.")
    assert figures[2].find("figcaption").text() == (
        f"Memory (highest RSS) by number of bots: lowest 0.72{NBSP}GB (Horizon, where Bots "
        f"is 1), highest 4.74{NBSP}GB (Fabric + Lithium, where Bots is 50). vanilla has no "
        "number where Bots is 50: stopped by its watchdog.")
    vanilla = [cells(r) for r in figures[0].find("details").find_all("tr")]
    assert vanilla[-1] == ["50", f"47.83{NBSP}ms", "stopped by its watchdog",
                          f"46.86{NBSP}ms", f"58.30{NBSP}ms"]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_progress_page_links_the_report_and_draws_no_two_point_trend(
        example_files: dict[str, bytes], lang: str) -> None:
    page = parse(example_files[PROGRESS[lang]])
    assert page.find_all("a", href="horizon-four-way/index.html")
    # The example's comparisons have no history: a line from before to after would only
    # repeat the two figures printed above it.
    assert page.find(class_="measures").find_all("figure", class_="chart-small") == []


def run_build(source: Path, out: Path) -> None:
    """`build.py` in a fresh interpreter, which must not import Altair nor vl-convert."""
    script = (
        "import sys\n"
        "from progress_site.cli import main\n"
        "status = main(sys.argv[1:])\n"
        "assert status == 0, status\n"
        "assert 'altair' not in sys.modules, 'altair was imported'\n"
        "assert 'vl_convert' not in sys.modules, 'vl_convert was imported'\n")
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", script, "--source", str(source),
         "--out", str(out)], capture_output=True, text=True, cwd=REPO, timeout=120,
        env={**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH})
    assert done.returncode == 0, done.stderr


def test_warm_chart_cache_needs_no_altair(tmp_path: Path,
                                         example_files: dict[str, bytes]) -> None:
    """The session's build of the example drew its charts into the session's cache folder
    (which the new interpreter is given too): a build of a copy of it imports neither
    Altair nor vl-convert, and its pages are the same."""
    source = copy_example(tmp_path / "src")
    run_build(source, tmp_path / "two")
    for page in (*REPORT.values(), *PROGRESS.values()):
        assert (tmp_path / "two" / page).read_bytes() == example_files[page]


HISTORY_DATA = """\
site: {title: T, tagline: T, languages: [en, fr]}
machines: [{id: pc, name: PC}]
commits: [{id: aaa1111}, {id: bbb2222}, {id: ccc3333}]
studies:
  - id: s
    title: S
    before: {commit: bbb2222, label: Before}
    after: {commit: ccc3333, label: After}
    machine: pc
    date: 2026-11-08
    comparisons:
      - id: cpu
        title: CPU
        unit: ms
        history: [{value: 30, commit: aaa1111, label: {en: First, fr: Première}}]
        before: {value: 20}
        after: {value: 8.5}
measurements:
  - id: start
    title: Start
    history: [{value: 9.1, date: 2026-10-01}, {value: 8.7, date: 2026-10-15}]
    figure: {value: 8.2, unit: s, machine: pc, date: 2026-11-01, commit: ccc3333}
"""


def one_page_site(source: Path, body: str) -> Any:
    """The site built from `source`'s data and a home page of `body` in each language."""
    from progress_site.pipeline import BuildConfig, make_site

    from .conftest import TODAY

    for lang in ("en", "fr"):
        (source / "content" / lang).mkdir(parents=True)
        (source / "content" / lang / "index.md").write_text(f"---\ntitle: T\n---\n{body}")
    return make_site(BuildConfig(source=source, out=source / "site", today=TODAY,
                                 compiled=TEMPLATES))


def test_trends_from_history(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "site.yaml").write_text(HISTORY_DATA)
    built = one_page_site(tmp_path,
                          "{{< comparisons s >}}\n\n{{< trend measurements start >}}\n")
    page = parse(built.files["index.html"])
    summaries = [f.text() for f in page.find_all("figcaption", class_="chart-summary")]
    assert summaries == [  # over the commits where each point names one, else the dates
        f"CPU: lowest 8.5{NBSP}ms at commit ccc3333, highest 30{NBSP}ms at First.",
        f"Start: lowest 8.2{NBSP}s where Date is November\u00a01, highest 9.1{NBSP}s where Date "
        "is October\u00a01.",
    ]
    rows = page.find(id="trend-cpu-figure").find("tbody").find_all("tr")
    assert [cells(r) for r in rows] == [["First", f"30{NBSP}ms"], ["bbb2222", f"20{NBSP}ms"],
                                        ["ccc3333", f"8.5{NBSP}ms"]]
    french = parse(built.files["fr/index.html"]).find(id="trend-cpu-figure")
    assert cells(french.find("tbody").find("tr")) == ["Première", f"30{NNBSP}ms"]
    assert french.find("figcaption").text() == (
        f"CPU\u00a0: le plus bas 8,5{NNBSP}ms au commit ccc3333, le plus haut 30{NNBSP}ms à "
        "Première.")


RELEASES_DATA = """\
site: {title: T, tagline: T, languages: [en, fr]}
machines: [{id: pc, name: PC}]
commits:
  - {id: aaa1111, label: v0.8.0}
  - {id: bbb2222}
  - {id: ccc3333, label: {en: v0.9.0, fr: v0.9.0 (fr)}}
"""


def test_trend_of_a_series_names_releases_by_label(tmp_path: Path) -> None:
    """An imported series' trend says a commit `commits:` labels (a release) by its label,
    on its axis, in its table and in its sentence, as the series' own page does; the
    others by their hash."""
    (tmp_path / "data" / "history").mkdir(parents=True)
    (tmp_path / "data" / "site.yaml").write_text(RELEASES_DATA)
    (tmp_path / "data" / "history" / "measurements.frame.jsonl").write_text("".join(
        f'{{"commit": "{c}", "date": "2026-10-{d:02}", "machine": "pc", "value": {v}, '
        '"unit": "ms"}\n' for c, d, v in (("aaa1111", 1, 361), ("bbb2222", 20, 486),
                                          ("ccc3333", 30, 520))))
    built = one_page_site(tmp_path, "{{< trend measurements frame >}}\n")
    figure = parse(built.files["index.html"]).find(id="trend-frame-figure")
    assert [cells(r)[0] for r in figure.find("tbody").find_all("tr")] == [
        "v0.8.0", "bbb2222", "v0.9.0"]
    assert figure.find("figcaption").text() == (
        f"frame: lowest 361{NBSP}ms at v0.8.0, highest 520{NBSP}ms at v0.9.0.")
    french = parse(built.files["fr/index.html"]).find(id="trend-frame-figure")
    assert french.find("figcaption").text() == (
        f"frame\u00a0: le plus bas 361{NNBSP}ms à v0.8.0, le plus haut 520{NNBSP}ms à "
        "v0.9.0 (fr).")
