"""Parsing is remembered by content, so a watch rebuild re-parses only changed files, and
an edited file is read again however its size and time look."""

from __future__ import annotations

import os
from pathlib import Path

from progress_site.load.parse_cache import parse_once
from progress_site.load.site import convert_document, load


def test_same_text_is_parsed_once_and_each_caller_gets_its_own_document() -> None:
    first, _ = parse_once("a: 1\n", "x.yaml")
    first.data = None  # what load.read_yaml does to a file that is not a mapping
    second, problems = parse_once("a: 1\n", "x.yaml")
    assert second.data == {"a": 1} and problems == []
    assert second is not first


def test_changed_text_is_parsed_again() -> None:
    assert parse_once("a: 1\n", "y.yaml")[0].data == {"a": 1}
    assert parse_once("a: 2\n", "y.yaml")[0].data == {"a": 2}


def test_problems_are_remembered_too() -> None:
    _, problems = parse_once("a: [1\n", "z.yaml")
    _, again = parse_once("a: [1\n", "z.yaml")
    assert problems == again and problems[0].message.startswith("YAML syntax error")
    again.clear()
    assert parse_once("a: [1\n", "z.yaml")[1] == problems


MACHINES = "machines:\n  - {id: box, name: {en: The box, fr: La boîte}}\n"


def test_an_unchanged_file_keeps_its_records_between_rebuilds() -> None:
    doc, _ = parse_once(MACHINES, "data/m.yaml")
    first = convert_document(doc, ("en", "fr"), False)
    again = convert_document(parse_once(MACHINES, "data/m.yaml")[0], ("en", "fr"), False)
    assert again is first  # the same parsed values: not converted again
    (key, (machine,)), = first[0]
    assert key == "machines" and machine.id == "box"


def test_records_are_converted_again_for_other_text_languages_or_strictness() -> None:
    doc, _ = parse_once(MACHINES, "data/m.yaml")
    english = convert_document(doc, ("en",), False)
    assert english is not convert_document(doc, ("en", "fr"), False)
    assert english[1] == ()  # an English-only site reads past the French words
    assert convert_document(doc, ("en",), True) is not english
    edited, _ = parse_once(MACHINES.replace("The box", "The new box"), "data/m.yaml")
    (_, (machine,)), = convert_document(edited, ("en", "fr"), False)[0]
    assert machine.name.get("en") == "The new box"


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
    site(tmp_path, "2.5")  # same length
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    second, _ = load(tmp_path, strict=False)
    assert first is not None and second is not None
    values = [s.data.measurements[0].figure.value for s in (first, second)]
    assert [v.value if v is not None else None for v in values] == [1.5, 2.5]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]  # nothing written
