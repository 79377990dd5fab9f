"""A first build draws its charts on two cores: in a child started with the build, about
half of them in this process when there are many; the same site as drawn in one."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from progress_site.charts.cache import ChartCache
from progress_site.charts.spec import ChartSpec
from progress_site.pipeline import BuildConfig, make_site, prepare
from progress_site.pipeline.rendering import render_all
from progress_site.render.drawings import ask_charts

from .conftest import REPO, SOURCE_DATE_EPOCH, TODAY

# A build in a new process, as a user's first one (vl-convert not yet loaded, so it may
# fork), drawing ahead from `MIN_SPLIT` charts on (0: forking nothing), its forked
# children's work logged.
BUILD = """
import sys
from progress_site import fork
from progress_site.charts import ahead
from progress_site.pipeline import rendering
ahead.MIN_SPLIT = int(sys.argv[1]) or 10**9
ahead.idle_core = lambda: True  # however busy the machine that runs the tests
if sys.argv[1] == "0":
    ahead.fork_safe = rendering.fork_safe = lambda: False
real = fork.Forked.__init__
def logged(self, work):
    real(self, work)
    with open(sys.argv[2], "a") as log:
        log.write(getattr(work, "func", work).__name__ + "\\n")
fork.Forked.__init__ = logged
if sys.argv[3] == "--fail":  # every narrow drawing fails, as a refused one does
    from progress_site.charts import svg
    draw = svg.render_svg
    def refusing(spec, *args, **options):
        if spec.width == 320:
            raise ValueError("refused by the test")
        return draw(spec, *args, **options)
    svg.render_svg = refusing
    del sys.argv[3]
from progress_site.cli import main
sys.exit(main(sys.argv[3:]))
"""


# The work of the child a first build starts before it loads anything else.
DRAWER = "_drawn_when_asked"


def run(source: Path, out: Path, min_split: int, *flags: str, cache: Path | None = None
        ) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """Build `source` into `out` with an empty cache folder (or `cache`): the process, the
    work of its children."""
    log = out.parent / f"{out.name}.log"
    log.touch()
    env = {**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH}
    cache = cache or out.parent / f"{out.name}-cache"
    done = subprocess.run(
        [sys.executable, "-c", BUILD, str(min_split), str(log), *flags, "--source",
         str(source), "--out", str(out), "--cache-dir", str(cache)],
        capture_output=True, text=True, env=env, check=False)
    return done, log.read_text().split()


def first_build(source: Path, out: Path, min_split: int, cache: Path | None = None
                ) -> list[str]:
    """Build `source` into `out` with an empty cache folder (or `cache`); the work of its
    children."""
    done, children = run(source, out, min_split, cache=cache)
    assert done.returncode == 0, done.stderr
    return children


def files(folder: Path) -> dict[str, bytes]:
    """Every file under `folder`, by its path there."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.slow
def test_charts_drawn_in_two_processes_make_the_same_site(example_copy: Path,
                                                         tmp_path: Path) -> None:
    alone = first_build(example_copy, tmp_path / "alone", min_split=0)
    early = first_build(example_copy, tmp_path / "early", min_split=10**9)
    split = first_build(example_copy, tmp_path / "split", min_split=1)
    assert alone == []
    assert early == split == [DRAWER]  # all of the charts, or about half
    assert files(tmp_path / "early") == files(tmp_path / "alone")
    assert files(tmp_path / "split") == files(tmp_path / "alone")


