"""Every refusal of an import at the place of the value at fault: what the JSON decoder
refuses at its own line and column (not column 1), a number or a key its hooks refuse at
that number or key (a number inside a text is no number), a data.js at its place in the
file (past `window.BENCHMARK_DATA =`), and the line printed under it as the file has it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from progress_site.record.importers import ImportFailed, read_results


def told(tmp_path: Path, fmt: str, text: str) -> list[str]:
    """What `import FMT x.json` prints of a file holding `text`: its lines."""
    (tmp_path / "x.json").write_text(text, encoding="utf-8")
    with pytest.raises(ImportFailed) as caught:
        read_results(fmt, tmp_path / "x.json", "x.json")
    return caught.value.render().splitlines()


GAB = 'window.BENCHMARK_DATA = {\n  "entries": {"s": [{"benches": [\n    {"name": "a", '


@pytest.mark.parametrize(("fmt", "text", "printed"), [
    # The decoder's own place: the third line's `oops`, not 2:1.
    ("hyperfine", '{\n  "results": [\n    {oops}]}',
     ["x.json:3:6: not JSON: Expecting property name enclosed in double quotes",
      "        {oops}]}", "         ^"]),
    ("jsonl", '{"id": "a", "value": 1}\n{"id": "b", "value": 1,}\n',
     ["x.json:2:24: not JSON: Expecting property name enclosed in double quotes",
      '    {"id": "b", "value": 1,}', " " * 27 + "^"]),
    # data.js: placed in the file, past the assignment, its own line shown.
    ("github-action-benchmark", GAB + '"value": 1,, "unit": "ns"}]}]}};\n',
     ["x.json:3:30: not JSON: Expecting property name enclosed in double quotes",
      '        {"name": "a", "value": 1,, "unit": "ns"}]}]}};', " " * 33 + "^"]),
    ("github-action-benchmark", GAB + '"value": 1, "value": 2}]}]}};\n',
     ["x.json:3:31: key 'value' appears twice in one object",
      '        {"name": "a", "value": 1, "value": 2}]}]}};', " " * 34 + "^"]),
    # A hook's refusal at its number: the 2nd whole number, not the digits in a text.
    ("hyperfine", '{"results": [{"command": "sleep 1' + "1" * 50 + '", "mean": 1,\n'
     '  "times": [' + "1" * 50 + ']}]}',
     ["x.json:2:13: a whole number of 50 digits is too large"]),
    ("hyperfine", '{"results": [{"command": "1e-999", "mean": 1, "times": [2.5, 1e-999]}]}',
     ["x.json:1:62: the number 1e-999 is too close to 0 to read"]),
    # The key written twice in an inner object, after the outer's other keys.
    ("pytest-benchmark", '{"benchmarks": [{"name": "a", "stats": {"mean": 1, "rounds": 2,\n'
     '  "max": 3, "mean": 4}}], "name": 1}',
     ["x.json:2:13: key 'mean' appears twice in one object"]),
    # A run record's number too large for a Decimal to compute with (once a traceback).
    ("jsonl", '{"id": "a", "value": 1e99999999999}\n',
     ["x.json:1:22: the number 1e99999999999 is too large to read"]),
])
def test_the_decoders_refusals_at_their_place(tmp_path: Path, fmt: str, text: str,
                                             printed: list[str]) -> None:
    assert told(tmp_path, fmt, text)[:len(printed)] == printed


def test_the_decoders_refusals_at_their_place_ok(tmp_path: Path) -> None:
    """The same files as their tools write them: read."""
    (tmp_path / "x.json").write_text(GAB + '"value": 1, "unit": "ns"}]}]}};\n')
    assert read_results("github-action-benchmark", tmp_path / "x.json", "x.json")
    (tmp_path / "x.json").write_text('{"id": "a", "value": 1e15}\n')
    assert read_results("jsonl", tmp_path / "x.json", "x.json")


def folder(tmp_path: Path, files: dict[str, str]) -> Path:
    """A criterion benchmark's folder holding `files`."""
    new = tmp_path / "fib" / "new"
    new.mkdir(parents=True)
    for name, text in files.items():
        (new / name).write_text(text, encoding="utf-8")
    return new / "estimates.json"


@pytest.mark.parametrize(("sample", "printed"), [
    ('{"iters": [1, 2, 3],\n "times": [5, 6]}',
     "sample.json:1:18: iters[2]: benchmark 'fib': sample.json's iters and times do not pair "
     "(3 iteration counts, 2 times)"),
    ('{"iters": [1],\n "times": [5, 6]}',
     "sample.json:2:15: times[1]: benchmark 'fib': sample.json's iters and times do not pair "
     "(1 iteration counts, 2 times)"),
    ('{"iters": [1, 0],\n "times": [5, 6]}',
     "sample.json:1:15: iters[1]: benchmark 'fib': sample.json's iters and times do not pair "
     "(an iteration count of 0)"),
])
def test_criterion_readings_that_do_not_pair_at_the_one_at_fault(tmp_path: Path, sample: str,
                                                                 printed: str) -> None:
    estimates = folder(tmp_path, {"estimates.json": '{"mean": {"point_estimate": 5}}',
                                  "sample.json": sample})
    with pytest.raises(ImportFailed) as caught:
        read_results("criterion", estimates, "fib/new/estimates.json")
    assert caught.value.render().splitlines()[0] == "fib/new/" + printed


