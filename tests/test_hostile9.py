"""Hostile input, ninth round: what earlier rounds did not try (footnote-like marks in
bulk, a catalog's header, keys that are not words, series told apart by case alone).
Each hole found has its test here: a located error or a page built in time, never a
traceback or a hang, the previous site untouched."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from progress_site.model.limits import MAX_DATA_TEXT

from .conftest import SOURCE_DATE_EPOCH, copy_example, copy_hostile_base
from .test_hostile import within
from .test_hostile7 import catalog, refused
from .test_hostile_import import run_import
from .test_hostile_templates import CATALOG
from .test_importers import SAMPLES
from .test_record import hashes, smallest_site


@pytest.fixture
def base(tmp_path: Path) -> Path:
    copy_hostile_base(tmp_path / "src")
    return tmp_path / "src"


def page(base: Path, body: str) -> None:
    """The English and French home pages, both holding `body`."""
    for lang in ("en", "fr"):
        (base / "content" / lang / "index.md").write_text(f"---\ntitle: Base\n---\n{body}\n")


@pytest.mark.parametrize("body", [
    "[^" * 70_000,  # no `]`: each `[^` looked for one up to the page's end
    " ".join(f"x[^{i}]" for i in range(60_000)),  # each mark searched for in the prose
], ids=["unclosed", "distinct"])
def test_many_footnote_marks_are_told_in_time(base: Path, tmp_path: Path, body: str) -> None:
    """A page of 140 KB of `[^` took minutes (a pattern that scanned to the page's end
    from each of them), and one of 60,000 distinct marks as long (each mark searched for
    in the whole of the page's words): the build ends in seconds, the marks still told."""
    page(base, body)
    result = within(60, "--source", base, "--out", tmp_path / "out")
    assert result.code == 0, result.err
    assert ("footnote mark" in result.err) == ("]" in body)


def test_a_footnote_mark_with_a_bracket_in_its_label_is_words(
        base: Path, tmp_path: Path) -> None:
    page(base, "A note[^a] and [^b[c] here.\n\n[^a]: the note")
    result = within(60, "--source", base, "--out", tmp_path / "out")
    assert result.code == 0, result.err
    assert "content/en/index.md:4:7: warning: footnote mark '[^a]'" in result.err
    assert "content/en/index.md:6:1: warning: footnote '[^a]:'" in result.err
    assert "[^b" not in result.err.replace("    A note[^a] and [^b[c] here.", "")


@pytest.mark.parametrize("plurals", ["100000000", "99999999999999999999999", "1000"])
def test_a_catalog_of_too_many_plural_forms_is_refused_at_its_header(
        base: Path, tmp_path: Path, plurals: str) -> None:
    """Babel makes a list of nplurals translations for each plural message as it reads
    the catalog: nplurals=100000000 ate the memory and never ended."""
    text = CATALOG.replace("nplurals=2", f"nplurals={plurals}") + (
        'msgid "one figure"\nmsgid_plural "%(num)s figures"\n'
        'msgstr[0] "une mesure"\nmsgstr[1] "%(num)s mesures"\n')
    catalog(base, text)
    result = within(60, "--source", base, "--out", tmp_path / "out")
    assert result.code == 1, result.err
    assert result.err == (
        "locales/fr/LC_MESSAGES/messages.po:4:16: the Plural-Forms header asks for "
        f"{plurals} plural forms; no language has more than 6\n"
        f'    "Plural-Forms: nplurals={plurals}; plural=(n > 1);\\n"\n'
        "                   ^\n"
        "    hint: write the rule of the language as gettext's manual gives it, e.g. "
        "`nplurals=2; plural=(n > 1);`\n"
        "Aborted with 1 catalog error.\nThe previous site was left as it was.\n")


@pytest.mark.parametrize("plurals", ["abc", "2.5", ""])
def test_a_catalogs_plural_forms_that_are_not_a_number(
        base: Path, tmp_path: Path, plurals: str) -> None:
    """Babel's words were Python's ('invalid literal for int() with base 10'), at the
    line after the header."""
    catalog(base, CATALOG.replace("nplurals=2", f"nplurals={plurals}"))
    stderr = refused(base, tmp_path / "out")
    assert stderr.startswith(
        "locales/fr/LC_MESSAGES/messages.po:4:16: the Plural-Forms header asks for "
        f"{plurals!r} plural forms, which is not a number from 1 to 6\n")


def test_a_catalog_split_header_is_read_whole(base: Path, tmp_path: Path) -> None:
    """A header's words may be split over several quoted lines, as gettext joins them."""
    catalog(base, CATALOG.replace('"Plural-Forms: nplurals=2; plural=(n > 1);\\n"',
                                  '"Plural-Forms: npl"\n"urals=100000000; plural=(n > 1);\\n"')
            + 'msgid "one"\nmsgid_plural "many"\nmsgstr[0] "un"\nmsgstr[1] "plusieurs"\n')
    result = within(60, "--source", base, "--out", tmp_path / "out")
    assert result.code == 1, result.err
    assert "asks for 100000000 plural forms" in result.err


@pytest.mark.parametrize("charset", ["zzz", "rot13", "latin-1", "utf-16", "ascii"])
def test_a_catalog_in_another_charset_is_refused_at_its_header(
        base: Path, tmp_path: Path, charset: str) -> None:
    """A catalog is read as UTF-8; its Content-Type naming another charset was an
    internal error (LookupError: 'zzz', 'rot13'), or told as a Plural-Forms header that
    'cannot be read' ('latin-1' codec can't encode ...)."""
    catalog(base, CATALOG.replace("charset=UTF-8", f"charset={charset}"))
    assert refused(base, tmp_path / "out") == (
        "locales/fr/LC_MESSAGES/messages.po:3:2: the catalog says its charset is "
        f"{charset!r}, but a catalog is read as UTF-8\n"
        f'    "Content-Type: text/plain; charset={charset}\\n"\n'
        "     ^\n"
        "    hint: write `Content-Type: text/plain; charset=UTF-8` and save the file as "
        "UTF-8\nAborted with 1 catalog error.\nThe previous site was left as it was.\n")


@pytest.mark.parametrize("charset", ["utf8", "UTF-8", "CHARSET"])
def test_a_catalog_in_utf8_ok(base: Path, tmp_path: Path, charset: str) -> None:
    catalog(base, CATALOG.replace("charset=UTF-8", f"charset={charset}"))
    result = within(60, "--source", base, "--out", tmp_path / "out")
    assert result.code == 0, result.err


SECRET = 'secret-token-123 {"a": 1}\n'


@pytest.mark.parametrize(("tool", "folder", "linked"), [
    ("criterion", "criterion", "sort/new/estimates.json"),
    ("criterion", "criterion", "fib/20/new/sample.json"),
    ("criterion", "criterion", "fib/20/new/benchmark.json"),
    ("asv", "asv/results", "vm/dd92e12d-existing-py_tmp_imp_asv_venv_bin_python3.json"),
    ("asv", "asv/results", "vm/machine.json"),
    ("asv", "asv/results", "benchmarks.json"),
])
def test_import_follows_no_link_out_of_a_tools_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tool: str, folder: str, linked: str) -> None:
    """A tool's folder (criterion's target/criterion, asv's results, often committed)
    may hold a link a pull request added: `estimates.json -> /proc/self/environ` or
    `~/.git-credentials` was read, and its first line printed under 'not JSON' in the CI
    log anyone reads. A file of the folder that is a link is refused, never read."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    site = smallest_site(tmp_path)
    given = tmp_path / "tool"
    shutil.copytree(SAMPLES / folder, given)
    (tmp_path / "secret.txt").write_text(SECRET)
    (given / linked).unlink(missing_ok=True)
    (given / linked).symlink_to(tmp_path / "secret.txt")
    before = hashes(site)
    code, said = run_import(site, tool, given, capsys)
    assert code == 1, said
    assert "secret-token" not in said and "Traceback" not in said, said
    assert f"tool/{linked}: this file is a symbolic link" in said, said
    assert hashes(site) == before


@pytest.mark.parametrize(("tool", "folder"), [("criterion", "criterion"),
                                              ("asv", "asv/results")])
def test_import_of_a_tools_folder_ok(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tool: str, folder: str) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    site = smallest_site(tmp_path)
    shutil.copytree(SAMPLES / folder, tmp_path / "tool")
    code, said = run_import(site, tool, tmp_path / "tool", capsys)
    assert code == 0, said


def test_a_data_text_of_many_lines_opening_a_bracket_is_read_in_time(tmp_path: Path) -> None:
    """Link definitions (`[label]: address`) are looked for in a data text from each
    line's start; a label ran to the text's next `]`, over the lines between, so a note
    of 100,000 lines opening a bracket (2 MB) after a `]:` took minutes (a search from
    each line to the text's end, and back). A label holds no `[`, as in Markdown. A
    text now has a limit (MAX_DATA_TEXT): the note is as long as it may be."""
    source = copy_example(tmp_path / "src")
    studies = source / "data" / "studies.yaml"
    written = "en: servers that write once a tick (every 50 ms), as real ones do"
    text = studies.read_text()
    assert written in text
    lines = MAX_DATA_TEXT // 20 - 1
    studies.write_text(text.replace(written, 'en: "]:\\n' + "[aaaaaaaaaaaaaaaaaa\\n" * lines
                                    + ']"'))
    result = within(60, "--source", source, "--out", tmp_path / "out")
    assert result.code == 0, result.err


def test_a_link_definition_with_an_escaped_bracket_is_still_refused(tmp_path: Path) -> None:
    source = copy_example(tmp_path / "src")
    studies = source / "data" / "studies.yaml"
    written = "en: servers that write once a tick (every 50 ms), as real ones do"
    text = studies.read_text()
    studies.write_text(text.replace(written, "en: |-\n            servers [x]\n\n"
                                             "            [x\\[y]: javascript:alert(1)"))
    result = within(60, "--source", source, "--out", tmp_path / "out")
    assert result.code == 1, result.err
    assert "link to 'javascript:alert(1)': 'javascript:' addresses are not allowed" in result.err
