"""`progress-site new DIR`: a site that builds at once and passes --strict; the edges a
new site meets first (no pages yet, one language, a cache elsewhere); and the
screenshots of docs/getting-started.md, taken in a real browser."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from progress_site.cli import main
from progress_site.model.placeholders import PLACEHOLDER_TITLE, PLACEHOLDER_URL, SAMPLE_COMMITS
from progress_site.scaffold.writer import NotWritten, write

from . import browser
from .conftest import REPO, SOURCE_DATE_EPOCH, TEMPLATES
from .dom import parse

SCREENSHOTS = REPO / "docs" / "screenshots"


@pytest.fixture(autouse=True)
def fixed_today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)


def cli(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    """The command line in this process: status, stdout, stderr."""
    status = main([str(a) for a in args], TEMPLATES)
    out, err = capsys.readouterr()
    return status, out, err


def new_site(capsys: pytest.CaptureFixture[str], folder: Path, *args: str) -> Path:
    status, _, err = cli(capsys, "new", folder, *args)
    assert status == 0, err
    return folder


# What a build says of a new site until its placeholders and samples are replaced.
SAMPLES = """\
data/machines.yaml:9:9: warning: commits[0].id: the sample commits of `progress-site new` \
(0c1d2e3, 5f6a7b8, a1b2c3d, e4f5a6b) are still here: the figures that cite them are not measured
      - id: 0c1d2e3
            ^
    hint: replace the sample measurements, study, roadmap and commits with your own \
(`progress-site record`)
"""
PLACEHOLDERS = """\
data/site.yaml:4:10: warning: site.title: 'My project' is the title `progress-site new` wrote
      title: My project
             ^
    hint: write your project's name
data/site.yaml:16:12: warning: site.repositories[0].url: https://github.com/OWNER/my-project \
is the placeholder `progress-site new` wrote: its links lead nowhere
          url: https://github.com/OWNER/my-project
               ^
    hint: write your repository's address
