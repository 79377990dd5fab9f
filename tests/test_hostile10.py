"""Hostile input, tenth round: what round nine found and left open (a data text's size,
blank required texts, heading ids the attribute syntax refuses, a footnote label that
reads as a link definition, imports' refusals without a place, `record --value` as YAML
reads a number, a catalog's repeated msgids). Each has its test here or a case under
tests/cases/: a located error or a page built in time, never a traceback or a hang."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from progress_site.cli import main
from progress_site.errors import UsageError
from progress_site.model.limits import MAX_DATA_TEXT
from progress_site.record.recorder import parse_number

from .conftest import SOURCE_DATE_EPOCH, copy_example, copy_hostile_base
from .test_hostile import within
from .test_hostile7 import catalog, refused
from .test_hostile_import import run_import
from .test_importers import SAMPLES
from .test_record import smallest_site

RUN_NOTE = ("en: \"Real server on the VPS, one on the PC, 3 real clients, final proxy. Not "
            "tested here: the game server's own speed (TPS), many players.\"")


def noted(tmp_path: Path, words: str) -> Path:
    """The example with a run's note in English replaced by `words` (a YAML string)."""
    source = copy_example(tmp_path / "src")
    runs = source / "data" / "runs.yaml"
    text = runs.read_text()
    assert RUN_NOTE in text
    runs.write_text(text.replace(RUN_NOTE, f'en: "{words}"'))
    return source


@pytest.mark.parametrize("line", ["[", "![", "[^", "*["])
def test_a_data_text_at_its_limit_of_brackets_never_closed_renders_in_time(
        tmp_path: Path, line: str) -> None:
    """A note of lines opening a bracket never closed, as long as a text may be: the
    inline parser looks for each one's end; the whole build ends in seconds."""
    count = MAX_DATA_TEXT // (len(line) + 1)
    source = noted(tmp_path, (line + "\\n") * count)
    result = within(30, "--source", source, "--out", tmp_path / "out")
    assert result.code == 0, result.err


def test_a_data_text_past_its_limit_is_refused_at_its_place(tmp_path: Path) -> None:
    source = noted(tmp_path, "[" * (MAX_DATA_TEXT + 1))
    result = within(30, "--source", source, "--out", tmp_path / "out")
    assert result.code == 1
    assert (f"data/runs.yaml:68:11: runs[0].note.en: {MAX_DATA_TEXT + 1:,} characters, more "
            f"than the {MAX_DATA_TEXT:,} a text of the data may have\n") in result.err
    assert "hint: say it in fewer words; a long text belongs in a page" in result.err


