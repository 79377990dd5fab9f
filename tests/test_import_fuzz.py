"""Every importer, given a real file of its tool bent out of shape, reads it or tells each
mistake at the file in its own words: never a traceback nor Python's wording.

A JSON file has a value swapped for a number, a list, an object, null or text, or a key
left out; go test's text has lines cut short, numbers not a time (NaN, Inf, huge), units
unknown, names twice or holding what a terminal acts on, binary garbage, CR line ends and
lines of 10 MB, and what it refuses is told at a line the bending wrote."""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from progress_site.characters import first_forbidden
from progress_site.errors import KeyPath
from progress_site.record.importers import ImportFailed, read_results

SAMPLES = Path(__file__).parent / "samples"
# Python's words for a value of the wrong type, which a user of the tool cannot act on.
PYTHON = re.compile(r"object is not|not subscriptable|not iterable|NoneType|has no attribute|"
                    r"could not convert|indices must be|list indices|argument must be|"
                    r"missing or wrong|KeyError|TypeError|Traceback|unsupported operand|"
                    r"'(int|str|list|dict|float|bool)'")
FUZZ = settings(max_examples=100, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       ])
SCALARS = (st.none() | st.booleans() | st.integers(-10**6, 10**6)
           | st.floats(allow_nan=False, allow_infinity=False)
           | st.sampled_from(["", "x", "ns", "seconds", "time_x", "iteration", "aggregate"]))
SHAPES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.sampled_from(["name", "mean", "x"]), inner,
                                        max_size=3), max_leaves=10)
# Lists nested past the limit of 64 levels, as a hostile file nests them.
DEEP = st.integers(60, 300).map(lambda depth: json.loads("[" * depth + "]" * depth))

# Each tool: the real file that is bent, and what `import` is given (a file or a folder).
TOOLS: dict[str, tuple[str, str]] = {
    "hyperfine": ("hyperfine.json", "hyperfine.json"),
    "pytest-benchmark": ("pytest-benchmark-pauses.json", "pytest-benchmark-pauses.json"),
    "google-benchmark": ("google-benchmark.json", "google-benchmark.json"),
    "asv": ("asv/results/vm/dd92e12d-existing-py_tmp_imp_asv_venv_bin_python3.json", "asv/results"),
    "asv machine": ("asv/results/vm/machine.json", "asv/results"),
    "asv params": ("asv-params/results/vm/1b3cc455-existing-py_tmp_imp2-asvvenv.T4hV_venv_bin_"
                   "python3.json", "asv-params/results"),
    "asv benchmarks": ("asv/results/benchmarks.json", "asv/results"),
    "criterion": ("criterion/fib/20/new/estimates.json", "criterion"),
    "criterion sample": ("criterion/fib/20/new/sample.json", "criterion"),
    "criterion benchmark": ("criterion/fib/20/new/benchmark.json", "criterion"),
}


def paths(doc: Any, path: KeyPath = ()) -> list[KeyPath]:
    """Every key path in a decoded JSON value, its own first."""
    found = [path]
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) \
        if isinstance(doc, list) else ()
    for key, value in items:
        found += paths(value, (*path, key))
    return found


def bent(doc: Any, path: KeyPath, new: Any) -> Any:
    """`doc` with the value at `path` replaced by `new` (left out when `new` is ...)."""
    if not path:
        return doc if new is ... else new
    head, rest = path[0], path[1:]
    copy = dict(doc) if isinstance(doc, dict) else list(doc)
    if not rest and new is ...:
        del copy[head]  # type: ignore[arg-type]
    else:
        copy[head] = bent(doc[head], rest, new)  # type: ignore[call-overload,index]
    return copy


def bends(tool: str) -> st.SearchStrategy[list[tuple[KeyPath, Any]]]:
    """One to three changes to the tool's real file: a path, and what goes there."""
    doc = json.loads((SAMPLES / TOOLS[tool][0]).read_text("utf-8"))
    return st.lists(st.tuples(st.sampled_from(paths(doc)), SHAPES | DEEP | st.just(...)),
                    min_size=1, max_size=3)


