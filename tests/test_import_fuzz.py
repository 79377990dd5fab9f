"""Every JSON importer, given a real file of its tool bent out of shape (a value swapped
for a number, a list, an object, null or text; a key left out), reads it or tells each
mistake at the file in its own words: never a traceback nor Python's wording."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
     ["x.json:1:83: results.t.time_a[1]: `params` is a number, not a list",
      "x.json:1:91: results.t.time_a[2][0][1]: a reading is a text, not a number",
      "x.json:1:111: results.t.time_b: `t.time_b` is an object, not a list of the columns"]),
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
