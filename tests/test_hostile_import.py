"""Hostile input, sixth round: a tool's output as a stranger's pull request brings it, the
JSON lines a harness writes, and the command line as CI passes it a tool's words.

- a benchmark's name too long for any file name is a refusal, never a traceback;
- a tool's file saved in UTF-16, with a BOM or with a byte that is not UTF-8 (what
  Windows' shells write) is read, or refused in words a user can act on;
- a text that is written into data/ (a title, a machine, a commit) holding a character no
  page can hold is refused at the tool's file, not at a YAML file the user never wrote;
- JSON lines are lines ended by a newline: a U+2028 inside a string (valid JSON, as
  Python's `json.dumps(..., ensure_ascii=False)` writes it) ends no line, and every
  position counts lines as an editor does;
- an option out of its range (`--port 99999`, `--value 1e99999999`, `--cv nan`, a
  `--base-url` urllib cannot split, a `--title` with a direction override) is a usage
  error that says what is expected, never an internal error, a hang or a YAML line.

(A site's catalog held to a data file's rules: tests/test_hostile_templates.py.)
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from progress_site.cli import main
from progress_site.record.importers import ImportFailed, read_results

from .conftest import SOURCE_DATE_EPOCH
from .test_hostile import HOSTILE, build, refused, write
from .test_importers import SAMPLES
from .test_record import hashes, smallest_site

HISTORY = "data/history/measurements.heap.jsonl"
ASV_RESULTS = Path("results", "vm", "dd92e12d-existing-py_tmp_imp_asv_venv_bin_python3.json")
POINT = {"commit": "c38a01e", "date": "2026-11-16", "machine": "test-pc", "value": 74,
         "unit": "MB"}


def run_import(source: Path, fmt: str, tool_file: Path, capsys: pytest.CaptureFixture[str],
               ) -> tuple[int, str]:
    """`import FMT FILE` into `source`, confirmed; its status and what it printed."""
    code = main(["import", fmt, str(tool_file), "--source", str(source), "--machine",
                 "test-pc", "--commit", "c38a01e", "--date", "2026-11-20", "--yes"])
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.fixture
def base(tmp_path: Path) -> Path:
    """A fresh copy of tests/hostile/base, the smallest valid site."""
    shutil.copytree(HOSTILE / "base", tmp_path / "src")
    return tmp_path / "src"


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    return smallest_site(tmp_path)


def test_a_name_too_long_for_a_file_name_is_refused(site: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    """go test's former name (`BenchmarkX...`) was looked up on disk before its length
    was checked: the system refused a path that long (over PATH_MAX), and the import
    ended in a traceback."""
    tool_file = tmp_path / "go.txt"
    tool_file.write_text("BenchmarkX" + "a" * 5000 + "-2 \t 1 \t 5 ns/op\n")
    before = hashes(site)
    code, said = run_import(site, "go-test", tool_file, capsys)
    assert code == 1, said
    assert "Traceback" not in said and "bug" not in said
    assert "makes an id of 5001 characters, too long for the name of its history file" in said
    assert hashes(site) == before


def test_a_long_name_that_fits_ok(site: Path, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    tool_file = tmp_path / "go.txt"
    tool_file.write_text("BenchmarkX" + "a" * 200 + "-2 \t 1 \t 5 ns/op\n")
    code, said = run_import(site, "go-test", tool_file, capsys)
    assert code == 0, said
    assert (site / "data" / "history" / f"measurements.x{'a' * 200}.jsonl").is_file()


@pytest.mark.parametrize(("data", "message"), [
    pytest.param("BenchmarkA-8   100   5 ns/op\n".encode("utf-16"),
                 "x.txt: the file is UTF-16, not UTF-8\n    hint: save it as UTF-8 (in "
                 "PowerShell: `| Out-File -Encoding utf8`)", id="utf-16"),
    pytest.param(b"goos: linux\nBenchmarkA-8   100   5 ns/op\ncpu: \xff\n",
                 "x.txt:3:6: the file is not valid UTF-8\n    hint: give the file exactly "
                 "as the tool wrote it, saved as UTF-8", id="not utf-8"),
])
def test_a_tools_file_not_in_utf_8_is_told_so(tmp_path: Path, data: bytes, message: str
                                              ) -> None:
    (tmp_path / "x.txt").write_bytes(data)
    with pytest.raises(ImportFailed) as caught:
        read_results("go-test", tmp_path / "x.txt", "x.txt")
    assert caught.value.render() == message


def test_a_tools_file_with_a_bom_ok(tmp_path: Path) -> None:
    """Windows' editors and shells start UTF-8 with a BOM: go test's text was read past
    it, a JSON file was 'not JSON: Unexpected UTF-8 BOM (decode using utf-8-sig)'."""
    bom = "\ufeff"
    (tmp_path / "h.json").write_text(bom + (SAMPLES / "hyperfine.json").read_text(),
                                     encoding="utf-8")
    assert [r.name for r in read_results("hyperfine", tmp_path / "h.json", "h.json")] == [
        "sleep 0.01", "python3 -c pass"]
    (tmp_path / "r.jsonl").write_text(bom + '{"id": "a", "value": 1}\n', encoding="utf-8")
    assert [r.name for r in read_results("jsonl", tmp_path / "r.jsonl", "r.jsonl")] == ["a"]


@pytest.mark.parametrize(("record", "message"), [
    pytest.param({"id": "parse", "value": 1, "title": "Parse \ud800 file"},
                 "r.jsonl:2:38: run record 'parse': `title` holds U+D800 (half of a "
                 "character), which no page can hold", id="half a character"),
    pytest.param({"id": "parse", "value": 1, "title": "Parse \u202efile"},
                 "r.jsonl:2:38: run record 'parse': `title` holds U+202E (a direction "
                 "override), which no page can hold", id="direction"),
    pytest.param({"id": "parse", "value": 1, "machine": "pc\x1b[2J"},
                 "r.jsonl:2:40: run record 'parse': `machine` holds U+001B (a control "
                 "character), which no page can hold", id="terminal escape"),
])
def test_words_no_page_can_hold_are_refused_in_the_tools_file(
        site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        record: dict[str, object], message: str) -> None:
    """They were written into the YAML, refused by the check of the data as changed, and
    told at a line of data/measurements.yaml the user never wrote."""
    tool_file = tmp_path / "r.jsonl"
    tool_file.write_text('{"id": "other", "value": 2}\n' + json.dumps(record) + "\n")
    before = hashes(site)
    code, said = run_import(site, "jsonl", tool_file, capsys)
    assert code == 1, said
    assert said.startswith(f"error: {tool_file}" + message.removeprefix("r.jsonl")), said
    assert "measurements.yaml" not in said
    assert hashes(site) == before


def test_a_criterion_name_no_page_can_hold_is_refused(tmp_path: Path) -> None:
    """criterion's benchmark name becomes the series' title: refused in the tool's file."""
    folder = tmp_path / "target" / "fib" / "new"
    folder.mkdir(parents=True)
    (folder / "estimates.json").write_text('{"mean": {"point_estimate": 5}}')
    (folder / "benchmark.json").write_text('{"full_id": "fib \\u202e02"}')
    with pytest.raises(ImportFailed) as caught:
        read_results("criterion", folder / "estimates.json", "e.json")
    assert caught.value.render() == (
        "benchmark.json:1:13: full_id: benchmark 'fib \\u202e02': its title holds U+202E (a "
        "direction override), which no page can hold\n"
        '    {"full_id": "fib \\u202e02"}\n' + " " * 16 + "^\n"
        "    hint: delete it from what criterion measured or ran on, then run it again")