def test_two_benchmarks_of_one_id_are_told_at_the_second(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """hyperfine's `sleep 0.01` and `sleep/0.01` both make the id `sleep-0-01`: the
    refusal had no line; it is at the second command, the one to rename."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    site = smallest_site(tmp_path)
    tool = json.loads((SAMPLES / "hyperfine.json").read_text())
    tool["results"][1]["command"] = "sleep/0.01"
    tool_file = tmp_path / "hyperfine.json"
    tool_file.write_text(json.dumps(tool, indent=2))
    lines = tool_file.read_text().split("\n")
    named = next(i for i, text in enumerate(lines) if "sleep/0.01" in text)
    line = max(i for i in range(named) if lines[i] == "    {") + 1  # the second result
    code, said = run_import(site, "hyperfine", tool_file, capsys)
    assert code == 1
    assert said.startswith(f"error: {tool_file}:{line}:5: results[1]: benchmark 'sleep/0.01' "
                           "and benchmark 'sleep 0.01' both make the id 'sleep-0-01'\n"), said
    assert said.endswith("    hint: rename one of them\n")


@pytest.mark.parametrize("typed", [" 1", "1 ", "\t2", " 1e3"])
def test_a_number_typed_with_blanks_around_it_is_refused(typed: str) -> None:
    """YAML refuses `value: " 1"`: `record --value ' 1'` wrote 1, a slip unseen."""
    with pytest.raises(UsageError) as refused:
        parse_number(typed, "--value")
    assert str(refused.value) == (f"--value: {typed!r} has blanks around the number; "
                                  f"write it alone: --value {typed.strip()}")


@pytest.mark.parametrize(("typed", "written"), [
    ("1_000", "1000"), ("1__0", "10"), ("-1_5.2_5", "-15.25"), ("1e3", "1000")])
def test_a_number_typed_as_yaml_reads_it_ok(typed: str, written: str) -> None:
    """YAML (1.1, as the data is read) takes `1_000` for 1000; a tool prints 1e3."""
    assert parse_number(typed, "--value") == written


@pytest.mark.parametrize("typed", ["_1", "-_1", "1 000", "1,5"])
def test_a_number_yaml_reads_as_a_text_is_refused(typed: str) -> None:
    with pytest.raises(UsageError, match="expected a number"):
        parse_number(typed, "--value")


def test_samples_and_parts_may_have_blanks_after_their_commas(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """As YAML's `[1, 2]`: the blanks belong to the list, not to a number."""
    site = smallest_site(tmp_path)
    code = main(["record", "measurement", "startup", "--samples", "10, 12,15 ", "--unit",
                 "ms", "--machine", "test-pc", "--commit", "c38a01e", "--date",
                 "2026-11-20", "--source", str(site), "--yes"])
    assert code == 0, capsys.readouterr().err


FR = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"

msgid "Skip to the content"
msgstr "Aller au contenu"

msgctxt "elsewhere"
msgid "Skip to the content"
msgstr "Ailleurs"

#~ msgid "Skip to the content"
#~ msgstr "Ancien"

msgid ""
"Skip to the "
"content"
msgstr "Sauter au contenu"
'''


def test_a_catalogs_msgid_given_twice_is_refused_at_the_second(tmp_path: Path) -> None:
    """Babel keeps the first translation of a msgid given twice, without a word (GNU
    msgfmt refuses the file): a translator editing the second saw nothing change. Another
    context, and an obsolete entry (`#~`), are no repeat."""
    source = copy_hostile_base(tmp_path / "src")
    catalog(source, FR)
    assert refused(source, tmp_path / "out") == (
        "locales/fr/LC_MESSAGES/messages.po:16:1: msgid 'Skip to the content' is given "
        "twice (first on line 6): Babel keeps the first translation, and GNU msgfmt "
        "refuses the file\n"
        '    msgid ""\n    ^\n'
        "    hint: keep one entry, the translation you mean (`msguniq` finds them)\n"
        "Aborted with 1 catalog error.\nThe previous site was left as it was.\n")


def test_a_catalogs_msgid_in_two_contexts_ok(tmp_path: Path) -> None:
    source = copy_hostile_base(tmp_path / "src")
    catalog(source, FR[:FR.index('msgid ""\n"Skip')])
    result = within(30, "--source", source, "--out", tmp_path / "out")
    assert result.code == 0, result.err
    assert "Aller au contenu" in (tmp_path / "out" / "fr" / "index.html").read_text()


# A text read from a JSON record or a history line has the limit of a data file's text
# (MAX_DATA_TEXT), told at its line and column in the same words.
HISTORY = "data/history/measurements.startup.jsonl"
LINE = {"commit": "57930e6", "date": "2026-11-07", "machine": "test-pc", "value": 56.1,
        "unit": "ms"}


def remarked(tmp_path: Path, words: str) -> Path:
    """The example with a `remark` text field in the four-way dataset, `words` in its
    first record."""
    source = copy_example(tmp_path / "src")
    folder = source / "data" / "horizon-four-way"
    declared = folder / "four-way.yaml"
    text = declared.read_text()
    assert "      - name: pass\n" in text
    declared.write_text(text.replace("      - name: pass\n", "      - name: remark\n"
                                     "        label: Remark\n        type: word\n"
                                     "        required: false\n      - name: pass\n", 1))
    records = folder / "runs.jsonl"
    first, rest = records.read_text().split("\n", 1)
    records.write_text(json.dumps({**json.loads(first), "remark": words}) + "\n" + rest)
    return source


def column(line: str, key: str) -> int:
    """Where the value of `key` starts on a line of JSON (columns count from 1)."""
    return line.index(f'"{key}": ') + len(key) + 5


def too_long(place: str) -> str:
    """The error of a text one character past MAX_DATA_TEXT, at `place`."""
    return (f"{place}: {MAX_DATA_TEXT + 1:,} characters, more than the {MAX_DATA_TEXT:,} a "
            "text of the data may have\n")


def test_a_record_text_past_its_limit_is_refused_at_its_place(tmp_path: Path) -> None:
    source = remarked(tmp_path, "[" * (MAX_DATA_TEXT + 1))
    result = within(30, "--source", source, "--out", tmp_path / "out")
    assert result.code == 1
    first = (source / "data" / "horizon-four-way" / "runs.jsonl").read_text().split("\n")[0]
    place = f"data/horizon-four-way/runs.jsonl:1:{column(first, 'remark')}: records[0].remark"
    assert too_long(place) in result.err
    assert "hint: say it in fewer words; a long text belongs in a page" in result.err


def test_a_record_text_past_its_limit_is_refused_at_its_place_ok(tmp_path: Path) -> None:
    source = remarked(tmp_path, "*a" * (MAX_DATA_TEXT // 2))
    result = within(30, "--source", source, "--out", tmp_path / "out")
    assert result.code == 0, result.err


def recorded(tmp_path: Path, key: str, words: str) -> Path:
    """The example with a history of startup: one plain line, then one with `words` as
    its `key`."""
    source = copy_example(tmp_path / "src")
    history = source / HISTORY
    history.parent.mkdir()
    second = {**LINE, "commit": "c38a01e", "date": "2026-11-08", key: words}
    history.write_text(json.dumps(LINE) + "\n" + json.dumps(second) + "\n")
    return source


@pytest.mark.parametrize("key", ["note", "tool"])
def test_a_history_text_past_its_limit_is_refused_at_its_place(tmp_path: Path,
                                                               key: str) -> None:
    """A note is read by the line reader; a tool, on a line CI writes, by the reader of
    plain files, which leaves a text past the limit to the line reader to tell."""
    source = recorded(tmp_path, key, "[" * (MAX_DATA_TEXT + 1))
    result = within(30, "--source", source, "--out", tmp_path / "out")
    assert result.code == 1
    second = (source / HISTORY).read_text().split("\n")[1]
    assert too_long(f"{HISTORY}:2:{column(second, key)}: {key}") in result.err
    assert "hint: say it in fewer words; a long text belongs in a page" in result.err


@pytest.mark.parametrize("key", ["note", "tool"])
def test_a_history_text_past_its_limit_is_refused_at_its_place_ok(tmp_path: Path,
                                                                  key: str) -> None:
    source = recorded(tmp_path, key, "[" * MAX_DATA_TEXT)
    result = within(30, "--source", source, "--out", tmp_path / "out")
    assert result.code == 0, result.err
