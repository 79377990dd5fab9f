"""The writer of history files (docs/history-format.md): `import` on real hyperfine runs,
re-runs, --replace, date order, --dry-run, refusals, and the numbers as written."""

from __future__ import annotations

import json
import re
import shutil
import statistics
import subprocess
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from progress_site.cli import main
from progress_site.record.history import line, make, rounded

from .conftest import SOURCE_DATE_EPOCH
from .test_record import hashes, smallest_site

pytestmark = pytest.mark.skipif(shutil.which("hyperfine") is None, reason="no hyperfine")
HISTORY = Path("data") / "history" / "measurements.hf-true.jsonl"
# A number written with more than six significant digits: float noise.
NOISE = re.compile(r"(?<![\w.])-?(?:0\.0*)?[1-9]\d*\.?\d*(?:[eE][-+]?\d+)?")


def hyperfine_runs(folder: Path, first: int, count: int) -> list[Path]:
    """`count` real hyperfine runs of a trivial command, --export-json each, numbered
    from `first`."""
    out = []
    for i in range(first, first + count):
        path = folder / f"run{i}.json"
        subprocess.run(["hyperfine", "-N", "--runs", "3", "--export-json", str(path), "true"],
                       check=True, capture_output=True, timeout=60)
        out.append(path)
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """4 real hyperfine runs: as many as a test below imports."""
    return hyperfine_runs(tmp_path_factory.mktemp("hyperfine"), 0, 4)


@pytest.fixture(scope="module")
def twenty_runs(runs: list[Path]) -> list[Path]:
    """20 real hyperfine runs: the 4 above and 16 more (for the slow test alone)."""
    return runs + hyperfine_runs(runs[0].parent, len(runs), 20 - len(runs))


@pytest.fixture
def source(tmp_path: Path) -> Path:
    """The smallest site with the example's machine and commits: an import reads every
    data file of its source, and these tests are about the history file it writes."""
    return smallest_site(tmp_path)


def imported(source: Path, run: Path, commit: str, day: str, *more: str) -> int:
    """`import hyperfine RUN` at a commit and date, on the example's machine."""
    return main(["import", "hyperfine", str(run), "--source", str(source), "--id", "hf",
                 "--machine", "test-pc", "--commit", commit, "--date", day, "--yes", *more])


def points(source: Path) -> list[dict[str, Any]]:
    """The history file's lines, read back as JSON."""
    return [json.loads(x) for x in (source / HISTORY).read_text().splitlines()]


def significant_digits(text: str) -> int:
    """How many significant digits a number as written has."""
    digits = text.lower().split("e")[0].replace("-", "").replace(".", "").lstrip("0")
    return len(digits)


