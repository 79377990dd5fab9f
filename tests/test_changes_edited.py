"""A build's summary read from the records an edit changed (publish/edited.py): the
same lines as from the whole old data.json, and the same warning for one that is not a
data.json a build published."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from pathlib import Path

import pytest

from progress_site.load.yaml_refusals import MAX_DEPTH
from progress_site.pipeline import BuildConfig, build, make_site
from progress_site.publish import changes
from progress_site.publish.changes import edited_lines, lines_between, parse_snapshot
from progress_site.publish.datajson import written

from .conftest import TODAY
from .history_site import history_source

# Edits of the example, each a line of data/ replaced by another (file, before, after).
EDITS = [
    ("studies.yaml", "after: {value: 7.92}", "after: {value: 7.5}"),
    ("studies.yaml", "value: 514, unit: KB", "value: 520, unit: KB"),
    ("studies.yaml", "measurements:\n", "measurements:\n  - id: first-new\n"
     "    title: {en: New, fr: Nouveau}\n    figure: {value: 3, unit: ms, machine: test-pc, "
     "date: 2026-11-08, commit: c38a01e}\n"),
    ("capacity.yaml", "value: 2.62, unit: cores", "value: 2.7, unit: cores"),
    ("roadmaps.yaml", "status: in-progress", "status: planned"),
]

def edit(source: Path, name: str, before: str, after: str) -> None:
    path = source / "data" / name
    text = path.read_text("utf-8")
    assert before in text
    path.write_text(text.replace(before, after, 1), "utf-8")


@pytest.mark.parametrize(("name", "before", "after"), EDITS)
def test_a_summary_is_what_the_whole_old_data_json_gives(
        example_copy: Path, tmp_path: Path, name: str, before: str, after: str) -> None:
    config = BuildConfig(source=example_copy, out=tmp_path / "out", today=TODAY)
    build(config)
    old = (tmp_path / "out" / "data.json").read_bytes()
    edit(example_copy, name, before, after)
    built = build(config, changes=True)
    told, new = built.changes, (tmp_path / "out" / "data.json").read_bytes()
    assert told is not None and figures_and_tasks(told) == lines_between(old, json.loads(new)) != []
    # Read from the records that differ (the old ones decoded, the new ones the model's).
    assert built.model is not None
    assert edited_lines(old, new, built.model) == figures_and_tasks(told)
    edit(example_copy, name, after, before)  # and back: the lines the other way
    back = build(config, changes=True).changes
    assert back is not None and figures_and_tasks(back) == lines_between(new, json.loads(old))


def test_a_summary_is_worked_out_only_when_asked_for(example_copy: Path,
                                                    tmp_path: Path) -> None:
    """Watch mode prints no summary: its builds do not work one out (nor read the old
    data.json for it); the command line's do."""
    config = BuildConfig(source=example_copy, out=tmp_path / "out", today=TODAY)
    build(config)
    edit(example_copy, *EDITS[0])
    assert build(config).changes is None
    edit(example_copy, EDITS[0][0], EDITS[0][2], EDITS[0][1])
    told = build(config, changes=True).changes
    assert told is not None and "(comparisons.cpu-per-packet-500.after)" in told[0]


def figures_and_tasks(lines: list[str]) -> list[str]:
    """A summary's lines but the pages changed, which `lines_between` does not tell."""
    return [line for line in lines if not line[0].isdigit()]


@pytest.mark.parametrize("damage", [
    (b'"low":', b'"low":' + b"[" * 100_000),  # nested past the limit, in one record
    (b'"low":', b'"low":"a word",'),  # not JSON any more
    (b'"quantity":{"decimals":', b'"quantity":{"decimals":"x","was":'),  # no build's
    (b'"quantity":{"decimals":', b'"quantity":{"n":' + b"9" * 5000 + b',"decimals":'),
    (b'"version":1', b'"version":2'),  # another version of the file
])
def test_an_old_record_no_build_wrote_is_a_warning(
        example_copy: Path, tmp_path: Path, damage: tuple[bytes, bytes]) -> None:
    config = BuildConfig(source=example_copy, out=tmp_path / "out", today=TODAY)
    build(config)
    published = tmp_path / "out" / "data.json"
    published.write_bytes(published.read_bytes().replace(*damage, 1))
    built = build(config, changes=True)
    assert built.changes is None
    assert [w.message for w in built.warnings] == [
        "no summary of what changed since the previous site: this file is not a data.json "
        "that a build published"]


