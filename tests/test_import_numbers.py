"""Every importer, given numbers no page can print (infinite, not a number, past the
limits, too close to 0 for a float, a count of runs that is none) in a value or in its
spread: a located error naming the benchmark, never a number read as another (`± 1e999`
read past, `1e-999` read as 0, 1 / inf iter/sec read as 0 s); -0 is read as 0."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from progress_site.cli import main
from progress_site.record.importers import ImportFailed, read_results

from .conftest import SOURCE_DATE_EPOCH
from .test_importers import SAMPLES
from .test_record import hashes, smallest_site


def gab(value: str = "5", spread: str = "± 3", tool: str = "cargo",
        unit: str = "ns/iter") -> str:
    """A github-action-benchmark data.js of one bench."""
    return ('window.BENCHMARK_DATA = {"entries": {"s": [{"commit": {"id": "abcdef12"}, '
            f'"date": 1793613300000, "tool": "{tool}", "benches": [{{"name": "a", '
            f'"value": {value}, "range": "{spread}", "unit": "{unit}"}}]}}]}}}}')


CASES = [
    # github-action-benchmark: the spread, the value, the pytest tool's rate and stddev.
    ("github-action-benchmark", gab(spread="± 1e999"),
     "x.json:1:162: "
     "entries.s[0].benches[0].range: benchmark 'a': range (±) 1e+999 is out of range"),
    ("github-action-benchmark", gab(spread="+/- Infinity"),
     "x.json:1:162: "
     "entries.s[0].benches[0].range: benchmark 'a': range (±) inf is out of range"),
    ("github-action-benchmark", gab(spread="± nan"),
     "x.json:1:162: "
     "entries.s[0].benches[0].range: benchmark 'a': range (±) nan is out of range"),
    ("github-action-benchmark", gab(spread="± 1e-999"),
     "x.json:1:162: "
     "entries.s[0].benches[0].range: benchmark 'a': range (±) 1e-999 is out of range"),
    ("github-action-benchmark", gab(spread="± -4"),
     "x.json:1:162: entries.s[0].benches[0].range: benchmark 'a': its spread is -4, a "
     "negative one"),
    ("github-action-benchmark", gab(value="1e999"), "x.json:1:150: "
     "entries.s[0].benches[0].value: benchmark 'a': value inf is out of range"),
    ("github-action-benchmark", gab(value="1e-999"),
     "x.json:1:150: the number 1e-999 is too close to 0 to read"),
    ("github-action-benchmark", gab(value="1e999", spread="stddev: 0.1", tool="pytest",
                                    unit="iter/sec"),
     "x.json:1:151: "
     "entries.s[0].benches[0].value: benchmark 'a': inf iter/sec is out of range"),
    ("github-action-benchmark", gab(spread="stddev: 1e999", tool="pytest", unit="iter/sec"),
     "x.json:1:163: "
     "entries.s[0].benches[0].range: benchmark 'a': stddev 1e+999 is out of range"),
    ("github-action-benchmark", gab(spread="stddev: NaN", tool="pytest", unit="iter/sec"),
     "x.json:1:163: "
     "entries.s[0].benches[0].range: benchmark 'a': stddev nan is out of range"),
    # hyperfine, pytest-benchmark, Google Benchmark, criterion, asv: JSON numbers.
    ("hyperfine", '{"results": [{"command": "a", "mean": 1, "stddev": 1e-999, "times": [1]}]}',
     "x.json:1:52: the number 1e-999 is too close to 0 to read"),
    ("hyperfine", '{"results": [{"command": "a", "mean": 1, "stddev": 1E+400, "times": [1]}]}',
     "x.json:1:52: results[0].stddev: benchmark 'a': stddev inf is out of range"),
    ("pytest-benchmark", '{"benchmarks": [{"name": "a", "stats": {"mean": 1, "stddev": NaN, '
     '"rounds": 3}}]}', "x.json:1:62: "
     "benchmarks[0].stats.stddev: benchmark 'a': stddev nan is out of range"),
    ("pytest-benchmark", '{"benchmarks": [{"name": "a", "stats": {"mean": 1, "rounds": 0}}]}',
     "x.json:1:62: benchmarks[0].stats.rounds: `rounds` is 0, not a count of runs (a whole "
     "number from 1)"),
    ("pytest-benchmark", '{"benchmarks": [{"name": "a", "stats": {"mean": 1, "rounds": 1e999'
     '}}]}', "x.json:1:62: benchmarks[0].stats.rounds: `rounds` is inf, not a count of "
     "runs (a whole number from 1)"),
    ("google-benchmark", '{"benchmarks": [{"name": "a", "run_type": "aggregate", '
     '"aggregate_name": "stddev", "real_time": Infinity, "time_unit": "ns"}]}',
     "x.json:1:97: "
     "benchmarks[0].real_time: benchmark 'a': stddev inf is out of range"),
    ("criterion", '{"mean": {"point_estimate": 1}, "std_dev": {"point_estimate": 4e-400}}',
     "x.json:1:63: the number 4e-400 is too close to 0 to read"),
    ("criterion", '{"mean": {"point_estimate": -1e999}}',
     "x.json:1:29: "
     "mean.point_estimate: benchmark 'x': mean is -inf, a negative time or size"),
    # go test and run records: numbers as text, or read as Decimals.
    ("go-test", "BenchmarkA-8   100   1e-999 ns/op\n",
     "x.json:1:22: benchmark 'A': a reading 1e-999 is out of range"),
    ("go-test", "BenchmarkA-8   100   1e999 ns/op\n",
     "x.json:1:22: benchmark 'A': a reading 1e+999 is out of range"),
    ("jsonl", '{"id": "a", "value": 1, "stddev": NaN}\n',
     "x.json:1:35: run record 'a': `stddev` is nan, not a number"),
    ("jsonl", '{"id": "a", "value": 1, "runs": 1e999}\n',
     "x.json:1:33: run record 'a': `runs` is 1E+999, not a count of runs"),
    ("jsonl", '{"id": "a", "value": 1, "runs": 0}\n',
     "x.json:1:33: run record 'a': `runs` is 0, not a count of runs"),
    ("jsonl", '{"id": "a", "samples": [1, 1e-999]}\n',
     "x.json:1:28: the number 1e-999 is too close to 0 to read"),
]


@pytest.mark.parametrize(("fmt", "text", "message"), CASES)
def test_a_number_no_page_can_print_is_a_located_error(tmp_path: Path, fmt: str, text: str,
                                                       message: str) -> None:
    (tmp_path / "x.json").write_text(text)
    with pytest.raises(ImportFailed) as caught:
        read_results(fmt, tmp_path / "x.json", "x.json")
    assert caught.value.render().splitlines()[0] == message


def test_numbers_at_the_edges_ok(tmp_path: Path) -> None:
    """The _ok twin: a spread of 0 and one with an exponent, a value of -0 (read as 0), a
    tiny time a float holds, one run: all read as written."""
    (tmp_path / "x.json").write_text(gab(value="-0", spread="± 2.5e2"))
    (result,) = read_results("github-action-benchmark", tmp_path / "x.json", "x.json")
    assert str(result.stats["value"]) == "0" and result.stats["plus_minus"] == 250
    (tmp_path / "x.json").write_text(gab(spread="± 0"))
    (result,) = read_results("github-action-benchmark", tmp_path / "x.json", "x.json")
    assert str(result.stats["plus_minus"]) == "0"
    (tmp_path / "x.json").write_text(gab(spread="± 2%"))  # a range of other words
    (result,) = read_results("github-action-benchmark", tmp_path / "x.json", "x.json")
    assert "plus_minus" not in result.stats
    (tmp_path / "x.json").write_text(
        '{"results": [{"command": "a", "mean": -0.0, "stddev": 1e-300, "times": [1e-12]}]}')
    (result,) = read_results("hyperfine", tmp_path / "x.json", "x.json")
    assert [str(result.stats["mean"]), str(result.stats["stddev"])] == ["0.0", "1E-300"]
    (tmp_path / "x.json").write_text('{"id": "a", "value": 1, "runs": 1}\n')
    assert read_results("jsonl", tmp_path / "x.json", "x.json")[0].runs == 1


def test_an_import_of_a_history_with_an_infinite_spread_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    source = smallest_site(tmp_path)
    data = tmp_path / "data.js"
    data.write_text((SAMPLES / "gab-data.js").read_text().replace('"± 22"', '"± 1e999"', 1))
    before = hashes(source)
    status = main(["import", "github-action-benchmark", str(data), "--source", str(source),
                   "--yes"])
    assert status == 1
    assert capsys.readouterr().err == (
        f"error: {data}:21:51: entries.\"Rust Benchmark\"[0].benches[1].range: benchmark "
        "'Rust Benchmark/sort': range (±) 1e+999 is out of range\n"
        '              {"name": "sort", "value": 815, "range": "± 1e999", "unit": "ns/iter"}\n'
        + " " * 54 + "^\n"
        "    hint: a result is finite, at most 1e+15, and 0 or a number a float holds "
        "(1e-999 is not); give the file exactly as github-action-benchmark wrote it\n")
    assert hashes(source) == before


@pytest.mark.parametrize(("seconds", "unit"), [
    ("0", "ns"), ("0.000", "ns"), ("1", "s"), ("1.000", "s"), ("1000", "s"), ("-2", "s"),
    ("0.999", "ms"), ("0.001", "ms"), ("0.0010", "ms"), ("-0.5", "ms"), ("0.000999", "us"),
    ("0.000001", "us"), ("1E-6", "us"), ("9.99E-7", "ns"), ("1E-12", "ns"),
])
def test_a_duration_is_written_in_the_largest_unit_it_fills(seconds: str, unit: str) -> None:
    """The unit a new series of times is written in: the largest that keeps it at 1 or
    more, ns below a microsecond (and for nothing at all)."""
    from progress_site.model.units import fitting_time_unit

    assert fitting_time_unit(Decimal(seconds)) == unit
