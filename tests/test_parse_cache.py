"""Parsed data files are kept in .cache/parsed: a hit gives exactly what a parse gives,
an edit or a damaged entry means a fresh parse, and a planted entry runs nothing."""

from __future__ import annotations

import os
import pickle
import shutil
from pathlib import Path

import pytest

from progress_site.derive.model import derive
from progress_site.load.parse_cache import entry_path, parse_stored
from progress_site.load.site import load
from progress_site.load.yamldoc import Document
from progress_site.load.yamlsource import _parse_remembered, parse
from progress_site.pipeline import with_source_lines
from progress_site.validate.rules import validate

from .conftest import REPO, TODAY
from .test_cases import CASES, apply_case, load_case

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
    assert stored_problems == hit_problems == problems  # warnings too
    # Every place a problem may point at, as the full tables have it, and then the
    # tables themselves, which the first miss read in whole.
    for path in [*fresh.values, (), ("no", "such", "key")]:
        assert hit.locate(path) == fresh.locate(path)
    for path in [*fresh.keys, ("no", "such", "key")]:
        assert hit.locate(path, key=True) == fresh.locate(path, key=True)
    assert tables(stored) == tables(hit) == tables(fresh)


def test_a_hit_reads_no_more_positions_until_a_problem_asks(tmp_path: Path) -> None:
    text = "site:\n  title: {en: T}\nmachines:\n  - id: box\n    cores: 4\n"
    parse_stored(text, "data/x.yaml", tmp_path, parse)
    hit, _ = parse_stored(text, "data/x.yaml", tmp_path, never)  # type: ignore[arg-type]
    assert hit.locate(("machines", 0)).line == 4  # where a record starts: kept
    assert hit.locate(("site", "title")).column == 10  # a text in two languages: kept
    assert hit.unread is not None and not hit.keys
    assert hit.locate(("machines", 0, "cores")).line == 5  # a field: read from the text
    assert hit.unread is None and hit.keys


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


def problems_through_derive(source: Path, cache: Path) -> list[str]:
    """Every problem load, validate and derive find, printed as the build prints them;
    the files are parsed afresh or read from `cache`, never from this process's memory."""
    _parse_remembered.cache_clear()
    loaded, problems = load(source, strict=False, cache_dir=cache)
    if loaded is not None and not any(not p.warning for p in problems):
        data, found = validate(loaded.data, TODAY)
        problems += found
        if not any(not p.warning for p in found):
            problems += derive(data, TODAY)[1]
    return [p.render() for p in with_source_lines(problems, source)]


@pytest.mark.parametrize("folder", [p for p in sorted(CASES.iterdir()) if p.is_dir()],
                         ids=lambda p: p.name)
def test_every_broken_case_reads_the_same_from_the_cache(folder: Path, tmp_path: Path
                                                         ) -> None:
    source = tmp_path / "src"
    for name in ("data", "content"):
        shutil.copytree(REPO / name, source / name)
    apply_case(source, load_case(folder))
    cold = problems_through_derive(source, tmp_path / "cache")
    assert any((tmp_path / "cache" / "parsed").iterdir())
    assert problems_through_derive(source, tmp_path / "cache") == cold
