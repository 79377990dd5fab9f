"""`progress-site new DIR`: a site that builds at once and passes --strict; the edges a
new site meets first (no pages yet, one language, a cache elsewhere); and the
screenshots of docs/getting-started.md, taken in a real browser."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from progress_site.cli import main

from . import browser
from .conftest import REPO, SOURCE_DATE_EPOCH
from .dom import parse

SCREENSHOTS = REPO / "docs" / "screenshots"


@pytest.fixture(autouse=True)
def fixed_today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)


def cli(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    """The command line in this process: status, stdout, stderr."""
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def new_site(capsys: pytest.CaptureFixture[str], folder: Path, *args: str) -> Path:
    status, _, err = cli(capsys, "new", folder, *args)
    assert status == 0, err
    return folder


def test_new_site_builds_strict_in_both_languages(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    source = new_site(capsys, tmp_path / "mysite")
    status, out, err = cli(capsys, "--source", source, "--strict")
    assert (status, err) == (0, "")
    assert out.startswith("Built 2 pages into ")
    english = parse((source / "site" / "index.html").read_bytes())
    french = parse((source / "site" / "fr" / "index.html").read_bytes())
    assert english.find("h1").text() == "Progress, tests and benchmarks"
    assert french.find("h1").text() == "Avancement, tests et mesures"
    # 840 ms before, 310 ms after (data/studies.yaml): the page prints the ratio it derives.
    assert "starts about 2.7 times faster" in english.text()
    assert "environ 2,7 fois plus vite" in french.text()
    assert english.find(id="trend-memory-figure") is not None
    assert "1 of 3" in english.find(id="roadmap").parent.text()


def test_new_site_types_no_number_in_its_pages() -> None:
    for page in (REPO / "progress_site" / "scaffold" / "site" / "content").glob("*/*.md"):
        prose = re.sub(r"\{\{.*?\}\}|\{#.*?\}", "", page.read_text("utf-8"))
        assert not re.search(r"\d", prose), f"{page}: a number typed instead of named"


def test_new_writes_what_a_repository_needs(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = cli(capsys, "new", tmp_path / "mysite")
    assert status == 0
    ignored = (tmp_path / "mysite" / ".gitignore").read_text("utf-8").split()
    assert {"/site/", "/.cache/"} <= set(ignored)
    assert (tmp_path / "mysite" / ".github" / "workflows" / "pages.yml").is_file()
    assert "  .github/workflows/pages.yml\n" in out and "progress-site --strict" in out


def test_new_with_one_language_ignores_the_other_texts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = new_site(capsys, tmp_path / "mysite", "--lang", "en")
    assert "  languages: [en]\n" in (source / "data" / "site.yaml").read_text("utf-8")
    assert not (source / "content" / "fr").exists()
    # The data keeps its French words ({en: ..., fr: ...}): a site that does not publish
    # French reads past them, without a word.
    assert "fr: Le portable" in (source / "data" / "machines.yaml").read_text("utf-8")
    status, out, err = cli(capsys, "--source", source, "--strict")
    assert (status, err) == (0, "")
    assert out.startswith("Built 1 page into ")
    assert not (source / "site" / "fr").exists()


def test_a_text_in_no_language_is_still_an_error(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    source = new_site(capsys, tmp_path / "mysite", "--lang", "en")
    machines = source / "data" / "machines.yaml"
    machines.write_text(machines.read_text("utf-8").replace("fr: Le portable",
                                                            "enn: Le portable"), "utf-8")
    status, _, err = cli(capsys, "--source", source)
    assert status == 1
    assert "machines[0].name.enn: unknown language 'enn'" in err
    assert "did you mean 'en'?" in err


def test_new_lang_names_the_languages_it_has(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["new", str(tmp_path / "mysite"), "--lang", "en,de"])
    assert stopped.value.code == 2
    assert "the new site's pages exist in en, fr; got 'en,de'" in capsys.readouterr().err
    assert not (tmp_path / "mysite").exists()


def test_new_refuses_a_folder_that_is_not_empty(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "mysite").mkdir()
    (tmp_path / "mysite" / "notes.txt").write_text("mine")
    status, _, err = cli(capsys, "new", tmp_path / "mysite")
    assert status == 2
    assert "the folder is not empty" in err and "--force" in err
    assert [p.name for p in (tmp_path / "mysite").iterdir()] == ["notes.txt"]


def test_new_writes_into_an_empty_folder_or_a_fresh_clone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "mysite" / ".git").mkdir(parents=True)  # a clone of an empty repository
    new_site(capsys, tmp_path / "mysite")
    assert (tmp_path / "mysite" / "data" / "site.yaml").is_file()


def test_force_adds_what_is_missing_and_lists_what_differs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = new_site(capsys, tmp_path / "mysite")
    site = source / "data" / "site.yaml"
    site.write_text(site.read_text("utf-8").replace("My project", "Ours"), "utf-8")
    edited = site.read_bytes()
    (source / "data" / "roadmaps.yaml").unlink()
    status, out, _ = cli(capsys, "new", source, "--force")
    assert status == 0
    assert out.startswith(f"Wrote 1 file into {source}:\n  data/roadmaps.yaml\n")
    assert "Left as they were (they differ from the new site's; compare them by hand):\n" \
           "  data/site.yaml\n" in out
    assert site.read_bytes() == edited


def test_a_site_without_pages_names_the_file_to_write(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = new_site(capsys, tmp_path / "mysite")
    for page in (source / "content").glob("*/*.md"):
        page.unlink()
    status, out, err = cli(capsys, "--source", source)
    assert (status, out) == (2, "")
    assert "no pages yet; write the home page, content/en/index.md" in err
    assert not (source / "site").exists()


def test_cache_dir_keeps_the_caches_elsewhere(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    source = new_site(capsys, tmp_path / "mysite")
    status, _, err = cli(capsys, "--source", source, "--cache-dir", tmp_path / "cache")
    assert (status, err) == (0, "")
    assert (tmp_path / "cache" / "charts").is_dir()
    assert not (source / ".cache").exists()


# -- the screenshots of docs/getting-started.md ----------------------------------------

def screenshot(chromium: Any, url: str, name: str, section: str | None = None) -> None:
    """docs/screenshots/NAME.png of a page, or of one section of it (from the heading
    with that id to the next heading of its level), rewritten if it changed."""
    page = chromium.new_page(viewport=browser.DESKTOP)
    try:
        seen = browser.watch(page, url)
        page.goto(url)
        clip = None if section is None else page.evaluate("""(id) => {
            const start = document.getElementById(id);
            let end = start.nextElementSibling;
            while (end && end.tagName !== start.tagName) end = end.nextElementSibling;
            const top = start.getBoundingClientRect().top + scrollY - 8;
            const bottom = end.getBoundingClientRect().top + scrollY - 8;
            const box = start.parentElement.getBoundingClientRect();
            return {x: box.left - 8, y: top, width: box.width + 16, height: bottom - top};
        }""", section)
        png = browser.small_png(page.screenshot(full_page=True, clip=clip,
                                                animations="disabled", caret="hide"))
        assert seen.problems() == []
    finally:
        page.close()
    target = SCREENSHOTS / f"{name}.png"
    if not target.exists() or target.read_bytes() != png:
        target.write_bytes(png)


def test_getting_started_screenshots(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    source = new_site(capsys, tmp_path / "mysite")
    assert cli(capsys, "--source", source, "--strict")[0] == 0
    with browser.chromium() as chromium, browser.serve(source / "site") as base:
        screenshot(chromium, base, "new-site-en")
        status, out, err = cli(capsys, "record", "measurement", "memory", "--source", source,
                               "--value", "69", "--unit", "MB", "--machine", "laptop",
                               "--commit", "9f8e7d6", "--date", "2026-11-28", "--replace",
                               "--yes")
        assert status == 0, err
        assert "Wrote 1 figure to data/machines.yaml, data/measurements.yaml." in out
        assert cli(capsys, "--source", source, "--strict")[0] == 0
        screenshot(chromium, base, "new-site-recorded", "memory")
        screenshot(chromium, f"{base}fr/index.html", "new-site-fr")
