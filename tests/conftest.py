"""Shared fixtures: the example site, built once per test session."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from progress_site.pipeline import ENGINE_ROOT, BuildConfig, make_site

REPO = ENGINE_ROOT
# The example's "today": fixed, so tests do not depend on the day they run.
TODAY = dt.date(2026, 11, 29)
SOURCE_DATE_EPOCH = "1795910400"  # 2026-11-29T00:00:00Z


@pytest.fixture(scope="session")
def example_files() -> dict[str, bytes]:
    """Every file of the example site, built in memory."""
    config = BuildConfig(source=REPO, out=REPO / "site", today=TODAY, strict=True)
    return make_site(config).files


@pytest.fixture()
def example_copy(tmp_path: Path, example_files: dict[str, bytes]) -> Path:
    """A fresh copy of the example's data/ and content/, to edit in a test.

    The chart and template caches come along (warmed by `example_files`): a test is
    about its edit, not about drawing eighteen charts again."""
    for name in ("data", "content", ".cache"):
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, tmp_path / "src" / name)
    return tmp_path / "src"