def run(tmp: Path, tool: str, changes: list[tuple[KeyPath, Any]]) -> tuple[int, str]:
    """`import`'s reading of the tool's sample with `changes` made: its exit status and
    what it prints (any other exception is a traceback, and fails the test)."""
    bent_file, given_name = TOOLS[tool]
    source = SAMPLES / given_name
    given_path = tmp / given_name
    if source.is_dir():
        shutil.copytree(source, given_path)
    else:
        shutil.copy(source, given_path)
    doc = json.loads((SAMPLES / bent_file).read_text("utf-8"))
    for path, new in changes:
        try:
            doc = bent(doc, path, new)
        except (KeyError, IndexError, TypeError):  # an earlier change took the path away
            continue
    target = given_path / Path(bent_file).relative_to(given_name) if source.is_dir() \
        else given_path
    target.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    try:
        read_results(tool.split()[0], given_path, given_name)
    except ImportFailed as failed:  # what `import` prints, and exits with
        return failed.exit_code, failed.render()
    return 0, ""


def check(status: int, printed: str, name: str) -> None:
    """Read, or refused in the format's words at the file given."""
    assert not PYTHON.search(printed), printed
    if status:
        assert status > 0
        heads = [line for line in printed.splitlines() if not line.startswith(" ")]
        assert all(re.match(rf"{re.escape(name)}[^:]*(:\d+:\d+)?: ", h) for h in heads), \
            printed
        # Every mistake at its place: only a file that is not the tool's at all (its
        # needed keys missing) and the count of mistakes not shown are told at the file.
        assert all(re.match(r"[^:]*:\d+:\d+: ", h) or re.match(
            r"[^:]*: (not [^:]+ (JSON|estimates\.json|sample\.json|machine\.json|output)|"
            r"and [\d,]+ more mistakes)", h) for h in heads), printed


def fuzzed(tool: str) -> Callable[..., None]:
    """A fuzz test of one tool's importer."""
    @FUZZ
    @given(changes=bends(tool))
    def test(tmp_path_factory: pytest.TempPathFactory,
             changes: list[tuple[KeyPath, Any]]) -> None:
        status, printed = run(tmp_path_factory.mktemp("fuzz"), tool, changes)
        check(status, printed, TOOLS[tool][1])
    return test


test_hyperfine_bent = fuzzed("hyperfine")
test_pytest_benchmark_bent = fuzzed("pytest-benchmark")
test_google_benchmark_bent = fuzzed("google-benchmark")
test_asv_results_bent = fuzzed("asv")
test_asv_machine_bent = fuzzed("asv machine")
test_asv_params_bent = fuzzed("asv params")
test_asv_benchmarks_bent = fuzzed("asv benchmarks")
test_criterion_estimates_bent = fuzzed("criterion")
test_criterion_sample_bent = fuzzed("criterion sample")
test_criterion_benchmark_bent = fuzzed("criterion benchmark")


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_the_real_file_unbent_is_read(tmp_path: Path, tool: str) -> None:
    status, printed = run(tmp_path, tool, [])
    assert status == 0, printed


