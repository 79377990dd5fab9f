"""The lint for typed numbers: which numbers of a prose text the site prints from a name."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from progress_site.model.limits import MAX_DECIMALS
from progress_site.render import formatting
from progress_site.render.markdown import inline_tokens
from progress_site.render.printedindex import Candidate, maybe_printed, nearby
from progress_site.render.typed import Numbers, prose, typed

from .test_cases import run_build

RATIO = "comparisons.reqwest.ratio"
# What `index` makes of a site: the digits each name prints, with its unit.
PRINTED: dict[str, list[Candidate]] = {
    "2.48": [(RATIO, None)],
    "2.46": [("comparisons.hyper.ratio", None)],
    "1.66": [("measurements.rss", "MB")],
    "1383": [("measurements.players", None)],
    "1000.5": [("measurements.big", None)],
    "2026": [("measurements.year-like", None)],
    "8.5": [("measurements.eight", None)],
    "1.9": [("comparisons.memory.change", "%")],
}


def found(text: str, lang: str = "en") -> list[tuple[int, str, str]]:
    """What the lint finds in the prose of an inline text."""
    numbers = Numbers(PRINTED, lang, {})
    return [hit for token in prose(inline_tokens(text)) for hit in typed(token.content, numbers)]


@pytest.mark.parametrize(("text", "hits"), [
    ("2.48 times as fast", [(0, "2.48", RATIO)]),
    ("about 2.46 times less", [(6, "2.46", "comparisons.hyper.ratio")]),
    ("held 1,383 players.", [(5, "1,383", "measurements.players")]),
    ("1.66 MB of memory", [(0, "1.66", "measurements.rss")]),
    ("memory grew by 1.9% and", [(15, "1.9", "comparisons.memory.change")]),
    ("memory grew by +1.9 %", [(16, "1.9", "comparisons.memory.change")]),
    ("1.9 percent more", [(0, "1.9", "comparisons.memory.change")]),
])
def test_a_number_the_site_prints_is_found_with_its_reference(
        text: str, hits: list[tuple[int, str, str]]) -> None:
    assert found(text) == hits


def test_each_language_reads_its_own_printed_numbers() -> None:
    assert found("2,48 fois plus vite", "fr") == [(0, "2,48", RATIO)]
    assert found("1\u202f000,5 et 1\u00a0000,5", "fr") == [
        (0, "1\u202f000,5", "measurements.big"), (11, "1\u00a0000,5", "measurements.big")]
    assert found("1,66 Mo de mémoire", "fr") == [(0, "1,66", "measurements.rss")]
    assert found("2.48 fois plus vite", "fr") == []
    assert found("2,48 times, 1,000.5", "en") == [(12, "1,000.5", "measurements.big")]


@pytest.mark.parametrize("text", [
    "released in 2026",  # a year
    "Rust 1.66.0 and 2.48.1",  # versions
    "measured on 8.5.2026, on November 8.5",  # dates
    "run `2.48` again, or ``x 2.48``",  # code
    "2.47 times, 2.5 times, 3.14",  # numbers that match nothing
    "1.66 chunks a second",  # the same number in another unit
    "cpu-2.48, v2.48, #2.48, 2.48x",  # ids
    "Zest 2.0 against 1.9",  # a version, where the site prints +1.9%
    "1.66% of the time, 2.48 %",  # percentages, where the site prints no percentage
])
def test_what_is_no_number_of_the_site_is_left_alone(text: str) -> None:
    assert found(text) == []


def test_a_reference_is_no_typed_number() -> None:
    assert found("{{ comparisons.reqwest.ratio }} times, {{ x:2.48 }}") == []


# The site's numbers a typed one may be: `index` formats only those `maybe_printed` lets
# through, so it must let through every number that prints the typed digits.
@given(st.floats(min_value=-(10.0**15), max_value=10.0**15, allow_nan=False),
       st.integers(min_value=0, max_value=MAX_DECIMALS))
def test_a_number_is_looked_at_whenever_it_prints_the_typed_digits(
        value: float, decimals: int) -> None:
    printed = str(formatting.shown(abs(value), decimals))
    assume(printed.replace(".", "", 1).isdigit())  # as typed: not `1E-7`
    assert maybe_printed(value, decimals, nearby({printed}))


@pytest.mark.parametrize(("value", "decimals", "typed_", "looked_at"), [
    (2.675, 2, "2.68", True),  # half to even on the number as written: 2.68
    (2.675, 2, "2.67", True),
    (2.46, 2, "2.48", False),
    (2.46, 1, "2.46", False),  # printed with one decimal, it is 2.5
    (1383.0, 0, "1383", True),
    (0.5, 0, "0", True),  # 0.5 prints 0
    (10.0**15, 12, "1", True),  # too large to judge by a float: looked at
    (float("nan"), 2, "1", True),  # no number: given the exact look
])
def test_which_numbers_are_looked_at(value: float, decimals: int, typed_: str,
                                     looked_at: bool) -> None:
    assert maybe_printed(value, decimals, nearby({typed_})) is looked_at


def test_a_typed_number_longer_than_any_the_site_prints_is_no_trouble() -> None:
    # 5,000 digits: more than Python turns into an int by default.
    near = nearby({"9" * 5000, "2.46"})
    assert maybe_printed(2.46, 2, near)
    assert not maybe_printed(3.0, 2, near)


def test_a_version_beside_a_change_of_its_digits_builds_without_warning(
        tmp_path: Path) -> None:
    """A release report, "2.0 against 1.9", where a change prints +1.9%: the version was
    a typed number, and `--strict` refused the page. A typed `1.9%` is still one."""
    source = tmp_path / "src"
    (source / "data").mkdir(parents=True)
    (source / "content" / "en").mkdir(parents=True)
    (source / "data" / "site.yaml").write_text(RELEASE, "utf-8")
    page = source / "content" / "en" / "index.md"
    page.write_text("---\ntitle: Zest 2.0 against 1.9\n---\n"
                    "Zest 2.0 against 1.9: memory +1.9% more.\n\n"
                    "{{< comparisons release >}}\n", "utf-8")
    result = run_build(source, tmp_path / "site", [])
    typed_lines = [line for line in result.stderr.splitlines() if "is typed" in line]
    assert typed_lines == [
        "content/en/index.md:4:31: warning: the number 1.9 is typed, and the site prints "
        "it from comparisons.memory.change"], result.stderr


RELEASE = """site:
  title: Zest
  tagline: Release report
  languages: [en]
machines:
  - {id: box, name: The box}
studies:
  - id: release
    title: Zest 2.0 against 1.9
    before: {name: Zest, version: "1.9"}
    after: {name: Zest, version: "2.0"}
    machine: box
    date: 2026-11-20
    comparisons:
      - id: memory
        title: Memory
        unit: MB
        show: change
        before: {value: 41.2}
        after: {value: 42.0}
"""
