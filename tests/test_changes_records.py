"""The change summary reports a dataset's records an edit changed, as it does figures:
`--changes OLD_SITE` (text and Markdown) and the summary a build prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from progress_site.pipeline import BuildConfig, make_site
from progress_site.publish.changes import lines_between, parse_snapshot
from progress_site.publish.datajson import plain
from progress_site.publish.snapshot import snapshot

from .conftest import TODAY
from .test_pipeline import run_build

GOLDEN_DATA = Path(__file__).parent / "golden" / "data.json"
FIRST_RUN = '"mspt": 13.7,'


def edit_first_run(source: Path, old: str, new: str) -> None:
    """Replace `old` by `new` in the first record of the four-way dataset's file."""
    runs = source / "data" / "horizon-four-way" / "runs.jsonl"
    first, rest = runs.read_text().split("\n", 1)
    assert old in first
    runs.write_text(first.replace(old, new) + "\n" + rest)


def test_an_edited_record_is_reported_by_changes(example_copy: Path, tmp_path: Path) -> None:
    old = tmp_path / "old"
    assert run_build("--source", example_copy, "--out", old).returncode == 0
    edit_first_run(example_copy, FIRST_RUN, '"mspt": 14.2,')
    result = run_build("--source", example_copy, "--changes", old)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "- record four-way[bots=1, server=horizon]: mspt 13.7 ms -> 14.2 ms",
        "- 2 pages changed: fr/horizon-four-way/index.html, horizon-four-way/index.html",
    ]
    markdown = run_build("--source", example_copy, "--changes", old, "--format", "markdown")
    assert ("### Records\n\n- record four\\-way\\[bots\\=1\\, server\\=horizon\\]\\: "
            "mspt 14\\.2 ms \\-&gt; 13\\.7 ms" not in markdown.stdout)
    assert ("### Records\n\n- record four\\-way\\[bots\\=1\\, server\\=horizon\\]\\: "
            "mspt 13\\.7 ms \\-&gt; 14\\.2 ms\n\nNo task changed.\n\nNo text changed."
            in markdown.stdout)


def test_a_build_over_its_previous_site_reports_the_edited_record(
        example_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run_build("--source", example_copy, "--out", out).returncode == 0
    edit_first_run(example_copy, '"cpu": 46,', '"cpu": 47, "note": "watchdog",')
    result = run_build("--source", example_copy, "--out", out)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-3:] == [
        "Changes since the previous site:",
        "  record four-way[bots=1, server=horizon]: cpu 46 % -> 47 %; note none -> watchdog",
        "  2 pages changed: fr/horizon-four-way/index.html, horizon-four-way/index.html",
    ]


def golden() -> dict[str, object]:
    """The example's data.json, parsed."""
    return dict(json.loads(GOLDEN_DATA.read_bytes()))


def with_rows(rows: list[object], key: list[str] | None = None) -> bytes:
    """The example's data.json with the four-way dataset's records (and key) replaced."""
    document = golden()
    dataset = document["datasets"][0]  # type: ignore[index]
    dataset["rows"] = rows
    if key is not None:
        dataset["key"] = key
    return json.dumps(document).encode()


def test_records_added_and_removed() -> None:
    rows = golden()["datasets"][0]["rows"]  # type: ignore[index]
    assert lines_between(with_rows(rows[1:]), golden()) == [
        "new record four-way[bots=1, server=horizon]"]
    assert lines_between(GOLDEN_DATA.read_bytes(), json.loads(with_rows(rows[:-1]))) == [
        "record removed four-way[bots=10, server=paper]"]


def test_records_of_a_dataset_without_key_are_named_by_their_place() -> None:
    rows = golden()["datasets"][0]["rows"]  # type: ignore[index]
    changed = [*rows[:2], {**rows[2], "p95": 14.5}, *rows[3:]]
    assert lines_between(with_rows(rows, []), json.loads(with_rows(changed, []))) == [
        "record four-way #3: p95 13.9 ms -> 14.5 ms"]


def test_a_dataset_new_or_removed_is_one_line() -> None:
    document = golden()
    document["datasets"] = []
    without = json.dumps(document).encode()
    assert lines_between(without, golden()) == ["new dataset four-way: 16 records"]
    assert lines_between(GOLDEN_DATA.read_bytes(), json.loads(without)) == [
        "dataset removed four-way (had 16 records)"]


def test_an_old_data_json_without_records_compares_none() -> None:
    """A site published before data.json held the records: nothing to compare them with,
    and not a dataset of 16 new records."""
    document = golden()
    del document["datasets"][0]["rows"]  # type: ignore[index]
    assert lines_between(json.dumps(document).encode(), golden()) == []


@pytest.mark.parametrize("rows", [["a record"], [{"mspt": [1]}], [{"mspt": {"a": 1}}],
                                  [{"bots": None, "server": "x"}], "rows", [{"x": "y" * 500}]])
def test_records_no_build_wrote_are_unreadable_not_a_crash(rows: object) -> None:
    assert parse_snapshot(with_rows(rows)) is None  # type: ignore[arg-type]


def test_a_build_summarises_its_records_as_its_data_json_holds_them(
        example_copy: Path, tmp_path: Path) -> None:
    """The new side of a build's summary comes from its model: the same records, with
    the same names and printed values, as its data.json gives."""
    built = make_site(BuildConfig(source=example_copy, out=tmp_path / "site", today=TODAY))
    assert built.model is not None
    published = parse_snapshot(built.files["data.json"])
    assert published is not None and len(published.records["four-way"] or {}) == 16
    assert snapshot(plain(built.model)).records == published.records