def test_a_line_separator_in_a_history_string_ends_no_line(base: Path, tmp_path: Path
                                                           ) -> None:
    """`str.splitlines` cut the line at U+2028: a valid line was two broken ones, and
    every later line's number was one too high."""
    write(base / "data" / "machines.yaml", "machines: [{id: test-pc, name: PC}]\n"
          "commits: [{id: c38a01e, date: 2026-11-16}, {id: 57930e6, date: 2026-11-17}]\n")
    first = json.dumps({**POINT, "tool": "a\u2028b\u2029c"}, ensure_ascii=False)
    second = json.dumps({**POINT, "commit": "57930e6", "date": "2026-11-31"})
    write(base / HISTORY, first + "\n" + second + "\n")
    err = refused(build(base, tmp_path / "out"), tmp_path / "out")
    assert err.startswith(f"{HISTORY}:2:31: date: "), err
    assert "JSON syntax error" not in err


def test_a_line_separator_in_a_history_string_ok(base: Path, tmp_path: Path) -> None:
    write(base / "data" / "machines.yaml", "machines: [{id: test-pc, name: PC}]\n"
          "commits: [{id: c38a01e, date: 2026-11-16}]\n")
    write(base / HISTORY, json.dumps({**POINT, "tool": "a\u2028b"}, ensure_ascii=False)
          + "\r\n")
    result = build(base, tmp_path / "out")
    assert result.code == 0, result.err


