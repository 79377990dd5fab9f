"""A build whose inputs and output are those of the last successful build of the same
source into the same output does nothing, says so, replays that build's warnings and
exits 0; any change, and --force, builds for real (publish/lastbuild.py)."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import re
import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from progress_site import cache, cli
from progress_site.pipeline import BuildConfig
from progress_site.publish import lastbuild

from .conftest import REPO, SOURCE_DATE_EPOCH, TEMPLATES

TYPED = "It used 2.39 cores on the test PC.\n"  # a typed number: one warning
WARNING = ("content/en/index.md:{line}:9: warning: the number 2.39 is typed, and the site "
           "prints it from profiles.light.held.uses\n    It used 2.39 cores on the test PC.\n"
           "            ^\n    hint: write {{{{ profiles.light.held.uses }}}}: a typed number "
           "stays as it is when the data changes\n")


@dataclasses.dataclass(frozen=True)
class Result:
    """What one run of the command line printed, and its exit status."""

    status: int
    stdout: str
    stderr: str

    @property
    def built(self) -> bool:
        """Whether it built the site (rather than finding nothing changed)."""
        return self.stdout.startswith("Built ")


def build(source: Path, *args: str | Path, epoch: str = SOURCE_DATE_EPOCH) -> Result:
    """`build.py --source SOURCE ARGS` in this process, from the source's parent folder."""
    stdout, stderr = io.StringIO(), io.StringIO()
    with (pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(stdout),
          contextlib.redirect_stderr(stderr)):
        patch.setenv("SOURCE_DATE_EPOCH", epoch)
        patch.chdir(source.parent)
        status = cli.main(["--source", str(source), *map(str, args)], TEMPLATES)
    return Result(status, stdout.getvalue(), stderr.getvalue())


def times(folder: Path) -> dict[str, tuple[int, int]]:
    """Every entry under `folder`: its inode and modification time."""
    return {p.relative_to(folder).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns)
            for p in folder.rglob("*")}


@pytest.fixture()
def site(example_copy: Path) -> Path:
    """The example's copy with one warning, built once into its site/."""
    page = example_copy / "content" / "en" / "index.md"
    page.write_text(page.read_text("utf-8") + TYPED, "utf-8")
    first = build(example_copy)
    assert first.status == 0 and first.built, first.stderr
    return example_copy


def test_a_second_build_with_nothing_changed_does_nothing(site: Path) -> None:
    before = times(site / "site")
    line = len((site / "content" / "en" / "index.md").read_text("utf-8").splitlines())
    again = build(site)
    assert again == Result(0, f"Nothing changed since the last build: {site / 'site'} was "
                              "left as it was (4 pages, 1 warning); --force builds it again.\n",
                           WARNING.format(line=line))
    assert times(site / "site") == before


def test_a_warning_about_the_replaced_site_is_not_replayed(site: Path) -> None:
    """The next build compares with the site this one published: that warning is gone."""
    (site / "site" / "data.json").unlink()
    (site / "site" / "data.json").mkdir()
    warned = build(site)
    assert warned.built and "no summary of what changed" in warned.stderr
    again = build(site)
    assert not again.built and again.stderr == WARNING.format(line=len(
        (site / "content" / "en" / "index.md").read_text("utf-8").splitlines()))


