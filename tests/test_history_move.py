"""`record --history` and the first import of an old-style figure: its YAML value and
`history:` move into data/history/, its comments and every other byte of the YAML kept.

Each write is checked as a build would check it (the build reads the history files), and
the tests read the files back themselves.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from progress_site.cli import main

from .test_record import hashes

SCAFFOLD = Path(__file__).parent.parent / "progress_site" / "scaffold" / "site"
MEMORY = Path("data") / "history" / "measurements.memory.jsonl"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """The site `new` writes, with comments on the measurement's lines."""
    root = tmp_path / "site"
    shutil.copytree(SCAFFOLD, root)
    path = root / "data" / "measurements.yaml"
    text = path.read_text().replace("commit: e4f5a6b}", "commit: e4f5a6b}  # by hand")
    path.write_text(text.replace("\n", "\r\n"))
    return root


def record(root: Path, *args: str) -> int:
    """The getting-started recording of the memory, at a new commit."""
    return main(["record", "measurement", "memory", "--value", "69", "--unit", "MB",
                 "--machine", "laptop", "--commit", "9f8e7d6", "--date", "2026-11-28",
                 "--source", str(root), *args])


def points(root: Path) -> list[dict[str, Any]]:
    """The memory's history, read back."""
    return [json.loads(x) for x in (root / MEMORY).read_text().splitlines()]


def test_an_old_style_figure_moves_into_its_history(
        site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = (site / "data" / "measurements.yaml").read_bytes()
    assert record(site, "--history") == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert ("moved measurements.memory's figure and history (4 points) from "
            "data/measurements.yaml into data/history/measurements.memory.jsonl") in out
    assert "measurements.memory: 5 points added (now 5 points)" in out
    assert [(p["commit"], p["date"], p["value"], p["unit"], p["machine"])
            for p in points(site)] == [
        ("0c1d2e3", "2026-10-05", 96, "MB", "laptop"),
        ("5f6a7b8", "2026-10-19", 88, "MB", "laptop"),
        ("a1b2c3d", "2026-11-02", 81, "MB", "laptop"),
        ("e4f5a6b", "2026-11-16", 74, "MB", "laptop"),
        ("9f8e7d6", "2026-11-28", 69, "MB", "laptop")]
    after = (site / "data" / "measurements.yaml").read_bytes()
    # Only the moved lines changed: the comments, the title and the CRLF endings stay.
    assert after == before.replace(
        b"    history:\r\n"
        b"      - {value: 96, date: 2026-10-05, commit: 0c1d2e3}\r\n"
        b"      - {value: 88, date: 2026-10-19, commit: 5f6a7b8}\r\n"
        b"      - {value: 81, date: 2026-11-02, commit: a1b2c3d}\r\n", b"").replace(
        b"figure: {value: 74, unit: MB, machine: laptop, date: 2026-11-16, commit: e4f5a6b}",
        b"figure: {unit: MB}")
    assert after.startswith(b"# Figures of their own")
    # The next recording appends: the history file exists, no --history needed.
    assert main(["record", "measurement", "memory", "--value", "68", "--unit", "MB",
                 "--machine", "laptop", "--commit", "1234abc", "--date", "2026-12-01",
                 "--source", str(site)]) == 0
    assert [p["value"] for p in points(site)] == [96, 88, 81, 74, 69, 68]
    assert (site / "data" / "measurements.yaml").read_bytes() == after


def test_a_figure_that_is_no_point_is_refused_and_nothing_written(
        site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = site / "data" / "measurements.yaml"
    path.write_bytes(path.read_bytes().replace(b"{value: 74,", b"{range: [70, 78],"))
    before = hashes(site)
    assert record(site, "--history") == 1
    assert capsys.readouterr().err == (
        "error: measurement 'memory' (data/measurements.yaml:5): a figure with `range:` is "
        "no point of a history; keep it in the YAML (record without --history), or give "
        "it a measured `value:` first\n")
    assert hashes(site) == before


def test_a_point_without_a_commit_is_refused_and_nothing_written(
        site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = site / "data" / "measurements.yaml"
    path.write_bytes(path.read_bytes().replace(b", commit: 5f6a7b8}", b"}"))
    before = hashes(site)
    assert record(site, "--history") == 1
    assert capsys.readouterr().err == (
        "error: measurement 'memory' (data/measurements.yaml:5): the point at line 9 has no "
        "commit, which each point of a history needs; add them (a commit declared under "
        "`commits:`), then again\n")
    assert hashes(site) == before


def test_without_history_record_keeps_writing_the_yaml_ok_twin(
        site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No history file, no --history: the hand-kept YAML figure, as before."""
    assert record(site, "--replace") == 0, capsys.readouterr().err
    assert not (site / MEMORY).exists()
    assert b"figure: {value: 69, unit: MB, machine: laptop, date: 2026-11-28, commit: " \
        b"9f8e7d6}" in (site / "data" / "measurements.yaml").read_bytes()


@pytest.mark.parametrize(("unit", "options", "figure"), [
    # A time: no unit in the entry, so that pages print the series in the unit that suits
    # its newest point (docs/ecosystem.md); it pinned `us` on a lookup that became 1.977 ms.
    ("ms", [], b""),
    ("ms", ["--unit", "ms"], b"    figure: {unit: ms}\r\n"),  # chosen, so kept
    ("MB", [], b"    figure: {unit: MB}\r\n"),
])
def test_a_new_series_with_a_title_gets_a_yaml_entry_of_id_title_and_unit(
        site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], unit: str,
        options: list[str], figure: bytes) -> None:
    (tmp_path / "runs.jsonl").write_text(
        f'{{"id": "parse", "title": "Parse a file", "samples": [12.1, 12.4], "unit": "{unit}"}}\n'
        f'{{"id": "untitled", "value": 3, "unit": "{unit}"}}\n')
    before = (site / "data" / "measurements.yaml").read_bytes()
    assert main(["import", "jsonl", str(tmp_path / "runs.jsonl"), "--source", str(site),
                 "--machine", "laptop", "--commit", "9f8e7d6", "--yes", *options]) == 0, \
        capsys.readouterr().err
    after = (site / "data" / "measurements.yaml").read_bytes()
    # Added after the last entry, its lines ending as the file's do (CRLF).
    assert after == before + b"  - id: parse\r\n    title: Parse a file\r\n" + figure
    assert (site / "data" / "history" / "measurements.untitled.jsonl").exists()


def test_record_samples_into_a_history_then_an_estimate_is_refused(
        site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["record", "measurement", "parse", "--samples", "10.1,10.3,10.2", "--unit",
                 "ms", "--machine", "laptop", "--commit", "1111111", "--date", "2026-11-01",
                 "--history", "--yes", "--source", str(site)]) == 0, capsys.readouterr().err
    path = site / "data" / "history" / "measurements.parse.jsonl"
    assert path.read_text() == (
        '{"commit": "1111111", "date": "2026-11-01", "machine": "laptop", "value": 10.2, '
        '"unit": "ms", "n": 3, "samples": [10.1, 10.3, 10.2]}\n')
    capsys.readouterr()
    before = hashes(site)
    assert main(["record", "measurement", "parse", "--value", "9", "--unit", "ms",
                 "--status", "estimate", "--source", str(site)]) == 1
    assert capsys.readouterr().err == (
        "error: a point of a history is measured; --status estimate is for a figure kept in "
        "the YAML (a measurement without a history file)\n")
    assert hashes(site) == before
