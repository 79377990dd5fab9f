"""The house rules hold: ruff on the whole tree, mypy --strict on the engine."""

from __future__ import annotations

import subprocess
import sys

from .conftest import REPO


def run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *cmd], cwd=REPO, capture_output=True,
                          text=True, timeout=300)


def test_ruff_finds_nothing() -> None:
    result = run("ruff", "check", "progress_site", "tests", "bench", "build.py")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_the_engine() -> None:
    result = run("mypy", "progress_site")
    assert result.returncode == 0, result.stdout + result.stderr
