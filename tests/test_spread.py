"""A point's value is printed with a spread of its own family, and says which: a median
with its interquartile range (as asv prints a median), a mean or a point without
quartiles with its standard deviation, σ. Real tools' output imported, then built."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from progress_site.cli import main

from .dom import Node, parse
from .test_cases import SOURCE_DATE_EPOCH, run_build
from .test_record import smallest_site

SAMPLES = Path(__file__).parent / "samples"
PAUSES = SAMPLES / "pytest-benchmark-pauses.json"
SERIES = "p-test-sum-with-pauses"
NBSP, NNBSP = "\u00a0", "\u202f"


def imported(tmp_path: Path, fmt: str, sample: Path, *args: str) -> dict[str, bytes]:
    """A small site with one tool's output imported, built: its files by path."""
    return imported_into(smallest_site(tmp_path), tmp_path / "site", sample, fmt, *args)


def imported_into(source: Path, out: Path, sample: Path, fmt: str = "pytest-benchmark",
                  *args: str) -> dict[str, bytes]:
    """`source` with one tool's output imported, built into `out`: its files by path."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
        assert main(["import", fmt, str(sample), "--source", str(source), "--yes",
                     "--machine", "test-pc", "--commit", "c38a01e", "--date", "2026-11-20",
                     *args]) == 0
    result = run_build(source, out, [])
    assert result.status == 0, result.stderr
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*")
            if p.is_file()}


def latest(page: Node) -> list[str]:
    """The latest values: the dashboard's row by row, or the one heading a series' page."""
    return [node.text() for node in page.find_all(class_="latest")]


def legend(page: Node) -> list[str]:
    """What the page says its spreads are."""
    return [p.text() for p in page.find_all("p", class_="spread-legend")]


@pytest.fixture(scope="module")
def pauses(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """pytest-benchmark on a shared runner: 5 slow rounds of 40 put its standard
    deviation at 30 times the median."""
    return imported(tmp_path_factory.mktemp("pauses"), "pytest-benchmark", PAUSES,
                    "--id", "p")


@pytest.mark.parametrize(("folder", "expected", "words"), [
    ("", f"23.332{NBSP}μs (IQR{NBSP}0.998{NBSP}μs, n{NBSP}={NBSP}40)",
     "IQR: the interquartile range of the runs, where the middle half of them lie (the "
     "spread of a median, which a few slow runs do not widen)."),
    ("fr/", f"23,332{NNBSP}μs (EIQ{NBSP}0,998{NNBSP}μs, n{NBSP}={NBSP}40)",
     f"EIQ{NBSP}: l'écart interquartile des mesures, où se trouve la moitié centrale d'entre "
     "elles (la dispersion d'une médiane, que quelques mesures lentes n'élargissent pas)."),
])
def test_a_median_is_shown_with_its_interquartile_range(
        pauses: dict[str, bytes], folder: str, expected: str, words: str) -> None:
    """Not `23 μs ± 695 μs`: the deviation of a few slow rounds beside a median they
    do not move (and cutting the median at that deviation's digits)."""
    for path in (f"{folder}benchmarks/index.html", f"{folder}benchmarks/{SERIES}/index.html"):
        page = parse(pauses[path])
        assert latest(page) == [expected]
        assert legend(page) == [words]
        assert "695" not in page.text()
    table = parse(pauses[f"{folder}benchmarks/{SERIES}/index.html"]).find(
        "table", class_="points")
    assert [r.find_all("td")[3].text() for r in table.find("tbody").find_all("tr")] == [
        expected]


def test_data_json_says_which_spread_a_point_shows(pauses: dict[str, bytes]) -> None:
    """`spread` stays the tool's deviation; `iqr` is what the pages show beside a median."""
    (series,) = json.loads(pauses["data.json"])["series"]
    (point,) = series["points"]
    assert (point["spread"], point["spread_kind"], point["iqr"]) == (695, "stddev", 0.998)


@pytest.mark.parametrize(("folder", "expected", "words"), [
    ("", f"282{NBSP}μs (σ{NBSP}695{NBSP}μs, n{NBSP}={NBSP}40)",
     "σ: the standard deviation of the runs (the spread of a mean, which a few slow runs "
     "widen)."),
    ("fr/", f"282{NNBSP}μs (σ{NBSP}695{NNBSP}μs, n{NBSP}={NBSP}40)",
     f"σ{NBSP}: l'écart type des mesures (la dispersion d'une moyenne, que quelques mesures "
     "lentes élargissent)."),
])
def test_a_mean_is_shown_with_its_standard_deviation(
        tmp_path: Path, folder: str, expected: str, words: str) -> None:
    """The same run kept as its mean (`--stat mean`): the deviation is the mean's."""
    files = imported(tmp_path, "pytest-benchmark", PAUSES, "--id", "p", "--stat", "mean")
    page = parse(files[f"{folder}benchmarks/index.html"])
    assert (latest(page), legend(page)) == ([expected], [words])
    (point,) = json.loads(files["data.json"])["series"][0]["points"]
    assert "iqr" not in point and point["spread_kind"] == "stddev"


def test_a_point_without_quartiles_keeps_its_deviation_said_to_be_one(
        tmp_path: Path) -> None:
    """A run record of one value and its `stddev`: nothing to take quartiles of."""
    files = imported(tmp_path, "jsonl", SAMPLES / "runs.jsonl")
    page = parse(files["benchmarks/index.html"])
    assert f"412.5{NBSP}ms (σ{NBSP}41.2{NBSP}ms, n{NBSP}={NBSP}10)" in latest(page)


def test_import_prints_the_point_as_its_pages_do(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The console line names the spread beside the value, as the page will."""
    imported(tmp_path, "pytest-benchmark", PAUSES, "--id", "p")
    assert capsys.readouterr().out.splitlines()[0] == (
        "measurements.p-test-sum-with-pauses: 23.332 us (IQR 0.998 us, n = 40), status "
        "measured (the runs vary by 3.2 %, within 5 %)")


def test_import_names_a_deviation_sigma(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    imported(tmp_path, "jsonl", SAMPLES / "runs.jsonl")
    assert "measurements.parse-large: 412.5 ms (σ 41.2 ms, n = 10), status watch" in \
        capsys.readouterr().out


def test_record_prints_a_history_point_with_its_quartiles(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`record measurement --history --samples`: the readings' median, and their IQR."""
    source = smallest_site(tmp_path)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
        assert main(["record", "measurement", "x", "--history", "--samples",
                     "10,11,12,13,30", "--unit", "ms", "--machine", "test-pc", "--commit",
                     "c38a01e", "--date", "2026-11-20", "--yes", "--source",
                     str(source)]) == 0
    assert capsys.readouterr().out.startswith(
        "measurements.x: 12 ms (IQR 11 ms, n = 5), status watch")


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", f"p50{NBSP}23.332{NBSP}μs · IQR{NBSP}0.998{NBSP}μs · mean{NBSP}282.381{NBSP}μs"
           f"{NBSP}±{NBSP}695{NBSP}μs (n{NBSP}={NBSP}40)"),
    ("fr", f"p50{NBSP}23,332{NNBSP}μs · EIQ{NBSP}0,998{NNBSP}μs · moyenne{NBSP}282,381{NNBSP}"
           f"μs{NBSP}±{NBSP}695{NNBSP}μs (n{NBSP}={NBSP}40)"),
])
def test_the_series_figure_names_its_spreads(tmp_path: Path, lang: str,
                                             expected: str) -> None:
    """`{{ measurements.ID }}` of a history: the median with its IQR; the mean, said to
    be one, with its σ (was `p50 23.332 μs · 282.381 μs ± 695 μs`)."""
    source = smallest_site(tmp_path)
    page = source / "content" / lang / "index.md"
    page.write_text(page.read_text() + "\n{{ measurements.p-test-sum-with-pauses }}\n")
    files = imported_into(source, tmp_path / "site", PAUSES, "pytest-benchmark", "--id", "p")
    text = parse(files["index.html" if lang == "en" else "fr/index.html"]).text()
    assert expected in text


