"""data.schema.json is made from the engine's code alone: kept in .cache/ by the engine's
stamp, made again when a module changes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from progress_site import datajson, versions


def entries(cache: Path) -> list[str]:
    return sorted(p.name for p in (cache / "schema").glob("*"))


def test_the_schema_is_stored_then_served_from_the_cache(tmp_path: Path) -> None:
    made = datajson.made_schema_json()
    assert datajson.data_schema_json(tmp_path) == made
    assert entries(tmp_path) == [f"data.schema-{versions.engine_stamp()}.json"]
    (tmp_path / "schema" / entries(tmp_path)[0]).write_bytes(b"{}\n")
    assert datajson.data_schema_json(tmp_path) == b"{}\n"  # the entry, not made again


def test_other_engine_code_makes_it_again_and_drops_the_old_entry(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    datajson.data_schema_json(tmp_path)
    (tmp_path / "schema" / entries(tmp_path)[0]).write_bytes(b"{}\n")
    monkeypatch.setattr(datajson, "engine_stamp", lambda: "changed")
    assert datajson.data_schema_json(tmp_path) == datajson.made_schema_json()
    assert entries(tmp_path) == ["data.schema-changed.json"]


def test_a_cache_that_cannot_be_written_still_gives_the_schema(tmp_path: Path) -> None:
    (tmp_path / "schema").write_text("a file where the folder would be")
    assert datajson.data_schema_json(tmp_path) == datajson.made_schema_json()
    assert datajson.data_schema_json(None) == datajson.made_schema_json()


def test_the_stamp_changes_with_any_module_and_only_with_modules(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "engine"
    package.mkdir()
    (package / "a.py").write_text("A = 1\n")
    (package / "versions.py").write_text("")
    monkeypatch.setattr(versions, "__file__", str(package / "versions.py"))

    def stamp() -> str:
        versions.engine_stamp.cache_clear()
        return versions.engine_stamp()

    try:
        first = stamp()
        (package / "notes.txt").write_text("not code")
        assert stamp() == first
        (package / "a.py").write_text("A = 12\n")  # another size
        second = stamp()
        assert second != first
        os.utime(package / "a.py", ns=(0, 10**18))  # same size, another time
        assert stamp() != second
        (package / "b.py").write_text("")
        assert stamp() not in (first, second)
    finally:
        versions.engine_stamp.cache_clear()
