"""History files: read, made figures, analysed (tests/history_site.py builds the site)."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from progress_site.load.history import load_history
from progress_site.model.history import default_better, default_group
from progress_site.model.values import NOWHERE
from progress_site.pipeline import BuildConfig, make_site, prepare
from progress_site.record.recorder import check
from progress_site.render.ids import element_ids

from .conftest import TEMPLATES, TODAY
from .dom import Node, breakable, parse
from .history_site import NOISE, POINTS, STEP_AT, commit, history_source, line
from .test_cases import BUILD, SOURCE_DATE_EPOCH, Result, run_build
from .test_fragments import links, target


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example with three history files."""
    return history_source(tmp_path_factory.mktemp("history") / "src")


@pytest.fixture(scope="module")
def files(source: Path) -> dict[str, bytes]:
    """Every file of the built site."""
    return make_site(BuildConfig(source=source, out=source / "site", today=TODAY,
                                 compiled=TEMPLATES)).files


def test_each_series_is_analysed(source: Path) -> None:
    """The slowdown is a regression at its commit; the flat one is noise; two points
    are not enough."""
    model = prepare(BuildConfig(source=source, out=source / "site", today=TODAY,
                                compiled=TEMPLATES)).model
    reports = {v.key: v.report for v in model.series}
    assert sorted(reports) == ["measurements.parse-small", "measurements.render-new",
                               "measurements.startup"]
    slow = reports["measurements.startup"]
    assert slow is not None and slow.status == "regressed"
    (step,) = slow.steps
    assert (step.last_before, step.first_after) == (commit(STEP_AT - 1), commit(STEP_AT))
    assert step.percent == pytest.approx(50, abs=3)
    flat, short = reports["measurements.parse-small"], reports["measurements.render-new"]
    assert flat is not None and (flat.status, flat.steps) == ("within noise", ())
    assert short is not None and short.status == "not enough points"


def test_figure_is_the_newest_point(files: dict[str, bytes]) -> None:
    """data.json's figure is the last line's value, machine, date and commit."""
    data = json.loads(files["data.json"])
    by_id = {m["id"]: m for m in data["measurements"]}
    startup = by_id["startup"]["figure"]
    assert (startup["commit"], startup["date"], startup["machine"]) == (
        commit(POINTS - 1), "2026-10-30", "test-pc")
    assert startup["value"] == 151.35 and startup["unit"] == "ms"
    assert by_id["render-new"]["title"] == "render-new"  # no YAML: its id is its title
    assert by_id["render-new"]["figure"]["value"] == 12.5


@pytest.mark.parametrize(("lang", "path", "expected"), [
    ("en", "index.html", "Start-up now takes 151.35\u00a0ms"),
    ("fr", "fr/index.html", "Le démarrage prend 151,35\u202fms"),
])
def test_measurement_cites_the_newest_value(files: dict[str, bytes], lang: str, path: str,
                                            expected: str) -> None:
    """`{{ measurements.startup }}` prints the newest point, formatted per language."""
    page: Node = parse(files[path].decode("utf-8"))
    assert expected in page.text()


DASHBOARD = {
    "en": ("benchmarks/index.html", {
        "startup": "Regressed", "parse-small": "Within noise",
        "render-new": "Not enough points"}, "+50.2%", "1.50\u00a0times"),
    "fr": ("fr/benchmarks/index.html", {
        "startup": "Dégradé", "parse-small": "Dans le bruit",
        "render-new": "Pas assez de points"}, "+50,2\u00a0%", "1,50\u00a0fois"),
}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_dashboard_rows_and_steps(files: dict[str, bytes], lang: str) -> None:
    """The dashboard page lists each series with its status, and the step with its
    commit range (a compare link), its percent and ratio, in each language."""
    path, statuses, percent, ratio = DASHBOARD[lang]
    page = parse(files[path])
    rows = page.find_all("tr", class_="series")
    shown = {r.attrs["id"].removeprefix("row-benchmarks-"): r.find(class_="status").text()
             for r in rows}
    assert shown == statuses
    (step,) = page.find_all("tr", class_="step")
    cells = [c.text() for c in step.find_all("td")]
    assert cells[0] == f"{commit(STEP_AT - 1)}..{commit(STEP_AT)}"
    assert (cells[1], cells[2]) == (ratio, percent)
    link = step.find("a", href=f"https://github.com/meridian-proxy/meridian/compare/"
                               f"{commit(STEP_AT - 1)}...{commit(STEP_AT)}")
    assert link.text() == cells[0]
    row = page.find("tr", id="row-benchmarks-startup")
    assert row.find("a").attrs["href"] == "startup/index.html"
    latest = row.find(class_="latest").text()
    assert latest == ("151.35\u00a0ms (σ\u00a02.8\u00a0ms, n\u00a0=\u00a010)" if lang == "en"
                      else "151,35\u202fms (σ\u00a02,8\u202fms, n\u00a0=\u00a010)")