def test_an_old_record_is_refused_as_deep_as_the_whole_file_is(
        example_copy: Path, tmp_path: Path) -> None:
    """Nested lists put in one old record: the records alone are refused at the depth at
    which the whole file is, no deeper and no sooner."""
    model = build(BuildConfig(source=example_copy, out=tmp_path / "out", today=TODAY)).model
    assert model is not None
    new = (tmp_path / "out" / "data.json").read_bytes()
    at = new.index(b'"quantity":{"decimals":')
    for depth in range(MAX_DEPTH - 10, MAX_DEPTH + 2):
        old = new[:at] + b'"deep":' + b"[" * depth + b"]" * depth + b"," + new[at:]
        whole = parse_snapshot(old)
        assert (edited_lines(old, new, model) is None) == (whole is None), depth


def test_an_old_file_of_another_day_is_read_from_the_records_that_differ(
        example_copy: Path, tmp_path: Path) -> None:
    """A new day changes `today` too, which no line tells: after an edit, the summary is
    still read from the records the edit changed, and is what the whole file gives."""
    config = BuildConfig(source=example_copy, out=tmp_path / "out", today=TODAY)
    build(config)
    old = (tmp_path / "out" / "data.json").read_bytes()
    edit(example_copy, *EDITS[0])
    built = build(dataclasses.replace(config, today=TODAY + dt.timedelta(days=1)),
                  changes=True)
    new = (tmp_path / "out" / "data.json").read_bytes()
    assert built.model is not None and changes.written_day(old) != changes.written_day(new)
    told = edited_lines(old, new, built.model)
    assert told == figures_and_tasks(built.changes or []) == \
        lines_between(old, json.loads(new)) != []
    assert edited_lines(new.replace(b'"today":"', b'"today":"x', 1), new, built.model) \
        is None  # not a day: read whole, which says why


def test_an_old_file_of_another_day_read_whole_gives_the_summary(
        example_copy: Path, tmp_path: Path) -> None:
    """A new day changes `today`, and may change the figures it made stale: when more
    than one collection's records differ (here a study's and a roadmap's), the old
    data.json is read whole, and its summary is the build's."""
    out = tmp_path / "out"
    build(BuildConfig(source=example_copy, out=out, today=TODAY))
    old = (out / "data.json").read_bytes()
    edit(example_copy, *EDITS[0])
    edit(example_copy, *EDITS[4])
    built = build(BuildConfig(source=example_copy, out=out,
                              today=TODAY + dt.timedelta(days=1)), changes=True)
    assert built.model is not None
    assert edited_lines(old, (out / "data.json").read_bytes(), built.model) is None
    assert built.changes is not None and built.changes[0] == (
        "figure Processor per packet (500 typical players), After "
        "(comparisons.cpu-per-packet-500.after): 7.92 us -> 7.5 us")
    assert figures_and_tasks(built.changes) == lines_between(
        old, json.loads((out / "data.json").read_bytes()))


def top_level_lists(text: str) -> dict[str, str]:
    """Each top-level list of a data.json's text that holds records, by name: its records
    as the file writes them, joined by commas."""
    decoder, found, at = json.JSONDecoder(), {}, 1
    while text[at] == '"':
        name, at = decoder.raw_decode(text, at)
        value, end = decoder.raw_decode(text, at + 1)
        if type(value) is list and value:
            found[name] = text[at + 2:end - 1]
        at = end + 1
    return found


def last_record(records: str) -> int:
    """Where the last of records joined by commas starts."""
    decoder, start, end = json.JSONDecoder(), 0, 0
    while end < len(records):
        start = end + (end > 0)  # past the comma
        end = decoder.raw_decode(records, start)[1]
    return start


def test_the_new_side_is_the_models_records_as_the_file_writes_them(tmp_path: Path) -> None:
    """The new side of an edit's summary is the model's records, matched against the new
    file's text in their place: every list of data.json (each collection, the series),
    from its first record or its last, is the model's records as the file holds them;
    text that is not whole records of it is none."""
    built = make_site(BuildConfig(source=history_source(tmp_path / "src"),
                                  out=tmp_path / "site", today=TODAY))
    assert built.model is not None
    text = built.files["data.json"].decode("utf-8")
    document, lists = json.loads(text), top_level_lists(text)
    assert {"measurements", "series"} <= lists.keys()
    for name, records in lists.items():
        assert written(built.model, name, 0, records) == document[name], name
        last = last_record(records)
        assert written(built.model, name, len(document[name]) - 1, records[last:]) == \
            document[name][-1:], name
        assert written(built.model, name, 0, records + ",{}") is None
        assert written(built.model, name, 0, records[:-1]) is None
