"""A distribution's parts agree with each other: what no tool could have measured is refused.

Percentiles grow with their rank, every place lies between min and max, a standard
deviation is not negative and goes with its mean, an interquartile range with its median,
and at least one reading was made.
Each problem is located at the part that breaks the rule, all of them at once.
"""

from __future__ import annotations

import itertools

from progress_site.errors import Problem
from progress_site.model.figure import Distribution
from progress_site.model.values import Number, problem

PERCENTILES = ("p50", "p90", "p95", "p99", "p999")
PLACES = (*PERCENTILES, "mean")


def given(dist: Distribution, names: tuple[str, ...]) -> list[tuple[str, float]]:
    """The parts of `names` the data gives, with their numbers, in that order."""
    return [(name, part.value) for name in names
            if isinstance(part := getattr(dist, name), Number)]


def check_distribution(dist: Distribution) -> list[Problem]:
    """Every rule a distribution's parts keep."""
    w = dist.where
    out = []
    if dist.p50 is None and dist.mean is None:
        out.append(problem(w, "p50", "a distribution needs its median (p50) or its mean",
                           "give the median the tool reported as `p50:`, or its `mean:`"))
    ranked = given(dist, PERCENTILES)
    for (low_name, low), (name, value) in itertools.pairwise(ranked):
        if value < low:
            out.append(problem(w, name, f"{name} ({value:g}) is below {low_name} ({low:g})",
                               "a higher percentile is never lower: check the order of the "
                               "numbers"))
    ends = dict(given(dist, ("min", "max")))
    if "min" in ends and "max" in ends and ends["min"] > ends["max"]:
        out.append(problem(w, "min", f"min ({ends['min']:g}) is above max ({ends['max']:g})",
                           "min is the lowest reading, max the highest"))
    else:
        out += outside(dist, ends)
    if dist.sd is not None and dist.sd.value < 0:
        out.append(problem(w, "sd", f"sd must be 0 or more, got {dist.sd.value:g}",
                           "a standard deviation is a width: write it without a sign"))
    elif dist.sd is not None and dist.mean is None:
        out.append(problem(w, "sd", "sd is the spread around the mean, which is not given",
                           "add the `mean:` the tool reported beside it"))
    out += quartiles(dist)
    if dist.n is not None and dist.n < 1:
        out.append(problem(w, "n", f"n must be at least 1, got {dist.n}",
                           "n counts the readings the distribution summarises"))
    return out


def quartiles(dist: Distribution) -> list[Problem]:
    """An interquartile range is a width, around a median that is given."""
    if dist.iqr is None:
        return []
    if dist.iqr.value < 0:
        return [problem(dist.where, "iqr", f"iqr must be 0 or more, got {dist.iqr.value:g}",
                        "an interquartile range is a width (q3 - q1): write it without "
                        "a sign")]
    if dist.p50 is None:
        return [problem(dist.where, "iqr", "iqr is the spread around the median, which is "
                        "not given", "add the `p50:` the tool reported beside it")]
    return []


def outside(dist: Distribution, ends: dict[str, float]) -> list[Problem]:
    """Percentiles and mean that lie below min or above max."""
    out = []
    for name, value in given(dist, PLACES):
        if "min" in ends and value < ends["min"]:
            out.append(problem(dist.where, name, f"{name} ({value:g}) is below min "
                               f"({ends['min']:g})", "no reading is lower than min"))
        elif "max" in ends and value > ends["max"]:
            out.append(problem(dist.where, name, f"{name} ({value:g}) is above max "
                               f"({ends['max']:g})", "no reading is higher than max"))
    return out