""" + SAMPLES


def test_new_site_builds_in_both_languages(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    source = new_site(capsys, tmp_path / "mysite")
    status, out, err = cli(capsys, "--source", source)
    assert (status, err) == (0, PLACEHOLDERS)
    assert out.startswith("Built 2 pages into ")
    english = parse((source / "site" / "index.html").read_bytes())
    french = parse((source / "site" / "fr" / "index.html").read_bytes())
    assert english.find("h1").text() == "Progress, tests and benchmarks"
    assert french.find("h1").text() == "Avancement, tests et mesures"
    # 840 ms before, 310 ms after (data/studies.yaml): the page prints the ratio it derives.
    assert "starts about 2.71 times faster" in english.text()
    assert "environ 2,71 fois plus vite" in french.text()
    assert english.find(id="trend-memory-figure") is not None
    roadmap = english.find(id="roadmap")
    assert "1 of 3" in roadmap.parent.text()
    # One card a comparison, group titles of its own (not a status repeated as a task),
    # the roadmap titled once.
    html = (source / "site" / "index.html").read_text("utf-8")
    assert "bars" not in (source / "content" / "en" / "index.md").read_text("utf-8")
    assert "Done (validated)" not in html
    assert [h.text() for h in roadmap.find_all("h3")] == ["Towards a first stable version"]


def test_strict_refuses_to_publish_the_placeholders_and_samples(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = new_site(capsys, tmp_path / "mysite")
    status, out, err = cli(capsys, "--source", source, "--strict")
    assert (status, out) == (1, "")
    # Errors print sorted by file: machines.yaml before site.yaml.
    errors = SAMPLES + PLACEHOLDERS.removesuffix(SAMPLES)
    assert err == (errors.replace("warning: ", "") + "Aborted with 3 data errors.\n"
                   "The previous site was left as it was.\n")
    assert not (source / "site").exists()


def test_new_writes_the_name_and_repository_it_is_given(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = new_site(capsys, tmp_path / "mysite", "--name", 'Horizon: "fast" #1',
                      "--repo", "https://github.com/horizon-rust/horizon/")
    site = (source / "data" / "site.yaml").read_text("utf-8")
    assert '  title: "Horizon: \\"fast\\" #1"\n' in site
    assert '      url: "https://github.com/horizon-rust/horizon"\n' in site
    status, _, err = cli(capsys, "--source", source)
    assert (status, err) == (0, SAMPLES)
    english = parse((source / "site" / "index.html").read_bytes())
    assert english.find("title").text().startswith('Horizon: "fast" #1')


@pytest.mark.parametrize(("args", "message"), [
    (("--repo", "github.com/horizon"), "argument --repo: the address is not an http(s) "
     "address (it starts with 'github.c'); give the repository's web address, such as "
     "https://github.com/OWNER/NAME"),
    (("--repo", "https://github.com/OWNER/my-project"), "argument --repo: the address is "
     "the placeholder; give the repository's web address, such as "
     "https://github.com/OWNER/NAME"),
    (("--name", " "), "argument --name: the project's name: up to 100 characters on one "
     "line, such as 'Meridian'"),
    (("--name", "Mer\u202eidian"), "argument --name: the project's name holds U+202E (a "
     "direction override), which no page should show; write it without, such as "
     "'Meridian'"),
])
def test_new_refuses_a_name_or_repository_it_cannot_write(
        args: tuple[str, str], message: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["new", str(tmp_path / "mysite"), *args])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.endswith(f"error: {message}\n")
    assert not (tmp_path / "mysite").exists()


def test_the_skeleton_holds_the_placeholders_a_build_looks_for() -> None:
    data = REPO / "progress_site" / "scaffold" / "site" / "data"
    site = (data / "site.yaml").read_text("utf-8")
    assert f"title: {PLACEHOLDER_TITLE}\n" in site and f"url: {PLACEHOLDER_URL}\n" in site
    commits = re.findall(r"- id: (\w+)", (data / "machines.yaml").read_text("utf-8"))
    assert tuple(c for c in commits if not c.isalpha()) == SAMPLE_COMMITS


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
    assert "  .github/workflows/pages.yml\n" in out and "cd " in out and "--strict" in out


def test_new_with_one_language_ignores_the_other_texts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = new_site(capsys, tmp_path / "mysite", "--lang", "en")
    assert "  languages: [en]\n" in (source / "data" / "site.yaml").read_text("utf-8")
    assert not (source / "content" / "fr").exists()
    # The data keeps its French words ({en: ..., fr: ...}): a site that does not publish
    # French reads past them, without a word.
    assert "fr: Le portable" in (source / "data" / "machines.yaml").read_text("utf-8")
    status, out, err = cli(capsys, "--source", source)
    assert (status, err) == (0, PLACEHOLDERS)
    assert out.startswith("Built 1 page into ")
    assert not (source / "site" / "fr").exists()


def test_a_french_first_site_needs_no_english_catalog(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The templates are written in English: a site whose first language is French
    has English words without a catalog, and --strict does not ask for one (it refused
    `new --lang fr,en` with "no catalog for 'en'")."""
    source = new_site(capsys, tmp_path / "mysite", "--lang", "fr,en")
    status, _, err = cli(capsys, "--source", source)
    assert (status, err) == (0, PLACEHOLDERS)
    english = parse((source / "site" / "en" / "index.html").read_bytes())
    assert english.find("h1").text() == "Progress, tests and benchmarks"


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


def test_a_language_added_later_is_told_a_template_that_exists(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A site made by `new` has no locales/ of its own: the hint's command must name the
    engine's messages.pot, and running it must give the language its catalog."""
    site = new_site(capsys, tmp_path / "site")
    settings = site / "data" / "site.yaml"
    settings.write_text(settings.read_text().replace("[en, fr]", "[en, fr, de]"))
    shutil.copytree(site / "content" / "en", site / "content" / "de")
    status, _, err = cli(capsys, "--source", site)
    assert status == 0, err
    command = re.search(r"no catalog for 'de'.*\n    hint: run `([^`]+)`", err)
    assert command is not None, err
    words = command[1].split()
    assert words[:2] == ["pybabel", "init"] and Path(words[3]).is_file(), command[1]
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", *words[1:]], cwd=site,
                   check=True, capture_output=True)
    status, _, err = cli(capsys, "--source", site)
    assert status == 0 and "no catalog for 'de'" not in err, err


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
    assert (status, err) == (0, PLACEHOLDERS)
    assert (tmp_path / "cache" / "charts").is_dir()
    assert not (source / ".cache").exists()