@pytest.mark.slow  # a real tool run twenty times: CI runs it
def test_twenty_imports_make_twenty_lines_in_order(
        example_copy: Path, twenty_runs: list[Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    for i, run in enumerate(twenty_runs):
        assert imported(example_copy, run, f"c{i:06d}", f"2026-10-{i + 1:02d}") == 0, \
            capsys.readouterr().err
    out = capsys.readouterr().out
    assert ("measurements.hf-true: 1 point added (now 20 points), on its page "
            "benchmarks/hf-true/index.html") in out
    found = points(example_copy)
    assert [p["commit"] for p in found] == [f"c{i:06d}" for i in range(20)]
    assert [p["date"] for p in found] == sorted(p["date"] for p in found)
    for p, run in zip(found, twenty_runs, strict=True):
        times = json.loads(run.read_text())["results"][0]["times"]
        assert p["n"] == len(p["samples"]) == len(times) == 3
        assert p["value"] == sorted(p["samples"])[1]  # the median of three
        assert list(p)[:5] == ["commit", "date", "machine", "value", "unit"]
    text = (example_copy / HISTORY).read_text()
    assert text.splitlines() == [line(make_back(p)) for p in found]  # the agreed layout
    assert max(significant_digits(n) for n in NOISE.findall(text)) <= 6
    # The last run imported again: nothing changes, and it says so.
    before = hashes(example_copy)
    assert imported(example_copy, twenty_runs[-1], "c000019", "2026-10-20") == 0
    assert "1 point already recorded (now 20 points)" in capsys.readouterr().out
    assert hashes(example_copy) == before


def make_back(point: dict[str, Any]) -> dict[str, Any]:
    """A point read back as JSON, with its numbers as Decimals again."""
    return json.loads(json.dumps(point), parse_float=Decimal)


def test_a_rerun_of_a_commit_adds_its_readings_to_that_line(
        source: Path, runs: list[Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    assert imported(source, runs[0], "a000001", "2026-11-01") == 0
    assert imported(source, runs[1], "a000002", "2026-11-02") == 0
    first = (source / HISTORY).read_text().splitlines()
    assert imported(source, runs[2], "a000001", "2026-11-01") == 0, \
        capsys.readouterr().err
    assert "1 point given more readings (a re-run of its commit) (now 2 points)" in \
        capsys.readouterr().out
    after = (source / HISTORY).read_text().splitlines()
    assert after[1] == first[1]  # only the commit's own line changed
    point = points(source)[0]
    old = json.loads(first[0])["samples"]
    assert point["n"] == 6 and point["samples"][:3] == old
    # The median of the six, to the precision their spread allows.
    assert point["value"] == pytest.approx(statistics.median(point["samples"]),
                                           abs=point["spread"] / 100)
    # Statistics are rounded to the six readings' spread; the readings keep their own.
    assert point["stats"]["min"] == pytest.approx(min(point["samples"]),
                                                  abs=point["spread"] / 100)
    # --replace: the commit's point is the new run's alone.
    assert imported(source, runs[3], "a000001", "2026-11-01", "--replace") == 0
    assert "1 point replaced (now 2 points)" in capsys.readouterr().out
    assert points(source)[0]["n"] == 3


def test_an_older_commit_after_a_newer_one_is_refused(
        source: Path, runs: list[Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    assert imported(source, runs[0], "b000002", "2026-11-10") == 0
    capsys.readouterr()
    before = hashes(source)
    assert imported(source, runs[1], "b000001", "2026-11-09") == 1
    assert capsys.readouterr().err == (
        "error: data/history/measurements.hf-true.jsonl: commit b000001 is dated "
        "2026-11-09, before the newest point (commit b000002, 2026-11-10, line 1): a "
        "history is written in date order; pass --date with the commit's own date (runs "
        "of older commits go in before newer ones)\n")
    assert hashes(source) == before
    # The ok twin: the same day is in order.
    assert imported(source, runs[1], "b000001", "2026-11-10") == 0


def test_dry_run_shows_the_new_line_and_writes_nothing(
        source: Path, runs: list[Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    before = hashes(source)
    assert imported(source, runs[0], "d000001", "2026-11-01", "--dry-run") == 0
    out = capsys.readouterr().out
    assert "+++ b/data/history/measurements.hf-true.jsonl\n" in out
    assert '+{"commit": "d000001", "date": "2026-11-01", "machine": "test-pc", ' in out
    assert hashes(source) == before


def test_a_refused_import_leaves_every_file_byte_identical(
        source: Path, runs: list[Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A point of a unit the series does not have: its file and every other untouched."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    assert imported(source, runs[0], "e000001", "2026-11-01") == 0
    capsys.readouterr()
    before = hashes(source)
    # The series takes the unit its first run reads best in: `true` runs in about a
    # millisecond, so that is ms or us depending on the machine. The other one is refused.
    other = "ms" if points(source)[0]["unit"] == "us" else "us"
    assert imported(source, runs[1], "e000002", "2026-11-02", "--unit", other) == 1
    assert capsys.readouterr().err.startswith(
        "error: data/history/measurements.hf-true.jsonl is in ")
    assert hashes(source) == before


def test_the_docs_run_record_is_written_without_float_noise(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/ecosystem.md's JSON lines example: the readings as given, nothing invented,
    no 15-decimal median or mean."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    (tmp_path / "runs.jsonl").write_text(
        '{"id": "parse-small", "title": "Parse a small file", "samples": [12.1, 12.4, 12.2], '
        '"unit": "ms", "commit": "c38a01e", "date": "2026-11-20"}\n')
    assert main(["import", "jsonl", str(tmp_path / "runs.jsonl"), "--source",
                 str(source), "--machine", "test-pc", "--yes"]) == 0, \
        capsys.readouterr().err
    text = (source / "data" / "history" / "measurements.parse-small.jsonl").read_text()
    assert text == (
        '{"commit": "c38a01e", "date": "2026-11-20", "machine": "test-pc", "value": 12.2, '
        '"unit": "ms", "n": 3, "samples": [12.1, 12.4, 12.2], "tool": "jsonl"}\n')
    # A re-run of that commit: the six readings' mean, 12.2333..., is written 12.233.
    (tmp_path / "runs.jsonl").write_text(
        '{"id": "parse-small", "samples": [12.3, 12.2, 12.2], "unit": "ms", '
        '"commit": "c38a01e"}\n')
    assert main(["import", "jsonl", str(tmp_path / "runs.jsonl"), "--source",
                 str(source), "--machine", "test-pc", "--yes"]) == 0, \
        capsys.readouterr().err
    text = (source / "data" / "history" / "measurements.parse-small.jsonl").read_text()
    assert text == (
        '{"commit": "c38a01e", "date": "2026-11-20", "machine": "test-pc", "value": 12.2, '
        '"unit": "ms", "spread": 0.103, "n": 6, "stats": {"mean": 12.233, "median": 12.2, '
        '"stddev": 0.103, "min": 12.1, "max": 12.4}, "samples": [12.1, 12.4, 12.2, 12.3, '
        '12.2, 12.2], "tool": "jsonl"}\n')


@pytest.mark.parametrize(("value", "spread", "written"), [
    ("12.233333333333334", "0.15275252316519467", "12.233"),  # the spread's third digit
    ("0.0114975", None, "0.0114975"),  # no spread: six significant digits at most
    ("1234567.89", None, "1234570"),
    ("1234567.89", "0.001", "1234570"),  # never past six digits, whatever the spread
    ("104.3333", "9.83", "104.33"),
    ("0", "1", "0"),
])
def test_rounding(value: str, spread: str | None, written: str) -> None:
    kept = rounded(Decimal(value), Decimal(spread) if spread else None)
    assert line(make({"value": kept})) == f'{{"value": {written}}}'


def test_a_value_without_samples_and_another_make_samples() -> None:
    from progress_site.record.history import joined
    old = make({"commit": "a", "value": Decimal("10.0"), "unit": "ms"})
    new = make({"commit": "a", "value": Decimal("12"), "unit": "ms"})
    both = joined(old, new)
    assert both is not None
    assert json.loads(line(both))["samples"] == [10, 12]
    assert json.loads(line(both))["value"] == 11
    assert joined(old, make({"commit": "a", "value": Decimal(10), "unit": "ms"})) is None


def test_a_replacement_out_of_date_order_is_refused(
        source: Path, runs: list[Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    assert imported(source, runs[0], "f000001", "2026-11-01") == 0
    assert imported(source, runs[1], "f000002", "2026-11-05") == 0
    capsys.readouterr()
    before = hashes(source)
    assert imported(source, runs[2], "f000001", "2026-11-09", "--replace") == 1
    assert capsys.readouterr().err == (
        "error: data/history/measurements.hf-true.jsonl:1: the new point of commit f000001 "
        "is dated 2026-11-09, out of the date order of its neighbours; pass --date with the "
        "commit's own date\n")
    assert hashes(source) == before
    assert imported(source, runs[2], "f000001", "2026-11-02", "--replace") == 0


@pytest.mark.parametrize(("text", "why"), [
    ('{"commit": "a", "date": "2026-11-01"\n', "Expecting ',' delimiter: line 1 column 37 "
     "(char 36)"),
    ('{"commit": "a", "date": "2026-11-01", "machine": "test-pc", "value": 1}\n',
     "'no `unit`'"),
    ('{"commit": "a", "date": "soon", "machine": "test-pc", "value": 1, "unit": "ms"}\n',
     "Invalid isoformat string: 'soon'"),
    # Refused as the build and the importers refuse it (the one JSON reader's limit),
    # not in the words of Python's recursion limit; shallower nesting is refused too.
    ("[" * 100_000 + "\n", "lists and objects nested more than 64 levels"),
    ("[" * 70 + "]" * 70 + "\n", "lists and objects nested more than 64 levels"),
])
def test_a_broken_history_file_is_a_located_error(
        source: Path, runs: list[Path], capsys: pytest.CaptureFixture[str],
        text: str, why: str) -> None:
    (source / HISTORY).parent.mkdir(parents=True)
    (source / HISTORY).write_text(text)
    before = hashes(source)
    assert imported(source, runs[0], "g000001", "2026-11-01") == 1
    assert capsys.readouterr().err == (
        f"error: data/history/measurements.hf-true.jsonl:1: not a point of a history ({why}); "
        "fix the line (docs/history-format.md), then import again\n")
    assert hashes(source) == before
