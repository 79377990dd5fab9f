"""Parsed data files are kept in .cache/parsed: a hit gives exactly what a parse gives,
an edit or a damaged entry means a fresh parse, and a planted entry runs nothing."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest

from progress_site.load import load
from progress_site.parsecache import entry_path, parse_stored
from progress_site.yamldoc import Document
from progress_site.yamlsource import parse

from .conftest import REPO

HOSTILE = Path(__file__).parent / "hostile" / "refused"
SAMPLES = sorted([*HOSTILE.glob("*.yaml"), *(REPO / "data").glob("*.yaml")])


def never(text: str, display: str) -> tuple[Document, list[object]]:
    """A parser for hits only: being called means the entry was not used."""
    raise AssertionError(f"{display} was parsed again")


def tables(doc: Document) -> str:
    """Everything a parse gives, in a form that compares (NaN is not equal to itself)."""
    return repr((doc.display, doc.lines, doc.data, doc.values, doc.keys, doc.raw))


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_a_hit_gives_what_a_parse_gives(sample: Path, tmp_path: Path) -> None:
    text = sample.read_text(encoding="utf-8")
    fresh, problems = parse(text, "data/x.yaml")
    stored, stored_problems = parse_stored(text, "data/x.yaml", tmp_path, parse)
    hit, hit_problems = parse_stored(text, "data/x.yaml", tmp_path, never)  # type: ignore[arg-type]
    assert tables(stored) == tables(hit) == tables(fresh)
    assert stored_problems == hit_problems == problems  # warnings too


def test_an_edit_makes_a_fresh_parse(tmp_path: Path) -> None:
    parse_stored("a: 1\n", "data/x.yaml", tmp_path, parse)
    doc, _ = parse_stored("a: 2\n", "data/x.yaml", tmp_path, parse)
    assert doc.data == {"a": 2}
    again, _ = parse_stored("a: 2\n", "data/x.yaml", tmp_path, never)  # type: ignore[arg-type]
    assert again.data == {"a": 2}  # the entry was replaced, not added beside


def test_the_same_text_under_another_name_is_another_entry(tmp_path: Path) -> None:
    parse_stored("a: [1\n", "data/x.yaml", tmp_path, parse)
    _, problems = parse_stored("a: [1\n", "data/y.yaml", tmp_path, parse)
    assert problems[0].location.file == "data/y.yaml"


@pytest.mark.parametrize("damage", [b"", b"garbage", b"\x80\x05N."])
def test_a_damaged_entry_is_parsed_again_and_replaced(damage: bytes, tmp_path: Path) -> None:
    parse_stored("a: 1\n", "data/x.yaml", tmp_path, parse)
    entry = entry_path(tmp_path, "data/x.yaml")
    entry.write_bytes(damage)
    doc, problems = parse_stored("a: 1\n", "data/x.yaml", tmp_path, parse)
    assert doc.data == {"a": 1} and problems == []
    assert parse_stored("a: 1\n", "data/x.yaml", tmp_path, never)[0].data == {"a": 1}  # type: ignore[arg-type]


def test_a_planted_entry_runs_nothing(tmp_path: Path) -> None:
    parse_stored("a: 1\n", "data/x.yaml", tmp_path, parse)
    entry = entry_path(tmp_path, "data/x.yaml")
    entry.write_bytes(pickle.dumps(os.getcwd))  # a class outside the allowed few
    doc, _ = parse_stored("a: 1\n", "data/x.yaml", tmp_path, parse)
    assert doc.data == {"a": 1}


def test_a_folder_that_cannot_be_written_is_no_cache(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    doc, problems = parse_stored("a: 1\n", "data/x.yaml", blocker / "parsed", parse)
    assert doc.data == {"a": 1} and problems == []


def site(root: Path, value: str) -> None:
    """A one-measurement site whose data file says `value`."""
    (root / "data").mkdir(parents=True, exist_ok=True)
    (root / "data" / "site.yaml").write_text(
        "site: {title: T, tagline: t, languages: [en]}\nmeasurements:\n"
        f"  - {{id: m, title: M, figure: {{value: {value}, unit: ms, status: estimate}}}}\n",
        encoding="utf-8")


def test_an_edit_with_the_same_size_and_time_is_seen(tmp_path: Path) -> None:
    site(tmp_path, "1.5")
    path = tmp_path / "data" / "site.yaml"
    before = path.stat()
    first, _ = load(tmp_path, strict=False)
    assert (tmp_path / ".cache" / "parsed").is_dir()
    site(tmp_path, "2.5")  # same length
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    second, _ = load(tmp_path, strict=False)
    assert first is not None and second is not None
    assert first.data.measurements[0].figure.value is not None
    assert second.data.measurements[0].figure.value is not None
    assert first.data.measurements[0].figure.value.value == 1.5
    assert second.data.measurements[0].figure.value.value == 2.5
