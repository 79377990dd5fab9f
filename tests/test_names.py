"""File names from the source folder: refused when a site's address or a message cannot
hold them, printed escaped, and never colliding with what the build writes.

The refusals themselves, with their exact messages, are broken-input cases
(tests/cases/page-name-*, data-file-name-*); these tests check what the cases cannot:
that the list of taken names follows what the build writes, how names are spelled out,
and the command line's own messages.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from progress_site.errors import Location, Problem, visible_path
from progress_site.load.pages import PAGE_NAME, TAKEN, suggested_name
from progress_site.pipeline import BuildConfig, make_site

from .conftest import REPO, TEMPLATES, TODAY, copy_hostile_base
from .test_pipeline import run_build


@pytest.mark.parametrize(("name", "shown"), [
    ("content/en/index.md", "content/en/index.md"),
    ("content/en/café.md", "content/en/café.md"),
    ("a\x1b[31mb.md", "a\\x1b[31mb.md"),
    ("a\nb:1:1: forged.md", "a\\nb:1:1: forged.md"),
    ("a\rb\tc", "a\\rb\\tc"),
    ("report\u202egpj.md", "report\\u202egpj.md"),
    ("zero\u200bwidth", "zero\\u200bwidth"),
    (os.fsdecode(b"caf\xe9.md"), "caf\\xe9.md"),  # not UTF-8: the byte as it is
    ("back\\slash", "back\\\\slash"),  # doubled, so `\x1b` above cannot be forged
    ("half \ud800", "half \\ud800"),
    # What GitHub Actions reads as a workflow command: `::` opening a line, `##[` in it.
    ("::error title=x::merged", "\\x3a:error title=x::merged"),
    ("\u00a0 ::add-mask::x", "\u00a0 \\x3a:add-mask::x"),
    ("a ##[error]b ###[c", "a #\\x23[error]b ##\\x23[c"),
    ("a::b", "a::b"),
])
def test_file_names_are_printed_as_repr_spells_them(name: str, shown: str) -> None:
    assert visible_path(name) == shown
    assert Problem(Location(name, 2, 3), "m").render() == f"{shown}:2:3: m"
    assert Problem(Location(name), "m").render() == f"{shown}: m"


@pytest.mark.parametrize(("slug", "suggested"), [
    ("About", "about"),
    ("javascript:alert(1);0", "javascript-alert-1-0"),
    ("Café au lait", "cafe-au-lait"),
    ("reports/2026", "reports-2026"),
    ("feed.xml", "feed-xml"),
    ("__", "page"),
    ("assets", "page"),
])
def test_a_refused_name_comes_with_one_that_is_not(slug: str, suggested: str) -> None:
    assert suggested_name(slug) == suggested
    assert PAGE_NAME.fullmatch(suggested) and suggested not in TAKEN


def test_every_name_the_build_writes_is_taken(tmp_path: Path) -> None:
    """What the build writes beside the pages' folders, with every output on (a base URL
    adds the sitemap and the preview cards), is refused as a page's name: the list in
    load/pages.py follows the build."""
    config = BuildConfig(source=REPO, out=tmp_path / "site", today=TODAY, strict=True,
                         base_url="https://example.org/progress/", compiled=TEMPLATES)
    built = make_site(config)
    files = built.files
    assert built.model is not None
    languages = built.model.data.site.languages
    pages = {name.rsplit("/", 2)[-2] for name in files if name.endswith("/index.html")}
    for folder in ["", *(f"{lang}/" for lang in languages[1:])]:
        beside = {name[len(folder):].split("/")[0] for name in files
                  if name.startswith(folder)} - pages - {"index.html", ".nojekyll"}
        if not folder:
            beside -= set(languages)
        assert beside, folder
        assert beside <= set(TAKEN), f"{folder}: {sorted(beside - set(TAKEN))} not taken"


def test_the_command_line_prints_folder_names_escaped(tmp_path: Path) -> None:
    missing = tmp_path / "a\nerror: forged"
    missing.mkdir()
    result = run_build("--source", missing)
    assert result.returncode == 2
    assert result.stderr == (f"error: {tmp_path}/a\\nerror: forged: no data/ folder here; "
                             "pass --source with the folder that holds data/ and content/\n")


def test_an_output_inside_the_data_is_printed_escaped(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "src"
    copy_hostile_base(source)
    monkeypatch.chdir(source)  # --out is relative to the working folder
    result = run_build("--source", source, "--out", "data/\x1b[2J")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith("error: --out data/\\x1b[2J: refusing to publish there: "
                                    "it is inside the source's data/ folder;")
    assert not (source / "data" / "\x1b[2J").exists()


def test_a_data_file_whose_name_is_not_utf8_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "src"
    copy_hostile_base(source)
    (source / "data" / os.fsdecode(b"m\xe9chines.yaml")).write_text("machines: []\n")
    result = run_build("--source", source, "--out", tmp_path / "out")
    assert result.returncode == 1
    assert result.stderr.splitlines()[:2] == [
        "data/m\\xe9chines.yaml: this file's name is not UTF-8 text",
        "    hint: rename the file with letters, digits, '-' and '_'"]
    assert not (tmp_path / "out").exists()


def test_a_data_file_name_in_decomposed_unicode_is_refused(tmp_path: Path) -> None:
    """`café.yaml` written as `e` and a combining accent prints as its composed twin: it
    is refused, spelled out, with the name to give it; the composed one is read."""
    source = tmp_path / "src"
    copy_hostile_base(source)
    (source / "data" / "caf\u00e9.yaml").write_text("machines: [{id: a, name: A}]\n")
    (source / "data" / "cafe\u0301.yaml").write_text("machines: [{id: b, name: B}]\n")
    result = run_build("--source", source, "--out", tmp_path / "out")
    assert result.returncode == 1
    assert result.stderr == (
        "data/cafe\u0301.yaml: this file's name is written in decomposed Unicode "
        "(data/cafe\\u0301.yaml), which prints like data/caf\u00e9.yaml but is another name\n"
        "    hint: rename it to data/caf\u00e9.yaml (git mv), its composed (NFC) spelling\n"
        "Aborted with 1 data error.\nThe previous site was left as it was.\n")
    assert not (tmp_path / "out").exists()
    (source / "data" / "cafe\u0301.yaml").unlink()
    result = run_build("--source", source, "--out", tmp_path / "out")
    assert (result.returncode, result.stderr) == (0, "")


@pytest.mark.parametrize("blocker", ["cache", "cache/charts", "cache/social"])
def test_a_cache_that_is_a_file_means_no_cache(blocker: str, example_copy: Path,
                                               tmp_path: Path) -> None:
    """A cache folder (or one of its folders) that is a file is not an error: the build
    makes the same site without it."""
    (tmp_path / blocker).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / blocker).write_text("not a folder")
    out = tmp_path / "out"
    given = ("--cache-dir", tmp_path / "cache", "--base-url", "https://example.org/")
    result = run_build("--source", example_copy, "--out", out, *given)  # in this process
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert (tmp_path / blocker).read_text() == "not a folder"
    again = run_build("--source", example_copy, "--out", out, "--force", *given)
    assert again.stdout.splitlines()[-1] == (
        "No page, figure or task changed since the previous site.")