def test_the_pull_request_summary_names_the_spread(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The summary's row of a series' figure: its median and that median's IQR."""
    source = smallest_site(tmp_path)
    old = tmp_path / "old"
    assert run_build(source, old, []).status == 0
    imported_into(source, tmp_path / "site", PAUSES, "pytest-benchmark", "--id", "p")
    capsys.readouterr()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
        assert main(["--source", str(source), "--changes", str(old), "--format",
                     "markdown"]) == 0
    assert "| none -> 23.332 us (IQR 0.998 us) |" in capsys.readouterr().out


@pytest.mark.parametrize(("folder", "expected", "words"), [
    ("", f"10.2{NBSP}ms (99% interval{NBSP}±{NBSP}0.4{NBSP}ms)",
     "99% interval: the median lies within ± this, as the tool estimated it."),
    ("fr/", f"10,2{NNBSP}ms (intervalle à 99{NBSP}%{NBSP}±{NBSP}0,4{NNBSP}ms)",
     f"intervalle à 99{NBSP}%{NBSP}: la médiane se trouve à ± cet écart, selon l'estimation de "
     "l'outil."),
])
def test_half_an_interval_is_said_to_be_one(tmp_path: Path, folder: str, expected: str,
                                           words: str) -> None:
    """A line whose `spread` is half the tool's 99 % interval (no deviation given), as
    import writes it: not called a standard deviation."""
    source = smallest_site(tmp_path)
    history = source / "data" / "history"
    history.mkdir()
    (history / "measurements.x.jsonl").write_text(json.dumps(
        {"commit": "c38a01e", "date": "2026-11-20", "machine": "test-pc", "value": 10.2,
         "unit": "ms", "spread": 0.4, "stats": {"ci_99_low": 9.8, "ci_99_high": 10.6}}) + "\n")
    result = run_build(source, tmp_path / "site", [])
    assert result.status == 0, result.stderr
    page = parse((tmp_path / "site" / folder / "benchmarks" / "index.html").read_bytes())
    assert (latest(page), legend(page)) == ([expected], [words])


def test_the_plain_changes_print_a_narrow_spread_to_its_digits(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--changes` lists a distribution's parts at its headline's decimals; a spread
    narrower than that keeps its own third digit (an IQR of 0.998 read `1.0` beside a
    median of 24.1)."""
    source = smallest_site(tmp_path)
    old = tmp_path / "old"
    assert run_build(source, old, []).status == 0
    history = source / "data" / "history"
    history.mkdir()
    (history / "measurements.x.jsonl").write_text(json.dumps(
        {"commit": "c38a01e", "date": "2026-11-20", "machine": "test-pc", "value": 24.1,
         "unit": "us", "n": 40, "stats": {"median": 24.1, "mean": 282.4, "stddev": 695,
                                          "iqr": 0.998}}) + "\n")
    capsys.readouterr()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
        assert main(["--source", str(source), "--changes", str(old)]) == 0
    assert ("- new figure measurements.x: p50 24.1 us · mean 282.4 us · sd 695.0 us · "
            "iqr 0.998 us (n = 40) (measured)") in capsys.readouterr().out.splitlines()