def test_a_new_process_imports_no_library_when_nothing_changed(site: Path) -> None:
    """The check runs before the pipeline and its libraries are imported."""
    done = subprocess.run([sys.executable, "-X", "importtime", str(REPO / "build.py"),
                           "--source", str(site)], capture_output=True, text=True,
                          cwd=site.parent, timeout=120, check=False,
                          env={**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH,
                               "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Nothing changed since the last build: {site / 'site'} ")
    imported = set(re.findall(r"\|\s+([\w.]+)$", done.stderr, re.MULTILINE))
    assert not imported & {"jinja2", "babel", "yaml", "markdown_it", "altair", "vl_convert"}
    assert WARNING.format(line=len((site / "content/en/index.md").read_text().splitlines())) \
        in done.stderr


def edit_value(site: Path) -> None:
    """A value of the data edited: 2.39 cores becomes 2.47."""
    path = site / "data" / "capacity.yaml"
    path.write_text(path.read_text("utf-8").replace("value: 2.39", "value: 2.47", 1), "utf-8")


# Each change to the sources, the output or the command line, and the options it adds.
CHANGES: dict[str, tuple[str, ...]] = {
    "a data value": (), "a file added to data/": (), "a file removed from content/": (),
    "a file of site/ edited": (), "a file of site/ deleted": (), "a file added to site/": (),
    "a folder added to site/": (), "another --out": ("--out", "OUT"), "--strict": ("--strict",),
    "--base-url": ("--base-url", "https://example.org/meridian/"), "--force": ("--force",),
}


def make(change: str, site: Path) -> tuple[str, ...]:
    """Make one of CHANGES to the built `site`; the options of the build after it."""
    if change == "a data value":
        edit_value(site)
    elif change == "a file added to data/":
        (site / "data" / "notes.txt").write_text("not read by the build, counted all the same")
    elif change == "a file removed from content/":
        (site / "content" / "fr" / "horizon-four-way.md").unlink()
    elif change == "a file of site/ edited":
        (site / "site" / "index.html").write_text("edited")
    elif change == "a file of site/ deleted":
        (site / "site" / "feed.xml").unlink()
    elif change == "a file added to site/":
        (site / "site" / "extra.html").write_text("x")
    elif change == "a folder added to site/":
        (site / "site" / "extra").mkdir()
    return tuple(str(site.parent / "elsewhere") if a == "OUT" else a for a in CHANGES[change])


@pytest.mark.parametrize("change", CHANGES)
def test_any_change_builds_again(change: str, site: Path) -> None:
    args = make(change, site)
    again = build(site, *args)
    if change == "--strict":  # the typed number is an error then: nothing is published
        assert again.status == 1 and "Aborted with 1 data error." in again.stderr
        return
    assert again.status == 0 and again.built, (again.stdout, again.stderr)
    args = tuple(a for a in args if a != "--force")  # the same build, not forced
    out = Path(args[1]) if args[:1] == ("--out",) else site / "site"
    # The site is put right: no stray file, the deleted one back, the edited one rebuilt.
    expected = {p.relative_to(out).as_posix(): p.read_bytes()
                for p in sorted(out.rglob("*")) if p.is_file()}
    assert "extra.html" not in expected and not (out / "extra").exists()
    assert "feed.xml" in expected and expected["index.html"] != b"edited"
    assert ("fr/horizon-four-way/index.html" in expected) == (
        change != "a file removed from content/")
    assert not build(site, *args).built  # and the same build again does nothing
    if change == "a data value":
        assert "2.47" in expected["index.html"].decode()
    if change == "--base-url":
        assert b"https://example.org/meridian/" in expected["index.html"]


def test_the_build_is_real_when_today_changes(site: Path) -> None:
    assert build(site, epoch=str(int(SOURCE_DATE_EPOCH) + 86_400)).built
    assert not build(site, epoch=str(int(SOURCE_DATE_EPOCH) + 86_400)).built
    assert build(site).built


def test_a_failed_build_leaves_no_record(site: Path) -> None:
    path = site / "data" / "capacity.yaml"
    good = path.read_text("utf-8")
    path.write_text(good.replace("value: 2.39", "value: abc", 1), "utf-8")
    failed = build(site)
    assert failed.status == 1 and "Aborted with" in failed.stderr
    path.write_text(good, "utf-8")  # the same sources as the last good build
    assert build(site).built
    assert not build(site).built


def record_of(site: Path) -> Path:
    """The record of the builds of `site` into its site/, in the session's cache folder."""
    return lastbuild.record_path(cache.user_folder(), site, site / "site")


HOSTILE: dict[str, bytes] = {
    "empty": b"",
    "truncated": b'{"format": 1, "inputs": "',
    "not JSON": b"\x00\xff garbage",
    "a list": b"[]",
    "wrong types": b'{"format": 1, "inputs": 1, "output": [], "pages": "4", "warnings": {}}',
    "a huge number": b'{"format": 1, "pages": ' + b"9" * 5000 + b"}",
    "deep nesting": b"[" * 100_000 + b"]" * 100_000,
    "paths with ..": b'{"format": 1, "inputs": "../../x", "output": "../../etc/passwd", '
                     b'"pages": 4, "warnings": ["../x"]}',
    "another format": b'{"format": 2}',
}


@pytest.mark.parametrize("damage", HOSTILE)
def test_a_damaged_or_hostile_record_is_a_miss(damage: str, site: Path) -> None:
    record_of(site).write_bytes(HOSTILE[damage])
    again = build(site)
    assert again.status == 0 and again.built, again.stderr
    assert "Traceback" not in again.stderr and "internal error" not in again.stderr
    assert not build(site).built  # and a good record is written again


@pytest.mark.parametrize("kind", ["a folder", "a FIFO", "a link"])
def test_a_record_that_is_not_a_file_is_a_miss(kind: str, site: Path,
                                               tmp_path: Path) -> None:
    path = record_of(site)
    path.unlink()
    if kind == "a folder":
        path.mkdir()
    elif kind == "a FIFO":
        os.mkfifo(path)
    else:
        (tmp_path / "elsewhere.json").write_text("{}")
        path.symlink_to(tmp_path / "elsewhere.json")
    assert build(site).built


def test_a_record_is_numbers_bounded_and_its_words_spelled_out(site: Path) -> None:
    path = record_of(site)
    record = json.loads(path.read_bytes())
    for pages in (-1, 1 << 40, True, 4.0):
        path.write_text(json.dumps({**record, "pages": pages}))
        assert build(site).built
    path.write_text(json.dumps({**json.loads(path.read_bytes()),
                                "warnings": ["\x1b[2Jcleared\nsecond line\u202e"]}))
    again = build(site)
    assert not again.built
    assert again.stderr == "\\x1b[2Jcleared\nsecond line\\u202e\n"


KEY = """
import sys
from pathlib import Path
from progress_site.publish import lastbuild
print(lastbuild.inputs_key(Path(sys.argv[1]), {"today": "2026-11-29"}))
"""


def test_the_engine_is_part_of_the_key(site: Path, tmp_path: Path) -> None:
    """Another engine (here: a copy of this one with one module more) is another key;
    the same engine elsewhere (a CI run's checkout) is the same key."""
    def key(engine: Path) -> str:
        return subprocess.run([sys.executable, "-c", KEY, str(site)], capture_output=True,
                              text=True, check=True, cwd=tmp_path,
                              env={**os.environ, "PYTHONPATH": str(engine)}).stdout

    copies = [tmp_path / name for name in ("one", "elsewhere", "more")]
    for copy in copies:
        shutil.copytree(cache.ENGINE, copy / "progress_site",
                        ignore=shutil.ignore_patterns("__pycache__"))
    (copies[2] / "progress_site" / "extra.py").write_text('"""A module more."""\n')
    before = key(copies[0])
    assert re.fullmatch(r"[0-9a-f]{64}\n", before)
    assert key(copies[1]) == before != key(copies[2])
    assert lastbuild.inputs_key(site, {"today": "2026-11-30"}) != lastbuild.inputs_key(
        site, {"today": "2026-11-29"})


def test_the_theme_is_part_of_the_key(site: Path, tmp_path: Path) -> None:
    """A site's override of the theme is a source file like any other."""
    before = lastbuild.inputs_key(site, {})
    (site / "templates").mkdir()
    assert lastbuild.inputs_key(site, {}) != before


def test_the_libraries_are_read_without_importing_them() -> None:
    found = cache.library_versions(lastbuild.LIBRARIES)
    for name in (*lastbuild.LIBRARIES, "progress-site"):
        assert cache.library_version(name) == version(name)
    for name in ("jinja2", "babel", "markdown-it-py", "pyyaml", "altair", "vl-convert-python"):
        assert found[name] == version(name)
    assert cache.library_version("no-such-library") == ""


def test_a_source_trees_metadata_without_a_version_is_not_the_installed_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`python build.py` puts its checkout first on sys.path, where `pip install -e`
    leaves a `progress_site.egg-info` whose name holds no version."""
    installed = version("jinja2")
    (tmp_path / "jinja2.egg-info").mkdir()
    monkeypatch.syspath_prepend(str(tmp_path))
    assert cache.library_versions(("jinja2",)) == {"jinja2": installed}


# Where each field of BuildConfig comes from, and so how the key holds it: a field added
# without saying so fails test_every_build_setting_is_in_the_key.
FROM_OPTIONS = {"source": ["--source", "OTHER_SOURCE"], "out": ["--out", "OTHER"],
                "strict": ["--strict"], "base_url": ["--base-url", "https://example.org/"],
                "cache": ["--cache-dir", "OTHER"]}
NOT_FROM_THE_COMMAND_LINE = {
    "today": "the key holds the build's today, from SOURCE_DATE_EPOCH or the clock",
    "engine_root": "the theme's files are inputs (theme_root, checked above)",
    "disk_cache": "no disk cache, no record: every build is a real one",
    "compiled": "this process's compiled templates: not an input",
    "remembered": "this process's parses of the data files, by their text: not an input",
}


def test_every_build_setting_is_in_the_key(tmp_path: Path) -> None:
    """Each field of BuildConfig is made from an option (every option is in the key,
    but --force), or is accounted for above."""
    names = {f.name for f in dataclasses.fields(BuildConfig)}
    assert names == set(FROM_OPTIONS) | set(NOT_FROM_THE_COMMAND_LINE)
    for name in ("src", "other-src"):
        (tmp_path / name / "data").mkdir(parents=True)
        (tmp_path / name / "content" / "en").mkdir(parents=True)
        (tmp_path / name / "content" / "en" / "index.md").write_text("# Home\n")
    plain = ["--source", str(tmp_path / "src")]
    given = {"OTHER": str(tmp_path / "other"), "OTHER_SOURCE": str(tmp_path / "other-src")}

    def both(argv: list[str]) -> tuple[BuildConfig, lastbuild.LastBuild | None]:
        args = cli.parser(argv).parse_args(argv)
        return cli.config_from(args), cli.last_build(args)

    config, last = both(plain)
    assert last is not None
    for name, option in FROM_OPTIONS.items():
        argv = plain + [given.get(a, a) for a in option]
        other, other_last = both(argv)
        assert getattr(other, name) != getattr(config, name), name
        assert other_last is not None and other_last.inputs != last.inputs, name
    assert both([*plain, "--force"])[1] == last  # --force builds, and is remembered as one
    for never in (["--watch"], ["--changes", str(tmp_path)]):
        assert cli.last_build(cli.parser().parse_args(plain + never)) is None


def test_every_environment_variable_the_engine_reads_is_in_the_key() -> None:
    package = Path(cli.__file__).parent
    read = {name for path in package.rglob("*.py")
            for name in re.findall(r"(?:environ\.get|getenv|environ\[)\(?\s*[\"'](\w+)",
                                   path.read_text("utf-8"))}
    assert read and read <= set(lastbuild.ENVIRONMENT)
