"""What the commands print from input cannot command the CI that reads it.

GitHub Actions reads each line a step prints: one that starts with `::` once blanks are
stripped is a workflow command (`::error title=...::` makes an annotation, `::add-mask::`
hides words, `::stop-commands::` silences the rest), and so is a line holding `##[`
anywhere (the older form, `##[error]...`). Input reaches the output in error messages
(keys, the source line under an error), in the summaries of `--changes`, `record` and
`import`: each must print such words spelled out (`\\x3a:error::`, `#\\x23[error]`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from progress_site.cli import main

from .conftest import REPO, SOURCE_DATE_EPOCH, copy_hostile_base
from .test_pipeline import run_build
from .test_record import smallest_site

SAMPLES = Path(__file__).parent / "samples"
COMMANDS = ["::error title=Safe::merge me", "\u00a0 ::add-mask::Built", "x ##[error]y"]


def workflow_commands(output: str) -> list[str]:
    """The lines of `output` that GitHub's runner would act on."""
    return [line for line in output.splitlines()
            if line.lstrip().startswith("::") or "##[" in line]


@pytest.fixture
def base(tmp_path: Path) -> Path:
    copy_hostile_base(tmp_path / "src")
    return tmp_path / "src"


def test_a_build_error_echoes_no_workflow_command(base: Path, tmp_path: Path) -> None:
    """A key of the data printed in its message, and its line printed under it."""
    lines = "".join(f"    {json.dumps(c)}: 1\n" for c in COMMANDS)
    (base / "data" / "gh.yaml").write_text(
        f"machines:\n  - id: m\n    name: M\n{lines}    ::error::pwned: 1\n", encoding="utf-8")
    result = run_build("--source", base, "--out", tmp_path / "out")
    assert result.returncode == 1
    assert result.stderr.count("unknown key") == len(COMMANDS) + 1, result.stderr
    assert workflow_commands(result.stdout + result.stderr) == []
    assert "        \\x3a:error::pwned: 1" in result.stderr.splitlines()


def test_a_page_error_echoes_no_workflow_command(base: Path, tmp_path: Path) -> None:
    """The line of a page under its error, as it is written."""
    (base / "content" / "en" / "gh.md").write_text(
        "---\ntitle: T\n---\n::error::[pwned](javascript:x)\n##[error][x](data:x)\n",
        encoding="utf-8")
    result = run_build("--source", base, "--out", tmp_path / "out")
    assert result.returncode == 1
    assert result.stderr.count("    \\x3a:error::[pwned](javascript:x)") == 1, result.stderr
    assert result.stderr.count("    #\\x23[error][x](data:x)") == 1, result.stderr
    assert workflow_commands(result.stderr) == []


def test_the_changes_summary_echoes_no_workflow_command(base: Path, tmp_path: Path) -> None:
    old = tmp_path / "old"
    old.mkdir()
    tasks = [{"id": c, "status": "done", "proofs": []} for c in COMMANDS]
    (old / "data.json").write_text(json.dumps({"version": 1, "today": "2026-11-08",
                                               "roadmaps": [{"id": "##[r]", "tasks": tasks}]}))
    result = run_build("--source", base, "--changes", old)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("task removed") == len(COMMANDS)
    assert workflow_commands(result.stdout + result.stderr) == []


def test_record_and_import_echo_no_workflow_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    source = smallest_site(tmp_path)
    for command in COMMANDS:
        main(["record", "measurement", command, "--value", "1", "--unit", command,
              "--status", "estimate", "--source", str(source)])
        doc = json.loads((SAMPLES / "hyperfine.json").read_text())
        doc["results"][0]["command"] = command
        (tmp_path / "hf.json").write_text(json.dumps(doc))
        main(["import", "hyperfine", str(tmp_path / "hf.json"), "--source", str(source),
              "--machine", "test-pc", "--commit", "c38a01e", "--dry-run"])
    out, err = capsys.readouterr()
    assert "add-mask" in out + err
    assert workflow_commands(out + err) == []


def test_a_closed_output_is_no_internal_error(tmp_path: Path) -> None:
    """`progress-site new DIR | head -1`: the reader closes the pipe, and the next line
    printed found it closed (an "internal error", status 70). Now one line says so, the
    status is a closed pipe's (141), and what was done stays done."""
    read, write = os.pipe()
    os.close(read)  # a reader that has stopped reading before the first line
    done = subprocess.run([sys.executable, str(REPO / "build.py"), "new", "site"],
                          stdout=write, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                          timeout=60)
    os.close(write)
    assert (done.returncode, done.stderr) == (141, (
        "error: the output was closed before the command had printed all of it (`| head`?); "
        "what it did before is done\n"))
    assert (tmp_path / "site/data/site.yaml").is_file()