# -- where `new` writes: inside DIR only, never through a link, never into a site ----

LINK = ("a symbolic link: `new` never writes through one\n"
        "    hint: remove the link, or choose another folder; nothing was written\n")


def tree(root: Path) -> dict[str, str]:
    """Every path under a folder, with its link target or its bytes (links not followed)."""
    return {p.relative_to(root).as_posix(): (f"-> {os.readlink(p)}" if p.is_symlink()
                                             else "dir" if p.is_dir() else p.read_text())
            for p in sorted(root.rglob("*"))}


def refused_at(capsys: pytest.CaptureFixture[str], where: Path, *args: str | Path) -> str:
    """Run `new`, expect a refusal (no traceback) that starts with `where`; its text."""
    status, out, err = cli(capsys, "new", *args)
    assert (status, out) == (1, ""), err
    assert err.startswith(f"error: {where}: ")
    return err.removeprefix(f"error: {where}: ")


@pytest.mark.parametrize("force", [(), ("--force",)])
def test_a_folder_that_is_a_dangling_link_is_refused(
        force: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "mysite").symlink_to(tmp_path / "elsewhere")
    assert refused_at(capsys, tmp_path / "mysite", tmp_path / "mysite", *force) == LINK
    assert tree(tmp_path) == {"mysite": f"-> {tmp_path / 'elsewhere'}"}


@pytest.mark.parametrize("link", ["content", "data/site.yaml", ".github/workflows"])
def test_a_link_on_a_path_new_writes_is_refused_and_nothing_written(
        link: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, outside = tmp_path / "mysite", tmp_path / "outside"
    (source / link).parent.mkdir(parents=True, exist_ok=True)
    (source / link).symlink_to(outside / "x")  # dangling: following it would create x
    outside.mkdir()
    before = tree(tmp_path)
    assert refused_at(capsys, source / link, source, "--force") == LINK
    assert tree(tmp_path) == before


def test_links_new_does_not_write_through_are_left_alone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The ok twin: a link beside the files `new` writes, and one above DIR (the path the
    user typed), are no reason to refuse."""
    (tmp_path / "real").mkdir()
    (tmp_path / "via").symlink_to(tmp_path / "real")
    source = new_site(capsys, tmp_path / "via" / "mysite")
    (source / "notes").symlink_to(tmp_path / "elsewhere")
    (source / "data" / "roadmaps.yaml").unlink()
    status, out, err = cli(capsys, "new", source, "--force")
    assert (status, err) == (0, "")
    assert out.startswith(f"Wrote 1 file into {source}:\n  data/roadmaps.yaml\n")
    assert (tmp_path / "real" / "mysite" / "data" / "roadmaps.yaml").is_file()


INSIDE = ("    hint: start the new site in a folder of its own, outside any other site (beside "
          "it, say); nothing was written\n")


@pytest.mark.parametrize("inner", ["data/new", "content/en/new", "templates/new",
                                   "locales/new", "site/new", "out"])
def test_a_folder_inside_a_site_is_refused(inner: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    site = new_site(capsys, tmp_path / "site")
    published = tmp_path / "out"  # a site a build published, with --out: anywhere
    published.mkdir()
    (published / "data.json").write_text("{}")
    (published / "index.html").write_text("<!doctype html>")
    before = tree(tmp_path)
    target = published / "new" if inner == "out" else site / inner
    status, out, err = cli(capsys, "new", target)
    assert (status, out) == (2, "")
    first = inner.split("/")[0]
    assert err == (f"error: {target}: refusing to start a site inside {published}, a site "
                   "that a build published\n" + INSIDE if inner == "out" else
                   f"error: {target}: refusing to start a site inside {site / first}, the "
                   f"{first}/ folder of the site in {site}\n" + INSIDE)
    assert tree(tmp_path) == before


def test_a_folder_beside_a_site_or_in_its_other_folders_is_fine(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The ok twin: a folder the site does not read (docs/) and one beside the site."""
    site = new_site(capsys, tmp_path / "site")
    new_site(capsys, site / "docs" / "example")
    new_site(capsys, tmp_path / "other")
    (tmp_path / "loose").mkdir()  # data.json alone is not a published site
    (tmp_path / "loose" / "data.json").write_text("{}")
    new_site(capsys, tmp_path / "loose" / "new")


def test_file_system_errors_are_one_line_and_a_hint(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    long = tmp_path / ("x" * 300)
    assert refused_at(capsys, long, long) == (
        "the name is too long for the file system\n"
        "    hint: choose a shorter name; nothing was written\n")
    source = tmp_path / "mysite"
    source.mkdir()
    (source / "data").write_text("a file")
    assert refused_at(capsys, source / "data", source, "--force") == (
        "a file where the new site needs a folder\n"
        "    hint: move or rename it, or choose another folder; nothing was written\n")
    assert tree(source) == {"data": "a file"}


def new_process(*args: str | Path, cwd: Path, drop_rights: bool = False
                ) -> subprocess.CompletedProcess[bytes]:
    """`progress-site new` in a process of its own; `drop_rights` takes from root the
    right to read and write whatever it likes (as a user without those rights runs)."""
    command = [sys.executable, "-m", "progress_site", "new", *map(str, args)]
    if drop_rights and os.geteuid() == 0:
        command = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *command]
    return subprocess.run(command, cwd=cwd, capture_output=True, timeout=60, check=False,
                          stdin=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(REPO)})