def test_a_line_separator_in_a_run_record_ends_no_line(tmp_path: Path) -> None:
    text = json.dumps({"id": "a", "value": 1, "title": "a\u2028b"}, ensure_ascii=False)
    (tmp_path / "r.jsonl").write_text(text + "\n" + '{"id": "b"}\n', encoding="utf-8")
    with pytest.raises(ImportFailed) as caught:
        read_results("jsonl", tmp_path / "r.jsonl", "r.jsonl")
    assert caught.value.render().startswith("r.jsonl:2:1: run record 'b' has no `value`")


# -- the command line ---------------------------------------------------------------------

@pytest.mark.parametrize(("args", "message"), [
    pytest.param(["--watch", "--port", "99999"], "argument --port: expected a port from 0 "
                 "to 65535 (0 picks a free one), got '99999'", id="port past 65535"),
    pytest.param(["--watch", "--port", "-1"], "argument --port: expected a port from 0 to "
                 "65535 (0 picks a free one), got '-1'", id="negative port"),
    pytest.param(["--base-url", "https://[::1/"], "argument --base-url: 'https://[::1/' is "
                 "not an address (Invalid IPv6 URL)", id="half an IPv6 address"),
])
def test_an_option_out_of_its_range_is_a_usage_error(
        base: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
        message: str) -> None:
    """The port went to bind() as it was: 'internal error: OverflowError'; an address
    urllib cannot split was argparse's 'invalid base_url value'."""
    with pytest.raises(SystemExit) as caught:
        main(["--source", str(base), "--out", str(tmp_path / "out"), *args])
    err = capsys.readouterr().err
    assert caught.value.code == 2
    assert err.splitlines()[-1] == f"progress-site: error: {message}", err
    assert not (tmp_path / "out").exists()


def test_an_option_at_the_ends_of_its_range_ok() -> None:
    from progress_site.cli import parser

    assert parser().parse_args(["--port", "0"]).port == 0
    assert parser().parse_args(["--port", "65535"]).port == 65535
    assert parser().parse_args(["--base-url", "https://[::1]/"]).base_url == "https://[::1]/"


@pytest.mark.parametrize(("args", "message"), [
    pytest.param(["--value", "1e99999999"], "error: --value: 1e99999999 is larger than a "
                 "page prints (1e+15)", id="a number of 100 million digits"),
    pytest.param(["--value=-1e16"], "error: --value: -1e16 is larger than a page prints "
                 "(1e+15)", id="past the largest"),
    pytest.param(["--value", "1e-99999999"], "error: --value: 1e-99999999 has more than 12 "
                 "decimals; round it", id="a hundred million decimals"),
    pytest.param(["--samples", "1,2,1e400"], "error: --samples: 1e400 is larger than a page "
                 "prints (1e+15)", id="a sample past the largest"),
    pytest.param(["--value", "1", "--title", "a\u202eb"], "error: --title: 'a\\u202eb' "
                 "holds U+202E (a direction override), which no page can hold",
                 id="direction override in the title"),
    pytest.param(["--value", "1", "--unit", "M\ud800B"], "error: --unit: 'M\\ud800B' holds "
                 "U+D800 (half of a character), which no page can hold", id="half a character"),
])
def test_a_typed_value_no_page_can_hold_is_refused_as_typed(
        site: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
        ) -> None:
    """A number of 100 million digits was printed whole, then checked as YAML: the
    command never ended (CI passes a tool's number as `--value "$VALUE"`); a title or
    unit was told at a line of a YAML file the user never wrote."""
    before = hashes(site)
    code = main(["record", "measurement", "fresh", "--source", str(site), "--machine",
                 "test-pc", "--commit", "c38a01e", "--yes", *args])
    out = capsys.readouterr()
    assert code == 2, out
    assert out.out == "" and out.err == message + "\n"
    assert hashes(site) == before


