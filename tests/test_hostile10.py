"""Hostile input, tenth round: what round nine found and left open (a data text's size,
blank required texts, heading ids the attribute syntax refuses, a footnote label that
reads as a link definition, imports' refusals without a place, `record --value` as YAML
reads a number, a catalog's repeated msgids). Each has its test here or a case under
tests/cases/: a located error or a page built in time, never a traceback or a hang."""

from __future__ import annotations

from pathlib import Path

import pytest

from progress_site.model.limits import MAX_DATA_TEXT

from .conftest import copy_example
from .test_hostile import within

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
