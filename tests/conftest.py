"""Shared fixtures: the example site, built once per test session."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from xdist.scheduler import LoadGroupScheduling

from progress_site.pipeline import ENGINE_ROOT, BuildConfig, make_site
from progress_site.render.templates import CompiledTemplates

REPO = ENGINE_ROOT
# The example's "today": fixed, so tests do not depend on the day they run.
TODAY = dt.date(2026, 11, 29)
SOURCE_DATE_EPOCH = "1795910400"  # 2026-11-29T00:00:00Z
# Builds keep their cache in the user's cache folder: this session's own, shared by the
# builds in this process and the processes tests start, never the tester's ~/.cache.
SESSION_CACHE = Path(tempfile.mkdtemp(prefix="progress-site-tests-"))
os.environ["XDG_CACHE_HOME"] = str(SESSION_CACHE)
# The templates this test process compiled, passed to the builds it makes in-process
# (`BuildConfig(compiled=TEMPLATES)`, `cli.main(argv, TEMPLATES)`), as watch mode's
# rebuilds share theirs: the tests are about each site's data, not about compiling the
# same theme again for every one. Jinja keys them by file and source checksum, so a
# site's own templates/ are compiled for it.
TEMPLATES = CompiledTemplates()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Remove the session's cache folder."""
    shutil.rmtree(SESSION_CACHE, ignore_errors=True)


@pytest.fixture(scope="session")
def example_files() -> dict[str, bytes]:
    """Every file of the example site, built in memory."""
    config = BuildConfig(source=REPO, out=REPO / "site", today=TODAY, strict=True,
                         compiled=TEMPLATES)
    return make_site(config).files


HOSTILE_BASE = Path(__file__).parent / "hostile" / "base"  # the small site hostile tests spoil


def copy_hostile_base(source: Path) -> Path:
    """A fresh copy of the small site the hostile-input tests spoil, in `source`, returned."""
    shutil.copytree(HOSTILE_BASE, source)
    return source


def copy_example(source: Path) -> Path:
    """A fresh copy of the example's data/ and content/ in `source` (the one copy every
    test and fixture makes), returned."""
    for name in ("data", "content"):
        shutil.copytree(REPO / name, source / name)
    return source


@pytest.fixture()
def example_copy(tmp_path: Path, example_files: dict[str, bytes]) -> Path:
    """A fresh copy of the example's data/ and content/, to edit in a test.

    Its charts are in the session's cache folder (warmed by `example_files`): a test is
    about its edit, not about drawing eighteen charts again."""
    return copy_example(tmp_path / "src")


@pytest.fixture
def watched(request: pytest.FixtureRequest, tmp_path: Path,
            tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Any]]:
    """A copy of the example site (warm caches) and a `build.py --watch` process serving
    it, stopped after the test (test_watch_first, test_watch_browser)."""
    from .test_watch import Watch, copy_example, warm_cache  # the watch tests' own helpers

    source = copy_example(tmp_path, warm_cache(request.config, tmp_path_factory))
    process = Watch(source)
    process.wait_for("Serving")
    try:
        yield source, process
    finally:
        process.close()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """A headless Debian Chromium for the module's tests (tests/browser.py)."""
    from .browser import chromium

    with chromium() as instance:
        yield instance


# The suite runs on every core (pytest-xdist, `-n auto --dist loadgroup` in
# pyproject.toml). A test module's tests go to one worker, so its module fixtures (a
# built site, a served folder) are made once; the modules that check the built sites of
# tests/sites.py share a worker, so those sites are built once too.
SHARE_SITES = {"test_html_valid", "test_fragments"}
# Modules of long tests over a site that is quick to build: their tests go to any worker
# (each builds the module's site once), or one worker would run them all at the end.
# (test_lighthouse audits every page in one browser, in one fixture: it stays whole.)
SPREAD = {"test_browser"}
# The longest groups start first, longest first (as measured with --durations), so that no
# worker begins one when the other is nearly done; the spread browser tests come after
# them, and the short modules last, to even out the end. pyproject.toml turns off
# xdist's own order (by the number of tests a group holds), which would start the many
# short tests first and leave the browsers, Lighthouse and the wheel for the end.
FIRST = ("test_lighthouse", "test_fragments", "test_html_valid", "test_package", "test_watch",
         "test_cases", "test_bench", "test_faults", "test_fuzz", "test_record",
         "test_watch_browser", "test_runs_browser", "test_hostile", "test_watch_first",
         "test_cache_trust", "test_injection_browser", "test_history_writer", "test_browser",
         "test_charts", "test_import_formats", "test_injection", "test_history",
         "test_importers", "test_changes", "test_new", "test_markdown", "test_workflow",
         "test_pipeline", "test_chart_fit", "test_bench_charts", "test_formatting")
# What an everyday run leaves out (`pytest -m "not slow"`, README): real browsers and
# Node tools, the wheel in a fresh virtualenv, killed builds, fuzzing, the benches'
# own runs, the watch processes that serve the open page first. CI runs everything.
# Tests of other modules that drive a browser, run a real tool (go, git, actionlint, an
# import twenty times), fuzz, check a size at scale, or are the rarer of many alike cases
# are marked where they are written (`@pytest.mark.slow`).
SLOW = {"test_browser", "test_injection_browser", "test_watch_browser", "test_lighthouse",
        "test_runs_browser", "test_watch_first",
        "test_html_valid", "test_fragments", "test_package", "test_workflow", "test_faults",
        "test_fuzz", "test_bench", "test_bench_charts"}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put the longest modules first, and mark the slow modules' tests."""
    def module_of(item: pytest.Item) -> str:
        return item.module.__name__.rpartition(".")[2] if item.module else item.nodeid

    def rank(item: pytest.Item) -> int:
        module = module_of(item)
        return FIRST.index(module) if module in FIRST else len(FIRST)

    items.sort(key=rank)  # stable: modules stay whole, in their order
    for item in items:
        if module_of(item) in SLOW:
            item.add_marker(pytest.mark.slow)


def group_of(nodeid: str) -> str:
    """The work unit a test is sent to a worker in: its module's (the site checks share
    one), or the test alone for the modules to spread."""
    module = nodeid.partition("::")[0].rpartition("/")[2].removesuffix(".py")
    if module in SPREAD:
        return nodeid
    return "sites" if module in SHARE_SITES else module


class ByGroup(LoadGroupScheduling):
    """xdist's loadgroup, the group of each test read from its node id (`group_of`).

    xdist's own reads a suffix that its workers write into each marked test's id, which
    pytest 9.2's ids no longer take (pytest-xdist#1386): nothing failed, but every test
    went to any worker, and each worker built the module fixtures again (Lighthouse's
    audit, the wheel's virtualenv, the test sites)."""

    def _split_scope(self, nodeid: str) -> str:
        return group_of(nodeid)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> ByGroup | None:
    """With `--dist loadgroup` (pyproject.toml), the groups of `group_of`."""
    return ByGroup(config, log) if config.getvalue("dist") == "loadgroup" else None