def refused_process(done: subprocess.CompletedProcess[bytes], where: str) -> str:
    """A refusal without a traceback, starting with `where`; the rest of its text."""
    err = done.stderr.decode()
    assert (done.returncode, done.stdout) == (1, b""), err
    assert err.startswith(f"error: {where}: ")
    return err.removeprefix(f"error: {where}: ")


@pytest.mark.skipif(os.geteuid() == 0 and not shutil.which("setpriv"),
                    reason="root, and no setpriv to drop its rights")
def test_permission_errors_are_one_line_and_a_hint(tmp_path: Path) -> None:
    denied = ("permission denied\n    hint: give yourself the right to read and write "
              "there, or choose another folder; nothing was written\n")
    (tmp_path / "locked").mkdir(mode=0o555)
    assert refused_process(new_process("locked/mysite", cwd=tmp_path, drop_rights=True),
                           "locked/mysite") == denied
    assert new_process("mysite", cwd=tmp_path).returncode == 0
    (tmp_path / "mysite" / "data" / "site.yaml").write_text("edited: its size differs")
    (tmp_path / "mysite" / "data" / "site.yaml").chmod(0o000)
    before = tree(tmp_path / "mysite" / "content")
    (tmp_path / "mysite" / "content" / "fr" / "index.md").unlink()
    assert refused_process(new_process("mysite", "--force", cwd=tmp_path, drop_rights=True),
                           "mysite/data/site.yaml") == denied
    assert not (tmp_path / "mysite" / "content" / "fr" / "index.md").exists()
    (tmp_path / "mysite" / "data" / "site.yaml").chmod(0o644)
    assert new_process("mysite", "--force", cwd=tmp_path).returncode == 0
    assert tree(tmp_path / "mysite" / "content") == before


# Inside `unshare --mount`: a tiny tmpfs of its own, full after a few files, then read-only.
TMPFS_SCRIPT = """
import json, subprocess, sys
from pathlib import Path
mount = Path(sys.argv[1])
subprocess.run(["mount", "-t", "tmpfs", "-o", "size=12k", "tmpfs", str(mount)], check=True)
new = [sys.executable, "-m", "progress_site", "new"]
full = subprocess.run(new + ["mysite"], cwd=mount, capture_output=True, text=True)
left = sorted(str(p.relative_to(mount)) for p in mount.rglob("*"))
subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
ro = subprocess.run(new + ["mysite"], cwd=mount, capture_output=True, text=True)
print(json.dumps([full.returncode, full.stderr, left, ro.returncode, ro.stderr]))
"""