def test_dashboard_page_is_in_the_navigation(files: dict[str, bytes]) -> None:
    """The home page links to the dashboard page."""
    nav = parse(files["index.html"]).find("nav", class_="site-nav")
    assert "benchmarks/index.html" in [a.attrs["href"] for a in nav.find_all("a")]


@pytest.mark.parametrize("folder", ["", "fr/"])
def test_series_page_lists_points_newest_first(files: dict[str, bytes], folder: str) -> None:
    """A series' own page lists its newest 20 points, newest first, each linked to its
    commit, under its line with the step marked, and says where the others are."""
    page = parse(files[f"{folder}benchmarks/startup/index.html"])
    rows = page.find("table", class_="points").find("tbody").find_all("tr")
    assert len(rows) == 20 < POINTS
    assert page.find("p", class_="points-note").text() == (
        "The newest 20 of 30 points; data.json holds every one." if not folder else
        "Les 20 points les plus récents sur 30\u202f; data.json les contient tous.")
    assert rows[0].find("td").text() == commit(POINTS - 1)
    assert rows[0].find("a").attrs["href"].endswith(f"/commit/{commit(POINTS - 1)}")
    chart = page.find("figure", class_="series-chart").find("svg", class_="wide")
    assert len(chart.find_all(class_="step-rule")) == 1
    # Every value with the series' decimals: 150.0 lines up with 151.35.
    at_step = rows[POINTS - 1 - STEP_AT].find_all("td")
    assert at_step[0].text() == commit(STEP_AT)
    assert at_step[3].text() == (
        "150.00\u00a0ms (σ\u00a02.8\u00a0ms, n\u00a0=\u00a010)" if not folder
        else "150,00\u202fms (σ\u00a02,8\u202fms, n\u00a0=\u00a010)")


def test_data_json_holds_the_steps(files: dict[str, bytes]) -> None:
    """data.json lists every series, all of its points, and the step with its range."""
    series = {s["key"]: s for s in json.loads(files["data.json"])["series"]}
    startup = series["measurements.startup"]
    assert len(startup["points"]) == POINTS and startup["status"] == "regressed"
    (step,) = startup["steps"]
    assert (step["key"], step["last_before"], step["first_after"], step["status"]) == (
        "measurements.startup", commit(STEP_AT - 1), commit(STEP_AT), "regressed")
    assert step["ratio"] == pytest.approx(1.5, abs=0.03) and step["p_value"] < 0.001
    assert series["measurements.parse-small"]["steps"] == []


@pytest.mark.parametrize(("path", "lang"), [("regressions.xml", "en"),
                                            ("fr/regressions.xml", "fr")])
def test_feed_holds_the_regression(files: dict[str, bytes], path: str, lang: str) -> None:
    """Each language's regressions feed has the one regression, its id the uuid5 of the
    series key and range, linked to the series on the dashboard."""
    atom = "{http://www.w3.org/2005/Atom}"
    feed = ET.fromstring(files[path])
    (entry,) = feed.findall(f"{atom}entry")
    span = f"{commit(STEP_AT - 1)}..{commit(STEP_AT)}"
    assert entry.findtext(f"{atom}id") == uuid.uuid5(
        uuid.NAMESPACE_URL, f"measurements.startup/{span}").urn
    assert span in (entry.findtext(f"{atom}title") or "")
    link = entry.find(f"{atom}link")
    assert link is not None and link.get("href") == "benchmarks/startup/index.html"
    assert ("+50.2%" if lang == "en" else "+50,2\u00a0%") in (entry.findtext(f"{atom}title")
                                                              or "")


def test_output_is_the_same_on_every_build(source: Path, files: dict[str, bytes]) -> None:
    """A second build gives the same bytes, file for file."""
    again = make_site(BuildConfig(source=source, out=source / "site", today=TODAY,
                                  compiled=TEMPLATES)).files
    assert again == files


@pytest.mark.slow  # a site of 12,000 points built twice: CI runs it
def test_dashboard_of_200_series_stays_small(tmp_path: Path) -> None:
    """200 series of 60 points: the dashboard page is at most 60 KB once gzipped, and
    each series has a page of its own; a second build (its other language forked, as
    a site this large is) gives the same bytes."""
    source = history_source(tmp_path / "src")
    for k in range(200):
        text = "".join(line(i, (10 + k) * (1 + NOISE[(i + k) % 20]), spread=0.5, n=10)
                       + "\n" for i in range(60))
        (source / "data" / "history" / f"measurements.bench-{k:03}.jsonl").write_text(
            text, encoding="utf-8")
    files = make_site(BuildConfig(source=source, out=source / "site", today=TODAY,
                                  compiled=TEMPLATES)).files
    assert len(gzip.compress(files["benchmarks/index.html"])) <= 60_000
    assert len(parse(files["benchmarks/index.html"]).find_all("tr", class_="series")) == 203
    assert "fr/benchmarks/bench-199/index.html" in files
    assert make_site(BuildConfig(source=source, out=source / "site", today=TODAY,
                                 compiled=TEMPLATES)).files \
        == files


