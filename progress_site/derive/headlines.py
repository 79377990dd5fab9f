"""Headlines: a figure shown large, or a stated number checked against what it summarises."""

from __future__ import annotations

from collections.abc import Mapping

from progress_site.derive.evaluation import evaluate
from progress_site.derive.expressions import ExpressionError, names, parse
from progress_site.derive.formulas import figure_keys, sureness
from progress_site.derive.kinds import kind_of
from progress_site.derive.namespace import Namespace
from progress_site.derive.quantity import Quantity, significant_decimals
from progress_site.derive.views import EffectiveStatus, FigureView, HeadlineView
from progress_site.errors import Problem
from progress_site.model.keys import FigureKey
from progress_site.model.schema import Headline
from progress_site.model.values import problem, text_problem


def derive_headlines(headlines: tuple[Headline, ...], ns: Namespace,
                     figures: Mapping[FigureKey, FigureView]
                     ) -> tuple[tuple[HeadlineView, ...], dict[FigureKey, Quantity],
                                list[Problem]]:
    """Each headline's view, the number each is cited by, and the problems found: a
    stated number must agree with what it summarises."""
    views, named, out = [], {}, []
    for h in headlines:
        view, found = derive_headline(h, ns, figures)
        out += found
        key = FigureKey.of("headlines", h.id)
        if view is not None:
            views.append(view)
            named[key] = view.quantity
        elif h.value is not None:
            # A refused stated number is still the name texts cite: keep it, so one wrong
            # headline is one error, not one more per text that quotes it.
            named[key] = stated(h)
    return tuple(views), named, out


def stated(h: Headline) -> Quantity:
    """The number a headline states."""
    assert h.value is not None
    return Quantity("value", h.value.value, decimals=h.value.decimals)


def disagreement(h: Headline, sources: list[float]) -> Problem | None:
    """The problem with a stated number that what it summarises does not support: `about`
    lies within their range, `up-to` is their highest and `at-least` their lowest, each
    give or take half a unit of the stated number's last digit."""
    assert h.value is not None
    places = h.value.decimals
    slack = 0.5 * 10 ** -places
    low, high = min(sources), max(sources)
    target = {"about": (low, high), "up-to": (high, high), "at-least": (low, low)}[h.says]
    if target[0] - slack <= h.value.value <= target[1] + slack:
        return None
    # The numbers as computed, not rounded to the headline's digits: `ratio = 3` would
    # hide that 3.38 is what refused a stated 3.
    said = ", ".join(f"{ref} = {exact(q, places)}"
                     for ref, q in zip(h.summarises, sources, strict=True))
    first, last = (f"{end:.{places}f}" for end in target)
    fix = f"state {first}" if first == last else f"state a number between {first} and {last}"
    says = {"about": "", "up-to": "up to ", "at-least": "at least "}[h.says]
    # As typed (2.60, not 2.6): its last digit is the precision it is checked to.
    return problem(h.where, "value", f"the headline states {says}{h.value.value:.{places}f} but "
                   f"what it summarises says otherwise: {said}", f"{fix}, or correct the data")


def exact(value: float, places: int) -> str:
    """A number to the precision that shows which way it rounds: four decimals at least,
    three more than the headline states, five significant digits (0.000123 is not 0.0001),
    without trailing zeros."""
    text = f"{value:.{max(4, places + 3, significant_decimals(value, 5))}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def summarised(ref: str, ns: Namespace) -> float:
    """The one number an item of `summarises:` names or computes (ExpressionError why not)."""
    entry = evaluate(ref, ns)
    # Each kind says which one number it is read as (a distribution: its median).
    one = kind_of(entry).compared(entry) if isinstance(entry, Quantity) else None
    if not isinstance(entry, Quantity) or one is None:
        what = "a commit" if not isinstance(entry, Quantity) else {
            "range": "a range", "count": "a count"}.get(entry.kind, "no number")
        hint = {"a count": f"summarise one of its parts: {ref}.ok, {ref}.share",
                "a range": "a stated number agrees with single numbers: name figures "
                           "of one value each",
                }.get(what, "name a figure that has a number")
        raise ExpressionError(f"'{ref}' is {what}, not one number", hint)
    return one


def no_figure(h: Headline, ns: Namespace) -> Problem:
    """Why a headline's `figure:` names no figure: a ratio, a change or a share is a name
    texts cite but no figure, which 'did you mean' would answer with the same name."""
    name = str(h.figure)
    if name not in ns.entries:
        return problem(h.where, "figure", f"no figure '{name}'", ns.hint(name))
    holder = name.rpartition(".")[0]
    itself = f"show the figure itself (`figure: {holder}`), or " if holder in ns.figures else ""
    return problem(h.where, "figure", f"'{name}' is a number derived from a figure, not a "
                   "figure", f"{itself}state the number: `value:` with `summarises: [{name}]`")


def derive_headline(h: Headline, ns: Namespace, figures: Mapping[FigureKey, FigureView]
                    ) -> tuple[HeadlineView | None, list[Problem]]:
    """One headline: a referenced figure, or a stated value checked against its sources."""
    if (h.figure is None) == (h.value is None):
        return None, [problem(h.where, "figure", "a headline shows either a `figure:` or a "
                              "stated `value:`", "keep one of them")]
    if h.figure is not None:
        key = ns.figures.get(h.figure)
        if key is None:  # unless what it names failed, and was told there
            return None, [] if ns.cites_told(h.figure) else [no_figure(h, ns)]
        target = figures[key]
        return HeadlineView(h, target.quantity, h.status or target.status), []
    assert h.value is not None
    if not h.summarises:
        return None, [problem(h.where, "value", "a stated number must name the figures it "
                              "summarises", "add `summarises: [comparisons.ID.ratio, ...]`")]
    sources, out = [], []
    for index, ref in enumerate(h.summarises):
        try:
            sources.append(summarised(ref, ns))
        except ExpressionError as exc:
            if ns.cites_told(ref):
                continue  # its figure failed validation: told there, not judged here
            said = exc.message if f"'{ref}'" in exc.message else f"'{ref}': {exc.message}"
            out.append(text_problem(h.where, "summarises", ref, exc.offset, said, exc.hint,
                                    index))
    if out or len(sources) < len(h.summarises):
        return None, out
    refused = disagreement(h, sources)
    if refused is not None:
        return None, [refused]
    return HeadlineView(h, stated(h), h.status or summarised_status(h, ns, figures)), []


def summarised_status(h: Headline, ns: Namespace, figures: Mapping[FigureKey, FigureView]
                      ) -> EffectiveStatus:
    """A stated number is as sure as the least sure figure it summarises, as a derived
    figure is: a headline over an estimate must not wear the Measured badge."""
    cited = (name for ref in h.summarises for name, _ in names(parse(ref)))
    keys = dict.fromkeys(k for name in cited for k in figure_keys(name, "", ns.figures))
    return sureness(figures[k].status for k in keys)