def test_a_full_disk_and_a_read_only_disk(tmp_path: Path) -> None:
    probe = subprocess.run(["unshare", "--mount", "--propagation", "private", "true"],
                           capture_output=True, check=False)
    if probe.returncode != 0 or not shutil.which("mount"):
        pytest.skip("no mount namespace here (unshare --mount refused)")
    done = subprocess.run(["unshare", "--mount", "--propagation", "private", sys.executable,
                           "-c", TMPFS_SCRIPT, str(tmp_path)], capture_output=True, text=True,
                          timeout=120, check=False, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    full, full_err, left, readonly, readonly_err = json.loads(done.stdout)
    assert full == 1 and re.fullmatch(
        r"error: mysite/[\w./-]+: no space left on the disk\n    hint: free some space, then "
        r"run `new` again; nothing was written\n", full_err), full_err
    assert left == []  # what was written before the disk filled up is taken back
    assert (readonly, readonly_err) == (1, "error: mysite: the file system is read-only\n"
                                           "    hint: choose a folder on a writable disk; "
                                           "nothing was written\n")


def test_a_link_planted_after_the_look_is_not_followed(tmp_path: Path) -> None:
    """Between looking at the folder and writing, a link may appear (a race): the write
    itself opens every folder and file without following one, and takes back its work."""
    source, outside = tmp_path / "mysite", tmp_path / "outside"
    outside.mkdir()
    source.mkdir()
    (source / "content").symlink_to(outside)
    files = {"a.txt": b"a", "content/en/index.md": b"page"}
    with pytest.raises(NotWritten) as caught:
        write(source, list(files), files)
    assert caught.value.problems[0].render() == f"{source}/content: " + LINK.rstrip("\n")
    assert tree(tmp_path) == {"mysite": "dir", "mysite/content": f"-> {outside}",
                              "outside": "dir"}


def test_a_folder_name_prints_escaped(tmp_path: Path) -> None:
    """A newline, an escape sequence or a direction override in DIR reach the terminal
    spelled out: the report cannot be forged, the screen not cleared."""
    name = "x\nFORGED: Wrote 0 files:\x1b[2J\u202e"
    done = new_process(name, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert not re.search(rb"[\x00-\x08\x0b-\x1f\x7f]|\xe2\x80\xae", done.stdout + done.stderr)
    lines = done.stdout.decode().splitlines()
    assert lines[0] == "Wrote 11 files into x\\nFORGED: Wrote 0 files:\\x1b[2J\\u202e:"
    assert not any(line.startswith("FORGED") for line in lines)
    assert lines[-1] == ("Next: cd the new folder && progress-site, then open "
                         "site/index.html; replace the sample figures (data/) with yours: "
                         "until then the build warns, and --strict (as the workflows build) "
                         "refuses to publish them.")
    assert (tmp_path / name / "data" / "site.yaml").is_file()
    (tmp_path / name / "data").rename(tmp_path / name / "kept")
    (tmp_path / name / "data").symlink_to(tmp_path / "outside")
    refused = new_process(name, "--force", cwd=tmp_path)
    assert refused.returncode == 1
    assert refused.stderr.decode().startswith(
        "error: x\\nFORGED: Wrote 0 files:\\x1b[2J\\u202e/data: a symbolic link")


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
        png = page.screenshot(full_page=True, clip=clip, animations="disabled", caret="hide")
        assert seen.problems() == []
    finally:
        page.close()
    browser.keep_screenshot(SCREENSHOTS / f"{name}.png", png)


@pytest.mark.slow  # a real browser or tool run after run: CI runs it
def test_getting_started_screenshots(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    source = new_site(capsys, tmp_path / "mysite")
    assert cli(capsys, "--source", source)[0] == 0
    with browser.chromium() as chromium, browser.serve(source / "site") as base:
        screenshot(chromium, base, "new-site-en")
        status, out, err = cli(capsys, "record", "measurement", "memory", "--source", source,
                               "--value", "69", "--unit", "MB", "--machine", "laptop",
                               "--commit", "9f8e7d6", "--date", "2026-11-28", "--replace",
                               "--yes")
        assert status == 0, err
        assert "Wrote 1 figure to data/machines.yaml, data/measurements.yaml." in out
        assert cli(capsys, "--source", source)[0] == 0
        screenshot(chromium, base, "new-site-recorded", "memory")
        screenshot(chromium, f"{base}fr/index.html", "new-site-fr")


MY_DATA = """\
machines:
  - {id: grappe, name: {en: The cluster, fr: La grappe}}
"""


def test_strict_refuses_the_sample_roadmap_once_the_sample_commits_are_gone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A research group replaced the machines, commits, study and measurement `new`
    wrote, and kept its sample roadmap by oversight: it cites no commit, and `--strict`
    published the sample's task, done with the sample's proof and date, in the feed and
    data.json. It is an error at that task, as the sample commits were."""
    source = new_site(capsys, tmp_path / "mysite", "--name", "Sobre", "--repo",
                      "https://github.com/calcul-sobre/solveurs")
    for name in ("studies.yaml", "measurements.yaml"):
        (source / "data" / name).unlink()
    (source / "data" / "machines.yaml").write_text(MY_DATA, "utf-8")
    for lang in ("en", "fr"):
        (source / "content" / lang / "index.md").write_text(
            "---\ntitle: Sobre\n---\n{{< roadmap roadmap >}}\n", "utf-8")
    status, out, err = cli(capsys, "--source", source, "--strict")
    assert (status, out) == (1, "")
    assert err.splitlines()[0] == (
        "data/roadmaps.yaml:9:17: roadmaps[0].groups[0].tasks[0].id: the sample tasks of "
        "`progress-site new` (faster-start, less-memory, plugins) are still here: a task "
        "marked done with the sample's proof and date is not yours")
    assert err.endswith("Aborted with 1 data error.\nThe previous site was left as it was.\n")


def test_strict_refuses_the_sample_roadmap_once_the_sample_commits_are_gone_ok(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = new_site(capsys, tmp_path / "mysite", "--name", "Sobre", "--repo",
                      "https://github.com/calcul-sobre/solveurs")
    for name in ("studies.yaml", "measurements.yaml"):
        (source / "data" / name).unlink()
    (source / "data" / "machines.yaml").write_text(MY_DATA, "utf-8")
    roadmaps = source / "data" / "roadmaps.yaml"
    # A task of the group's own may take a sample's id: its words are its own.
    roadmaps.write_text(roadmaps.read_text("utf-8").replace(
        "{en: Start faster, fr: Démarrer plus vite}", "{en: Faster proofs, fr: Des preuves "
        "plus rapides}").replace("{en: Use less memory at rest, fr: Utiliser moins de "
        "mémoire au repos}", "{en: Less memory, fr: Moins de mémoire}").replace(
        # The same id and English title, its own French: a task named as plainly is
        # no sample (a guide's roadmap was refused for its `plugins`, "Plugins").
        "{en: Plugins, fr: Des extensions}", "{en: Plugins, fr: Des greffons}"),
        "utf-8")
    for lang in ("en", "fr"):
        (source / "content" / lang / "index.md").write_text(
            "---\ntitle: Sobre\n---\n{{< roadmap roadmap >}}\n", "utf-8")
    status, _, err = cli(capsys, "--source", source, "--strict")
    assert (status, err) == (0, "")


@pytest.mark.parametrize(("name", "typed"), [("-x", "./-x"), ("-x y", "'./-x y'")])
def test_the_next_step_for_a_folder_named_like_an_option(
        tmp_path: Path, name: str, typed: str) -> None:
    """`new -- -x` told to `cd -x && progress-site`, which the shell reads as an option
    (`cd: -x: invalid option`): the command it prints can be pasted as it is."""
    done = new_process("--", name, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    line = done.stdout.decode().splitlines()[-1]
    assert line.startswith(f"Next: cd {typed} && progress-site, then open site/index.html")
    pasted = subprocess.run(["bash", "-c", line.split(" && ")[0].removeprefix("Next: ")],
                            cwd=tmp_path, capture_output=True)
    assert pasted.returncode == 0, pasted.stderr
