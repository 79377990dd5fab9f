"""Both languages complete: untranslated or fuzzy catalog entries fail --strict, warn otherwise."""

from __future__ import annotations

import shutil
from pathlib import Path

from .conftest import REPO
from .test_pipeline import run_build

PO = Path("locales/fr/LC_MESSAGES/messages.po")


def break_catalog(src: Path) -> None:
    """A project's own French catalog with one entry emptied and one marked fuzzy."""
    (src / PO).parent.mkdir(parents=True)
    text = (REPO / PO).read_text("utf-8")
    text = text.replace('msgid "Skip to the content"\nmsgstr "Aller au contenu"',
                        'msgid "Skip to the content"\nmsgstr ""', 1)
    text = text.replace('msgid "Language"\nmsgstr "Langue"',
                        '#, fuzzy\nmsgid "Language"\nmsgstr "Langue"', 1)
    (src / PO).write_text(text, "utf-8")


def gaps(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("locales/")]


def test_strict_refuses_untranslated_and_fuzzy(example_copy: Path, tmp_path: Path) -> None:
    break_catalog(example_copy)
    result = run_build("--source", example_copy, "--out", tmp_path / "out", "--strict")
    assert result.returncode == 1
    assert [g.split(": ", 1)[1] for g in gaps(result.stderr)] == [
        "'Language' is fuzzy", "'Skip to the content' is not translated"]
    assert not (tmp_path / "out").exists()


def test_plain_build_warns_and_publishes(example_copy: Path, tmp_path: Path) -> None:
    break_catalog(example_copy)
    result = run_build("--source", example_copy, "--out", tmp_path / "out")
    assert result.returncode == 0
    assert [g.split(": ", 1)[1] for g in gaps(result.stderr)] == [
        "warning: 'Language' is fuzzy", "warning: 'Skip to the content' is not translated"]
    assert "(2 warnings)" in result.stdout
    # The project's gap falls back to the engine's own catalog, never to nothing.
    assert "Aller au contenu" in (tmp_path / "out" / "fr" / "index.html").read_text()


def test_complete_catalog_builds_strict(example_copy: Path, tmp_path: Path) -> None:
    (example_copy / PO).parent.mkdir(parents=True)
    shutil.copy(REPO / PO, example_copy / PO)
    result = run_build("--source", example_copy, "--out", tmp_path / "out", "--strict")
    assert result.returncode == 0, result.stderr
    assert gaps(result.stderr) == []
