"""Parsed data files are kept on disk: a hit gives exactly what a parse gives, an edit or
a damaged entry means a fresh parse, and a planted entry runs nothing."""

from __future__ import annotations

import os
import pickle
import shutil
from pathlib import Path

import pytest

from progress_site.derive.model import derive
from progress_site.load import parse_cache
from progress_site.load.parse_cache import parse_stored
from progress_site.load.site import load
from progress_site.load.yaml import Document, parse
from progress_site.pipeline import with_source_lines
from progress_site.validate.rules import validate

from .conftest import REPO, TODAY
from .test_cases import CASES, apply_case, load_case

HOSTILE = Path(__file__).parent / "hostile" / "refused"
SAMPLES = sorted([*HOSTILE.glob("*.yaml"), *(REPO / "data").glob("*.yaml")])


def never(text: str, display: str) -> tuple[Document, list[object]]:
    """The parser once a test wants hits only: being called means an entry was not used."""
    raise AssertionError(f"{display} was parsed again")


def tables(doc: Document) -> str:
    """Everything a parse gives, in a form that compares (NaN is not equal to itself)."""
    return repr((doc.display, doc.lines, doc.data, doc.values, doc.keys, doc.raw))


def damage(folder: Path, blob: bytes) -> None:
    """Overwrite every entry of a cache folder."""
    entries = [p for p in folder.rglob("*") if p.is_file()]
    assert entries
    for entry in entries:
        entry.write_bytes(blob)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_a_hit_gives_what_a_parse_gives(sample: Path, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    text = sample.read_text(encoding="utf-8")
    fresh, problems = parse(text, "data/x.yaml")
    stored, stored_problems = parse_stored(text, "data/x.yaml", tmp_path)
    monkeypatch.setattr(parse_cache, "parse", never)  # a hit calls no parser
    hit, hit_problems = parse_stored(text, "data/x.yaml", tmp_path)
    assert stored_problems == hit_problems == problems  # warnings too
    # Every place a problem may point at, as a fresh parse has it, and then the tables
    # themselves.
    for path in [*fresh.values, (), ("no", "such", "key")]:
        assert hit.locate(path) == fresh.locate(path)
    for path in [*fresh.keys, ("no", "such", "key")]:
        assert hit.locate(path, key=True) == fresh.locate(path, key=True)
    assert tables(stored) == tables(hit) == tables(fresh)


def test_a_hit_locates_every_field(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = "site:\n  title: {en: T}\nmachines:\n  - id: box\n    cores: 4\n"
    parse_stored(text, "data/x.yaml", tmp_path)
    monkeypatch.setattr(parse_cache, "parse", never)
    hit, _ = parse_stored(text, "data/x.yaml", tmp_path)
    assert hit.locate(("machines", 0)).line == 4
    assert hit.locate(("site", "title")).column == 10
    assert hit.locate(("machines", 0, "cores")).line == 5
    assert hit.locate(("machines", 0, "cores"), key=True).column == 5


def test_an_edit_makes_a_fresh_parse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parse_stored("a: 1\n", "data/x.yaml", tmp_path)
    doc, _ = parse_stored("a: 2\n", "data/x.yaml", tmp_path)
    assert doc.data == {"a": 2}
    monkeypatch.setattr(parse_cache, "parse", never)
    again, _ = parse_stored("a: 2\n", "data/x.yaml", tmp_path)
    assert again.data == {"a": 2}


def test_the_same_text_under_another_name_is_another_entry(tmp_path: Path) -> None:
    parse_stored("a: [1\n", "data/x.yaml", tmp_path)
    _, problems = parse_stored("a: [1\n", "data/y.yaml", tmp_path)
    assert problems[0].location.file == "data/y.yaml"


@pytest.mark.parametrize("blob", [b"", b"garbage", b"\x80\x05N.", pickle.dumps((1, 2))])
def test_a_damaged_entry_is_parsed_again_and_replaced(blob: bytes, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    parse_stored("a: 1\n", "data/x.yaml", tmp_path)
    damage(tmp_path, blob)
    doc, problems = parse_stored("a: 1\n", "data/x.yaml", tmp_path)
    assert doc.data == {"a": 1} and problems == []
    monkeypatch.setattr(parse_cache, "parse", never)
    assert parse_stored("a: 1\n", "data/x.yaml", tmp_path)[0].data == {"a": 1}


def test_a_planted_entry_runs_nothing(tmp_path: Path) -> None:
    parse_stored("a: 1\n", "data/x.yaml", tmp_path)
    damage(tmp_path, pickle.dumps(os.getcwd))  # a function outside the allowed few
    doc, _ = parse_stored("a: 1\n", "data/x.yaml", tmp_path)
    assert doc.data == {"a": 1}


def test_a_folder_that_cannot_be_written_is_no_cache(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    doc, problems = parse_stored("a: 1\n", "data/x.yaml", blocker / "parsed")
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
    site(tmp_path, "2.5")  # same length
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    parse_cache._remembered.cache_clear()
    second, _ = load(tmp_path, strict=False)
    assert first is not None and second is not None
    assert first.data.measurements[0].figure.value is not None
    assert second.data.measurements[0].figure.value is not None
    assert first.data.measurements[0].figure.value.value == 1.5
    assert second.data.measurements[0].figure.value.value == 2.5


def problems_through_derive(source: Path, cache: Path) -> list[str]:
    """Every problem load, validate and derive find, printed as the build prints them;
    the files are parsed afresh or read from `cache`, never from this process's memory."""
    parse_cache._remembered.cache_clear()
    loaded, problems = load(source, strict=False, cache_dir=cache)
    if loaded is not None and not any(not p.warning for p in problems):
        data, found = validate(loaded.data, TODAY)
        problems += found
        if not any(not p.warning for p in found):
            problems += derive(data, TODAY)[1]
    return [p.render() for p in with_source_lines(problems, source)]


@pytest.mark.parametrize("folder", [p for p in sorted(CASES.iterdir()) if p.is_dir()],
                         ids=lambda p: p.name)
def test_every_broken_case_reads_the_same_from_the_cache(folder: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    source = tmp_path / "src"
    for name in ("data", "content"):
        shutil.copytree(REPO / name, source / name)
    apply_case(source, load_case(folder))
    cold = problems_through_derive(source, tmp_path / "cache")
    monkeypatch.setattr(parse_cache, "parse", never)  # a second build parses nothing
    assert problems_through_derive(source, tmp_path / "cache") == cold