def test_record_checks_an_edited_history_file(tmp_path: Path) -> None:
    """`record`'s check reads a history file's edited text instead of the file: a broken
    line it would write is reported, located, and the file on disk is left alone."""
    source = history_source(tmp_path / "src")
    path = source / "data" / "history" / "measurements.render-new.jsonl"
    before = path.read_bytes()
    edited = before.decode("utf-8") + line(2, 13.0).replace('"ms"', '"s"') + "\n"
    problems = check(source, TODAY, {path: edited})
    assert [(str(p.location), p.message) for p in problems] == [
        ("data/history/measurements.render-new.jsonl:3:90",
         "unit 's' differs from the first line's ('ms')")]
    assert path.read_bytes() == before
    assert check(source, TODAY, {path: before.decode("utf-8") + line(2, 13.0) + "\n"}) == []


def test_problems_of_long_files_are_located(tmp_path: Path) -> None:
    """Lines are read without their positions until a problem asks for one: a key
    written twice, an escaped control character, a machine the data lacks on an old
    line, and the newest line's unit are each found at their line and column."""
    source = history_source(tmp_path / "src")
    path = source / "data" / "history" / "measurements.render-new.jsonl"
    lines = [line(i, 12.0 + i) for i in range(6)]
    lines[1] = lines[1].replace('"value": 13.0', '"value": 13.0, "value": 14.0')
    lines[2] = lines[2].replace('"c000002"', '"c000002\\u202e"')
    lines[3] = lines[3].replace('"test-pc"', '"test-cp"')
    lines[5] = lines[5].replace('"ms"', '"s"')
    problems = check(source, TODAY, {path: "\n".join(lines) + "\n"})
    name = "data/history/measurements.render-new.jsonl"
    assert [(str(p.location), p.message) for p in problems] == [
        (f"{name}:2:82", "key 'value' appears twice"),
        (f"{name}:3:12", "this text holds U+202E (a direction override), which no page "
                         "should show"),
        (f"{name}:4:56", "no machine 'test-cp'"),
        (f"{name}:6:90", "unit 's' differs from the first line's ('ms')")]


def test_min_change_and_better_come_from_the_yaml(tmp_path: Path) -> None:
    """`min_change: 60` hides a 50 % step; `better: higher` makes it an improvement."""
    source = history_source(tmp_path / "src")
    studies = source / "data" / "studies.yaml"
    text = studies.read_text(encoding="utf-8")
    for extra, status in (("    min_change: 60\n", "within noise"),
                          ("    better: higher\n", "improved")):
        studies.write_text(text.replace("    group: launch\n", "    group: launch\n" + extra),
                           encoding="utf-8")
        model = prepare(BuildConfig(source=source, out=source / "site", today=TODAY,
                                    compiled=TEMPLATES)).model
        report = {v.key: v.report for v in model.series}["measurements.startup"]
        assert report is not None and report.status == status


@pytest.mark.parametrize(("unit", "better"), [("ms", "lower"), ("KB", "lower"),
                                              ("ops/s", "higher"), ("MB/s", "higher")])
def test_better_defaults_from_the_unit(unit: str, better: str) -> None:
    """Times and sizes are better lower, rates higher."""
    assert default_better(unit) == better


@pytest.mark.parametrize(("ident", "group"), [("parse-small", "parse"), ("render_new", "render"),
                                               ("startup", "startup")])
def test_group_defaults_from_the_id(ident: str, group: str) -> None:
    """A series' group is its id up to the first '-' or '_'."""
    assert default_group(ident) == group


def test_same_bytes_under_two_hash_seeds(source: Path, tmp_path: Path) -> None:
    """Two builds by the command line, under different PYTHONHASHSEEDs, write the same
    files, byte for byte."""
    built = []
    for seed in ("1", "2"):
        out = tmp_path / f"out{seed}"
        env = {**os.environ, "PYTHONHASHSEED": seed, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH}
        subprocess.run([sys.executable, str(BUILD), "--source", str(source), "--out",
                        str(out)], check=True, capture_output=True, env=env, timeout=300)
        built.append({p.relative_to(out).as_posix(): p.read_bytes()
                      for p in sorted(out.rglob("*")) if p.is_file()})
    assert "benchmarks/startup/index.html" in built[0] and "regressions.xml" in built[0]
    assert built[0] == built[1]


def test_fail_on_regression_sees_a_real_builds_step(tmp_path: Path) -> None:
    """The gate reads the steps a real build publishes: a site without the slowdown's
    history, then the same site with it, fails the second build (exit 3) and prints the
    step in the Markdown summary; building it again, the step is old news (exit 0)."""
    source = history_source(tmp_path / "src")
    history = source / "data" / "history" / "measurements.startup.jsonl"
    lines = history.read_text(encoding="utf-8").splitlines(keepends=True)
    history.write_text("".join(lines[:STEP_AT]), encoding="utf-8")
    out = tmp_path / "site"

    def build(*args: str) -> Result:
        """The command line, in this process (its exit status is what is gated on)."""
        return run_build(source, out, list(args))

    assert build().status == 0
    old = tmp_path / "old"
    out.rename(old)
    history.write_text("".join(lines), encoding="utf-8")
    gated = build("--changes", str(old), "--format", "markdown", "--fail-on-regression")
    assert gated.status == 3, gated.stderr
    assert "### New regressions" in gated.stdout
    assert (f"- measurements\\.startup: 100.0 ms -> 150.3 ms (+50.2%) between "
            f"{commit(STEP_AT - 1)} and {commit(STEP_AT)}") in gated.stdout
    assert build("--fail-on-regression").status == 0