def test_criterion_readings_that_do_not_pair_at_the_one_at_fault_ok(tmp_path: Path) -> None:
    estimates = folder(tmp_path, {"estimates.json": '{"mean": {"point_estimate": 5}}',
                                  "sample.json": '{"iters": [1, 2], "times": [5, 6]}'})
    [result] = read_results("criterion", estimates, "e.json")
    assert [str(s) for s in result.samples] == ["5.0", "3.0"]


@pytest.mark.parametrize(("fmt", "text", "printed"), [
    # A statistic, a reading, the runs a benchmark says: at the value.
    ("google-benchmark", '{"benchmarks": [{"name": "a", "real_time": 1},\n {"name": "a", '
     '"run_type": "aggregate", "aggregate_name": "mean", "real_time": 1e300}]}',
     "x.json:2:80: benchmarks[1].real_time: benchmark 'a': mean 1e+300 is out of range"),
    # SkipWithError: at its message, or at the benchmark when it wrote none.
    ("google-benchmark", '{"benchmarks": [{"name": "a", "error_occurred": true}]}',
     "x.json:1:17: benchmarks[0]: benchmark 'a' reported an error: "),
    ("google-benchmark", '{"benchmarks": [{"name": "a", "error_occurred": true, '
     '"error_message": "no input"}]}',
     "x.json:1:72: benchmarks[0].error_message: benchmark 'a' reported an error: no input"),
    ("pytest-benchmark", '{"benchmarks": [{"name": "a", "stats": {"rounds": 1}}]}',
     "x.json:1:17: benchmarks[0]: benchmark 'a' has no number in it"),
    ("pytest-benchmark", '{"benchmarks": [{"name": "a\\u202e", "stats": {"rounds": 1, '
     '"mean": 1}}]}',
     "x.json:1:26: benchmarks[0].name: benchmark 'a\\u202e': its title holds U+202E (a "
     "direction override), which no page can hold"),
    # A key that holds a dot or a space is quoted: `results."a.b"`, not `results.a.b`.
    ("asv", '{"result_columns": ["result", "samples"], "results": {"t.time_a": [[-2], '
     '[[1]]]}}',
     'x.json:1:69: results."t.time_a"[0][0]: benchmark \'t.time_a\': value is -2, a '
     "negative time or size"),
    ("github-action-benchmark", 'window.BENCHMARK_DATA = {"entries": {"a b": [{"benches": '
     '[{"name": "x", "value": 1, "range": "± -3"}]}], "c": []}}',
     'x.json:1:94: entries."a b"[0].benches[0].range: benchmark \'a b/x\': its spread is -3, '
     "a negative one"),
])
def test_what_is_wrong_past_the_shape_at_the_value(tmp_path: Path, fmt: str, text: str,
                                                   printed: str) -> None:
    assert told(tmp_path, fmt, text)[0] == printed


def test_what_is_wrong_past_the_shape_at_the_value_ok(tmp_path: Path) -> None:
    """The same values as a tool writes them: read, names with dots and spaces as written."""
    (tmp_path / "x.json").write_text('{"result_columns": ["result", "samples"], "results": '
                                     '{"t.time_a": [[1], [[1, 2]]]}}')
    assert [r.name for r in read_results("asv", tmp_path / "x.json", "x.json")] == [
        "t.time_a"]
    (tmp_path / "x.json").write_text('window.BENCHMARK_DATA = {"entries": {"a b": [{"benches"'
                                     ': [{"name": "x", "value": 1, "range": "± 3"}]}], '
                                     '"c": []}}')
    [result] = read_results("github-action-benchmark", tmp_path / "x.json", "x.json")
    assert (result.name, str(result.stats["plus_minus"])) == ("a b/x", "3")


ASV_PARAMS = Path(__file__).parent / "samples" / "asv-params" / "results"


def test_asv_parameters_with_dots_and_quotes_at_their_place(tmp_path: Path) -> None:
    """asv's own file: a benchmark's key holds dots (quoted in the path), its
    combinations' names dots and quotes; a count of repeats that is none is told at it."""
    shutil.copytree(ASV_PARAMS, tmp_path / "results")
    [results] = (tmp_path / "results" / "vm").glob("1b3*.json")
    doc = json.loads(results.read_text())
    doc["results"]["params.Suite.time_join"][10][1] = 0
    results.write_text(json.dumps(doc))
    printed = told_folder(tmp_path / "results")
    assert printed[0].endswith(
        ': results."params.Suite.time_join"[10][1]: benchmark '
        "'params.Suite.time_join(10, \"it\'s\")': 0 runs"), printed


def test_asv_parameters_with_dots_and_quotes_at_their_place_ok() -> None:
    """The file as asv wrote it: each combination named as asv prints it, the one that
    failed (null) left out."""
    names = [r.name for r in read_results("asv", ASV_PARAMS, "results")]
    assert names == ["params.Suite.time_join(10, 'a.b')",
                     "params.Suite.time_join(10, \"it's\")",
                     "params.Suite.time_join(1000, 'a.b')",
                     "params.Suite.mem_list(10, 'a.b')", "params.Suite.mem_list(10, \"it's\")",
                     "params.Suite.mem_list(1000, 'a.b')",
                     "params.Suite.mem_list(1000, \"it's\")"]


def told_folder(path: Path) -> list[str]:
    """What `import asv FOLDER` prints, as lines."""
    with pytest.raises(ImportFailed) as caught:
        read_results("asv", path, "results")
    return caught.value.render().splitlines()
