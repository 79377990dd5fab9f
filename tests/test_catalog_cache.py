"""Compiled catalogs are kept in .cache/catalogs: a hit gives what reading the .po gives,
a warm build makes the same site and the same warnings, an edit is seen by the next
build, a damaged entry is rebuilt, and a catalog that does not parse is never stored."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import pytest

from progress_site.pipeline import BuildConfig, make_site
from progress_site.render import catalog_cache as catalogcache
from progress_site.render import i18n
from progress_site.render.catalog_cache import entry_key, entry_stem
from progress_site.render.i18n import compiled_po

from .conftest import REPO, SOURCE_DATE_EPOCH, TODAY
from .test_imports import PROBE
from .test_pipeline import run_build, snapshot
from .test_translations import PO, break_catalog

ENGINE_PO = REPO / PO


def never(data: bytes, display: str) -> NoReturn:
    """A parser for hits only: being called means the entry was not used."""
    raise AssertionError(f"{display} was read again")


def own_catalog(source: Path, skip_link: str) -> Path:
    """A project's French catalog that overrides one of the engine's words."""
    path = source / PO
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
                    '"Language: fr\\n"\n\n'
                    f'msgid "Skip to the content"\nmsgstr "{skip_link}"\n', encoding="utf-8")
    return path


def entries(source: Path) -> list[str]:
    """The names of the files in a source's catalog cache."""
    folder = source / ".cache" / "catalogs"
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def build_with_modules(*args: str | Path) -> tuple[int, str, set[str]]:
    """`build.py ARGS` in a new process: its status, its stderr and the modules it held."""
    env = {**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH}
    done = subprocess.run([sys.executable, "-c", PROBE, *map(str, args)], cwd=REPO,
                          capture_output=True, text=True, env=env, timeout=120, check=True)
    report = json.loads(done.stdout.splitlines()[-1])
    return report["status"], done.stderr, set(report["modules"])


def catalog_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("locales/")]


