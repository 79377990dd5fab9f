"""Whole builds: determinism, the atomic swap of site/, another project's folder."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from progress_site.cli import main, today
from progress_site.pipeline import BuildConfig, make_site
from progress_site.publish.swap import publish

from .conftest import REPO, SOURCE_DATE_EPOCH, TEMPLATES, TODAY, copy_example


def run_build(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """`python build.py ARGS` as a user runs it, in this process: the command line, what it
    prints and its exit status (a new process costs more than most builds here)."""
    stdout, stderr = io.StringIO(), io.StringIO()
    with (pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(stdout),
          contextlib.redirect_stderr(stderr)):
        patch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
        try:
            code = main([str(a) for a in args], TEMPLATES)
        except SystemExit as exc:  # argparse's refusals
            code = exc.code if isinstance(exc.code, int) else 2
    return subprocess.CompletedProcess(list(args), code, stdout.getvalue(), stderr.getvalue())


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under a folder, by relative path."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def built_alone(tmp_path_factory: pytest.TempPathFactory,
                example_files: dict[str, bytes]) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """A copy of the example built by `python build.py`, with no options, in a new process
    from its folder: the folder and what the process did (one build for the two tests
    below; the example's charts are in the session's cache)."""
    folder = copy_example(tmp_path_factory.mktemp("alone") / "src")
    result = subprocess.run([sys.executable, str(REPO / "build.py")], cwd=folder,
                            capture_output=True, text=True, timeout=120,
                            env={**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH})
    return folder, result


def test_build_py_with_no_options_builds_the_current_folder(
        built_alone: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    folder, result = built_alone
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Built 4 pages into site in ")
    assert (folder / "site" / "index.html").is_file()
    assert (folder / "site" / "fr" / "feed.xml").is_file()


def test_python_m_progress_site_prints_its_version() -> None:
    result = subprocess.run([sys.executable, "-m", "progress_site", "--version"], cwd=REPO,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"progress-site {version('progress-site')}\n"


def test_same_input_gives_byte_identical_output(
        built_alone: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path) -> None:
    folder, alone = built_alone
    assert alone.returncode == 0, alone.stderr
    first, second = tmp_path / "one", folder / "site"
    # Two processes: each its own hash seed, its own order of sets and dicts (this one's
    # builds share its compiled templates and parsed files; a new one starts cold).
    assert run_build("--source", folder, "--out", first).returncode == 0
    assert snapshot(first) == snapshot(second)
    assert "index.html" in snapshot(first) and "fr/index.html" in snapshot(first)


def test_root_shows_the_default_language(example_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run_build("--source", example_copy, "--out", out)
    assert result.returncode == 0, result.stderr
    assert '<html lang="en">' in (out / "index.html").read_text()
    assert '<html lang="fr">' in (out / "fr" / "index.html").read_text()
    assert (out / ".nojekyll").exists()
    assert result.stdout.startswith("Built 4 pages into ")


def test_failed_build_leaves_the_previous_site(example_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run_build("--source", example_copy, "--out", out).returncode == 0
    before = snapshot(out)
    studies = example_copy / "data" / "studies.yaml"
    studies.write_text(studies.read_text().replace("after: {value: 7.92}", "after: {value: x}"))
    result = run_build("--source", example_copy, "--out", out)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "expected a number, got 'x'" in result.stderr
    assert snapshot(out) == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out-")], "no leftovers"


def test_successful_build_replaces_the_whole_site(example_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run_build("--source", example_copy, "--out", out).returncode == 0
    (out / "stale.html").write_text("left over from an old build")
    assert run_build("--source", example_copy, "--out", out).returncode == 0
    assert not (out / "stale.html").exists()
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".out-")]
    assert leftovers == []


def inodes(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file and folder under `folder`: its inode and modification time."""
    return {p.relative_to(folder).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns)
            for p in folder.rglob("*")}