@pytest.mark.parametrize(("tool", "text", "told"), [
    ("hyperfine", '{"results": [{"command": "a"}, {"command": "b", "times": [1, null], '
     '"exit_codes": "0"}]}',
     ["x.json:1:14: results[0]: a result without `mean` or `times`",
      "x.json:1:62: results[1].times[1]: a time is null, not a number",
      "x.json:1:83: results[1].exit_codes: `exit_codes` is a text, not a list"]),
    ("pytest-benchmark", '{"benchmarks": [{"name": "a", "stats": {"rounds": 2.5}}], '
     '"machine_info": []}',
     ["x.json:1:51: benchmarks[0].stats.rounds: `rounds` is 2.5, not a count of runs (a "
      "whole number from 1)",
      "x.json:1:75: machine_info: `machine_info` is a list, not an object {...}"]),
    ("google-benchmark", '{"context": {"caches": [{"size": "32K"}]}, "benchmarks": '
     '[{"name": "a", "real_time": 1}, 5]}',
     ["x.json:1:34: context.caches[0].size: `size` is a text, not a number",
      "x.json:1:90: benchmarks[1]: a benchmark is a number, not an object {...}"]),
    ("asv", '{"result_columns": ["result", "params", "samples"], "results": '
     '{"t.time_a": [[1], 5, [[1, "x"]]], "t.time_b": {}}}',
     ['x.json:1:83: results."t.time_a"[1]: `params` is a number, not a list',
      'x.json:1:91: results."t.time_a"[2][0][1]: a reading is a text, not a number',
      'x.json:1:111: results."t.time_b": `t.time_b` is an object, not a list of the columns']),
    ("criterion", '{"mean": {"point_estimate": "1"}, "slope": 3}',
     ["x.json:1:29: mean.point_estimate: `point_estimate` is a text, not a number",
      "x.json:1:44: slope: an estimate is a number, not an object {...}"]),
])
def test_each_importer_tells_every_mistake_at_its_place(tmp_path: Path, tool: str, text: str,
                                                         told: list[str]) -> None:
    (tmp_path / "x.json").write_text(text, encoding="utf-8")
    with pytest.raises(ImportFailed) as caught:
        read_results(tool, tmp_path / "x.json", "x.json")
    assert [line for line in caught.value.render().splitlines()
            if line.startswith("x.json")] == told


# -- go test -bench: text, bent a line at a time ---------------------------------------------

GO_SAMPLE = "gotest-bench.txt"
# What a line of go test's output may become: a field's number (NaN, Inf, huge, negative),
# its unit unknown, the name holding what a terminal or a page must not act on.
GO_NUMBERS = ["NaN", "Inf", "+Inf", "-Inf", "1e999", "1e-999", "9" * 400, "-5", "0x10",
              "1_000", "१२", "1.2.3", ""]
GO_UNITS = ["ns/opx", "furlongs/op", "ns/op\u00a0", "NS/OP", "op/ns", "ms/op", "B/op"]
GO_NAMES = ["Jo\nin", "Jo\x1b[31min", "<script>alert(1)</script>", "a\u202eb", "Jo\u2028in",
            "Jo\rin", "a.b", "Join\u0000", "::error::x", "Jo\\in", "é" * 300]
GARBAGE = st.binary(max_size=40) | st.text(max_size=40)


def go_lines() -> list[bytes]:
    """The real files' lines (one package's plain times, another's metrics and rewritten
    names), each with its end."""
    return [*(SAMPLES / GO_SAMPLE).read_bytes().splitlines(keepends=True),
            *(SAMPLES / "gotest-metrics.txt").read_bytes().splitlines(keepends=True)]


def go_bend(line: bytes, how: str, what: Any) -> list[bytes]:
    """One line of go test's output bent one way: the lines that stand for it."""
    fields = line.split(b"\t")
    if how == "truncate":
        return [line[:what]]
    if how == "number" and len(fields) > 2:
        value = fields[2].strip().split(b" ")
        fields[2] = b" ".join([what.encode(), *value[1:]])
    elif how == "iterations" and len(fields) > 1:
        fields[1] = what.encode()
    elif how == "unit" and len(fields) > 2:
        fields[2] = fields[2].split(b" ")[0] + b" " + what.encode()
    elif how == "name" and line.startswith(b"Benchmark"):
        fields[0] = fields[0].replace(b"Join", what.encode()).replace(b"Sum", what.encode())
    elif how == "twice":
        return [line, line]
    elif how == "garbage":
        return [what if isinstance(what, bytes) else what.encode(), line]
    elif how == "cr":
        return [line.replace(b"\n", b"\r\n") if what else line.replace(b"\n", b"\r")]
    return [b"\t".join(fields)]