@pytest.mark.parametrize(("factor", "marked"), [(1.3, True), (1.01, False)])
def test_a_pull_requests_run_off_its_level_is_marked_not_failed(
        tmp_path: Path, factor: float, marked: bool) -> None:
    """A pull request's one run 30 % over a flat series is no step (one commit is never
    enough) but an outlier: the summary marks its row and says what that means, and the
    check passes; a run within the noise is not marked."""
    source = history_source(tmp_path / "src")
    history = source / "data" / "history" / "measurements.parse-small.jsonl"
    old = tmp_path / "old"
    assert run_build(source, old, []).status == 0
    with history.open("a", encoding="utf-8") as lines:
        lines.write(line(POINTS, 55.4 * factor) + "\n")
    gated = run_build(source, tmp_path / "new", [
        "--changes", str(old), "--format", "markdown", "--fail-on-regression"])
    assert gated.status == 0, gated.stderr
    [row] = [r for r in gated.stdout.splitlines() if r.startswith("| measurements\\.parse")]
    assert row.endswith("off its level |") is marked, row
    assert ("Off its level: the newest run lies more than 5 noise widths" in gated.stdout
            ) is marked


@pytest.mark.parametrize("extra", ['"status": "measured"', '"note": "a note"'])
def test_a_plain_file_reads_as_the_same_file_read_line_by_line(tmp_path: Path,
                                                               extra: str) -> None:
    """A plain history file (each line checked in one pass) gives the points the line by
    line reader gives the same lines with one more key (which it must read line by line)."""
    folder = tmp_path / "plain" / "data" / "history"
    folder.mkdir(parents=True)
    lines = [json.dumps({"commit": f"c{i:03d}", "date": f"2026-11-{1 + i // 3:02d}",
                         "machine": "ci", "value": 10.5 + i, "unit": "ms", "spread": 0.25,
                         "n": 10, "tool": "hyperfine"}) for i in range(12)]
    lines[5] = lines[5].replace(', "spread": 0.25, "n": 10', "")
    (folder / "measurements.x.jsonl").write_text("\n".join(lines) + "\n", "utf-8")
    other = tmp_path / "other" / "data" / "history"
    other.mkdir(parents=True)
    (other / "measurements.x.jsonl").write_text(
        "\n".join(x[:-1] + f", {extra}}}" for x in lines) + "\n", "utf-8")
    (plain,), problems = load_history(tmp_path / "plain")
    (each,), more = load_history(tmp_path / "other")
    assert problems == more == []
    assert plain.unit == each.unit == "ms"
    assert [p._replace(where=NOWHERE, note=None) for p in each.points] == [
        p._replace(where=NOWHERE) for p in plain.points]
    assert [plain.place(i).location for i in range(12)] == [
        each.place(i).location for i in range(12)]
    assert [plain.place(i).location.line for i in range(12)] == list(range(1, 13))
    assert plain.points[-1].where.of("value").line == 12


def with_benchmarks_page(source: Path, root: Path, body: str) -> Path:
    """A copy of the history site whose content has a page named `benchmarks` in each
    language, holding `body`."""
    copy = root / "src"
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns("site"))
    for lang in ("en", "fr"):
        (copy / "content" / lang / "benchmarks.md").write_text(
            f"---\ntitle: Benchmarks {lang}\n---\nHow we measure.\n\n{body}", encoding="utf-8")
    return copy


UNLINKED = (
    "content/{lang}/benchmarks.md:1:1: {kind}this page takes the place of the benchmarks "
    "dashboard, but no page of its language shows the dashboard of {n} series: their pages "
    "are linked from nowhere ({pages})\n"
    "    ---\n    ^\n"
    "    hint: place `{{{{< dashboard >}}}}` in this page (or in any page; `group=NAME` for "
    "one group), or give this page another name to keep the dashboard at benchmarks/\n")


@pytest.mark.parametrize(("body", "pages"), [
    ("", "benchmarks/parse-small/, benchmarks/render-new/, benchmarks/startup/"),
    ("{{< dashboard group=launch >}}\n", "benchmarks/parse-small/, benchmarks/render-new/"),
])
def test_a_benchmarks_page_without_the_dashboard_is_told(
        source: Path, tmp_path: Path, body: str, pages: str) -> None:
    """A content page named `benchmarks` replaces the dashboard: when no page shows it,
    the series' pages would be reached from nowhere, and the build says so, at the page."""
    copy = with_benchmarks_page(source, tmp_path, body)
    n = pages.count("/,") + 1
    result = run_build(copy, tmp_path / "out", [])
    assert (result.status, result.stderr) == (0, "".join(
        UNLINKED.format(lang=lang, kind="warning: ", n=n, pages=pages) for lang in ("en", "fr")))
    strict = run_build(copy, tmp_path / "out", ["--strict"])
    assert strict.status == 1
    assert strict.stderr == "".join(
        UNLINKED.format(lang=lang, kind="", n=n, pages=pages) for lang in ("en", "fr")
    ) + "Aborted with 2 data errors.\nThe previous site was left as it was.\n"


