"""Watch mode's rebuilds load the source again in the same process: what a save changed
is read again, whatever its size and time, and what it did not change reads the same."""

from __future__ import annotations

import os
from pathlib import Path

from progress_site.load.site import load, remembered

MACHINES = "machines:\n  - {id: box, name: {en: The box, fr: La boîte}}\n"


def site(root: Path, value: str, languages: str = "[en]") -> None:
    """A one-measurement site whose data file says `value`."""
    (root / "data").mkdir(parents=True, exist_ok=True)
    (root / "data" / "site.yaml").write_text(
        f"site: {{title: T, tagline: t, languages: {languages}}}\nmeasurements:\n"
        f"  - {{id: m, title: M, figure: {{value: {value}, unit: ms, status: estimate}}}}\n",
        encoding="utf-8")


def test_a_rebuild_shows_the_edit_and_reads_the_unedited_file_the_same(
        tmp_path: Path) -> None:
    kept = remembered()  # as watch mode's builds share one
    site(tmp_path, "1.5")
    (tmp_path / "data" / "machines.yaml").write_text(MACHINES, encoding="utf-8")
    first, problems = load(tmp_path, strict=False, kept=kept)
    site(tmp_path, "3.5")
    second, again = load(tmp_path, strict=False, kept=kept)
    assert first is not None and second is not None and problems == again == []
    assert [s.data.measurements[0].figure.value.value for s in (first, second)] == [1.5, 3.5]
    assert second.data.machines == first.data.machines
    assert second.data.machines[0].name.get("en") == "The box"


def test_the_records_follow_the_sites_languages(tmp_path: Path) -> None:
    kept = remembered()  # as watch mode's builds share one
    site(tmp_path, "1.5", "[en]")
    (tmp_path / "data" / "machines.yaml").write_text(MACHINES, encoding="utf-8")
    english, _ = load(tmp_path, strict=False, kept=kept)
    site(tmp_path, "1.5", "[en, fr]")
    both, _ = load(tmp_path, strict=False, kept=kept)
    assert english is not None and both is not None
    assert both.data.machines[0].name.get("fr") == "La boîte"


def test_a_file_that_is_no_mapping_is_reported_on_every_build(tmp_path: Path) -> None:
    kept = remembered()  # as watch mode's builds share one
    site(tmp_path, "1.5")
    (tmp_path / "data" / "x.yaml").write_text("3\n", encoding="utf-8")
    messages = [[p.message for p in load(tmp_path, strict=False, kept=kept)[1]] for _ in range(2)]
    assert messages[0] == messages[1] == [
        "a data file must be a mapping of collections (machines:, studies:, ...)"]


def test_problems_are_reported_on_every_build(tmp_path: Path) -> None:
    kept = remembered()  # as watch mode's builds share one
    site(tmp_path, "1.5")
    (tmp_path / "data" / "machines.yaml").write_text(MACHINES + "  - {id: box, nam: x}\n",
                                                     encoding="utf-8")
    first = [p.render() for p in load(tmp_path, strict=False, kept=kept)[1]]
    assert first and first == [p.render() for p in load(tmp_path, strict=False, kept=kept)[1]]


def test_an_edit_with_the_same_size_and_time_is_seen(tmp_path: Path) -> None:
    kept = remembered()  # as watch mode's builds share one
    site(tmp_path, "1.5")
    path = tmp_path / "data" / "site.yaml"
    before = path.stat()
    first, _ = load(tmp_path, strict=False, kept=kept)
    site(tmp_path, "2.5")  # same length
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    second, _ = load(tmp_path, strict=False, kept=kept)
    assert first is not None and second is not None
    values = [s.data.measurements[0].figure.value for s in (first, second)]
    assert [v.value if v is not None else None for v in values] == [1.5, 2.5]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]  # nothing written
