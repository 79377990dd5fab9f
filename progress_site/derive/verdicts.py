"""What a comparison's verdict may claim: its `wording:` ("2.56 times less processor")
is said of an after better than its before, in the direction `better:` names. Where the
figures measured go the other way, or not at all, the page prints the catalog's neutral
words ("1.06 times higher", "no change") instead, and the build warns at the wording.
"""

from __future__ import annotations

import dataclasses

from progress_site.derive.views import ComparisonView, FigureView, StudyView
from progress_site.errors import Problem
from progress_site.model.values import problem

HINT = ("re-measure if a figure is wrong; else remove `wording:` (the page says what the "
        "figures measured) or give the comparison a `verdict:` in your words")


def check_wordings(studies: tuple[StudyView, ...]) -> list[Problem]:
    """A warning at each wording that the measured direction does not bear out."""
    return [dataclasses.replace(problem(c.comparison.where, "wording", _message(c), HINT),
                                warning=True)
            for study in studies for c in study.comparisons
            if c.comparison.wording is not None and c.says_ratio and not c.improved]


def _message(c: ComparisonView) -> str:
    """What the wording says, and what the figures measured."""
    comp = c.comparison
    unit = f" {comp.unit}" if comp.unit else ""
    went, says = (("is the same as", "no change") if c.direction == "same"
                  else (f"is {c.direction} than", f"N times {c.direction}"))
    return (f"'{comp.wording.get('en') if comp.wording else ''}' is said of an after "
            f"{comp.better} than its before (better: {comp.better}), but the after measured, "
            f"{_number(c.after)}{unit}, {went} the before, {_number(c.before)}{unit}: "
            f"the page says '{says}' instead")


def _number(side: FigureView) -> str:
    """A side's compared number as the data gives it (a distribution's median)."""
    q = side.quantity
    return f"{q.low:.{q.decimals}f}"