def test_a_benchmarks_page_with_the_dashboard_links_every_series(
        source: Path, tmp_path: Path) -> None:
    """The `_ok` twin: the dashboard placed in the page, every link of every built page
    resolves (to a file built, and an id of it), and each series' page is linked."""
    copy = with_benchmarks_page(source, tmp_path, "{{< dashboard >}}\n")
    result = run_build(copy, tmp_path / "out", [])
    assert (result.status, result.stderr) == (0, "")
    built = {p.relative_to(tmp_path / "out").as_posix(): p.read_bytes()
             for p in (tmp_path / "out").rglob("*") if p.is_file()}
    broken, linked = [], set()
    for name, data in sorted(built.items()):
        for href in links(name, data):
            found = target(name, href, None)
            if found is None:
                continue
            path, fragment = found
            linked.add(path)
            if path not in built or (fragment and fragment not in element_ids(
                    built[path].decode("utf-8"))):
                broken.append(f"{name}: {href}")
    assert broken == []
    for folder in ("", "fr/"):
        page = parse(built[f"{folder}benchmarks/index.html"])
        assert page.find("h1").text() == f"Benchmarks {folder[:2] or 'en'}"
        for ident in ("parse-small", "render-new", "startup"):
            assert f"{folder}benchmarks/{ident}/index.html" in linked


def test_a_sparklines_title_counts_its_points_in_each_language(
        source: Path, tmp_path: Path) -> None:
    """One point is "the last point", not "the last 1 points"; two are counted."""
    copy = tmp_path / "src"
    shutil.copytree(source, copy)
    (copy / "data" / "history" / "measurements.single.jsonl").write_text(
        line(0, 7.5) + "\n", encoding="utf-8")
    built = make_site(BuildConfig(source=copy, out=tmp_path / "site", today=TODAY,
                                  compiled=TEMPLATES)).files
    for page, expected in (
            ("benchmarks/index.html", {"single: the last point",
                                       "render-new: the last 2 points"}),
            ("fr/benchmarks/index.html", {"single\u00a0: le dernier point",
                                          "render-new\u00a0: les 2 derniers points"})):
        titles = {t.text() for t in parse(built[page].decode("utf-8")).find_all("title")}
        assert expected <= titles, sorted(titles)


def test_a_series_points_name_their_machine_in_each_language(
        files: dict[str, bytes]) -> None:
    """The table of a series' points names the machine as machines: does, not by id."""
    for page, name in (("benchmarks/startup/index.html", "The test PC"),
                       ("fr/benchmarks/startup/index.html", "Le PC de test")):
        rows = parse(files[page].decode("utf-8")).find("table", class_="points").find_all("tr")
        assert {r.find_all("td")[2].text() for r in rows[1:]} == {name}


@pytest.mark.parametrize("folder", ["", "fr/"])
def test_no_number_parts_from_its_label_at_a_lines_end(files: dict[str, bytes],
                                                       folder: str) -> None:
    """`151.35 ms ± 2.8 ms (n = 10)`, `1.50 times`, `p < 0.0001`: each number keeps its
    sign, label and unit on its line, in the dashboard's and the series' tables."""
    pages = [p for p in files if p.startswith(f"{folder}benchmarks/") and p.endswith(".html")
             and (folder or not p.startswith("fr/"))]
    assert len(pages) == 4
    cells = [n for page in pages for n in parse(files[page]).iter()
             if n.tag == "td" or "latest" in n.attrs.get("class", "").split()]
    assert len(cells) > 100
    assert breakable(cells) == []