GO_BENDS = st.one_of(
    st.tuples(st.just("truncate"), st.integers(0, 60)),
    st.tuples(st.just("number"), st.sampled_from(GO_NUMBERS)),
    st.tuples(st.just("iterations"), st.sampled_from(GO_NUMBERS)),
    st.tuples(st.just("unit"), st.sampled_from(GO_UNITS)),
    st.tuples(st.just("name"), st.sampled_from(GO_NAMES)),
    st.tuples(st.just("twice"), st.none()),
    st.tuples(st.just("garbage"), GARBAGE),
    st.tuples(st.just("cr"), st.booleans()))


def go_bent(changes: list[tuple[int, tuple[str, Any]]]) -> tuple[bytes, set[int]]:
    """The real file with `changes` made (a line's index, how it is bent): its bytes, and
    the numbers of the lines the changes wrote (as an editor counts them)."""
    lines = go_lines()
    bent_at = {index % len(lines): change for index, change in changes}
    out: list[bytes] = []
    touched: set[int] = set()
    for index, line in enumerate(lines):
        made = go_bend(line, *bent_at[index]) if index in bent_at else [line]
        first = b"".join(out).count(b"\n") + 1
        out += made
        if index in bent_at:
            # Every line the change wrote, and the next (a cut line joins it).
            touched |= set(range(first, b"".join(out).count(b"\n") + 2))
    return b"".join(out), touched


@FUZZ
@given(changes=st.lists(st.tuples(st.integers(0, 200), GO_BENDS), min_size=1, max_size=3))
def test_go_test_bent(tmp_path_factory: pytest.TempPathFactory,
                      changes: list[tuple[int, tuple[str, Any]]]) -> None:
    data, touched = go_bent(changes)
    path = tmp_path_factory.mktemp("go") / "go.txt"
    path.write_bytes(data)
    try:
        results = read_results("go-test", path, "go.txt")
    except ImportFailed as failed:
        printed = failed.render()
        check(1, printed, "go.txt")
        lines = {int(found) for found in re.findall(r"^go\.txt:(\d+):", printed, re.M)}
        assert lines <= touched, (printed, touched)
        return
    for result in results:  # what reaches data/ and a page: no control, no direction
        assert not first_forbidden(result.name), result.name
        assert not any(first_forbidden(fact) for fact in result.facts), result.facts


LINE = "BenchmarkJoin-2   \t    2000\t       208.8 ns/op\t       8 B/op\n"


@pytest.mark.parametrize(("text", "told"), [
    (LINE.replace("208.8", "1_000"),
     "go.txt:1:36: benchmark 'BenchmarkJoin': '1_000' is not a number"),
    (LINE.replace("208.8", "१२"), "go.txt:1:36: benchmark 'BenchmarkJoin': '१२' is not a number"),
    (LINE.replace("208.8", "+Inf"), "go.txt:1:36: benchmark 'BenchmarkJoin': Infinity is not "
     "a time"),
    (LINE.replace("208.8", "9" * 50), "go.txt:1:36: benchmark 'BenchmarkJoin': a number of 50 "
     "digits before its point is too large"),
    (LINE.replace("208.8", "1e99999"), "go.txt:1:36: benchmark 'BenchmarkJoin': the number "
     "1e99999 is too large or too small to read"),
    (LINE.replace("2000", "NaN"), "go.txt:1:24: benchmark 'BenchmarkJoin-2': its line is not "
     "`NAME  ITERATIONS  TIME ns/op` (the iterations a whole number)"),
    ("pkg: x\n" + LINE.replace("Join", "Jo\x1b[2Jin"), "go.txt:2:12: a benchmark's name holds "
     "U+001B (a control character), which go test never writes"),
    (LINE.replace("Join", "Jo\u202ein"), "go.txt:1:12: a benchmark's name holds U+202E (a "
     "direction override), which go test never writes"),
    (LINE.replace("Join", "Jo\rin"), "go.txt:1:12: a benchmark's name holds U+000D (a control "
     "character), which go test never writes"),
    ("pkg: a\u2067b\n" + LINE, "go.txt:1:7: `pkg:` holds U+2067 (a direction override), which "
     "go test never writes"),
])
def test_go_test_tells_a_bent_line_at_its_column(tmp_path: Path, text: str, told: str) -> None:
    (tmp_path / "go.txt").write_bytes(text.encode())
    with pytest.raises(ImportFailed) as caught:
        read_results("go-test", tmp_path / "go.txt", "go.txt")
    printed = caught.value.render().splitlines()
    assert printed[0] == told
    assert printed[2].strip() == "^" and printed[3].startswith("    hint: ")


