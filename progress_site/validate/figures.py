"""The rules of evidence of one figure: it says what it is in one way, has the shape that
way asks (a range in order, ok within of, a distribution's parts agreeing), and names
the evidence its status needs. A derived figure gives its formula and nothing measured."""

from __future__ import annotations

from progress_site.errors import Problem
from progress_site.model.figure import Figure
from progress_site.model.limits import MAX_DECIMALS
from progress_site.model.values import problem
from progress_site.validate.distributions import check_distribution


def check_figure(fig: Figure, excused: frozenset[str]) -> list[Problem]:
    """A figure says what it is in one way, and has the evidence its status needs
    (`excused`: what it need not name itself: what its study or run was reported for
    lacking, or the commit of a side that names none)."""
    w = fig.where
    given = [n for n in ("value", "range", "samples", "distribution")
             if getattr(fig, n) is not None]
    if fig.ok is not None or fig.of is not None:
        given.append("ok")
    if fig.formula is not None or fig.decimals is not None:
        return check_formula(fig, given)
    out = []
    if fig.status == "not-judgeable":
        # It may keep a number: the load that was tried ("2,000 players: not judgeable").
        if fig.reason is None:
            out.append(problem(w, "status", "a not-judgeable figure needs a `reason:`",
                               "say why it cannot be judged"))
        return out + (check_shape(fig) if len(given) == 1 else [])
    if len(given) != 1:
        what = "gives no number" if not given else "gives both " + " and ".join(given)
        out.append(problem(w, given[-1] if given else "status", f"the figure {what}",
                           "give one of value, range, samples, distribution, or ok with of"))
    out += check_shape(fig)
    if fig.status in ("measured", "watch"):
        missing = [n for n in ("machine", "date")
                   if getattr(fig, n) is None and n not in excused]
        if fig.commit is None and fig.run is None and "commit" not in excused:
            missing.append("commit or run")
        if missing:
            them = "it" if len(missing) == 1 else "them"
            out.append(problem(w, "status", f"a measured figure needs its {', '.join(missing)}",
                               f"name {them} on the figure, or on the study or run that holds "
                               "it; or mark it `status: estimate`"))
    return out


def awaiting_history(ident: str, fig: Figure) -> Problem | None:
    """One problem for a measurement that names nothing measured (no number, machine,
    date, commit nor run): an entry written for a series before its first import, which
    `import` completes with data/history/measurements.ID.jsonl. None for any other."""
    evidence = ("value", "range", "samples", "distribution", "ok", "of", "formula",
                "machine", "date", "commit", "run")
    if fig.status not in ("measured", "watch") or any(getattr(fig, n) is not None
                                                     for n in evidence):
        return None
    return problem(fig.where, "status", "the figure has no number, and there is no "
                   f"history file data/history/measurements.{ident}.jsonl to give one",
                   "import the series' results first (`progress-site import FORMAT FILE "
                   "--id PREFIX ...` writes its history, whose newest point is the "
                   "figure), or give `value:` with its machine, date and commit")


def check_formula(fig: Figure, given: list[str]) -> list[Problem]:
    """A derived figure gives its formula and no number; its status comes from its
    inputs, so it is not written (derive computes both)."""
    w = fig.where
    if fig.formula is None:
        return [problem(w, "decimals", "`decimals:` is for a figure with a `formula:`",
                        "a number prints with the decimals typed: write `6.40` for two")]
    out = []
    if given:
        out.append(problem(w, given[0], f"the figure gives both a formula and {given[0]}",
                           "keep the formula, or the number measured"))
    if "status" in w.fields:
        out.append(problem(w, "status", "a formula's status comes from its inputs",
                           "remove `status:`: a derived figure is as sure as its least "
                           "sure input"))
    if fig.decimals is not None and not 0 <= fig.decimals <= MAX_DECIMALS:
        out.append(problem(w, "decimals", f"decimals must be 0 to {MAX_DECIMALS}",
                           "write how many decimals the page prints"))
    return out


def check_shape(fig: Figure) -> list[Problem]:
    """A range has two ends in order; `ok` is not above `of`."""
    w = fig.where
    out = []
    if fig.range is not None and (len(fig.range) != 2 or fig.range[0].value > fig.range[1].value):
        out.append(problem(w, "range", "a range is [lowest, highest]",
                           "write two numbers, the lower first"))
    if fig.distribution is not None:
        out += check_distribution(fig.distribution)
    if fig.samples is not None and not fig.samples:
        out.append(problem(w, "samples", "samples is empty", "list the readings"))
    if (fig.ok is None) != (fig.of is None):
        name = "ok" if fig.ok is not None else "of"
        out.append(problem(w, name, "`ok` and `of` go together", "give both"))
    elif fig.ok is not None and fig.of is not None and not 0 <= fig.ok <= fig.of:
        out.append(problem(w, "ok", f"ok ({fig.ok}) must be between 0 and of ({fig.of})",
                           "count what passed out of what ran"))
    return out