def test_a_point_prints_no_more_decimals_than_its_spread_tells(tmp_path: Path) -> None:
    """A series whose points were written to a hundredth, then one of 177 ms with a spread
    of 129 ms (import wrote it 177): the page printed 177.00 ms, a precision the run did
    not have; it prints 177 ms, and the others as before."""
    source = history_source(tmp_path / "src")
    (source / "data" / "history" / "measurements.noisy.jsonl").write_text(
        line(1, 140.61, spread=3.79, n=5) + "\n" + line(2, 177, spread=129, n=10) + "\n")
    # A median import kept finer than its deviation (a slow outlier): it prints with its
    # quartiles' spread, whose digits it keeps.
    (source / "data" / "history" / "measurements.tail.jsonl").write_text(
        '{"commit": "c000001", "date": "2026-10-02", "machine": "test-pc", "value": 9.654, '
        '"unit": "ms", "spread": 218, "n": 6991, "stats": {"median": 9.654, "iqr": 0.0412}}\n')
    built = make_site(BuildConfig(source=source, out=tmp_path / "site", today=TODAY,
                                  compiled=TEMPLATES)).files
    for board, lang in (("benchmarks/index.html", "en"), ("fr/benchmarks/index.html", "fr")):
        latest = parse(built[board]).find("tr", id="row-benchmarks-noisy").find(
            class_="latest").text()
        assert latest == ("177\u00a0ms (σ\u00a0129\u00a0ms, n\u00a0=\u00a010)" if lang == "en"
                          else "177\u202fms (σ\u00a0129\u202fms, n\u00a0=\u00a010)")
    tail = parse(built["benchmarks/index.html"]).find("tr", id="row-benchmarks-tail")
    assert tail.find(class_="latest").text() == (
        "9.654\u00a0ms (IQR\u00a00.0412\u00a0ms, n\u00a0=\u00a06,991)")
    rows = parse(built["benchmarks/noisy/index.html"]).find(
        "table", class_="points").find_all("tr")
    assert [r.find_all("td")[3].text() for r in rows[1:]] == [
        "177\u00a0ms (σ\u00a0129\u00a0ms, n\u00a0=\u00a010)",
        "140.61\u00a0ms (σ\u00a03.79\u00a0ms, n\u00a0=\u00a05)"]


def test_points_a_thousand_times_below_the_newest_keep_three_digits(tmp_path: Path) -> None:
    """A pytest-benchmark series of 23.5 us a lookup, then 1,977 us after a regression,
    is shown in ms: its early points printed 0.024 ms each (23.51 and 23.74 us alike)
    beside quartiles of 0.000686 ms. Each keeps three significant digits; the newest
    keeps the series' decimals."""
    source = history_source(tmp_path / "src")
    points = [(23.511, 0.000413), (23.533, 0.000445), (23.735, 0.000686), (1995.1, 0.0577),
              (2042.4, 0.0474), (1977.3, 0.0925)]
    (source / "data" / "history" / "measurements.lookup.jsonl").write_text("".join(
        json.dumps({"commit": commit(i), "date": f"2026-10-{i + 1:02d}", "machine": "test-pc",
                    "value": value, "unit": "us", "n": 40,
                    "stats": {"median": value, "iqr": round(iqr * 1000, 3)}}) + "\n"
        for i, (value, iqr) in enumerate(points)), "utf-8")
    built = make_site(BuildConfig(source=source, out=tmp_path / "site", today=TODAY,
                                  compiled=TEMPLATES)).files
    rows = parse(built["benchmarks/lookup/index.html"]).find(
        "table", class_="points").find_all("tr")
    assert [r.find_all("td")[3].text().split(" (")[0] for r in rows[1:]] == [
        "1.977\u00a0ms", "2.042\u00a0ms", "1.995\u00a0ms", "0.0237\u00a0ms",
        "0.0235\u00a0ms", "0.0235\u00a0ms"]

def test_a_dashboard_in_a_section_heads_its_parts_a_level_below(tmp_path: Path) -> None:
    """On its own page the dashboard's parts are h2, under the page's title; placed in a
    page's section (`## Benchmarks`), they were h2 as well, beside that section instead of
    in it: they are h3 there, and h2 again under the title."""
    source = history_source(tmp_path / "src")
    for lang, title in (("en", "Benchmarks"), ("fr", "Mesures")):
        page = source / "content" / lang / "index.md"
        page.write_text(page.read_text("utf-8") + f"\n## {title}\n\n{{{{< dashboard >}}}}\n",
                        "utf-8")
    built = make_site(BuildConfig(source=source, out=tmp_path / "site", today=TODAY,
                                  compiled=TEMPLATES)).files
    for home, board in (("index.html", "benchmarks/index.html"),
                        ("fr/index.html", "fr/benchmarks/index.html")):
        assert parse(built[home]).find(id="steps").tag == "h3"
        assert parse(built[home]).find(id="group-launch").tag == "h3"
        assert parse(built[board]).find(id="steps").tag == "h2"


# A real nightly run of sqlite3 under hyperfine (ms): an index dropped at the 20th
# commit, then a neighbour loading the shared machine from the 23rd on.
LOOKUP = (1.5174, 3.964, 1.421, 1.3803, 1.428, 1.5152, 2.15, 3.88, 1.48, 1.46, 3.9, 2.73,
          1.4078, 1.4916, 7.06, 1.5101, 1.4632, 1.5251, 1.504, 8.27, 8.547, 7.829, 15.89,
          34.6, 7.935, 19.46, 17.97, 12.39, 16.27, 15.48)