@pytest.mark.parametrize("broken", [False, True], ids=["complete", "with-gaps"])
def test_a_hit_gives_what_reading_the_po_gives(broken: bool, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    if broken:
        break_catalog(tmp_path)
    po = tmp_path / PO if broken else ENGINE_PO
    fresh, _ = compiled_po(po, "x.po", None)
    stored, _ = compiled_po(po, "x.po", tmp_path / "catalogs")
    monkeypatch.setattr(i18n, "parse_catalog", never)
    hit, problems = compiled_po(po, "x.po", tmp_path / "catalogs")
    assert fresh is not None and problems == []
    assert stored == hit == fresh
    assert bool(fresh.gaps) is broken


def test_a_warm_build_gives_the_same_site_and_warnings(example_copy: Path,
                                                       tmp_path: Path) -> None:
    break_catalog(example_copy)  # the project's catalog, with gaps, over the engine's
    shutil.rmtree(example_copy / ".cache" / "catalogs", ignore_errors=True)
    cold = run_build("--source", example_copy, "--out", tmp_path / "cold")
    assert cold.returncode == 0, cold.stderr
    assert len(entries(example_copy)) == 4  # a .mo and a .json for each catalog
    warm = run_build("--source", example_copy, "--out", tmp_path / "warm")
    assert warm.returncode == 0, warm.stderr
    assert snapshot(tmp_path / "warm") == snapshot(tmp_path / "cold")
    assert warm.stderr == cold.stderr and len(catalog_lines(warm.stderr)) == 2


def test_gaps_stay_warnings_when_warm_and_fail_strict(example_copy: Path,
                                                      tmp_path: Path) -> None:
    break_catalog(example_copy)
    out = tmp_path / "out"
    _, cold, _ = build_with_modules("--source", example_copy, "--out", out)  # stores it
    status, warm, modules = build_with_modules("--source", example_copy, "--out", out)
    assert status == 0 and "babel.messages" not in modules
    assert catalog_lines(warm) == catalog_lines(cold)
    assert [line.split(": ", 1)[1] for line in catalog_lines(warm)] == [
        "warning: 'Language' is fuzzy", "warning: 'Skip to the content' is not translated"]

    status, strict, modules = build_with_modules("--source", example_copy, "--out", out,
                                                 "--strict")
    assert status == 1 and "babel.messages" not in modules
    assert [line.split(": ", 1)[1] for line in catalog_lines(strict)] == [
        "'Language' is fuzzy", "'Skip to the content' is not translated"]


def test_an_edit_is_used_by_the_next_build_in_the_same_process(example_copy: Path,
                                                               tmp_path: Path) -> None:
    config = BuildConfig(source=example_copy, out=tmp_path / "out", today=TODAY,
                         parallel=False)
    po = own_catalog(example_copy, "Aller au contenu (essai 1)")
    assert "(essai 1)" in make_site(config).files["fr/index.html"].decode()
    before = po.stat()
    own_catalog(example_copy, "Aller au contenu (essai 2)")  # same size, same time
    os.utime(po, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert "(essai 2)" in make_site(config).files["fr/index.html"].decode()
    # ...and in a new process, from the entry the second build stored.
    assert run_build("--source", example_copy, "--out", tmp_path / "out").returncode == 0
    assert "(essai 2)" in (tmp_path / "out" / "fr" / "index.html").read_text("utf-8")
    own_catalog(example_copy, "Aller au contenu (essai 3)")
    assert run_build("--source", example_copy, "--out", tmp_path / "out").returncode == 0
    assert "(essai 3)" in (tmp_path / "out" / "fr" / "index.html").read_text("utf-8")


def planted_gaps(folder: Path, po: Path) -> None:
    """An entry with the right key and .mo, whose gaps are not gaps (a line as text)."""
    stem = entry_stem(folder, po)
    meta = json.loads(stem.with_suffix(".json").read_bytes())
    meta["gaps"] = [["Language", "12", "fuzzy"]]
    stem.with_suffix(".json").write_text(json.dumps(meta))


def foreign_mo(folder: Path, po: Path) -> None:
    """Another catalog's .mo beside this one's JSON (as an interrupted write leaves it)."""
    entry_stem(folder, po).with_suffix(".mo").write_bytes(b"\xde\x12\x04\x95" + bytes(24))


Damage = Callable[[Path, Path], object]


def damage(suffix: str, blob: bytes) -> Damage:
    """Write `blob` over one of the entry's two files."""
    return lambda folder, po: entry_stem(folder, po).with_suffix(suffix).write_bytes(blob)


DAMAGES: dict[str, Damage] = {
    "empty-json": damage(".json", b""), "truncated-json": damage(".json", b'{"key'),
    "json-list": damage(".json", b"[1, 2, 3]"), "no-mo": damage(".mo", b""),
    "planted-gaps": planted_gaps, "foreign-mo": foreign_mo}


@pytest.mark.parametrize("how", DAMAGES.values(), ids=DAMAGES.keys())
def test_a_damaged_entry_is_ignored_and_rewritten(how: Damage, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    break_catalog(tmp_path)
    po, folder = tmp_path / PO, tmp_path / "catalogs"
    fresh, _ = compiled_po(po, "x.po", folder)
    how(folder, po)
    assert compiled_po(po, "x.po", folder) == (fresh, [])
    monkeypatch.setattr(i18n, "parse_catalog", never)
    assert compiled_po(po, "x.po", folder) == (fresh, [])  # rewritten, so a hit now


def test_a_damaged_entry_gives_the_same_site(example_copy: Path, tmp_path: Path) -> None:
    config = BuildConfig(source=example_copy, out=tmp_path / "out", today=TODAY,
                         parallel=False)
    before = make_site(config).files
    for path in (example_copy / ".cache" / "catalogs").iterdir():
        path.write_bytes(b"\0garbage")
    assert make_site(config).files == before


def test_an_entry_from_other_code_is_not_used(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    compiled_po(ENGINE_PO, "x.po", tmp_path)
    data = ENGINE_PO.read_bytes()
    monkeypatch.setattr(catalogcache, "compiler_fingerprint", lambda: b"other code")
    assert entry_key(data) != json.loads(
        entry_stem(tmp_path, ENGINE_PO).with_suffix(".json").read_bytes())["key"]
    assert catalogcache.read_entry(tmp_path, ENGINE_PO, data) is None


def test_a_folder_that_cannot_be_written_is_no_cache(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    compiled, problems = compiled_po(ENGINE_PO, "x.po", blocker / "catalogs")
    assert compiled is not None and problems == []


BAD_LINE = 'msgid "Language"\nmsgstr "Langue"\n'
SYNTAX_ERROR = [
    "locales/fr/LC_MESSAGES/messages.po: cannot read the catalog: Unknown or misformatted "
    "keyword on 156",
    "    hint: run `pybabel update` or fix the line it names",
    "Aborted with 1 data error.",
    "The previous site was left as it was.",
]


def test_a_syntax_error_is_reported_on_every_build(example_copy: Path, tmp_path: Path) -> None:
    break_catalog(example_copy)
    po = example_copy / PO
    text = po.read_text("utf-8")
    assert text.count(BAD_LINE) == 1
    po.write_text(text.replace(BAD_LINE, BAD_LINE + "nonsense\n"), "utf-8")
    for _ in range(2):  # the second build finds no entry for it either
        result = run_build("--source", example_copy, "--out", tmp_path / "out")
        assert result.returncode == 1
        assert result.stderr.splitlines() == SYNTAX_ERROR
        assert not entry_stem(example_copy / ".cache" / "catalogs", po.resolve()
                              ).with_suffix(".json").exists()


def test_a_syntax_error_is_reported_on_every_build_ok(example_copy: Path,
                                                      tmp_path: Path) -> None:
    break_catalog(example_copy)  # the same catalog without the stray line
    po = example_copy / PO
    result = run_build("--source", example_copy, "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    stored = entry_stem(example_copy / ".cache" / "catalogs", po.resolve())
    meta = json.loads(stored.with_suffix(".json").read_bytes())
    assert meta["key"] == entry_key(po.read_bytes())
    assert meta["mo"] == hashlib.sha256(stored.with_suffix(".mo").read_bytes()).hexdigest()
    lines = po.read_text("utf-8").splitlines()
    assert meta["gaps"] == [["Language", lines.index('msgid "Language"') + 1, "fuzzy"],
                            ["Skip to the content",
                             lines.index('msgid "Skip to the content"') + 1, "not translated"]]