@pytest.mark.slow
def test_a_build_that_finds_its_charts_drawn_starts_no_child(example_copy: Path,
                                                            tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert first_build(example_copy, tmp_path / "first", 10**9, cache) == [DRAWER]
    assert first_build(example_copy, tmp_path / "again", 10**9, cache) == []
    assert files(tmp_path / "again") == files(tmp_path / "first")


@pytest.mark.slow
def test_a_chart_that_cannot_be_drawn_ahead_is_reported_as_before(example_copy: Path,
                                                                  tmp_path: Path) -> None:
    alone, _ = run(example_copy, tmp_path / "alone", 0, "--fail")
    split, children = run(example_copy, tmp_path / "split", 1, "--fail")
    assert children == [DRAWER]
    assert alone.returncode == split.returncode == 1
    assert "refused by the test" in alone.stderr
    assert split.stderr.replace("split", "alone") == alone.stderr
    assert not (tmp_path / "split").exists()


def test_the_charts_asked_ahead_are_those_the_pages_ask_for(tmp_path: Path) -> None:
    """Before any page is rendered, the blocks ask for the charts (wide and narrow, in
    each language) that rendering every page asks for, as a first build finds them all
    missing."""
    config = BuildConfig(source=REPO, out=tmp_path / "site", today=TODAY, strict=True,
                         disk_cache=False)
    ready = prepare(config)
    ahead, pages = ChartCache(None, drawing=False), ChartCache(None, drawing=False)
    ask_charts(ready.pages, ready.model, ready.catalogs, ahead)
    render_all(config, ready, {}, pages)
    assert len(set(pages.missing)) >= 2 * 3  # wide and narrow, several charts
    assert set(ahead.missing) == set(pages.missing)


def test_a_first_build_renders_each_page_once(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A first build that draws ahead (here in this process: no child may fork beside the
    test's threads) renders each page once, and makes the site a build drawing each
    chart as its page asks makes."""
    from progress_site.charts import ahead
    from progress_site.pipeline import rendering
    from progress_site.render import pages

    config = BuildConfig(source=REPO, out=tmp_path / "site", today=TODAY, strict=True,
                         disk_cache=False)
    monkeypatch.setattr(rendering, "fork_safe", lambda: False)  # each drawn as asked
    asked = make_site(config).files
    rendered: list[str] = []
    real = pages.PageRenderer.page

    def counted(self: pages.PageRenderer, page: object, *rest: object) -> bytes:
        rendered.append(f"{page.language}/{page.slug}")  # type: ignore[attr-defined]
        return real(self, page, *rest)  # type: ignore[arg-type]

    drawn_ahead: list[int] = []
    draw = ahead.draw_ahead

    def draw_ahead(cache: ChartCache, specs: Sequence[ChartSpec], *rest: Any,
                   **named: Any) -> None:
        drawn_ahead.append(len(specs))
        draw(cache, specs, *rest, **named)

    monkeypatch.setattr(pages.PageRenderer, "page", counted)
    monkeypatch.setattr(rendering, "fork_safe", lambda: True)
    monkeypatch.setattr(ahead, "fork_safe", lambda: False)
    monkeypatch.setattr(ahead, "draw_ahead", draw_ahead)
    once = make_site(config).files
    assert len(drawn_ahead) == 1 and drawn_ahead[0] >= 6  # every chart, before any page
    assert sorted(rendered) == sorted(set(rendered)) and len(rendered) >= 4
    assert once == asked


def test_a_warm_build_asks_for_each_chart_once(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A build that may draw ahead asks its pages' blocks for their charts before any page
    is rendered; with every chart in the cache, the pages show them as asked, and no chart
    is asked for again: the same site as a build that asks as each page renders."""
    from progress_site.pipeline import rendering

    config = BuildConfig(source=REPO, out=tmp_path / "site", today=TODAY, strict=True,
                         cache=tmp_path / "cache")
    monkeypatch.setattr(rendering, "fork_safe", lambda: False)  # each asked as rendered
    first = make_site(config).files  # fills the cache
    asked: list[tuple[str, str, int]] = []
    real = ChartCache.svg

    def counted(self: ChartCache, spec: ChartSpec) -> str:
        asked.append((spec.id, spec.locale, spec.width))
        return real(self, spec)

    monkeypatch.setattr(ChartCache, "svg", counted)
    monkeypatch.setattr(rendering, "fork_safe", lambda: True)  # asked ahead
    warm = make_site(config).files
    assert len(asked) >= 6  # wide and narrow, several charts, each language
    assert sorted(asked) == sorted(set(asked))
    assert warm == first
