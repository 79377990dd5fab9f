"""`import github-action-benchmark` of a data.js whose structure is wrong: every mistake
told at its line and column in the format's words, all at once; random shapes never give
a traceback or Python's own wording ("'int' object is not iterable")."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from progress_site.errors import MAX_SHOWN
from progress_site.record.importers import ImportFailed, read_results

SAMPLES = Path(__file__).parent / "samples"
PREFIX = "window.BENCHMARK_DATA = "
HINT = ("    hint: give the data.js as github-action-benchmark wrote it (its gh-pages "
        "branch's dev/bench/data.js)")
# Python's words for a value of the wrong type, which a user of the tool cannot act on.
PYTHON = re.compile(r"object is not|not subscriptable|not iterable|NoneType|has no attribute|"
                    r"could not convert|indices must be|argument must be|missing or wrong|"
                    r"'(int|str|list|dict|float|bool)'")
FUZZ = settings(max_examples=300, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def read(tmp_path: Path, doc: Any) -> list[str]:
    """What import says of a data.js holding `doc` (written as the action writes it, one
    key a line), as printed lines; [] when it is read."""
    path = tmp_path / "data.js"
    path.write_text(PREFIX + json.dumps(doc, indent=2) + ";\n", encoding="utf-8")
    try:
        read_results("github-action-benchmark", path, "data.js")
    except ImportFailed as failed:
        return failed.render().splitlines()
    return []


def messages(lines: list[str]) -> list[str]:
    """The first line of each problem: where, and what is wrong."""
    return [line for line in lines if line.startswith("data.js")]


BENCH = {"name": "fib", "value": 5, "unit": "ns/iter"}


@pytest.mark.parametrize(("doc", "told"), [
    ([1], ["data.js:1:25: the data is a list, not an object {\"entries\": ...}"]),
    ({"entries": 5}, ["data.js:2:14: entries: `entries` is a number, not an object of suites"]),
    ({"lastUpdate": 1}, ["data.js:1:25: no `entries`: the object of each suite's entries"]),
    ({"entries": {"A": 5}}, ["data.js:3:10: entries.A: suite is a number, not a list of entries"]),
    ({"entries": {"A": [5]}},
     ["data.js:4:7: entries.A[0]: an entry is a number, not an object {...}"]),
    ({"entries": {"A": [{"benches": 3}]}},
     ["data.js:5:20: entries.A[0].benches: `benches` is a number, not a list"]),
    ({"entries": {"A": [{"commit": {}}]}},
     ["data.js:4:7: entries.A[0]: an entry without `benches`"]),
    ({"entries": {"A": [{"benches": [[], {"value": "a"}]}]}},
     ["data.js:6:11: entries.A[0].benches[0]: a bench is a list, not an object {...}",
      "data.js:7:11: entries.A[0].benches[1]: a bench without `name`",
      "data.js:8:22: entries.A[0].benches[1].value: `value` is a text, not a number"]),
    ({"entries": {"A": [{"commit": {"id": 5}, "tool": [], "date": "x", "benches": [
        dict(BENCH, unit=3, range=4, extra=None, name={"a": 1})]}]}},
     ["data.js:6:17: entries.A[0].commit.id: `id` is a number, not a text",
      "data.js:8:17: entries.A[0].tool: `tool` is a list, not a text",
      "data.js:9:17: entries.A[0].date: `date` is a text, not a number",
      "data.js:12:21: entries.A[0].benches[0].name: `name` is an object, not a text",
      "data.js:16:21: entries.A[0].benches[0].unit: `unit` is a number, not a text",
      "data.js:17:22: entries.A[0].benches[0].range: `range` is a number, not a text"]),
    ({"entries": {"A": [{"benches": [dict(BENCH, value=True)]}]}},
     ["data.js:8:22: entries.A[0].benches[0].value: `value` is true or false, not a number"]),
])
def test_each_mistake_of_structure_is_told_at_its_place(tmp_path: Path, doc: Any,
                                                        told: list[str]) -> None:
    lines = read(tmp_path, doc)
    assert messages(lines) == told
    assert lines[-1] == HINT


def test_each_mistake_of_structure_is_told_at_its_place_ok(tmp_path: Path) -> None:
    """The shape the action writes, with what it may leave out (a commit, a unit)."""
    assert read(tmp_path, {"entries": {"A": [{"benches": [{"name": "x", "value": 1}]}],
                                       "B": []}}) == []
    text = (SAMPLES / "gab-data.js").read_text("utf-8")
    assert read(tmp_path, json.loads(text.removeprefix(PREFIX.strip()).strip()
                                     .removesuffix(";"))) == []


def test_a_bad_point_shows_its_line(tmp_path: Path) -> None:
    lines = read(tmp_path, {"entries": {"A": [{"benches": 3}]}})
    assert lines[:3] == ["data.js:5:20: entries.A[0].benches: `benches` is a number, not a list",
                         '            "benches": 3',
                         " " * 23 + "^"]


def test_many_mistakes_are_counted_past_the_first(tmp_path: Path) -> None:
    lines = read(tmp_path, {"entries": {"A": [5] * 300}})
    assert len(messages(lines)) == MAX_SHOWN + 1
    assert lines[-1] == (f"data.js: and {300 - MAX_SHOWN} more mistakes of the same kind "
                         "(fix those above first)")


KEYS = ("entries", "A", "B", "benches", "name", "value", "unit", "range", "extra",
        "commit", "id", "timestamp", "date", "tool")
SCALARS = (st.none() | st.booleans() | st.integers(-10**6, 10**6)
           | st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from(
               ["", "fib", "ns/iter", "iter/sec", "pytest", "go", "± 3", "2026-11-02"]))
SHAPES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.sampled_from(KEYS), inner, max_size=5),
                      max_leaves=25)
# Mostly near the format: entries of suites of entries, each part of any shape.
NEAR = st.fixed_dictionaries({"entries": st.dictionaries(
    st.sampled_from(("A", "B")), st.lists(st.fixed_dictionaries(
        {"benches": st.lists(st.fixed_dictionaries({}, optional={
            "name": SHAPES, "value": SHAPES, "unit": SHAPES, "range": SHAPES}) | SHAPES,
            max_size=3) | SHAPES},
        optional={"commit": SHAPES, "tool": SHAPES, "date": SHAPES}) | SHAPES, max_size=3)
    | SHAPES)}) | SHAPES


@FUZZ
@given(doc=NEAR)
def test_random_shapes_give_results_or_located_words(tmp_path_factory: pytest.TempPathFactory,
                                                     doc: Any) -> None:
    lines = read(tmp_path_factory.mktemp("shape"), doc)
    assert not PYTHON.search("\n".join(lines)), lines
    heads = messages(lines)
    assert all(re.match(r"data\.js(:\d+:\d+)?: ", head) for head in heads), heads
