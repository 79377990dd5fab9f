"""Hostile input, sixth round: a tool's output as a stranger's pull request brings it, and
the JSON lines a harness writes.

- a benchmark's name too long for any file name is a refusal, never a traceback;
- a tool's file saved in UTF-16, with a BOM or with a byte that is not UTF-8 (what
  Windows' shells write) is read, or refused in words a user can act on;
- a text that is written into data/ (a title, a machine, a commit) holding a character no
  page can hold is refused at the tool's file, not at a YAML file the user never wrote;
- JSON lines are lines ended by a newline: a U+2028 inside a string (valid JSON, as
  Python's `json.dumps(..., ensure_ascii=False)` writes it) ends no line, and every
  position counts lines as an editor does.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from progress_site.cli import main

from .conftest import SOURCE_DATE_EPOCH
from .test_hostile import HOSTILE
from .test_record import hashes, smallest_site

HISTORY = "data/history/measurements.heap.jsonl"
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
