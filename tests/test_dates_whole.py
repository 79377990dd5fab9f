"""A date on a page never breaks across lines: `November 8, 2026` and `8 novembre 2026`
hold no-break spaces, so a line never ends with `8` or `November 8,` apart from the rest
(as `n = 10` and `± 2.8` keep their number)."""

from __future__ import annotations

import pytest

from .dom import parse


@pytest.mark.parametrize("page", ["index.html", "fr/index.html", "horizon-four-way/index.html",
                                  "fr/horizon-four-way/index.html"])
def test_no_date_breaks_between_its_words(example_files: dict[str, bytes], page: str) -> None:
    times = parse(example_files[page]).find_all("time")
    assert len(times) >= 2
    assert [t.text() for t in times if " " in t.text()] == []
    assert all("\u00a0" in t.text() for t in times)  # each date has words to hold together
