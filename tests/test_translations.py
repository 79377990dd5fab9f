"""Both languages complete: untranslated or fuzzy catalog entries fail --strict, warn
otherwise, each at its line; every build reads the catalogs, so an edit shows at once."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from progress_site.pipeline import BuildConfig, make_site
from progress_site.render.i18n import read_catalog

from .conftest import REPO, TEMPLATES, TODAY
from .test_pipeline import run_build

PO = Path("locales/fr/LC_MESSAGES/messages.po")
SKIP = 'msgid "Skip to the content"'


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


def line_of(src: Path, text: str) -> int:
    """The line of the project's catalog that reads `text` (a gap is shown at its msgid)."""
    lines = (src / PO).read_text("utf-8").splitlines()
    return lines.index(text) + 1


def test_strict_refuses_untranslated_and_fuzzy(example_copy: Path, tmp_path: Path) -> None:
    break_catalog(example_copy)
    result = run_build("--source", example_copy, "--out", tmp_path / "out", "--strict")
    assert result.returncode == 1
    fuzzy, empty = line_of(example_copy, 'msgid "Language"'), line_of(example_copy, SKIP)
    assert gaps(result.stderr) == [f"{PO}:{fuzzy}:1: 'Language' is fuzzy",
                                   f"{PO}:{empty}:1: 'Skip to the content' is not translated"]
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


def test_an_edited_catalog_shows_in_the_next_build_of_the_same_process(
        example_copy: Path) -> None:
    """Whether a catalog changed is never judged by its time: each build reads it."""
    po = example_copy / PO
    po.parent.mkdir(parents=True)
    text = (REPO / PO).read_text("utf-8")
    config = BuildConfig(source=example_copy, out=example_copy / "site", today=TODAY,
                         strict=True, compiled=TEMPLATES)
    for words in ("Aller au contenu", "Allez au contenu"):  # same size, same time
        po.write_text(text.replace('msgstr "Aller au contenu"', f'msgstr "{words}"', 1),
                      "utf-8")
        os.utime(po, ns=(1_700_000_000_000_000_000,) * 2)
        assert words in make_site(config).files["fr/index.html"].decode("utf-8")


def used_messages() -> dict[str, str]:
    """Every message the engine's templates and code ask for, as `pybabel extract` finds
    them with the repository's babel.cfg, with where each is first used."""
    with (REPO / "babel.cfg").open(encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    used: dict[str, str] = {}
    for filename, line, message, _, _ in extract_from_dir(REPO, method_map, options_map):
        msgid = message if isinstance(message, str) else message[0]
        used.setdefault(msgid, f"{filename}:{line}")
    return used


def test_every_message_the_engine_uses_is_translated_in_french() -> None:
    """A word added to a template or to the code without its French line fails here, as
    the build fails --strict on an entry left empty."""
    catalog, problems = read_catalog(REPO / PO, str(PO))
    assert catalog is not None, [p.render() for p in problems]
    translated = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog
                  if m.id and m.string and not m.fuzzy}
    used = used_messages()
    assert len(used) > 50  # the extraction found the templates' words
    assert {msgid: where for msgid, where in used.items() if msgid not in translated} == {}


def test_the_template_for_new_languages_holds_every_message_the_engine_uses() -> None:
    """`pybabel init` makes a new language's catalog from locales/messages.pot (the hint
    of a build that finds none): a word missing there is one the new language can never
    translate, and its pages keep it in English without a warning."""
    with (REPO / "locales" / "messages.pot").open("rb") as file:
        template = {m.id if isinstance(m.id, str) else m.id[0]
                    for m in read_po(file) if m.id}
    used = used_messages()
    assert len(used) > 50
    assert {msgid: where for msgid, where in used.items() if msgid not in template} == {}


def test_french_punctuation_never_starts_a_line() -> None:
    """French sets a space before `:` `;` `?` `!`: a breakable one let the sign start a
    line of its own ('Concordance' / ': Passages'); a no-break one keeps it with its
    word (U+00A0 before a colon, U+202F before the others)."""
    catalog, _ = read_catalog(REPO / PO, str(PO))
    assert catalog is not None
    loose = [text for m in catalog if m.id
             for text in ((m.string,) if isinstance(m.string, str) else m.string)
             if text and any(f" {sign}" in text for sign in ":;?!")]
    assert loose == []