def test_a_step_is_placed_at_its_commit_when_the_new_level_is_noisier(
        tmp_path: Path) -> None:
    """Ten times slower at the 20th commit, and noisier three commits later: fitted in ms,
    the wide new level pulled the cut three commits late, and the step's range
    (22nd..23rd) left out the commit that made it. Fitted on ratios, it is that commit."""
    source = history_source(tmp_path / "src")
    (source / "data" / "history" / "measurements.lookup.jsonl").write_text(
        "".join(line(i, v) + "\n" for i, v in enumerate(LOOKUP)), encoding="utf-8")
    built = make_site(BuildConfig(source=source, out=tmp_path / "site", today=TODAY,
                                  compiled=TEMPLATES)).files
    steps = parse(built["benchmarks/index.html"]).find_all("tr", class_="step")
    cells = [[c.text() for c in s.find_all("td")[:2]] for s in steps
             if s.find("th").text() == "lookup"]
    # Its ratio to three significant digits, as a study's (two decimals were 1,237.32 times).
    assert cells == [[f"{commit(18)}..{commit(19)}", "10.3\u00a0times"]]


def test_a_group_is_headed_by_its_title_in_each_language(tmp_path: Path) -> None:
    """A nightly dashboard of two groups, `cli` and `py`, headed those ids in both
    languages; `site.groups` gives each group its words (a group without one keeps its
    id)."""
    source = history_source(tmp_path / "src")
    site = source / "data" / "site.yaml"
    site.write_text(site.read_text("utf-8").replace("site:\n", (
        "site:\n  groups:\n    - id: launch\n"
        "      title: {en: Start-up, fr: Démarrage}\n"), 1), "utf-8")
    built = make_site(BuildConfig(source=source, out=tmp_path / "site", today=TODAY,
                                  compiled=TEMPLATES)).files
    for board, title, caption in (
            ("benchmarks/index.html", "Start-up", "Benchmarks of the group Start-up"),
            ("fr/benchmarks/index.html", "Démarrage", "Bancs d'essai du groupe Démarrage")):
        page = parse(built[board])
        assert page.find(id="group-launch").text() == title
        assert page.find("caption", id="group-launch-caption").text() == caption
        assert page.find(id="group-parse").text() == "parse"


def test_a_group_title_no_series_takes_is_told(tmp_path: Path) -> None:
    """A title for 'lanch' headed nothing, and the dashboard showed the bare 'launch':
    a warning at its id, with the group it most likely meant."""
    source = history_source(tmp_path / "src")
    site = source / "data" / "site.yaml"
    site.write_text(site.read_text("utf-8").replace("site:\n", (
        "site:\n  groups:\n    - id: lanch\n"
        "      title: {en: Start-up, fr: Démarrage}\n"), 1), "utf-8")
    result = run_build(source, tmp_path / "site", [])
    assert result.status == 0
    assert result.stderr.startswith(
        "data/site.yaml:5:11: warning: site.groups[0].id: no benchmark series is in the "
        "group 'lanch'\n        - id: lanch\n              ^\n    hint: did you mean "
        "'launch'?\n"), result.stderr


def test_a_group_title_no_series_takes_is_told_ok(tmp_path: Path) -> None:
    source = history_source(tmp_path / "src")
    site = source / "data" / "site.yaml"
    site.write_text(site.read_text("utf-8").replace("site:\n", (
        "site:\n  groups:\n    - id: launch\n"
        "      title: {en: Start-up, fr: Démarrage}\n"), 1), "utf-8")
    result = run_build(source, tmp_path / "site", ["--strict"])
    assert (result.status, result.stderr) == (0, "")


LINE = ('{"commit": "abcdef1", "date": "2026-11-08", "machine": "box", "value": 5.5, '
        '"unit": "ms"}\n')


def test_a_history_file_that_links_outside_is_refused(tmp_path: Path) -> None:
    """The folder is asked once whether it leads out of the source; each file is still
    asked whether it is a link itself."""
    root, outside = tmp_path / "src", tmp_path / "outside.jsonl"
    (root / "data" / "history").mkdir(parents=True)
    outside.write_text(LINE, "utf-8")
    (root / "data" / "history" / "measurements.a.jsonl").write_text(LINE, "utf-8")
    (root / "data" / "history" / "measurements.b.jsonl").symlink_to(outside)
    series, problems = load_history(root)
    assert [s.key for s in series] == ["measurements.a"]
    assert [p.render() for p in problems] == [
        "data/history/measurements.b.jsonl: this file links to a place outside the source "
        "folder\n    hint: copy the file into the folder instead of linking to it"]


def test_a_history_file_that_links_outside_is_refused_ok(tmp_path: Path) -> None:
    root = tmp_path / "src"
    (root / "data" / "history").mkdir(parents=True)
    (root / "data" / "history" / "measurements.a.jsonl").write_text(LINE, "utf-8")
    (root / "data" / "history" / "measurements.b.jsonl").write_text(LINE, "utf-8")
    series, problems = load_history(root)
    assert [s.key for s in series] == ["measurements.a", "measurements.b"]
    assert problems == []


@pytest.mark.parametrize("deep", ["[" * 100_000 + "]" * 100_000,
                                  '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}",
                                  '{"a": ' * 100_000 + "1" + "}" * 100_000])