def test_a_typed_value_at_the_limits_ok(site: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    code = main(["record", "measurement", "fresh", "--source", str(site), "--machine",
                 "test-pc", "--commit", "c38a01e", "--yes", "--value=-1e15",
                 "--title", "a\u2028b"])
    assert code == 0, capsys.readouterr()
    code = main(["record", "measurement", "tiny", "--source", str(site), "--machine",
                 "test-pc", "--commit", "c38a01e", "--yes", "--value", "0.000000000001"])
    assert code == 0, capsys.readouterr()


@pytest.mark.parametrize(("args", "message"), [
    pytest.param(["--cv", "nan"], "argument --cv: expected a percentage (a number, 0 or "
                 "more), got 'nan'", id="a spread not a number"),
    pytest.param(["--cv=-5"], "argument --cv: expected a percentage (a number, 0 or more), "
                 "got '-5'", id="a negative spread"),
    pytest.param(["--noise-limit", "inf"], "argument --noise-limit: expected a percentage "
                 "(a number, 0 or more), got 'inf'", id="no noise limit"),
])
def test_a_percentage_that_is_none_is_a_usage_error(
        site: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
        ) -> None:
    """`--cv nan` recorded 'the runs vary by nan %, within 5 %' as measured."""
    before = hashes(site)
    with pytest.raises(SystemExit) as caught:
        main(["record", "measurement", "fresh", "--source", str(site), "--machine",
              "test-pc", "--commit", "c38a01e", "--yes", "--value", "1", *args])
    assert caught.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].endswith(f"error: {message}")
    assert hashes(site) == before


def test_asv_parameters_that_multiply_past_the_results_are_refused(tmp_path: Path) -> None:
    """Three lists of 1,000 parameters in a 15 KB file made a billion names before any
    was read: the import ate the memory and never ended."""
    shutil.copytree(SAMPLES / "asv", tmp_path / "asv")
    results = tmp_path / "asv" / ASV_RESULTS
    doc = json.loads(results.read_text())
    doc["results"]["bench.TimeSuite.time_sum"][1] = [[str(i) for i in range(1000)]] * 3
    results.write_text(json.dumps(doc))
    with pytest.raises(ImportFailed) as caught:
        read_results("asv", results, "r.json")
    printed = caught.value.render().splitlines()
    assert [printed[0], printed[-1]] == [
        'r.json:1:679: results."bench.TimeSuite.time_sum"[1]: benchmark '
        "'bench.TimeSuite.time_sum': its parameters make 1,000,000,000 combinations, its "
        "results 2", "    hint: give the file exactly as asv wrote it"]


def test_asv_parameters_ok(tmp_path: Path) -> None:
    names = [r.name for r in read_results("asv", SAMPLES / "asv" / ASV_RESULTS, "r.json")]
    assert names[:2] == ["bench.TimeSuite.time_sum(10)", "bench.TimeSuite.time_sum(1000)"]


def test_a_criterion_reading_too_close_to_0_is_refused(tmp_path: Path) -> None:
    """A time of 1e-308 over 1e308 iterations was read as a reading of 0 ns."""
    shutil.copytree(SAMPLES / "criterion" / "fib", tmp_path / "fib")
    new = tmp_path / "fib" / "20" / "new"
    (new / "sample.json").write_text('{"sampling_mode": "Linear", "iters": [1e308, 1], '
                                     '"times": [1e-308, 2]}')
    with pytest.raises(ImportFailed) as caught:
        read_results("criterion", new / "estimates.json", "e.json")
    assert caught.value.render() == (
        "sample.json:1:60: times[0]: benchmark 'fib/20': a reading of sample.json (1e-308 "
        "over 1e+308 iterations) is too close to 0 to read\n"
        '    {"sampling_mode": "Linear", "iters": [1e308, 1], "times": [1e-308, 2]}\n'
        + " " * 63 + "^\n    hint: give the folder as `cargo bench` wrote it")
