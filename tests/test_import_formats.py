"""The importers added with the package: asv, criterion.rs, go test -bench and
github-action-benchmark's data.js, failed runs, and the machines an import fills.

Each reads a real file of its tool (tests/samples/README.md says how each was made);
criterion's and data.js follow their documented formats, written by hand (no crates
registry nor GitHub Action here)."""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from progress_site.cli import main
from progress_site.record.importers import FORMATS, ImportFailed, read_results

from .conftest import SOURCE_DATE_EPOCH, TEMPLATES
from .test_record import hashes, smallest_site

SAMPLES = Path(__file__).parent / "samples"
ASV = SAMPLES / "asv" / "results" / "vm" / \
    "dd92e12d-existing-py_tmp_imp_asv_venv_bin_python3.json"


@pytest.fixture
def source(tmp_path: Path) -> Path:
    """The smallest site with the example's machines and commits: an import reads every
    data file of its source, and the tests that take it are about what one import writes
    or refuses, not the example's other data."""
    return smallest_site(tmp_path)


def run(source: Path, fmt: str, path: Path, *args: str) -> int:
    """`import FORMAT FILE` into a copy of the example, with --yes."""
    return main(["import", fmt, str(path), "--source", str(source), "--yes", *args])


# -- go test -bench -----------------------------------------------------------------------

def test_go_test_count_gives_one_result_with_its_readings() -> None:
    results = read_results("go-test", SAMPLES / "gotest-bench.txt", "go.txt")
    assert [(r.name, r.unit, r.runs, len(r.samples)) for r in results] == [
        ("Sum", "ns", 5, 5), ("Join", "ns", 5, 5),
        ("Sort/n=16", "ns", 5, 5), ("Sort/n=256", "ns", 5, 5)]
    join = results[1]
    assert join.samples == tuple(Decimal(x) for x in ("208.8", "72.53", "46.43", "93.45",
                                                      "88.47"))
    assert join.value == Decimal("88.47")  # the median: the first, slow run does not lead
    assert join.facts == ("AMD EPYC", "linux/amd64")


