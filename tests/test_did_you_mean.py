""""did you mean": a build's index of names suggests what difflib suggests over all of
them, for every word, whatever the names."""

from __future__ import annotations

import difflib
import random
from pathlib import Path

import pytest

from progress_site.cli import main
from progress_site.errors import Names, closest, did_you_mean

from .conftest import TEMPLATES


def difflibs(word: str, known: list[str]) -> str | None:
    """What difflib alone suggests."""
    close = difflib.get_close_matches(word, known, 1)
    return close[0] if close else None


@pytest.mark.parametrize("seed", range(8))
def test_the_index_suggests_what_difflib_suggests(seed: int) -> None:
    """Short words of few letters (ties, repeats, letters sharing a bit, nothing close):
    the same answer as difflib's, word for word."""
    rng = random.Random(seed)
    letters = "abm.-12x\u00e9\u0100\u0140"  # the last two share a bit of the letter set
    for _ in range(60):
        known = ["".join(rng.choice(letters) for _ in range(rng.randint(1, 10)))
                 for _ in range(rng.randint(0, 40))]
        names = Names(known)
        for _ in range(15):
            word = "".join(rng.choice(letters) for _ in range(rng.randint(0, 10)))
            assert closest(word, names) == difflibs(word, known), (word, known)


def test_the_index_suggests_what_difflib_suggests_among_site_names() -> None:
    names = [f"measurements.m{i}{part}" for i in range(400) for part in ("", ".value")]
    names += [f"comparisons.c{i}.{p}" for i in range(100) for p in ("ratio", "change")]
    index = Names(names)
    for word in ("measurements.m37x.value", "measurments.m12.value", "comparisons.c7.ratoi",
                 "comparison.c70.change", "m5", "zzz", ""):
        assert closest(word, index) == difflibs(word, names), word
        assert did_you_mean(word, index, otherwise="-") == did_you_mean(word, names,
                                                                         otherwise="-")


def test_a_page_of_many_bad_names_is_told_each_nearest(
        example_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A build that meets many mistyped names suggests, for each, the name it meant."""
    (example_copy / "data" / "bench.yaml").write_text("measurements:\n" + "".join(
        f"  - id: bench-{i}\n    title: B{i}\n    figure: {{value: {i + 1}, unit: ms, "
        "machine: test-pc, date: 2026-11-01, commit: c38a01e}\n" for i in range(60)),
        encoding="utf-8")
    for lang in ("en", "fr"):
        page = example_copy / "content" / lang / "index.md"
        page.write_text(page.read_text(encoding="utf-8") + "".join(
            f"\nTypo {{{{ measurements.bench-{i}x.value }}}}.\n" for i in range(0, 60, 7)),
            encoding="utf-8")
    status = main(["--source", str(example_copy), "--out", str(tmp_path / "out")],
                  TEMPLATES)
    hints = [line.strip() for line in capsys.readouterr().err.splitlines()
             if "did you mean" in line]
    assert status == 1
    assert hints == [f"hint: did you mean 'measurements.bench-{i}.value'?"
                     for _ in ("en", "fr") for i in range(0, 60, 7)]


@pytest.mark.parametrize(("word", "hint"), [
    # Alike only by their shared `measurements.`: a site of imported series suggested
    # `compile-ours` for a `memory` it no longer had.
    ("measurements.memory", "-"),
    ("comparisons.memory-per-player.change", "-"),
    # A slip past the prefix is still suggested, a short name in a long one too.
    ("measurements.compile-our", "did you mean 'measurements.compile-ours'?"),
    ("measurements.cpu-500", "did you mean 'measurements.cpu-per-packet-500'?"),
])
def test_a_dotted_name_is_suggested_only_when_alike_past_the_parts_it_shares(
        word: str, hint: str) -> None:
    known = ["measurements.compile-ours", "measurements.cpu-per-packet-500",
             "comparisons.memory-per-player.after"]
    assert did_you_mean(word, known, otherwise="-") == hint
    assert did_you_mean(word, Names(known), otherwise="-") == hint
