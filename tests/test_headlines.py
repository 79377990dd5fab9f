"""What a stated headline means (#22, item 7): `about` lies within what it summarises,
`up-to` is their highest and `at-least` their lowest, each to the stated digits; a
refusal prints the numbers as computed, not rounded to the headline's digits."""

from __future__ import annotations

import pytest

from progress_site.derive.headlines import disagreement
from progress_site.model.schema import Headline
from progress_site.model.values import Number, Text

SOURCES = ("comparisons.a.ratio", "comparisons.b.ratio")


def headline(value: str, says: str) -> Headline:
    """A headline stating `value` (as typed: its decimals count) over two ratios."""
    return Headline(id="h", label=Text((("en", "x"),), neutral=True),
                    value=Number.of(float(value), value), summarises=SOURCES,
                    says=says)  # type: ignore[arg-type]


@pytest.mark.parametrize(("value", "says", "message"), [
    # "Up to 1.5" of ratios whose highest is 3.38: within their range, but not what they say.
    ("1.5", "up-to", "the headline states up to 1.5 but what it summarises says otherwise: "
     "comparisons.a.ratio = 1.46, comparisons.b.ratio = 3.38"),
    ("3.4", "up-to", None),
    ("3", "up-to", None),
    ("4", "up-to", "the headline states up to 4 but what it summarises says otherwise: "
     "comparisons.a.ratio = 1.46, comparisons.b.ratio = 3.38"),
    ("1.5", "at-least", None),
    ("3", "at-least", "the headline states at least 3 but what it summarises says "
     "otherwise: comparisons.a.ratio = 1.46, comparisons.b.ratio = 3.38"),
    ("1.46", "at-least", None),
    ("1.47", "at-least", "the headline states at least 1.47 but what it summarises says "
     "otherwise: comparisons.a.ratio = 1.46, comparisons.b.ratio = 3.38"),
    ("2.5", "about", None),
    ("3.4", "about", None),
    ("3.5", "about", "the headline states 3.5 but what it summarises says otherwise: "
     "comparisons.a.ratio = 1.46, comparisons.b.ratio = 3.38"),
])
def test_what_a_headline_says(value: str, says: str, message: str | None) -> None:
    found = disagreement(headline(value, says), [1.46, 3.38])
    assert (found.message if found else None) == message


def test_a_refusal_prints_the_numbers_as_computed() -> None:
    """`= 3` would hide that 3.3846 is what refused a stated `up to 2`."""
    found = disagreement(headline("2", "up-to"), [1.4615384615, 44 / 13])
    assert found is not None
    assert found.message.endswith("comparisons.a.ratio = 1.4615, comparisons.b.ratio = 3.3846")
    assert found.hint == "state 3, or correct the data"


def test_a_small_number_keeps_its_significant_digits() -> None:
    """0.000123 s printed to four decimals would read 0.0001: what was measured is lost."""
    found = disagreement(headline("0.5", "about"), [0.000123, 0.0001234567])
    assert found is not None
    assert found.message.endswith("comparisons.a.ratio = 0.000123, "
                                  "comparisons.b.ratio = 0.00012346")