@pytest.mark.slow  # go compiles its test runner from an empty cache: CI runs it
@pytest.mark.skipif(shutil.which("go") is None, reason="go is not installed")
def test_go_test_fresh_output(tmp_path: Path) -> None:
    shutil.copy(SAMPLES / "gotest" / "tiny_test.go", tmp_path)
    (tmp_path / "go.mod").write_text("module example.com/tiny\n\ngo 1.19\n")
    done = subprocess.run(["go", "test", "-bench", "Join", "-count", "3", "-benchtime",
                           "100x", "-run", "^$"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, check=True,
                          env={**os.environ, "GOCACHE": str(tmp_path / "cache"),
                               "GOFLAGS": "-mod=mod"})
    (tmp_path / "out.txt").write_text(done.stdout)
    [join] = read_results("go-test", tmp_path / "out.txt", "out.txt")
    # Named as benchstat prints it: `Join`, not `BenchmarkJoin`.
    assert (join.name, join.runs, len(join.samples), join.unit) == ("Join", 3, 3, "ns")


def test_go_test_metrics_and_rewritten_names(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """go 1.19.8's own output with -benchmem, SetBytes and ReportMetric (the time per
    operation is the figure, wherever it stands among the metrics) and sub-benchmarks whose
    names go rewrote: a space as `_`, an escape spelled out (`\\x1b`, four characters),
    markup kept, which reaches a page only in its series' id (`go-names-b-bold-b`)."""
    from progress_site.pipeline import BuildConfig, make_site

    from .conftest import TODAY

    results = read_results("go-test", SAMPLES / "gotest-metrics.txt", "go.txt")
    assert [(r.name, str(r.value), r.unit, r.runs) for r in results] == [
        ("Copy", "1705.0", "ns", 3), ("Names/size_1.5KB", "0.2625", "ns", 3),
        ("Names/tab_here", "0.1745", "ns", 3), ("Names/esc\\x1b[31m", "0.199", "ns", 3),
        ("Names/<b>bold</b>", "0.2685", "ns", 3)]
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    assert run(source, "go-test", SAMPLES / "gotest-metrics.txt", "--id", "go",
               "--machine", "test-pc", "--commit", "c38a01e") == 0, capsys.readouterr().err
    files = make_site(BuildConfig(source=source, out=tmp_path / "site", today=TODAY,
                                  compiled=TEMPLATES)).files
    pages = b"".join(body for name, body in files.items() if name.endswith(".html"))
    assert b"<b>bold" not in pages and b"\x1b" not in pages
    assert b"<h1>go-names-b-bold-b</h1>" in pages  # its series' page, named by its id


@pytest.mark.parametrize(("text", "message"), [
    ("goos: linux\nBenchmarkA-2  10  5 ns/op\n--- FAIL: BenchmarkB\n    x_test.go:9: boom\n",
     "go.txt:3:1: the run failed: --- FAIL: BenchmarkB"),
    ("BenchmarkA-2  10  5 B/op\n", "go.txt:1:19: benchmark 'BenchmarkA' has no time per "
     "operation (ns/op)"),
    ("PASS\nok  \tx\t0.1s\n", "go.txt: not `go test -bench` output: no `BenchmarkX  N  T "
     "ns/op` line"),
])
def test_go_test_refused(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "go.txt").write_text(text)
    with pytest.raises(ImportFailed) as caught:
        read_results("go-test", tmp_path / "go.txt", "go.txt")
    assert caught.value.render().splitlines()[0] == message


def test_go_test_packages_keep_their_benchmarks_apart(tmp_path: Path) -> None:
    """`go test -bench . ./...`: the same name in two packages is two results."""
    text = (SAMPLES / "gotest-bench.txt").read_text()
    (tmp_path / "go.txt").write_text(text + text.replace("example.com/tiny",
                                                         "example.com/tiny/sub"))
    results = read_results("go-test", tmp_path / "go.txt", "go.txt")
    assert [(r.name, r.runs) for r in results][:2] == [
        ("example.com/tiny.Sum", 5), ("example.com/tiny.Join", 5)]
    assert results[4].name == "example.com/tiny/sub.Sum" and len(results) == 8


def test_go_test_refused_ok_twin(tmp_path: Path) -> None:
    (tmp_path / "go.txt").write_text("BenchmarkA-2  10  5 ns/op  8 B/op  1 allocs/op\n"
                                     "--- BENCH: BenchmarkA-2\nPASS\n")
    [result] = read_results("go-test", tmp_path / "go.txt", "go.txt")
    assert (result.name, result.value, result.unit) == ("A", Decimal(5), "ns")


def test_go_test_ids_are_named_as_benchstat_names_them(
        source: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`BenchmarkSort/n=16` makes `go-sort-n-16`, not `go-benchmarksort-n-16`."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    assert run(source, "go-test", SAMPLES / "gotest-bench.txt", "--machine", "test-pc",
               "--commit", "c38a01e", "--id", "go") == 0, capsys.readouterr().err
    assert sorted(histories(source)) == ["go-join", "go-sort-n-16", "go-sort-n-256",
                                         "go-sum"]


def test_go_test_history_under_the_former_id_goes_on(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A series an earlier import kept as `go-benchmarkjoin` gets the new point there: its
    history is not left behind; the benchmarks new to the site take the short ids."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    (tmp_path / "old.jsonl").write_text('{"id": "benchmarkjoin", "value": 90.1, "unit": '
                                        '"ns", "commit": "57930e6", "date": "2026-11-01"}\n')
    assert run(source, "jsonl", tmp_path / "old.jsonl", "--machine", "test-pc",
               "--id", "go") == 0, capsys.readouterr().err
    assert run(source, "go-test", SAMPLES / "gotest-bench.txt", "--machine", "test-pc",
               "--commit", "c38a01e", "--id", "go") == 0, capsys.readouterr().err
    found = histories(source)
    assert sorted(found) == ["go-benchmarkjoin", "go-sort-n-16", "go-sort-n-256", "go-sum"]
    assert [p["commit"] for p in found["go-benchmarkjoin"]] == ["57930e6", "c38a01e"]


def go_data_js(tmp_path: Path, names: list[str]) -> Path:
    """A data.js of one suite whose one entry is the action's `go` tool's, at c38a01e."""
    benches = [{"name": n, "value": 74.23 + i, "unit": "ns/op"} for i, n in enumerate(names)]
    entry = {"commit": {"id": "c38a01e9f8e7d6c5b4a392817069f5e4d3c2b1a0",
                        "timestamp": "2026-11-20T18:02:11Z"},
             "date": 1795200300000, "tool": "go", "benches": benches}
    path = tmp_path / "data.js"
    path.write_text("window.BENCHMARK_DATA = " + json.dumps({"entries": {"Go": [entry]}}))
    return path


def test_data_js_go_benches_take_go_tests_ids(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The action's go benches are the series `import go-test` then goes on in: one id
    per benchmark, whichever of the two imported it, GOMAXPROCS suffix or not."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    data_js = go_data_js(tmp_path, ["BenchmarkJoin-8", "BenchmarkSort/n=16-8", "BenchmarkSum",
                                    "BenchmarkSum - B/op", "Benchmark"])
    assert run(source, "github-action-benchmark", data_js, "--machine", "test-pc",
               "--id", "go") == 0, capsys.readouterr().err
    (tmp_path / "go.txt").write_text("BenchmarkJoin-8  10  70 ns/op\n"
                                     "BenchmarkSort/n=16-8  10  80 ns/op\n")
    assert run(source, "go-test", tmp_path / "go.txt", "--machine", "test-pc",
               "--commit", "4f0d3b2", "--id", "go") == 0, capsys.readouterr().err
    found = histories(source)
    assert sorted(found) == ["go-benchmark", "go-join", "go-sort-n-16", "go-sum",
                             "go-sum-b-op"]
    assert [p["commit"] for p in found["go-join"]] == ["c38a01e", "4f0d3b2"]
    assert [p["commit"] for p in found["go-sort-n-16"]] == ["c38a01e", "4f0d3b2"]


def test_data_js_go_history_under_the_former_id_goes_on(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A series an earlier import of data.js kept as `go-benchmarkjoin` gets the new
    points there; the action's other tools keep their names as written."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    (tmp_path / "old.jsonl").write_text('{"id": "benchmarkjoin", "value": 90.1, "unit": '
                                        '"ns", "commit": "57930e6", "date": "2026-11-01"}\n')
    assert run(source, "jsonl", tmp_path / "old.jsonl", "--machine", "test-pc",
               "--id", "go") == 0, capsys.readouterr().err
    assert run(source, "github-action-benchmark", go_data_js(tmp_path, ["BenchmarkJoin"]),
               "--machine", "test-pc", "--id", "go") == 0, capsys.readouterr().err
    found = histories(source)
    assert sorted(found) == ["go-benchmarkjoin"]
    assert [p["commit"] for p in found["go-benchmarkjoin"]] == ["57930e6", "c38a01e"]


def test_a_large_import_prints_the_first_lines_and_counts_the_rest(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An import of many benchmarks prints the first lines of each list (the figures, what
    was added) and how many more, not a line per benchmark; every one is written."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    count = 1_025
    (tmp_path / "many.jsonl").write_text("".join(
        json.dumps({"id": f"b{i}", "value": 10 + i % 7, "unit": "ms", "commit": "c38a01e",
                    "date": "2026-11-20"}) + "\n" for i in range(count)))
    assert run(source, "jsonl", tmp_path / "many.jsonl", "--machine", "test-pc",
               "--id", "x") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "measurements.x-b0: 10 ms, status measured"
    assert out[19:22] == ["measurements.x-b19: 15 ms, status measured",
                          "and 1,005 more figures",
                          "measurements.x-b0: 1 point added (now 1 point), on its page "
                          "benchmarks/x-b0/index.html"]
    assert out[41] == "and 1,005 more notes"
    assert out[42].startswith("Wrote 1,025 figures to data/history/measurements.x-b0.jsonl")
    assert out[42].endswith(" and 1,015 more files.")
    assert out[43:] == ["The data is valid."]
    assert len(histories(source)) == count


# -- asv ------------------------------------------------------------------------------------

def test_asv_results_file() -> None:
    results = read_results("asv", ASV, "asv.json")
    assert [(r.name, r.unit, r.runs) for r in results] == [
        ("bench.TimeSuite.time_sum(10)", "s", 10), ("bench.TimeSuite.time_sum(1000)", "s", 10),
        ("bench.time_sorted", "s", 10), ("bench.mem_list", "B", 1),
        ("bench.track_answer", None, 1)]
    first = results[0]
    assert first.value == Decimal("2.1584719999964364e-06")
    assert set(first.stats) == {"median", "q1", "q3", "ci_99_low", "ci_99_high"}
    assert (first.commit, first.machine, str(first.date)) == ("dd92e12", "vm", "2026-12-01")
    assert first.facts == ("AMD EPYC, 2 CPUs", "Linux 6.18.44-fc-v857 x86_64",
                           "24 GiB of memory")
    assert first.cv is not None  # from its quartiles: asv gives no standard deviation


ASV_HISTORY = SAMPLES / "asv-history" / "results"


@pytest.mark.parametrize("folder", [ASV_HISTORY, ASV_HISTORY / "vm"])
def test_an_asv_results_folder_migrates_oldest_first(
        source: Path, folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Four commits' results, whose file names (by hash) are not in date order: one
    import writes them all, oldest first, as data.js migrates."""
    assert [p.name[:7] for p in sorted((ASV_HISTORY / "vm").glob("*-*.json"))] == [
        "1675e92", "481d7c4", "7ab0629", "be9cf10"]
    assert run(source, "asv", folder, "--id", "asv") == 0, capsys.readouterr().err
    found = histories(source)
    assert [(p["commit"], p["date"]) for p in found["asv-bench-time-sorted"]] == [
        ("be9cf10", "2026-11-01"), ("481d7c4", "2026-11-03"), ("7ab0629", "2026-11-05"),
        ("1675e92", "2026-11-08")]
    assert {p["machine"] for p in found["asv-bench-track-answer"]} == {"vm"}
    assert run(source, "asv", folder, "--id", "asv") == 0  # again: nothing new
    assert histories(source) == found


def test_a_folder_without_asv_results_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ImportFailed) as caught:
        read_results("asv", tmp_path, "results")
    assert str(caught.value).startswith("results: no asv results file")


def test_asv_without_benchmarks_json_guesses_units_by_name(tmp_path: Path) -> None:
    (tmp_path / "vm").mkdir()
    shutil.copy(ASV, tmp_path / "vm" / "r.json")
    results = read_results("asv", tmp_path / "vm" / "r.json", "r.json")
    assert [r.unit for r in results] == ["s", "s", "s", "B", None]
    assert results[0].facts == ()  # no machine.json beside it


def test_asv_has_no_mean_to_pick(source: Path, capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    before = hashes(source)
    assert run(source, "asv", ASV, "--stat", "mean") == 1
    assert capsys.readouterr().err == (
        "error: --stat mean: asv gives no mean of 'bench.TimeSuite.time_sum(10)' and no "
        "readings to compute it from (it gives: ci_99_high, ci_99_low, median, q1, q3)\n")
    assert hashes(source) == before


def test_no_statistic_to_pick_by_default_names_what_was_looked_for(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --stat, a benchmark with neither a median, a mean nor readings (Google
    Benchmark's stddev aggregate alone) is refused in the words of what was looked for."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    tool = tmp_path / "gb.json"
    tool.write_text(json.dumps({"context": {}, "benchmarks": [
        {"name": "BM_x_stddev", "run_name": "BM_x", "run_type": "aggregate",
         "aggregate_name": "stddev", "repetitions": 3, "real_time": 1.5, "cpu_time": 1.4,
         "time_unit": "ns", "iterations": 3}]}))
    before = hashes(source)
    assert run(source, "google-benchmark", tool, "--machine", "test-pc",
               "--commit", "c38a01e") == 1
    assert capsys.readouterr().err == (
        "error: google-benchmark gives no median or mean of 'BM_x' and no readings to "
        "compute it from (it gives: stddev)\n")
    assert hashes(source) == before


def test_an_unknown_statistic_is_never_guessed() -> None:
    """`pick` of a statistic --stat does not offer is the caller's error, not the mean."""
    fib = read_results("asv", ASV, "asv.json")[0]
    with pytest.raises(ValueError, match="no statistic 'p99': one of mean, median, min, max"):
        fib.pick("p99")


# -- criterion.rs ----------------------------------------------------------------------------

def test_criterion_folder() -> None:
    fib, sort = read_results("criterion", SAMPLES / "criterion", "target/criterion")
    assert (fib.name, fib.unit, fib.runs, len(fib.samples)) == ("fib/20", "ns", 10, 10)
    assert fib.samples[0] == Decimal("24012.5")  # sample.json's times over its iters
    assert fib.value == fib.stats["median"] == Decimal("24015.55")
    assert set(fib.stats) == {"mean", "median", "stddev", "mad", "slope"}
    assert (sort.name, sort.runs, sort.samples) == ("sort", 1, ())  # no benchmark.json
    assert "slope" not in sort.stats  # null: linear sampling was not used


def test_criterion_one_file() -> None:
    [fib] = read_results("criterion", SAMPLES / "criterion" / "fib" / "20" / "new" /
                         "estimates.json", "estimates.json")
    assert fib.name == "fib/20" and fib.pick("mean") == fib.stats["mean"]


def test_criterion_keeps_its_spread_in_history_and_data_json(
        example_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """criterion's median_abs_dev and slope are kept beside the value, as every tool's
    statistics are (`stats.mad`, `stats.slope`, in the series' unit), and reach data.json."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    assert run(example_copy, "criterion", SAMPLES / "criterion", "--machine", "test-pc",
               "--id", "rs", "--commit", "c38a01e") == 0, capsys.readouterr().err
    told = re.findall(r"on its page (\S+)", capsys.readouterr().out)
    found = {ident: points[0]["stats"] for ident, points in histories(example_copy).items()}
    assert found == {
        "rs-fib-20": {"mean": 24.0464, "median": 24.0156, "stddev": 0.0749, "mad": 0.0387,
                      "slope": 24.0209},
        "rs-sort": {"mean": 812.4, "median": 810.2, "stddev": 15.2, "mad": 6.1}}  # no slope
    out = tmp_path / "out"
    assert main(["--source", str(example_copy), "--out", str(out)], TEMPLATES) == 0
    series = json.loads((out / "data.json").read_bytes())["series"]
    published = {s["key"]: s["points"][0]["stats"] for s in series if "rs-" in s["key"]}
    assert published == {f"measurements.{k}": v for k, v in found.items()}
    # The page each series' line names is built (a dashboard row's anchor may not be).
    assert told == ["benchmarks/rs-fib-20/index.html", "benchmarks/rs-sort/index.html"]
    assert all((out / page).is_file() for page in told)


def test_criterion_not_estimates(tmp_path: Path) -> None:
    (tmp_path / "estimates.json").write_text('{"median": 1}')
    with pytest.raises(ImportFailed) as caught:
        read_results("criterion", tmp_path / "estimates.json", "estimates.json")
    assert caught.value.render().splitlines()[0] == (
        "estimates.json: not criterion estimates.json: no `mean` estimate")


def test_criterion_without_point_estimates(tmp_path: Path) -> None:
    (tmp_path / "estimates.json").write_text('{"mean": {"standard_error": 1}}')
    with pytest.raises(ImportFailed) as caught:
        read_results("criterion", tmp_path / "estimates.json", "estimates.json")
    assert caught.value.render().splitlines()[0] == (
        "estimates.json:1:10: mean: an estimate without `point_estimate`")


# -- github-action-benchmark -----------------------------------------------------------------

def test_data_js_returns_the_whole_history() -> None:
    results = read_results("github-action-benchmark", SAMPLES / "gab-data.js", "data.js")
    assert [(r.name, str(r.value), r.unit, r.commit, str(r.date)) for r in results] == [
        ("Rust Benchmark/fib/20", "24031", "ns", "57930e6", "2026-11-02"),
        ("Rust Benchmark/sort", "815", "ns", "57930e6", "2026-11-02"),
        ("Rust Benchmark/fib/20", "23987", "ns", "c38a01e", "2026-11-20"),
        ("Rust Benchmark/sort", "790", "ns", "c38a01e", "2026-11-20"),
        ("Go Benchmark/Join", "74.23", "ns", "c38a01e", "2026-11-20")]
    assert results[0].stats["plus_minus"] == Decimal(412)  # `± 412`: kept, not a stddev
    assert "plus_minus" not in results[4].stats


def test_data_js_migrates_every_point(
        source: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One import of data.js: every entry of every suite a point at its own commit."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    status = run(source, "github-action-benchmark", SAMPLES / "gab-data.js",
                 "--machine", "test-pc", "--id", "ci")
    out = capsys.readouterr()
    assert status == 0, out.err
    assert out.out.splitlines()[:3] == [
        "measurements.ci-rust-benchmark-fib-20: 23.987 us (the newest of 2 runs), status "
        "measured",
        "measurements.ci-rust-benchmark-sort: 790 ns (the newest of 2 runs), status measured",
        "measurements.ci-go-benchmark-join: 74.23 ns, status measured"]
    assert "measurements.ci-rust-benchmark-sort: 2 points added (now 2 points), on its " \
        "page benchmarks/ci-rust-benchmark-sort/index.html" in out.out
    # 57930e6 is under `commits:` (dated 2026-11-01): the data's date wins over the file's.
    found = {ident: [(p["commit"], p["date"], p["value"], p["unit"]) for p in points]
             for ident, points in histories(source).items()}
    assert found == {
        "ci-rust-benchmark-fib-20": [("57930e6", "2026-11-01", 24.031, "us"),
                                     ("c38a01e", "2026-11-20", 23.987, "us")],
        "ci-rust-benchmark-sort": [("57930e6", "2026-11-01", 815, "ns"),
                                   ("c38a01e", "2026-11-20", 790, "ns")],
        "ci-go-benchmark-join": [("c38a01e", "2026-11-20", 74.23, "ns")]}
    # cargo's `± 412` is kept beside the value (in the series' unit), not as its spread.
    assert [(p.get("stats"), p.get("spread")) for p in histories(source)[
        "ci-rust-benchmark-fib-20"]] == [({"plus_minus": 0.412}, None),
                                         ({"plus_minus": 0.38}, None)]
    written = hashes(source)
    assert run(source, "github-action-benchmark", SAMPLES / "gab-data.js",
               "--machine", "test-pc", "--id", "ci") == 0
    assert hashes(source) == written  # a migration run again adds nothing


def histories(source: Path) -> dict[str, list[dict[str, Any]]]:
    """Every history file of a site, its lines read back as JSON, by series id."""
    return {p.name.removeprefix("measurements.").removesuffix(".jsonl"):
            [json.loads(line) for line in p.read_text().splitlines()]
            for p in sorted((source / "data" / "history").glob("*.jsonl"))}


def test_data_js_without_its_prefix(tmp_path: Path) -> None:
    (tmp_path / "data.js").write_text('{"entries": {}}')
    with pytest.raises(ImportFailed) as caught:
        read_results("github-action-benchmark", tmp_path / "data.js", "data.js")
    assert caught.value.render().splitlines()[0] == (
        "data.js:1:1: not github-action-benchmark data.js: it does not start with "
        "`window.BENCHMARK_DATA =`")


# -- failed runs ------------------------------------------------------------------------------

FAILED_HINT = ("    hint: fix the command and measure again, or pass --allow-failed to record "
               "its times anyway; nothing was written")


def test_hyperfine_failed_command_is_refused(source: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    before = hashes(source)
    path = SAMPLES / "hyperfine-failed.json"
    assert run(source, "hyperfine", path, "--machine", "test-pc", "--commit",
               "c38a01e") == 1
    assert capsys.readouterr().err == (
        f"error: {path}: benchmark 'false': the command exited with code 1 in 3 of 3 runs\n"
        f"{FAILED_HINT}\n")
    assert hashes(source) == before


def test_hyperfine_failed_command_allowed_ok_twin(
        source: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    assert run(source, "hyperfine", SAMPLES / "hyperfine-failed.json", "--machine",
               "test-pc", "--commit", "c38a01e", "--allow-failed", "--id", "f") == 0, \
        capsys.readouterr().err
    assert capsys.readouterr().out.splitlines()[1].endswith(
        "status watch (the command exited with code 1 in 3 of 3 runs, recorded under "
        "--allow-failed)")
    (point,) = histories(source)["f-false"]
    assert (point["status"], point["note"]) == (
        "watch", "the command exited with code 1 in 3 of 3 runs, recorded under "
        "--allow-failed")


def test_google_benchmark_error_is_refused() -> None:
    with pytest.raises(ImportFailed) as caught:
        read_results("google-benchmark", SAMPLES / "google-benchmark-error.json", "gb.json")
    assert caught.value.render().splitlines() == [
        "gb.json:49:24: benchmarks[0].error_message: benchmark 'BM_ReadMissing' reported an "
        "error: cannot open /nonexistent/input.bin",
        '          "error_message": "cannot open /nonexistent/input.bin",',
        " " * 27 + "^",
        "    hint: fix the benchmark (its SkipWithError) and run it again; nothing was "
        "written"]


def test_google_benchmark_error_message_is_escaped(tmp_path: Path) -> None:
    doc = json.loads((SAMPLES / "google-benchmark-error.json").read_text())
    doc["benchmarks"][0]["error_message"] = "\x1b[2J\nFORGED"
    (tmp_path / "gb.json").write_text(json.dumps(doc))
    with pytest.raises(ImportFailed) as caught:
        read_results("google-benchmark", tmp_path / "gb.json", "gb.json")
    assert caught.value.render().splitlines()[0].endswith(
        ": benchmarks[0].error_message: benchmark 'BM_ReadMissing' reported an error: "
        "\\x1b[2J\\nFORGED")


DIRTY_BENCHMARK = "def test_sum(benchmark):\n    benchmark(sum, range(100))\n"


@pytest.mark.slow  # a real git checkout and pytest-benchmark run: CI runs it
def test_pytest_benchmark_on_a_dirty_tree_is_to_watch(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A real run of pytest-benchmark in a git checkout with an uncommitted change."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "test_tiny.py").write_text(DIRTY_BENCHMARK)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(repo)]
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "tiny"]):
        subprocess.run(git + args, check=True, capture_output=True, timeout=60)
    (repo / "test_tiny.py").write_text(DIRTY_BENCHMARK + "# changed, not committed\n")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
         "test_tiny.py", "--benchmark-json=out.json", "--benchmark-min-rounds=5",
         "--benchmark-max-time=0.01", "--benchmark-warmup=off", "-o", "addopts="],
        cwd=repo, capture_output=True, text=True, timeout=120, check=False,
        # Not this run's settings: PYTEST_XDIST_WORKER would make pytest-benchmark think
        # it runs in parallel and measure nothing.
        env={k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")})
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads((repo / "out.json").read_text())["commit_info"]["dirty"] is True
    assert run(source, "pytest-benchmark", repo / "out.json", "--machine", "test-pc",
               "--commit", "c38a01e", "--id", "d") == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (
        "measurements.d-test-sum: " + out.split(": ", 1)[1].split(", status")[0] + ", status watch "
        "(measured with uncommitted changes (commit_info.dirty): the commit does not name "
        "exactly what ran)")
    assert {p[0]["status"] for p in histories(source).values()} == {"watch"}


def test_a_few_slow_rounds_do_not_coarsen_the_median(
        source: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pytest-benchmark on a CI runner: 5 slow rounds of 40 put the standard deviation at
    30 times the median; the median and the readings keep what the readings tell."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    sample = SAMPLES / "pytest-benchmark-pauses.json"
    stats = json.loads(sample.read_text())["benchmarks"][0]["stats"]
    assert stats["stddev"] > 25 * stats["median"]  # the run is what the test is about
    assert run(source, "pytest-benchmark", sample, "--machine", "test-pc",
               "--commit", "c38a01e", "--id", "p") == 0
    [point] = histories(source)["p-test-sum-with-pauses"]
    assert point["unit"] == "us"
    assert point["value"] == pytest.approx(stats["median"] * 1e6, rel=1e-3)
    assert sorted(point["samples"]) == pytest.approx(
        sorted(x * 1e6 for x in stats["data"]), rel=1e-3)


def test_a_few_slow_rounds_do_not_make_a_median_noisy(
        source: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same run: 5 slow rounds of 40 put the standard deviation at 250 % of the mean,
    but the median they do not move is steady (interquartile range 4 % of it): measured,
    where every CI point of pytest-benchmark was 'to watch'."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    assert run(source, "pytest-benchmark", SAMPLES / "pytest-benchmark-pauses.json",
               "--machine", "test-pc", "--commit", "c38a01e", "--id", "p") == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "measurements.p-test-sum-with-pauses: 23.332 us (IQR 0.998 us, n = 40), status "
        "measured (the runs vary by "
        "3.2 %, within 5 %)")


FULL_SHA = "c38a01e9f8e7d6c5b4a392817069f5e4d3c2b1a0"


def test_a_full_sha_is_written_as_the_short_id_the_tools_get(
        source: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """benchmarks.yml passes `--commit "$GITHUB_SHA"`, 40 characters; data.js, asv and
    pytest-benchmark name the same commit by its 7: one commit keeps one point."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    sample = SAMPLES / "pytest-benchmark-pauses.json"
    for commit in (FULL_SHA, FULL_SHA[:7]):
        assert run(source, "pytest-benchmark", sample, "--machine", "test-pc",
                   "--commit", commit, "--id", "p") == 0
    [point] = histories(source)["p-test-sum-with-pauses"]
    assert point["commit"] == "c38a01e"
    assert "1 point already recorded" in capsys.readouterr().out


def test_a_commit_id_that_is_not_a_full_sha_is_kept_ok_twin(
        source: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    assert run(source, "pytest-benchmark", SAMPLES / "pytest-benchmark-pauses.json",
               "--machine", "test-pc", "--commit", "c38a01e9f8", "--id", "p") == 0
    assert histories(source)["p-test-sum-with-pauses"][0]["commit"] == "c38a01e9f8"


def test_a_rerun_imported_with_stat_mean_keeps_the_mean(
        source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A series kept as means (a migrated data.js holds no median): a re-run of a commit
    joins its readings, and the point stays their mean, not a switch to the median."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    for samples in ("[10, 11, 30]", "[10, 12, 32]"):
        (tmp_path / "runs.jsonl").write_text(
            f'{{"id": "x", "samples": {samples}, "unit": "ms", "commit": "c38a01e"}}\n')
        assert run(source, "jsonl", tmp_path / "runs.jsonl", "--machine", "test-pc",
                   "--stat", "mean") == 0
    [point] = histories(source)["x"]
    assert (point["n"], point["value"]) == (6, 17.5)  # the median would be 11.5


def test_a_rerun_imported_without_stat_keeps_the_median_ok_twin(
        source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    for samples in ("[10, 11, 30]", "[10, 12, 32]"):
        (tmp_path / "runs.jsonl").write_text(
            f'{{"id": "x", "samples": {samples}, "unit": "ms", "commit": "c38a01e"}}\n')
        assert run(source, "jsonl", tmp_path / "runs.jsonl", "--machine", "test-pc") == 0
    assert histories(source)["x"][0]["value"] == 11.5



# Noisy readings (their noise suggests watch) said measured; one number said watch.
RECORDS_WITH_STATUS = (
    '{"id": "parse", "samples": [10, 30, 12, 50, 11], "unit": "ms", "commit": "c38a01e", '
    '"status": "measured"}\n'
    '{"id": "memory", "value": 96, "unit": "MB", "commit": "c38a01e", "status": "watch"}\n')


def test_a_run_records_status_is_its_points_status(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A record's own `status` is written (docs/ecosystem.md), over what its noise
    suggests, and nothing is asked about it."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    (tmp_path / "runs.jsonl").write_text(RECORDS_WITH_STATUS)
    assert run(source, "jsonl", tmp_path / "runs.jsonl", "--machine", "test-pc") == 0
    assert capsys.readouterr().out.splitlines()[:2] == [
        "measurements.parse: 12 ms (IQR 29.5 ms, n = 5), status measured",
        "measurements.memory: 96 MB, status watch"]
    found = histories(source)
    assert (found["parse"][0].get("status"), found["memory"][0]["status"]) == (None, "watch")


def test_a_run_records_status_gives_way_to_the_option_ok_twin(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """--status wins over a record's own; without either, the noise suggests one."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    (tmp_path / "runs.jsonl").write_text(RECORDS_WITH_STATUS)
    assert run(source, "jsonl", tmp_path / "runs.jsonl", "--machine", "test-pc", "--id", "o",
               "--status", "watch") == 0
    (tmp_path / "runs.jsonl").write_text(RECORDS_WITH_STATUS.replace(
        ', "status": "measured"', "").replace(', "status": "watch"', ""))
    assert run(source, "jsonl", tmp_path / "runs.jsonl", "--machine", "test-pc",
               "--id", "n") == 0
    found = histories(source)
    assert [found[i][0].get("status") for i in ("o-parse", "o-memory", "n-parse", "n-memory")
            ] == ["watch", "watch", "watch", None]


def test_a_run_records_status_no_point_holds_is_refused_at_it(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`estimate` is a status of a figure kept in YAML: a point of a history cannot hold
    it, and the record is refused at its `status`, with nothing written."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    (tmp_path / "runs.jsonl").write_text(
        '{"id": "a", "value": 1, "unit": "ms", "commit": "c38a01e"}\n\n'
        '  {"id": "peak-memory", "value": 96, "unit": "MB", "status": "estimate"}\n')
    before = hashes(source)
    assert run(source, "jsonl", tmp_path / "runs.jsonl", "--machine", "test-pc") == 1
    assert capsys.readouterr().err.replace(str(tmp_path) + "/", "") == (
        "error: runs.jsonl:3:62: run record 'peak-memory': status 'estimate' is not one a "
        "point of a history can hold (measured, watch)\n"
        '      {"id": "peak-memory", "value": 96, "unit": "MB", "status": "estimate"}\n'
        "                                                                 ^\n"
        "    hint: write measured or watch, or leave `status` out (the noise of its readings "
        "then suggests one)\n")
    assert hashes(source) == before


# -- machines ---------------------------------------------------------------------------------

def test_a_new_machine_is_written_with_the_tools_facts(
        source: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    machines = source / "data" / "machines.yaml"
    before = machines.read_text()
    assert run(source, "go-test", SAMPLES / "gotest-bench.txt", "--machine", "ci-box",
               "--commit", "c38a01e", "--id", "go") == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert ("declared machine ci-box under `machines:` in data/machines.yaml, with the 2 "
            "facts the tool recorded") in out
    after = machines.read_text()
    assert after.startswith(before.split("\n# The versions")[0])
    assert "  - id: ci-box\n    name: ci-box\n    facts:\n      - AMD EPYC\n      - linux/amd64\n" \
        in after


def test_an_existing_machine_is_never_changed_ok_twin(
        source: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    machines = source / "data" / "machines.yaml"
    before = machines.read_text()
    assert run(source, "go-test", SAMPLES / "gotest-bench.txt", "--machine", "test-pc",
               "--commit", "c38a01e", "--id", "go") == 0, capsys.readouterr().err
    assert "declared machine" not in capsys.readouterr().out
    assert machines.read_text() == before


def test_import_help_lists_every_format(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["import", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert f"the tool that wrote FILE: {', '.join(FORMATS)}" in out
    assert set(FORMATS) == {"pytest-benchmark", "hyperfine", "google-benchmark", "jsonl",
                            "asv", "criterion", "go-test", "github-action-benchmark"}


def test_asv_import_fills_its_machine_and_commit(
        source: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """asv names its machine and commit itself: both are declared, the figures written."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    assert run(source, "asv", ASV, "--id", "asv") == 0, capsys.readouterr().err
    out = capsys.readouterr().out.splitlines()
    assert out[3:6] == [
        "measurements.asv-bench-mem-list: 8056 B, status measured",
        "measurements.asv-bench-track-answer: 42, status measured",
        "declared machine vm under `machines:` in data/machines.yaml, with the 3 facts the "
        "tool recorded"]
    assert {(p[0]["commit"], p[0]["machine"]) for p in histories(source).values()} \
        == {("dd92e12", "vm")}
    assert "  - id: vm\n    name: vm\n    facts:\n      - AMD EPYC, 2 CPUs\n" in \
        (source / "data" / "machines.yaml").read_text()


def test_a_hostile_fact_never_reaches_the_terminal_nor_the_data(
        source: Path, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A `cpu:` line is input: the new machine's facts are refused in the tool's file (the
    build's check of the data as changed told them at a line of machines.yaml)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    before = hashes(source)
    text = (SAMPLES / "gotest-bench.txt").read_text()
    (tmp_path / "go.txt").write_text(text.replace("cpu: AMD EPYC", "cpu: EPYC\x1b[2J\u202e"))
    status = run(source, "go-test", tmp_path / "go.txt", "--machine", "new-box",
                 "--commit", "c38a01e")
    out, err = capsysbinary.readouterr()
    assert status == 1
    assert b"\x1b[" not in out + err and "\u202e".encode() not in out + err
    assert err.startswith(f"error: {tmp_path / 'go.txt'}:4:10: `cpu:` holds U+001B (a "
                          "control character), which go test never writes".encode()), err
    assert hashes(source) == before


# -- the spread a tool measured, kept to the page --------------------------------------------

def test_google_benchmark_repetitions_and_aggregates_make_a_distribution(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Its median aggregate is the headline; mean, stddev and the repetitions (min, max,
    n) come with it, in data.json and on the page."""
    from progress_site.pipeline import BuildConfig, make_site

    from .conftest import TODAY

    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    assert run(source, "google-benchmark", SAMPLES / "google-benchmark.json", "--id",
               "gb", "--machine", "test-pc", "--commit", "c38a01e") == 0, \
        capsys.readouterr().err
    point = histories(source)["gb-bm-vectorsum-1024"][0]
    assert point["value"] == point["stats"]["median"] and point["n"] == 5
    files = make_site(BuildConfig(source=source, out=tmp_path / "site",
                                  today=TODAY, compiled=TEMPLATES)).files
    figure = next(m["figure"] for m in json.loads(files["data.json"])["measurements"]
                  if m["id"] == "gb-bm-vectorsum-1024")
    parts = figure["derived"]["quantity"]["parts"]
    samples = point["samples"]
    q1, _, q3 = statistics.quantiles(samples, n=4)  # the median's spread, to 3 digits
    assert parts == {"p50": point["value"], "min": min(samples), "max": max(samples),
                     "mean": point["stats"]["mean"], "sd": point["stats"]["stddev"],
                     "iqr": float(f"{q3 - q1:.3g}"), "n": 5}
    assert figure["distribution"]["p50"] == point["value"]


def test_a_value_picked_with_stat_mean_stays_one_number_ok_twin(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`--stat mean`: the figure shows the number asked for, not a median beside it."""
    from progress_site.pipeline import BuildConfig, make_site

    from .conftest import TODAY

    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    assert run(source, "google-benchmark", SAMPLES / "google-benchmark.json", "--id",
               "gb", "--machine", "test-pc", "--commit", "c38a01e", "--stat", "mean") == 0, \
        capsys.readouterr().err
    point = histories(source)["gb-bm-vectorsum-1024"][0]
    files = make_site(BuildConfig(source=source, out=tmp_path / "site",
                                  today=TODAY, compiled=TEMPLATES)).files
    figure = next(m["figure"] for m in json.loads(files["data.json"])["measurements"]
                  if m["id"] == "gb-bm-vectorsum-1024")
    assert figure["distribution"] is None
    assert figure["derived"]["quantity"]["kind"] == "value"
    assert figure["value"] == point["value"] == point["stats"]["mean"]


# Each tool's bench as github-action-benchmark's writer stores it (src/extract.ts of
# benchmark-action/github-action-benchmark: `name`, `value`, `unit`, and `range` and
# `extra` where that tool's extractor sets them), keyed by the `tool` of its entries.
GAB_TOOLS: dict[str, list[dict[str, Any]]] = {
    "cargo": [{"name": "fib/20", "value": 24031, "range": "± 412", "unit": "ns/iter"}],
    # go with -benchmem: before v1.18 the first metric's unit held the rest of the line.
    "go": [{"name": "BenchmarkJoin", "value": 74.23,
            "unit": "ns/op\t      64 B/op\t       2 allocs/op",
            "extra": "16151512 times\n4 procs"},
           {"name": "BenchmarkJoin - B/op", "value": 64, "unit": "B/op",
            "extra": "16151512 times\n4 procs"},
           {"name": "BenchmarkJoin - allocs/op", "value": 2, "unit": "allocs/op",
            "extra": "16151512 times\n4 procs"}],
    "benchmarkjs": [{"name": "fib(20)", "value": 11465, "range": "±1.12%",
                     "unit": "ops/sec", "extra": "91 samples"}],
    "pytest": [{"name": "tests/test_parse.py::test_small", "value": 1234.5,
                "unit": "iter/sec", "range": "stddev: 0.00001234",
                "extra": "mean: 810.05 usec\nrounds: 50"}],
    "googlecpp": [{"name": "BM_Sort/16", "value": 120.5, "unit": "ns/iter",
                   "extra": "iterations: 5813953\ncpu: 120.3 ns\nthreads: 1"}],
    "catch2": [{"name": "Fibonacci 20", "value": 8.4318, "range": "± 0.1203", "unit": "ms"}],
    "julia": [{"name": "fib/20", "value": 1234.0, "unit": "ns",
               "extra": 'gctime=0\nmemory=0\nallocs=0\nparams={"samples":10000}'}],
    "customBiggerIsBetter": [{"name": "Throughput", "value": 512.3, "unit": "req/s",
                              "range": "+/- 3"}],
    "customSmallerIsBetter": [{"name": "Bundle size", "value": 42.1, "unit": "KB",
                               "range": "± 1.2%"}],
}


def gab_data_js(commits: int) -> str:
    """A data.js as the action writes it (src/write.ts: `window.BENCHMARK_DATA = ` and
    `{lastUpdate, repoUrl, entries}`, one suite a benchmark name, one entry a run, oldest
    first): every tool's shape, `commits` runs each, some commits without url or
    timestamp, values drifting so that each series has a history to show."""
    entries: dict[str, list[dict[str, Any]]] = {}
    for suite, (tool, benches) in enumerate(GAB_TOOLS.items()):
        runs = []
        for i in range(commits):
            sha = f"{i:04x}{suite:02x}".ljust(40, "a")
            commit: dict[str, Any] = {
                "author": {"email": "dev@example.com", "name": "Dev", "username": "dev"},
                "committer": {"email": "noreply@github.com", "name": "GitHub",
                              "username": "web-flow"},
                "distinct": True, "id": sha, "message": f"Change {i}",
                "timestamp": f"2026-10-{1 + i % 28:02d}T10:00:00+02:00",
                "tree_id": "b" * 40, "url": f"https://github.com/o/r/commit/{sha}"}
            if i % 3 == 1:
                del commit["url"]
            if i % 5 == 2:
                del commit["timestamp"]
            drift = 1 + (i % 7) / 100
            runs.append({"commit": commit, "date": 1790000000000 + i * 86_400_000,
                         "tool": tool, "benches": [
                             {**b, "value": round(b["value"] * drift, 4)} for b in benches]})
        entries[f"{tool} suite"] = runs
    body = {"lastUpdate": 1795219200000, "repoUrl": "https://github.com/o/r",
            "entries": entries}
    return "window.BENCHMARK_DATA = " + json.dumps(body, indent=2, ensure_ascii=False)


def test_data_js_of_every_tool_migrates_and_builds(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One import of a data.js holding every tool's shape, 30 runs each, gives a history
    of 30 points per bench, and the site builds a dashboard row for each."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    data_js = tmp_path / "data.js"
    data_js.write_text(gab_data_js(30), encoding="utf-8")
    status = run(source, "github-action-benchmark", data_js, "--machine", "test-pc",
                 "--id", "ci")
    out = capsys.readouterr()
    assert status == 0, out.err
    found = histories(source)
    assert len(found) == sum(len(b) for b in GAB_TOOLS.values())
    assert all(len(points) == 30 for points in found.values()), {
        k: len(v) for k, v in found.items()}
    units = {ident: points[0]["unit"] for ident, points in found.items()}
    assert units["ci-cargo-suite-fib-20"] == "us"  # 24031 ns/iter
    assert units["ci-go-suite-join"] == "ns"
    assert units["ci-go-suite-join-b-op"] == "B"
    assert units["ci-go-suite-join-allocs-op"] == ""
    assert units["ci-benchmarkjs-suite-fib-20"] == "ops/s"
    assert units["ci-pytest-suite-test-small"] == "us"  # 1234.5 iter/sec: 810.05 us a run
    out_dir = tmp_path / "site"
    assert main(["--source", str(source), "--out", str(out_dir)], TEMPLATES) == 0
    board = (out_dir / "benchmarks" / "index.html").read_text(encoding="utf-8")
    for ident in found:
        assert f'id="row-benchmarks-{ident}"' in board, ident
    rate = board.split('id="row-benchmarks-ci-benchmarkjs-suite-fib-20"')[1].split("</tr>")[0]
    assert "Higher is better" in rate  # ops/sec is a rate


def gab_pytest_entry(commit: str, day: int, rate: float) -> dict[str, Any]:
    """An entry the action's `pytest` tool writes for the benchmark of the pauses sample."""
    return {"commit": {"id": commit * 5, "message": "m", "timestamp":
                       f"2026-11-{day:02d}T10:00:00Z", "url": "https://example.com/c"},
            "date": None, "tool": "pytest",
            "benches": [{"name": "test_pauses.py::test_sum_with_pauses", "value": rate,
                         "unit": "iter/sec", "range": f"stddev: {2.5 / rate}",
                         "extra": f"mean: {1e6 / rate} usec\nrounds: 40"}]}


def test_a_migrated_pytest_history_goes_on_in_the_same_series(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """data.js of the action's `pytest` tool (1 / mean as iter/sec, the test's full name),
    then the workflow's own pytest-benchmark run: one series, in one unit."""
    doc = {"entries": {"Benchmark": [gab_pytest_entry(commit, day, rate) for commit, day, rate
                                     in (("aaaaaaaa", 1, 3600.0), ("bbbbbbbb", 2, 3550.0))]}}
    (tmp_path / "data.js").write_text("window.BENCHMARK_DATA = " + json.dumps(doc))
    assert run(source, "github-action-benchmark", tmp_path / "data.js", "--machine",
               "test-pc", "--id", "py") == 0, capsys.readouterr().err
    assert run(source, "pytest-benchmark", SAMPLES / "pytest-benchmark-pauses.json",
               "--machine", "test-pc", "--id", "py", "--commit", "c38a01e",
               "--date", "2026-12-01", "--stat", "mean") == 0, capsys.readouterr().err
    found = histories(source)
    assert list(found) == ["py-test-sum-with-pauses"]
    points = found["py-test-sum-with-pauses"]
    assert [(p["commit"], p["unit"]) for p in points] == [
        ("aaaaaaa", "us"), ("bbbbbbb", "us"), ("c38a01e", "us")]
    assert [p["value"] for p in points[:2]] == [278, 282]  # 1e6 / 3600, 1e6 / 3550 us
    assert points[0]["n"] == 40 and points[0]["stats"]["stddev"] == 694  # 2.5 / 3600 s


@pytest.mark.parametrize(("tool", "unit", "better", "shown"), [
    ("customBiggerIsBetter", "ms", "higher", "Higher is better"),
    ("customSmallerIsBetter", "ops/s", "lower", "Lower is better")])
def test_data_js_custom_tool_says_which_way_is_better(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, tool: str, unit: str, better: str,
        shown: str) -> None:
    """The action's custom tools name the better direction: the new series' entry says
    it, whatever the unit would make of it, and the dashboard shows it."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    runs = [{"commit": {"id": f"{i:x}".ljust(40, "c"), "url": "https://github.com/o/r"},
             "date": 1790000000000 + i * 86_400_000, "tool": tool,
             "benches": [{"name": "score", "value": 50 + i, "unit": unit}]} for i in range(3)]
    data_js = tmp_path / "data.js"
    data_js.write_text("window.BENCHMARK_DATA = " + json.dumps(
        {"lastUpdate": 1795219200000, "repoUrl": "https://github.com/o/r",
         "entries": {"Custom": runs}}), encoding="utf-8")
    assert run(source, "github-action-benchmark", data_js, "--machine", "test-pc",
               "--id", "ci") == 0, capsys.readouterr().err
    yaml = "".join(p.read_text(encoding="utf-8")
                   for p in sorted((source / "data").glob("*.yaml")))
    entry = yaml.split("id: ci-score")[1].split("\n  - ")[0]
    assert f"better: {better}" in entry
    out_dir = tmp_path / "site"
    assert main(["--source", str(source), "--out", str(out_dir)], TEMPLATES) == 0
    board = (out_dir / "benchmarks" / "index.html").read_text(encoding="utf-8")
    assert shown in board.split('id="row-benchmarks-ci-score"')[1].split("</tr>")[0]


@pytest.mark.parametrize("fails_at", [1, 3, 6])
def test_an_import_the_disk_stops_writes_nothing(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, fails_at: int) -> None:
    """A disk that fills up part way through an import's files (a data file and a history
    file a benchmark, some there already) leaves every file as it was: none half
    written, none of the others written, no temporary left."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    assert run(source, "go-test", SAMPLES / "gotest-bench.txt", "--machine", "test-pc",
               "--commit", "c38a01e") == 0, capsys.readouterr().err
    (tmp_path / "more.txt").write_text(
        "".join(f"BenchmarkNew{n}-8  10  {70 + n} ns/op\n" for n in range(6))
        + "BenchmarkSum-2  10  1500 ns/op\n")
    before = hashes(source)
    real_open, opened = open, []

    def full(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if "x" in mode or "w" in mode:
            opened.append(file)
            if len(opened) == fails_at:
                raise OSError(28, "No space left on device")
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr("builtins.open", full)
    assert run(source, "go-test", tmp_path / "more.txt", "--machine", "test-pc",
               "--commit", "4f0d3b2") == 1
    monkeypatch.undo()
    assert "nothing written: [Errno 28] No space left on device" in capsys.readouterr().err
    assert len(opened) == fails_at
    assert hashes(source) == before


NOISES = {  # a result's noise as each tool may give it
    "the tool's cv": dict(stats={"cv": Decimal("0.08"), "median": Decimal(10)}),
    "quartiles of readings": dict(stats={}, samples=tuple(map(Decimal, (9, 10, 10, 11, 14)))),
    "quartiles, quiet": dict(stats={}, samples=tuple(map(Decimal, (10, 10, 10, 10)))),
    "the tool's quartiles": dict(stats={"median": Decimal(10), "q1": Decimal(8),
                                        "q3": Decimal(13)}),
    "three readings": dict(stats={}, samples=tuple(map(Decimal, (9, 10, 13)))),
    "stddev and mean": dict(stats={"mean": Decimal(10), "stddev": Decimal(2)}),
    "one number": dict(stats={"value": Decimal(10)}),
    "quartiles of a mean": dict(stats={"mean": Decimal(10)},
                                samples=tuple(map(Decimal, (9, 10, 10, 11, 14)))),
}


@pytest.mark.parametrize("name", NOISES)
def test_an_imports_suggestion_is_its_results_noise(name: str) -> None:
    """The status an import suggests says what the result's own noise and measure say,
    worked out once."""
    from progress_site.record.importers.base import Result
    from progress_site.record.importing import suggestion_of
    from progress_site.record.recorder import suggest

    r = Result("BenchmarkX", "ns", **NOISES[name])  # type: ignore[arg-type]
    assert suggestion_of(r, 5.0) == suggest(r.cv, 5.0, r.noise_measure)
    assert suggestion_of(r, 50.0) == suggest(r.cv, 50.0, r.noise_measure)


# -- the check of an import reads the points it made ------------------------------------------

@pytest.mark.parametrize(("fmt", "sample", "args"), [
    ("go-test", "gotest-bench.txt", ("--commit", "c38a01e")),  # readings, their IQR
    ("jsonl", "runs.jsonl", ("--commit", "c38a01e")),  # a deviation and runs; a status
    ("hyperfine", "hyperfine.json", ("--commit", "c38a01e")),
    ("pytest-benchmark", "pytest-benchmark-pauses.json", ("--commit", "c38a01e")),  # stats
])
def test_the_points_an_import_made_are_those_its_files_give_back(
        source: Path, monkeypatch: pytest.MonkeyPatch, fmt: str, sample: str,
        args: tuple[str, ...]) -> None:
    """The series the check of an import reads (from the points the import made, beside
    its texts) are the very series a build reads from the files written: each point,
    where the newest one's every value is, where each line is."""
    from progress_site.load.history import Written, load_history
    from progress_site.record import pending

    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    checked: list[dict[Path, str]] = []
    real_check = pending.check
    monkeypatch.setattr(pending, "check", lambda root, today, edited: (
        checked.append(dict(edited)), real_check(root, today, edited))[1])
    assert run(source, fmt, SAMPLES / sample, "--machine", "test-pc", *args) == 0
    [edited] = checked
    made, problems = load_history(source, edited)
    assert problems == []
    if fmt != "pytest-benchmark":  # its stats make no plain line: its texts are read
        assert all(isinstance(t, Written) for p, t in edited.items() if p.suffix == ".jsonl")
    read, problems = load_history(source)
    assert problems == []
    assert made == read and len(made) > 0
    for ours, theirs in zip(made, read, strict=True):
        assert [ours.place(i) for i in range(len(ours.points))] == \
            [theirs.place(i) for i in range(len(theirs.points))]
        newest = ours.points[-1].where
        assert dict(newest.fields) == dict(theirs.points[-1].where.fields) != {}