def test_go_test_tells_a_bent_line_at_its_column_ok(tmp_path: Path) -> None:
    """What go writes: CR LF line ends, a name with dots and markup (escaped where it is
    shown), an exponent, a line of logs that starts like a benchmark's."""
    text = ("goos: linux\r\n" + LINE.replace("Join", "<b>a.b</b>").replace("\n", "\r\n")
            + LINE.replace("208.8", "2.5e2") + "BenchmarkJoin-2 logs 5 things\n")
    (tmp_path / "go.txt").write_bytes(text.encode())
    [first, join] = read_results("go-test", tmp_path / "go.txt", "go.txt")
    assert (first.name, first.samples, first.facts) == ("<b>a.b</b>", (Decimal("208.8"),),
                                                        ("linux",))
    assert join.samples == (Decimal("250"),)


@pytest.mark.parametrize("line", [pytest.param(line, id=str(i)) for i, line in enumerate([
    "BenchmarkX" + "a" * 10**7 + "-2 \t 1 \t 5 ns/op\n",
    "BenchmarkX" + "-1" * (5 * 10**6) + " \t 1 \t 5 ns/op\n",
    "BenchmarkX-2" + " " * 10**7 + "1 \t 5 ns/op\n",
    "BenchmarkX-2 \t 1 \t " + "9" * 10**7 + " ns/op\n",
    "BenchmarkX-2 \t 1 \t 0." + "0" * 10**7 + "1 ns/op\n",
    "BenchmarkX-2 \t " + "9" * 10**7 + " \t 5 ns/op\n",
    "BenchmarkX-2 \t 1 \t 5 ns/op" + " 1 B/op" * (10**7 // 7) + "\n",
    "BenchmarkX-2 \t 1 \t" + " 5" * (5 * 10**6) + "\n",
    "BenchmarkX" + " \t" * (5 * 10**6) + "ns/op\n",
    "cpu: " + "x" * 10**7 + "\nBenchmarkX-2 \t 1 \t 5 ns/op\n",
    "BenchmarkX-2 \t 1 \t 5 ns/op\n" + "\x00" * 10**7,
    "Benchmark" + " x" * (5 * 10**6) + "\n",
    "BenchmarkX-2 \t 1 \t 5 ns/op\n" * (10**7 // 25),
])])
def test_go_test_a_line_of_10_mb_is_read_or_told_at_once(tmp_path: Path, line: str) -> None:
    """Read, or refused at its line, at once: never a traceback nor a hang (each took a
    second or less; a list of every field of the line took 5)."""
    (tmp_path / "go.txt").write_text(line, encoding="utf-8")
    started = time.process_time()
    try:
        read_results("go-test", tmp_path / "go.txt", "go.txt")
    except ImportFailed as failed:
        printed = failed.render()
        check(1, printed, "go.txt")
        assert max(map(len, printed.splitlines())) < 1000
    assert time.process_time() - started < 5