def test_a_line_nested_too_deep_is_told_at_its_line_alone(tmp_path: Path, deep: str) -> None:
    """A file whose only line is refused says why at that line, not that it has no
    point (a file-wide message, printed first, that hid the line's)."""
    (tmp_path / "data" / "history").mkdir(parents=True)
    (tmp_path / "data" / "history" / "measurements.a.jsonl").write_text(deep + "\n", "utf-8")
    series, problems = load_history(tmp_path)
    assert series == ()
    assert [(p.location.file, p.location.line, p.message) for p in problems] == [
        ("data/history/measurements.a.jsonl", 1, "lists and objects nested more than 64 levels")]


def test_a_line_nested_too_deep_is_told_at_its_line_alone_ok(tmp_path: Path) -> None:
    """A file of no line at all is still told it has no point."""
    (tmp_path / "data" / "history").mkdir(parents=True)
    (tmp_path / "data" / "history" / "measurements.a.jsonl").write_text("\n", "utf-8")
    series, problems = load_history(tmp_path)
    assert series == ()
    assert [p.message for p in problems] == ["this history file has no point"]


def microsecond_source(root: Path, unit: str) -> Path:
    """The history site, its start-up series written in us (800 us, growing to 14 ms),
    as import keeps the first line's unit; `unit` written in its YAML entry, if any."""
    source = history_source(root)
    history = source / "data" / "history" / "measurements.startup.jsonl"
    lines = [json.loads(text) for text in history.read_text("utf-8").splitlines()]
    for i, point in enumerate(lines):
        point.update(value=800 + i * 456.5 if i < POINTS - 1 else 14040, unit="us",
                     spread=12.5)
    history.write_text("".join(json.dumps(p) + "\n" for p in lines), "utf-8")
    studies = source / "data" / "studies.yaml"
    studies.write_text(studies.read_text("utf-8").replace(
        "    figure: {method:", f"    figure: {{unit: {unit}, method:" if unit else
        "    figure: {method:", 1), "utf-8")
    return source


@pytest.mark.parametrize(("unit", "said", "row", "shown"), [
    # The newest point, 14,040 us, is 14.04 ms: every point is printed in ms.
    ("", "Start-up now takes 14.04\u00a0ms", "13.582\u00a0ms", "ms"),
    # A unit written in the YAML is the one shown, when both are durations.
    ("us", "Start-up now takes 14,040\u00a0μs", "13,582.0\u00a0μs", "us"),
])
def test_a_series_of_times_is_shown_in_one_unit(tmp_path: Path, unit: str, said: str,
                                                row: str, shown: str) -> None:
    """A series whose file is in us but whose newest points are ms prints each point in
    ms (not `14,040 μs`), converted in decimal; the file's unit stays the file's."""
    source = microsecond_source(tmp_path / "src", unit)
    built = make_site(BuildConfig(source=source, out=tmp_path / "site", today=TODAY,
                                  compiled=TEMPLATES)).files
    assert said in parse(built["index.html"].decode("utf-8")).text()
    page = parse(built["benchmarks/startup/index.html"].decode("utf-8")).text()
    assert row in page  # the point before the newest: 800 + 28 * 456.5 us
    assert ("μs" in page) is (shown == "us")
    data = json.loads(built["data.json"])
    (series,) = [s for s in data["series"] if s["key"] == "measurements.startup"]
    assert series["unit"] == shown
    assert '"unit": "us"' in (source / "data" / "history" /
                              "measurements.startup.jsonl").read_text("utf-8")


def test_a_young_step_shows_the_p_value_of_the_readings_that_let_it_through(
        tmp_path: Path) -> None:
    """Six commits, each of five readings: three at 100 ms, then three 50 % slower. The
    commits' rank test cannot pass so few (p = 0.5 after its correction), the levels
    stand apart and the readings' test passes: that p-value is the step's evidence. The
    row read "p = 0.5000" beside "Regressed"."""
    source = history_source(tmp_path / "src")
    lines = [line(i, level, samples=[round(level * (1 + NOISE[(i * 5 + k) % 20]), 2)
                                     for k in range(5)])
             for i, level in enumerate([100.0] * 3 + [150.0] * 3)]
    (source / "data" / "history" / "measurements.young.jsonl").write_text(
        "\n".join(lines) + "\n", encoding="utf-8")
    built = make_site(BuildConfig(source=source, out=tmp_path / "site", today=TODAY))
    for path, shown in (("benchmarks/index.html", "p\u00a0<\u00a00.0001 (readings)"),
                        ("fr/benchmarks/index.html", "p\u00a0<\u00a00,0001 (relevés)")):
        page = parse(built.files[path])
        row = next(r for r in page.find_all("tr", class_="step")
                   if r.find("a").attrs["href"] == "young/index.html")
        cells = [c.text() for c in row.find_all("td")]
        assert cells[-2:] == [shown, "Regressed" if path[0] == "b" else "Dégradé"]
    startup = [c.text() for c in parse(built.files["benchmarks/index.html"]).find_all(
        "tr", class_="step")[0].find_all("td")]
    assert "readings" not in startup[-2]  # thirty commits pass the commits' own test