def test_a_rebuild_of_unchanged_sources_leaves_the_site_as_it_is(
        example_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run_build("--source", example_copy, "--out", out).returncode == 0
    before, files = inodes(out), snapshot(out)
    assert run_build("--source", example_copy, "--out", out).returncode == 0
    assert inodes(out) == before  # not one file written: a deploy by mtime sends none
    assert snapshot(out) == files


SITE = {"index.html": b"<p>home", "data.json": b"{}", "fr/index.html": b"<p>accueil",
        "assets/style.css": b"p{}"}


@pytest.mark.parametrize("change", ["a file's bytes", "an extra file", "an extra folder",
                                    "a missing file", "a link", "a file for a folder"])
def test_a_site_that_differs_in_any_way_is_replaced(change: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    publish(SITE, out)
    if change == "a file's bytes":
        (out / "fr" / "index.html").write_bytes(b"<p>accueil!")
    elif change == "an extra file":
        (out / "fr" / "old.html").write_bytes(b"")
    elif change == "an extra folder":
        (out / "fr" / "old").mkdir()
    elif change == "a missing file":
        (out / "assets" / "style.css").unlink()
    elif change == "a link":
        (out / "assets" / "style.css").unlink()
        (out / "assets" / "style.css").symlink_to(tmp_path / "elsewhere.css")
        (tmp_path / "elsewhere.css").write_bytes(b"p{}")
    else:
        (out / "assets" / "style.css").unlink()
        (out / "assets" / "style.css").mkdir()
    publish(SITE, out)
    assert snapshot(out) == SITE
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == [
        "assets", "assets/style.css", "data.json", "fr", "fr/index.html", "index.html"]
    assert not (out / "assets" / "style.css").is_symlink()


def test_another_project_folder_uses_the_engine_theme(tmp_path: Path) -> None:
    src = tmp_path / "proj"
    (src / "data").mkdir(parents=True)
    (src / "content" / "en").mkdir(parents=True)
    (src / "data" / "site.yaml").write_text(
        "site:\n  title: Tiny\n  tagline: A tiny page\n  languages: [en]\n")
    (src / "data" / "bench.yaml").write_text(
        "measurements:\n  - id: speed\n    title: Speed\n    figure: {value: 12.5, unit: ms,"
        " status: estimate}\n")
    (src / "content" / "en" / "index.md").write_text(
        "---\ntitle: Tiny report\n---\nIt takes {{ measurements.speed }}.\n")
    result = run_build("--source", src, "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "out" / "index.html").read_text()
    assert "It takes 12.5\u00a0ms." in html
    assert not (tmp_path / "out" / "fr").exists()


def test_missing_data_folder_is_a_usage_error(tmp_path: Path) -> None:
    result = run_build("--source", tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: {tmp_path}: no data/ folder here")


def test_pages_without_a_home_page_are_refused(tmp_path: Path) -> None:
    src = tmp_path / "proj"
    (src / "data").mkdir(parents=True)
    (src / "content" / "en").mkdir(parents=True)
    (src / "data" / "site.yaml").write_text(
        "site:\n  title: Tiny\n  tagline: A tiny page\n  languages: [en]\n")
    (src / "content" / "en" / "report.md").write_text("---\ntitle: Report\n---\nText.\n")
    result = run_build("--source", src, "--out", tmp_path / "out")
    assert result.returncode == 1
    assert result.stderr.startswith(
        "content/en/index.md: the site has no home page\n"
        "    hint: write content/en/index.md, starting with '---', 'title: ...', '---'\n")


def test_an_edited_template_is_used_by_the_next_build_in_the_same_process(
        example_copy: Path) -> None:
    """Compiled templates are kept in memory between builds: by source checksum."""
    from progress_site.pipeline import ENGINE_ROOT

    override = example_copy / "templates" / "blocks"
    override.mkdir(parents=True)
    original = (ENGINE_ROOT / "templates" / "blocks" / "legend.html").read_text("utf-8")
    config = BuildConfig(source=example_copy, out=example_copy / "site", today=TODAY)
    for marker in ("first-edit", "second-edit"):
        (override / "legend.html").write_text(f"<p>{marker}</p>\n{original}", "utf-8")
        page = make_site(config).files["index.html"]
        assert f"<p>{marker}</p>".encode() in page


@pytest.mark.parametrize("epoch", ["99999999999999999999", "9223372036854775808",
                                   "253402300800", "-99999999999", "１７００００００００",
                                   " 1700000000", "1e9", "0x10", "-1", "-0", "-86400",
                                   "1700000000.5", "1700000000\n", "+1700000000",
                                   "1_700_000_000"])
def test_a_source_date_epoch_that_is_no_day_is_a_usage_error(
        epoch: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    code = main(["--source", str(REPO), "--out", str(tmp_path / "out")], TEMPLATES)
    assert code == 2
    assert capsys.readouterr().err == (
        f"error: SOURCE_DATE_EPOCH must be a whole number of seconds since 1970, digits "
        f"only (a day of the years 1970 to 9999), got {epoch!r}; write it as `git log -1 "
        f"--format=%ct` prints it\n")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("epoch", "day"), [("0", "1970-01-01"), ("86399", "1970-01-01"),
                                            ("253402300799", "9999-12-31"),
                                            ("01795910400", "2026-11-29")])
def test_a_source_date_epoch_of_digits_is_the_builds_day(
        epoch: str, day: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    assert today().isoformat() == day
