"""Importers on real output of each tool; `import` writing measurements a build accepts."""

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
from progress_site.load.jsonfiles import TooDeep, parse_json
from progress_site.record.importers import ImportFailed, read_results
from progress_site.record.recorder import scale_time, suggest

from .conftest import SOURCE_DATE_EPOCH, TEMPLATES
from .test_record import hashes, smallest_site

SAMPLES = Path(__file__).parent / "samples"
TINY_BENCHMARK = """
def test_sum(benchmark):
    benchmark(sum, range(100))

def test_sorted(benchmark):
    benchmark(sorted, list(range(50, 0, -1)))
"""


@pytest.fixture(scope="module")
def pytest_benchmark_json(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """pytest-benchmark's --benchmark-json output of a tiny benchmark, run for real."""
    folder = tmp_path_factory.mktemp("bench")
    (folder / "test_tiny.py").write_text(TINY_BENCHMARK)
    out = folder / "out.json"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
         "test_tiny.py", f"--benchmark-json={out}", "--benchmark-min-rounds=5",
         "--benchmark-max-time=0.01", "--benchmark-warmup=off", "--benchmark-save-data",
         "-o", "addopts="],
        cwd=folder, capture_output=True, text=True, timeout=120, check=False,
        # Not this run's settings: PYTEST_XDIST_WORKER would make pytest-benchmark think
        # it runs in parallel and measure nothing.
        env={k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")})
    assert done.returncode == 0, done.stdout + done.stderr
    return out


@pytest.fixture
def source(tmp_path: Path) -> Path:
    """The smallest site with the example's machines and commits: an import reads every
    data file of its source, and the tests that take it are about the files an import
    writes or refuses, not the example's."""
    return smallest_site(tmp_path)


def test_pytest_benchmark(pytest_benchmark_json: Path) -> None:
    results = read_results("pytest-benchmark", pytest_benchmark_json, "out.json")
    assert [r.name for r in results] == ["test_sum", "test_sorted"]
    doc = json.loads(pytest_benchmark_json.read_text())
    for r, bench in zip(results, doc["benchmarks"], strict=True):
        assert r.unit == "s" and r.value > 0 and r.runs >= 5 and r.cv is not None
        assert r.date is not None
        # --benchmark-save-data: every round's time; the headline is pytest's median.
        assert len(r.samples) == r.runs == bench["stats"]["rounds"]
        assert r.value == Decimal(repr(bench["stats"]["median"]))
        assert r.pick("mean") == Decimal(repr(bench["stats"]["mean"]))
        assert set(r.stats) >= {"mean", "median", "min", "max", "stddev", "iqr", "q1", "q3"}
        info = doc["machine_info"]  # processor and cores, system, Python: the machine
        assert r.facts == (f"{info['cpu']['brand_raw']}, {info['cpu']['count']} cores",
                           f"{info['system']} {info['release']} {info['machine']}",
                           f"{info['python_implementation']} {info['python_version']}")


def test_hyperfine_sample() -> None:
    results = read_results("hyperfine", SAMPLES / "hyperfine.json", "hyperfine.json")
    assert [(r.name, r.unit, r.runs) for r in results] == [
        ("sleep 0.01", "s", 5), ("python3 -c pass", "s", 5)]
    assert results[0].value == Decimal("0.01142189")  # its median, not its mean
    assert results[0].pick("mean") == Decimal("0.011497590800000002")
    assert len(results[0].samples) == 5 and results[0].failed is None
    assert [suggest(r.cv).status for r in results] == ["measured", "watch"]  # type: ignore[union-attr]


@pytest.mark.skipif(shutil.which("hyperfine") is None, reason="hyperfine is not installed")
def test_hyperfine_fresh_output(tmp_path: Path) -> None:
    out = tmp_path / "hf.json"
    subprocess.run(["hyperfine", "--runs", "3", "-N", "--export-json", str(out), "true"],
                   check=True, capture_output=True, timeout=60)
    [result] = read_results("hyperfine", out, "hf.json")
    assert result.name == "true" and result.runs == 3 and result.unit == "s"


def test_google_benchmark_sample() -> None:
    results = read_results("google-benchmark", SAMPLES / "google-benchmark.json", "gb.json")
    assert [(r.name, r.unit, r.runs) for r in results] == [
        ("BM_StringCopy", "ns", 5), ("BM_VectorSum/1024", "ns", 5),
        ("BM_VectorSum/16384", "ns", 5)]
    assert [round(r.cv or 0, 4) for r in results] == [0.0194, 0.0093, 0.0639]
    assert [format(scale_time(r.value, r.unit, None)[0], ".3g") for r in results] == [
        "22.0", "529", "8.30"]  # the medians of 5 repetitions
    assert [len(r.samples) for r in results] == [5, 5, 5]
    assert results[0].facts[0] == "2 CPUs at 2596 MHz"
    assert [scale_time(r.value, r.unit, None)[1] for r in results] == ["ns", "ns", "us"]


def test_google_benchmark_without_repetitions(tmp_path: Path) -> None:
    doc = json.loads((SAMPLES / "google-benchmark.json").read_text())
    doc["benchmarks"] = [b for b in doc["benchmarks"]
                         if b["run_type"] == "iteration" and b["repetition_index"] == 0]
    (tmp_path / "one.json").write_text(json.dumps(doc))
    results = read_results("google-benchmark", tmp_path / "one.json", "one.json")
    assert [(r.name, r.runs, r.cv) for r in results] == [
        ("BM_StringCopy", 1, None), ("BM_VectorSum/1024", 1, None),
        ("BM_VectorSum/16384", 1, None)]


def test_jsonl_sample() -> None:
    results = read_results("jsonl", SAMPLES / "runs.jsonl", "runs.jsonl")
    assert [(r.name, str(r.value), r.unit, r.runs, r.status) for r in results] == [
        ("parse-small", "12.2", "ms", 5, None), ("parse-large", "412.50", "ms", 10, None),
        ("peak-memory", "96", "MB", 1, "watch")]
    assert round(results[1].cv or 0, 3) == 0.1


@pytest.mark.parametrize(("fmt", "text", "message"), [
    ("hyperfine", '{"results": [', "hyperfine.json:1:14: not JSON: Expecting value"),
    ("hyperfine", '{"benchmarks": []}', "hyperfine.json: not hyperfine JSON: no `results` list"),
    ("pytest-benchmark", '{"results": []}',
     "hyperfine.json: not pytest-benchmark JSON: no `benchmarks` list"),
    ("google-benchmark", '{"benchmarks": [{"name": "x"}]}',
     "hyperfine.json:1:17: benchmarks[0]: a benchmark without `real_time`"),
    ("jsonl", '{"id": "a", "value": 1}\n{"id": "b"}\n',
     "hyperfine.json:2:1: run record 'b' has no `value` nor `samples`"),
    ("hyperfine", '{"results": ' + "[" * 100_000 + "]" * 100_000 + "}",
     "hyperfine.json:1:76: lists and objects nested more than 64 levels"),
    ("hyperfine", '{"results": ' + "[" * 100 + "]" * 100 + "}",
     "hyperfine.json:1:76: lists and objects nested more than 64 levels"),
    ("jsonl", '{"id": "a", "value": 1}\n{"id": "b", "value": ' + "[" * 5000 + "]" * 5000 + "}",
     "hyperfine.json:2:85: lists and objects nested more than 64 levels"),
    ("hyperfine", '{"results": [{"command": "a", "mean": ' + "9" * 5000 + ', "times": [1]}]}',
     "hyperfine.json:1:39: a whole number of 5000 digits is too large"),
    ("hyperfine", '{"results": [{"command": "a", "mean": 1e300, "times": [1]}]}',
     "hyperfine.json:1:39: results[0].mean: benchmark 'a': mean 1e+300 is out of range"),
    ("hyperfine", '{"results": [{"command": "a", "mean": 1e999, "times": [1]}]}',
     "hyperfine.json:1:39: results[0].mean: benchmark 'a': mean inf is out of range"),
    ("jsonl", '{"id": "a", "value": 1e300}\n',
     "hyperfine.json:1:22: run record 'a' has a number larger than 1e+15"),
    ("hyperfine", '{"results": [{"command": 7, "mean": 1}]}',
     "hyperfine.json:1:26: results[0].command: `command` is a number, not a text"),
    ("google-benchmark", '{"benchmarks": [{"name": "a", "real_time": 1, "time_unit": 3}]}',
     "hyperfine.json:1:60: benchmarks[0].time_unit: `time_unit` is a number, not a text"),
    ("jsonl", '{"id": "a", "value": ' + "1" * 400 + '}\n',
     "hyperfine.json:1:22: a whole number of 400 digits is too large"),
    ("hyperfine", '{"results": [{"command": "a", "mean": 1, "mean": 1.2, "times": [1]}]}',
     "hyperfine.json:1:42: key 'mean' appears twice in one object"),
    ("jsonl", '{"id": "a", "value": 1}\n{"id": "b", "value": -0, "value": 2}\n',
     "hyperfine.json:2:26: key 'value' appears twice in one object"),
    ("hyperfine", '{"results": [{"command": "a", "mean": 1, "stddev": "x", "times": [1]}]}',
     "hyperfine.json:1:52: results[0].stddev: `stddev` is a text, not a number"),
    ("hyperfine", '{"results": [{"command": "a", "mean": 1, "times": ["fast"]}]}',
     "hyperfine.json:1:52: results[0].times[0]: a time is a text, not a number"),
    ("pytest-benchmark", '{"benchmarks": [{"name": "a", "stats": {"mean": 1, "median": [2], '
     '"rounds": 1}}]}',
     "hyperfine.json:1:62: benchmarks[0].stats.median: `median` is a list, not a number"),
    ("pytest-benchmark", '{"benchmarks": [{"name": "a", "stats": {"mean": 1}}]}',
     "hyperfine.json:1:40: benchmarks[0].stats: `stats` without `rounds`"),
])
def test_malformed_files_are_located_errors(tmp_path: Path, fmt: str, text: str,
                                            message: str) -> None:
    (tmp_path / "x.json").write_text(text)
    with pytest.raises(ImportFailed) as caught:
        read_results(fmt, tmp_path / "x.json", "hyperfine.json")
    assert caught.value.render().splitlines()[0] == message


def test_malformed_files_ok_twin(tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text('{"id": "a", "value": 1}\n{"id": "b", "value": 2}\n')
    assert len(read_results("jsonl", tmp_path / "x.json", "x.json")) == 2


def test_limits_ok_twin(tmp_path: Path) -> None:
    """Just inside the limits: 64 levels, the largest number, a long whole number."""
    nested = "[" * 61 + "1" + "]" * 61
    (tmp_path / "x.json").write_text(
        '{"results": [{"command": "a", "mean": 1000000000000000, "parameters": ' + nested +
        '}, {"command": "b", "mean": 0.000000000001, "n": ' + "9" * 40 + "}]}")
    results = read_results("hyperfine", tmp_path / "x.json", "x.json")
    assert [float(r.value) for r in results] == [1e15, 1e-12]


@pytest.mark.parametrize(("text", "offset"), [
    ("[" * 64 + "]" * 64, None),
    ("[" * 65 + "]" * 65, 64),
    ('{"a": ' * 65 + "1" + "}" * 65, 6 * 64),
    ('[{"k": "' + "[" * 200 + '"}]', None),  # brackets in a text nest nothing
    ('[[1], ' + "[" * 65 + "]" * 65 + "]", 6 + 63),
])
def test_nesting_limit_of_the_json_reader(text: str, offset: int | None) -> None:
    """The limit is on the decoded lists and objects; a refusal names the first bracket
    past it."""
    if offset is None:
        assert parse_json(text) is not None
        return
    with pytest.raises(TooDeep) as caught:
        parse_json(text)
    assert caught.value.offset == offset


def points(source: Path, ident: str) -> list[dict[str, Any]]:
    """The points of a series' history file, each line read back as JSON."""
    path = source / "data" / "history" / f"measurements.{ident}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_import_writes_points_the_build_accepts(
        example_copy: Path, pytest_benchmark_json: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    before = hashes(example_copy)
    status = main(["import", "pytest-benchmark", str(pytest_benchmark_json), "--source",
                   str(example_copy), "--id", "py", "--machine", "test-pc", "--commit",
                   "abc1234", "--yes"])
    out = capsys.readouterr()
    assert status == 0, out.err
    assert "The data is valid." in out.out
    day = json.loads(pytest_benchmark_json.read_text())["datetime"][:10]
    for ident in ("py-test-sum", "py-test-sorted"):
        (point,) = points(example_copy, ident)
        assert list(point)[:5] == ["commit", "date", "machine", "value", "unit"]
        assert (point["commit"], point["date"], point["machine"], point["tool"]) == (
            "abc1234", day, "test-pc", "pytest-benchmark")
        assert point["n"] == len(point["samples"]) >= 5
        assert (f"measurements.{ident}: 1 point added (now 1 point), on its page "
                f"benchmarks/{ident}/index.html") in out.out
    # The points are the history files' only; the YAML gains each new series' id, title
    # and unit, nothing else, and no other file changes.
    changed = {k for k, v in hashes(example_copy).items() if before.get(k) != v}
    assert changed == {"data/studies.yaml", "data/history/measurements.py-test-sum.jsonl",
                       "data/history/measurements.py-test-sorted.jsonl"}
    studies = (example_copy / "data" / "studies.yaml").read_text()
    assert studies.count("id: py-test-") == 2
    assert "value:" not in studies.split("id: py-test-", 1)[1]
    written = hashes(example_copy)
    again = main(["import", "pytest-benchmark", str(pytest_benchmark_json), "--source",
                  str(example_copy), "--id", "py", "--machine", "test-pc", "--commit",
                  "abc1234", "--yes"])
    out = capsys.readouterr()
    assert again == 0, out.err
    assert "measurements.py-test-sum: 1 point already recorded (now 1 point)" in out.out
    assert "Nothing written: every point is recorded already." in out.out
    assert hashes(example_copy) == written


def test_import_hyperfine_suggests_watch_for_the_noisy_command(
        source: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    status = main(["import", "hyperfine", str(SAMPLES / "hyperfine.json"), "--source",
                   str(source), "--id", "cli", "--machine", "test-pc", "--commit",
                   "c38a01e", "--date", "2026-11-20"])
    out = capsys.readouterr()
    assert status == 0, out.err
    assert out.out.splitlines()[:2] == [
        "measurements.cli-sleep-0-01: 11.422 ms (IQR 0.279 ms, n = 5), status measured (the "
        "runs vary by 1.8 %, within 5 %)",
        "measurements.cli-python3-c-pass: 104.33 ms (IQR 19 ms, n = 5), status watch (the "
        "runs vary by 13.5 % (quartiles around the median), over 5 %)"]
    assert "no terminal to confirm on; keeping the suggested statuses" in out.err
    (point,) = points(source, "cli-python3-c-pass")
    assert {k: point[k] for k in ("commit", "date", "machine", "value", "unit", "status")} \
        == {"commit": "c38a01e", "date": "2026-11-20", "machine": "test-pc", "value": 104.33,
            "unit": "ms", "status": "watch"}
    assert "status" not in points(source, "cli-sleep-0-01")[0]


def test_a_refused_import_leaves_every_file_byte_identical(
        source: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    before = hashes(source)
    # Two history files to make, for a machine the data does not have: none is made.
    status = main(["import", "hyperfine", str(SAMPLES / "hyperfine.json"), "--source",
                   str(source), "--id", "cli", "--machine", "test-pcc", "--commit",
                   "abc1234", "--yes"])
    assert status == 1
    assert capsys.readouterr().err == (
        "error: machine 'test-pcc' is not under `machines:`; add it there (an id and a "
        "name), then import again\n")
    assert hashes(source) == before


def test_a_bad_file_is_an_error_message_not_a_traceback(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.json").write_text("{\n  oops\n}\n")
    status = main(["import", "hyperfine", str(tmp_path / "bad.json"), "--source",
                   str(source)])
    assert status == 1
    assert capsys.readouterr().err == (
        f"error: {tmp_path / 'bad.json'}:2:3: not JSON: Expecting property name enclosed "
        "in double quotes\n      oops\n      ^\n    hint: give the file exactly as the tool "
        "wrote it\n")


def test_a_data_file_ruamel_cannot_read_is_told_as_a_build_tells_it(
        source: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A data file that does not read is not edited: the change is checked as a build
    would check it, which tells that file's error at its place with every other one."""
    (source / "data" / "dup.yaml").write_text("commits:\n  - id: a\n    id: b\n")
    before = {p: p.read_bytes() for p in sorted((source / "data").rglob("*")) if p.is_file()}
    status = main(["record", "measurement", "x", "--value", "1", "--status", "estimate",
                   "--source", str(source)])
    assert status == 1
    err = capsys.readouterr().err
    assert err == ("data/dup.yaml:3:5: commits[0].id: key 'id' appears twice\n"
                   "        id: b\n        ^\n    hint: keep one of them\n"
                   "error: nothing written: the data as changed would not build (1 error, "
                   "above)\n")
    # Asked to write into it, the recording stops there: it cannot edit what it cannot read.
    status = main(["record", "measurement", "x", "--value", "1", "--status", "estimate",
                   "--file", "data/dup.yaml", "--source", str(source)])
    assert status == 1
    assert capsys.readouterr().err == (
        'error: data/dup.yaml:3:5: cannot read it as YAML: found duplicate key "id" with '
        'value "b" (original value: "a"); fix it (`python build.py` shows the problems), '
        "then record again\n")
    assert {p: p.read_bytes() for p in sorted((source / "data").rglob("*"))
            if p.is_file()} == before


# -- what a tool's file says reaches the terminal spelled out -----------------------------

RAW = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|"
                 rb"\xe2\x81[\xa6-\xa9]")  # C0, C1, and the direction overrides and isolates
HOSTILE = "\x1b[2J\u202e\x9b"


def import_bytes(capsysbinary: pytest.CaptureFixture[bytes], source: Path, fmt: str,
                 path: Path, *args: str) -> tuple[int, bytes, bytes]:
    """`import FORMAT FILE` in this process: its status and the bytes it printed."""
    status = main(["import", fmt, str(path), "--source", str(source), "--machine", "test-pc",
                   "--commit", "c38a01e", "--yes", *args])
    out, err = capsysbinary.readouterr()
    return status, out, err


def test_a_unit_in_a_tool_file_never_reaches_the_terminal_raw(
        source: Path, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    before = hashes(source)
    doc = json.loads((SAMPLES / "google-benchmark.json").read_text())
    for bench in doc["benchmarks"]:
        bench["time_unit"] = HOSTILE
    (tmp_path / "gb.json").write_text(json.dumps(doc))
    status, out, err = import_bytes(capsysbinary, source, "google-benchmark",
                                    tmp_path / "gb.json")
    assert status == 1
    assert not RAW.search(out + err), out + err
    unit = b"\\x1b[2J\\u202e\\x9b"
    assert out.splitlines()[0] == (b"measurements.bm-stringcopy: 22.013 " + unit + b" (IQR "
                                   b"0.711 " + unit + b", n = 5), status measured (the runs "
                                   b"vary by 1.9 %, within 5 %)")
    assert err == (b"error: measurements.bm-stringcopy: the unit '\\x1b[2J\\u202e\\x9b' "
                   b"holds U+001B (a control character); give the file as the tool wrote it\n")
    (tmp_path / "runs.jsonl").write_text(json.dumps({"id": "a\nFORGED", "value": 1,
                                                     "unit": HOSTILE}) + "\n")
    status, out, err = import_bytes(capsysbinary, source, "jsonl",
                                    tmp_path / "runs.jsonl", "--unit", "ms")
    assert status == 2 and out == b""  # the option asks what the file cannot give
    assert err == (b"error: --unit ms: the results are in \\x1b[2J\\u202e\\x9b, which "
                   b"converts to no other unit\n")
    assert hashes(source) == before


def test_a_command_name_shows_escaped_in_a_dry_run(
        source: Path, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """hyperfine's command names a series by its slug: the diff spells out the rest."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    before = hashes(source)
    doc = json.loads((SAMPLES / "hyperfine.json").read_text())
    doc["results"][0]["command"] = f"sleep {HOSTILE}\nFORGED: Wrote 0 figures"
    (tmp_path / "hf.json").write_text(json.dumps(doc))
    status, out, err = import_bytes(capsysbinary, source, "hyperfine",
                                    tmp_path / "hf.json", "--dry-run")
    assert not RAW.search(out + err), out + err
    assert not any(line.startswith(b"FORGED") for line in out.splitlines())
    assert status == 0, err
    assert b"+{\"commit\": \"c38a01e\"" in out  # the diff of the new history file
    assert hashes(source) == before


# -- values no tool measures, units a replacement would change ----------------------------

def hyperfine_with(**changes: object) -> str:
    """The hyperfine sample with keys of its second result changed."""
    doc = json.loads((SAMPLES / "hyperfine.json").read_text())
    doc["results"][1].update(changes)
    return json.dumps(doc)


def google_with(**changes: object) -> str:
    """The Google Benchmark sample with keys of its first repetition changed."""
    doc = json.loads((SAMPLES / "google-benchmark.json").read_text())
    doc["benchmarks"][0].update(changes)
    return json.dumps(doc)


NEGATIVE_HINT = ("    hint: give the file exactly as the tool wrote it, from a run that "
                 "worked; nothing was written")


@pytest.mark.parametrize(("fmt", "text", "message"), [
    ("hyperfine", hyperfine_with(mean=-0.5),
     "x.json:1:421: results[1].mean: benchmark 'python3 -c pass': mean is -0.5, a negative "
     "time or size"),
    ("hyperfine", hyperfine_with(times=[0.1, -0.002, 0.1]),
     "x.json:1:595: results[1].times[1]: benchmark 'python3 -c pass': times is -0.002, a "
     "negative time or size"),
    ("pytest-benchmark", '{"benchmarks": [{"name": "test_a", "stats": {"mean": 0.1, '
     '"min": -1e-06, "stddev": 0.01, "rounds": 5}}]}',
     "x.json:1:66: benchmarks[0].stats.min: benchmark 'test_a': min is -1e-06, a negative "
     "time or size"),
    ("google-benchmark", google_with(real_time=-22.0),
     "x.json:1:754: benchmarks[0].real_time: benchmark 'BM_StringCopy': real_time is -22.0, "
     "a negative time or size"),
    ("jsonl", '{"id": "a", "value": 1, "unit": "ms"}\n{"id": "b", "value": -3, '
     '"unit": "MB"}\n', "x.json:2:22: benchmark 'b': value is -3, a negative time or size"),
    ("jsonl", '{"id": "a", "samples": [1, -2.5, 3], "unit": "us"}\n',
     "x.json:1:28: benchmark 'a': samples is -2.5, a negative time or size"),
])
def test_a_negative_time_or_size_is_refused(tmp_path: Path, fmt: str, text: str,
                                            message: str) -> None:
    """Told at the value (the line under it, a caret at it), not at the file."""
    (tmp_path / "x.json").write_text(text)
    with pytest.raises(ImportFailed) as caught:
        read_results(fmt, tmp_path / "x.json", "x.json")
    printed = caught.value.render().splitlines()
    assert [printed[0], printed[-1]] == [message, NEGATIVE_HINT]
    assert len(printed) == 4 and printed[2].strip() == "^"


def test_a_negative_time_is_refused_and_nothing_written(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = hashes(source)
    (tmp_path / "hf.json").write_text(hyperfine_with(mean=-0.106))
    status = main(["import", "hyperfine", str(tmp_path / "hf.json"), "--source",
                   str(source), "--machine", "test-pc", "--commit", "c38a01e", "--yes"])
    out, err = capsys.readouterr()
    assert (status, out) == (1, "")
    assert err.startswith(f"error: {tmp_path / 'hf.json'}:1:421: results[1].mean: benchmark "
                          "'python3 -c pass': mean is -0.106, a negative time or size\n")
    assert err.endswith(f"\n{NEGATIVE_HINT}\n")
    assert hashes(source) == before


def test_negative_values_that_may_be_ok_twin(tmp_path: Path) -> None:
    """A change in percent may be negative, and a time may be zero."""
    (tmp_path / "x.json").write_text('{"id": "gain", "value": -3.5, "unit": "%"}\n'
                                     '{"id": "delta", "value": -2}\n'
                                     '{"id": "idle", "samples": [0, 0, 0], "unit": "ms"}\n')
    results = read_results("jsonl", tmp_path / "x.json", "x.json")
    assert [(r.name, str(r.value)) for r in results] == [("gain", "-3.5"), ("delta", "-2"),
                                                         ("idle", "0.0")]


def test_a_long_name_is_quoted_short_and_the_problem_told_whole(tmp_path: Path) -> None:
    """A name of 100,000 characters printed whole made a line of 100 KB, and the message's
    cut (at 400 characters) hid what is wrong with it: it is quoted by its start and end."""
    name = "a" * 50_000 + "b" * 50_000
    (tmp_path / "x.json").write_text(hyperfine_with(command=name, mean=-0.5))
    with pytest.raises(ImportFailed) as caught:
        read_results("hyperfine", tmp_path / "x.json", "x.json")
    printed = caught.value.render().splitlines()
    assert [printed[0], printed[-1]] == [
        f"x.json:1:100406: results[1].mean: benchmark '{'a' * 29}…{'b' * 29}': mean is -0.5, "
        "a negative time or size", NEGATIVE_HINT]
    assert max(map(len, printed)) < 500


@pytest.mark.parametrize(("count", "named"), [(10, 10), (11, 10), (25, 10)])
def test_the_files_written_are_named_ten_at_most(
        count: int, named: int, source: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """An import of 20,000 benchmarks printed a line of 4.7 MB naming each history file:
    the first ten are named, the others counted."""
    runs = tmp_path / "runs.jsonl"
    runs.write_text("".join(json.dumps({"id": f"b{n:02}", "value": n + 1, "unit": "ms"})
                            + "\n" for n in range(count)))
    assert run_import(source, runs) == 0
    wrote = next(line for line in capsys.readouterr().out.splitlines()
                 if line.startswith("Wrote "))
    files = ", ".join(f"data/history/measurements.b{n:02}.jsonl" for n in range(named))
    rest = count - named
    more = f" and {rest} more file{'s' if rest != 1 else ''}" if rest else ""
    assert wrote == f"Wrote {count} figures to {files}{more}."


def run_import(source: Path, path: Path, *args: str) -> int:
    """`import jsonl FILE --replace` of a run record, with its evidence."""
    return main(["import", "jsonl", str(path), "--source", str(source), "--machine",
                 "test-pc", "--commit", "c38a01e", "--replace", "--yes", *args])


@pytest.mark.parametrize(("name", "message", "hint"), [
    ("\u00e9\u00e8", "makes no id: its name has no letter a-z or digit\n", "pass --id PREFIX"),
    ("b" * 223, "makes an id of 223 characters, too long for the name of its history file "
                "(at most 241 bytes)\n", "rename the benchmark"),
])
def test_a_name_that_makes_no_history_file_is_refused(
        name: str, message: str, hint: str, example_copy: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """One result, so not 'two results make the id', and no file system error."""
    runs = tmp_path / "runs.jsonl"
    runs.write_text(json.dumps({"id": name, "value": 3, "unit": "ms"}) + "\n")
    before = hashes(example_copy)
    assert run_import(example_copy, runs) == 1
    quoted = name if len(name) <= 60 else f"{name[:29]}…{name[-29:]}"
    said = capsys.readouterr().err
    # At the benchmark's name, in its line: where the rename goes.
    assert said.startswith(f"error: {runs}:1:8: id: benchmark '{quoted}' {message}")
    assert said.endswith(f"           ^\n    hint: {hint}\n")
    assert hashes(example_copy) == before


def test_two_names_that_make_one_id_are_both_named(
        example_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Another --id prefix would not part them: the message names both, not a prefix."""
    runs = tmp_path / "runs.jsonl"
    runs.write_text("".join(json.dumps({"id": name, "value": 3, "unit": "ms"}) + "\n"
                            for name in ("sort 10", "sort/10")))
    before = hashes(example_copy)
    assert run_import(example_copy, runs) == 1
    assert capsys.readouterr().err == (
        f"error: {runs}:2:8: id: benchmark 'sort/10' and benchmark 'sort 10' both make the "
        "id 'sort-10'\n"
        '    {"id": "sort/10", "value": 3, "unit": "ms"}\n'
        "           ^\n"
        "    hint: rename one of them\n")
    assert hashes(example_copy) == before


def test_a_name_of_the_longest_id_ok(example_copy: Path, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    runs = tmp_path / "runs.jsonl"
    runs.write_text(json.dumps({"id": "b" * 222, "value": 3, "unit": "ms"}) + "\n")
    assert run_import(example_copy, runs) == 0, capsys.readouterr().err
    assert (example_copy / "data" / "history" / f"measurements.{'b' * 222}.jsonl").is_file()


def test_a_history_folder_that_links_outside_is_named_as_such(
        example_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The new history files are no links, their folder is: not 'a link that leads to no
    file'. Nothing is written, there or here."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (example_copy / "data" / "history").symlink_to(elsewhere)
    before = hashes(example_copy)
    status = main(["import", "hyperfine", str(SAMPLES / "hyperfine.json"), "--source",
                   str(example_copy), "--id", "hf", "--machine", "test-pc", "--commit",
                   "c38a01e", "--yes"])
    err = capsys.readouterr().err
    assert status == 1
    assert ("/measurements.hf-python3-c-pass.jsonl: this file links to a place outside the "
            "source folder\n    hint: copy the file into the folder instead of linking to "
            "it\n") in err, err
    assert "leads to no file" not in err
    assert hashes(example_copy) == before and not any(elsewhere.iterdir())


def test_a_series_keeps_its_unit(
        example_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    (tmp_path / "runs.jsonl").write_text('{"id": "lost", "value": 3, "unit": "players"}\n')
    assert run_import(example_copy, tmp_path / "runs.jsonl") == 0, capsys.readouterr().err
    before = hashes(example_copy)
    (tmp_path / "runs.jsonl").write_text('{"id": "lost", "value": 3, "unit": "ms"}\n')
    assert main(["import", "jsonl", str(tmp_path / "runs.jsonl"), "--source",
                 str(example_copy), "--machine", "test-pc", "--commit", "d00d00d",
                 "--yes"]) == 1
    assert capsys.readouterr().err == (
        "error: data/history/measurements.lost.jsonl is in players, the new point in ms: a "
        "series has one unit; pass --unit players\n")
    assert hashes(example_copy) == before


def test_a_duration_is_written_in_the_unit_its_series_has(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The ok twin: 1.5 s after a point in ms is 1500 ms, no unit changed."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    (tmp_path / "new.jsonl").write_text('{"id": "boot", "value": 120, "unit": "ms"}\n')
    assert run_import(source, tmp_path / "new.jsonl") == 0, capsys.readouterr().err
    capsys.readouterr()
    (tmp_path / "runs.jsonl").write_text('{"id": "boot", "value": 1.5, "unit": "s"}\n')
    assert main(["import", "jsonl", str(tmp_path / "runs.jsonl"), "--source",
                 str(source), "--machine", "test-pc", "--commit", "d00d00d",
                 "--yes"]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.startswith("measurements.boot: 1500 ms, status measured")
    assert [(p["commit"], p["value"], p["unit"]) for p in points(source, "boot")] == [
        ("c38a01e", 120, "ms"), ("d00d00d", 1500, "ms")]


@pytest.mark.skipif(shutil.which("hyperfine") is None, reason="hyperfine is not installed")
def test_an_imported_hyperfine_run_keeps_its_spread_on_the_page(
        example_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """hyperfine's mean ± stddev, median, min, max and runs reach the history line, and the
    figure made from it: the median shown first, then mean ± sd and the runs."""
    from progress_site.model.history import decimals_of
    from progress_site.pipeline import BuildConfig, make_site
    from progress_site.render import formatting

    from .conftest import TODAY
    from .dom import parse

    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    out = tmp_path / "hf.json"
    subprocess.run(["hyperfine", "--runs", "10", "-N", "--export-json", str(out), "true"],
                   check=True, capture_output=True, timeout=60)
    status = main(["import", "hyperfine", str(out), "--source", str(example_copy), "--id",
                   "startup", "--machine", "test-pc", "--commit", "c38a01e", "--unit", "us",
                   "--yes"])
    assert status == 0, capsys.readouterr().err
    (point,) = points(example_copy, "startup-true")
    assert point["n"] == 10 and point["spread"] == point["stats"]["stddev"]
    assert set(point["stats"]) == {"mean", "median", "stddev", "min", "max"}
    assert point["value"] == point["stats"]["median"]  # the median is the headline
    page = example_copy / "content" / "en" / "index.md"
    page.write_text(page.read_text() + "\nStart-up: {{ measurements.startup-true }}; sd "
                    "{{ measurements.startup-true.sd }}.\n")
    files = make_site(BuildConfig(source=example_copy, out=tmp_path / "site",
                                  today=TODAY, compiled=TEMPLATES)).files
    stats = point["stats"]

    # The series is shown in ms once its median (written in us) is 1 ms or more.
    shift, unit = (-3, "ms") if point["value"] >= 1000 else (0, "\u03bcs")

    def shown(value: float) -> float:  # in the unit the series is shown in, in decimal
        return float(Decimal(repr(value)).scaleb(shift))

    def ms(value: float) -> str:  # as the writer rounded it, printed by Babel
        return f"{formatting.number(value, decimals_of(value), 'en')}\u00a0{unit}"

    found = [p.text() for p in parse(files["index.html"]).find_all("p")
             if p.text().startswith("Start-up:")]
    q1, _, q3 = statistics.quantiles(point["samples"], n=4)
    # The median's spread, moved to the shown unit, then to 3 digits, as the build does.
    iqr = float(f"{shown(q3 - q1):.3g}")
    median, mean, sd = (shown(stats[k]) for k in ("median", "mean", "stddev"))
    assert found == [f"Start-up: p50\u00a0{ms(median)} · IQR\u00a0{ms(iqr)} · "
                     f"mean\u00a0{ms(mean)}\u00a0±\u00a0{ms(sd)} "
                     f"(n\u00a0=\u00a010); sd {ms(sd)}."]
    figure = json.loads(files["data.json"])["measurements"][-1]["figure"]
    assert figure["derived"]["quantity"]["parts"] == {
        "p50": median, "min": shown(stats["min"]), "max": shown(stats["max"]),
        "mean": mean, "sd": sd, "iqr": iqr, "n": 10}


def test_an_imported_pytest_benchmark_keeps_its_stats_and_rounds(
        example_copy: Path, tmp_path: Path, pytest_benchmark_json: Path,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """pytest-benchmark's median is the headline; its min, max, mean, stddev and rounds
    reach the figure (data.json) through the history line."""
    from progress_site.pipeline import BuildConfig, make_site

    from .conftest import TODAY

    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    status = main(["import", "pytest-benchmark", str(pytest_benchmark_json), "--source",
                   str(example_copy), "--id", "py", "--machine", "test-pc", "--commit",
                   "c38a01e", "--unit", "us", "--yes"])
    assert status == 0, capsys.readouterr().err
    (point,) = points(example_copy, "py-test-sum")
    rounds = json.loads(pytest_benchmark_json.read_text())["benchmarks"][0]["stats"]["rounds"]
    assert point["n"] == rounds and point["value"] == point["stats"]["median"]
    files = make_site(BuildConfig(source=example_copy, out=tmp_path / "site",
                                  today=TODAY, compiled=TEMPLATES)).files
    figure = next(m["figure"] for m in json.loads(files["data.json"])["measurements"]
                  if m["id"] == "py-test-sum")
    stats = point["stats"]
    assert figure["derived"]["quantity"]["parts"] == {
        "p50": stats["median"], "min": stats["min"], "max": stats["max"],
        "mean": stats["mean"], "sd": stats["stddev"], "iqr": stats["iqr"], "n": rounds}


def test_import_reads_past_a_datasets_yaml_records(
        source: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A dataset's records may be a YAML list beside its declaration (data-format.md):
    the build reads it as records, and so must `import` (it refused the whole site with
    "a data file must be a mapping of collections")."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    (source / "data" / "tests.yaml").write_text(
        "datasets:\n  - id: weeks\n    title: Test runs\n    records: weeks.yaml\n"
        "    key: [week]\n    fields:\n      - {name: week, label: Week, type: whole}\n"
        "      - {name: failed, label: Failed, type: whole}\n")
    records = "- {week: 1, failed: 12}\n- {week: 2, failed: 8}\n"
    (source / "data" / "weeks.yaml").write_text(records)
    status = main(["import", "hyperfine", str(SAMPLES / "hyperfine.json"), "--source",
                   str(source), "--id", "hf", "--machine", "test-pc", "--commit", "c38a01e",
                   "--date", "2026-11-20", "--yes"])
    out = capsys.readouterr()
    assert status == 0, out.err
    assert "The data is valid." in out.out
    assert (source / "data" / "weeks.yaml").read_text() == records
    assert status == main(["--source", str(source), "--out", str(source / "site")])


def test_record_into_a_datasets_yaml_records_is_refused(
        source: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--file` naming a dataset's records is refused: it is no data file to add to."""
    (source / "data" / "weeks.yaml").write_text("- {week: 1, failed: 12}\n")
    status = main(["record", "measurement", "x", "--value", "1", "--status", "estimate",
                   "--file", str(source / "data" / "weeks.yaml"), "--source", str(source)])
    err = capsys.readouterr().err
    assert status != 0
    assert "data/weeks.yaml" in err and "Traceback" not in err


def test_a_slow_outlier_does_not_blur_the_median(
        source: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """hyperfine's run of a command whose first run was a hundred times slower (a pause
    of the machine, as pytest-benchmark meets in its thousands of rounds): the deviation
    is 350 ms, but the seven other readings agree within a millisecond. Cut at the
    deviation, the median, 13.083 ms, was written 13, and a step of 0.5 ms could not
    show; the middle half of the readings sets the cut instead."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    assert main(["import", "hyperfine", str(SAMPLES / "hyperfine-outlier.json"),
                 "--source", str(source), "--id", "hf", "--machine", "test-pc",
                 "--commit", "c38a01e", "--date", "2026-11-20", "--yes"]) == 0, \
        capsys.readouterr().err
    (point,) = [json.loads(x) for x in (
        source / "data" / "history" / "measurements.hf-decode.jsonl").read_text().splitlines()]
    assert (point["value"], point["spread"], point["unit"]) == (13.083, 350, "ms")
    assert point["stats"]["min"] == 12.711
    assert sorted(point["samples"])[:2] == [12.711, 12.723]
