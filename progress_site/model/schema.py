"""The data format, declared once: one record a class, one line a field.

Every YAML file under data/ is a mapping whose top-level keys are the fields of `Data`
below. The validator reads these classes (types and `doc=`) to check the YAML, and
`tools/editor_schema.py` publishes the same declaration as JSON Schema. No I/O here.

The figure every collection's numbers are held in is declared in `figure.py`, the
roadmaps' tasks in `roadmap.py`, the records of a report's datasets in `dataset.py`; how
a field is declared, and the unit and link records every part uses, in `declare.py`.
"""

# No `from __future__ import annotations` in this module: the field types are made once,
# as the module runs from its cached bytecode, and declare.hints reads them as they
# are. Written as strings, each would be compiled anew by every build.

import datetime as dt
from dataclasses import dataclass
from typing import Literal

from progress_site.model.dataset import Dataset
from progress_site.model.declare import Unit, f, where
from progress_site.model.figure import Better, Figure, HistoryPoint, Status
from progress_site.model.roadmap import Roadmap
from progress_site.model.values import Number, Text, Where

Show = Literal["ratio", "change", "range"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Repository:
    id: str = f("name that links and commits use", example="horizon")
    name: Text = f("how the page names it", example="Horizon")
    url: str = f("its web address; /pull/N, /issues/N and /commit/SHA are added to it")
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Group:
    id: str = f("a measurement's `group:` (by default its id up to its first '-')",
                example="cli")
    title: Text = f("how the dashboard heads the group", example="{en: Command line, "
                    "fr: Ligne de commande}")
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Remeasure:
    commit: str = f("figures measured before this commit's date are to re-measure",
                    ref="commits")
    reason: Text = f("why, in words ('the proxy changed its threading')")
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Site:
    title: Text = f("the project's name, the page title", example="Meridian")
    tagline: Text = f("the line under the title")
    description: Text | None = f("one sentence for search engines and previews", None)
    languages: tuple[str, ...] = f("languages to publish; the first is the default",
                                   ("en", "fr"))
    repository: str | None = f("id of the project's own repository (see repositories)", None,
                               ref="repositories")
    repositories: tuple[Repository, ...] = f("repositories that links and commits name", ())
    units: tuple[Unit, ...] = f("units of your own, with their singular and plural", ())
    groups: tuple[Group, ...] = f("titles of the dashboard's groups of benchmark series", ())
    footer: Text | None = f("the closing line of every page", None)
    remeasure_since: Remeasure | None = f("mark figures measured before a commit 'to "
                                          "re-measure'", None)
    stale_after_days: int | None = f("mark figures older than this many days 'to re-measure'",
                                     None)
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Machine:
    id: str = f("name that figures use in `machine:`", example="test-pc")
    name: Text = f("how the page names it", example="{en: The test PC, fr: Le PC de test}")
    facts: tuple[Text, ...] = f("one line each: system, processor, memory, ...", ())
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Commit:
    id: str = f("the commit's short hash, as figures cite it", example="c38a01e")
    date: dt.date | None = f("when it was made (needed by site.remeasure_since)", None)
    label: Text | None = f("what this version is, in words", None)
    pull: int | None = f("the pull request that brought it", None)
    merged: bool = f("whether that pull request is merged", False)
    repository: str | None = f("its repository, when not the site's own", None,
                               ref="repositories")
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Measurement:
    id: str = f("name used in references (`measurements.ID`)")
    title: Text = f("what was measured")
    figure: Figure = f("the figure (left out when data/history/measurements.ID.jsonl gives "
                       "it)", Figure())
    history: tuple[HistoryPoint, ...] = f("earlier values, oldest first: drawn as a trend "
                                          "ending at the figure", ())
    better: Better | None = f("which direction is better: lower or higher (default: from "
                              "the unit, higher for rates)", None)
    group: str | None = f("the dashboard's group (default: the id up to its first '-')", None)
    min_change: Number | None = f("smallest change, in percent, the dashboard reports "
                                  "(default 5)", None)
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Summary:
    title: Text = f("title of the bar in the summary")
    context: Text | None = f("the line under that title", None)
    rank: int = f("its place among the summary's bars (smallest first)", 0)
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Comparison:
    id: str = f("name used in references (`comparisons.ID.ratio`)")
    title: Text = f("what is compared")
    context: Text | None = f("under which load ('500 typical players')", None)
    unit: str | None = f("unit of both figures", None, ref="units")
    better: Better = f("which direction is better: lower or higher", "lower")
    show: Show = f("the verdict: ratio (2.56 times less), change (+1.5 %), range", "ratio")
    wording: Text | None = f("after 'N times', when the after is better: 'less processor'",
                             None)
    verdict: Text | None = f("the verdict in your words, with {{ references }}", None)
    decimals: int | None = f("decimals of its ratio and change (default: a ratio keeps three "
                             "significant digits, a change one decimal)", None)
    allowance: Number | None = f("largest change allowed, in percent (show: change)", None)
    control: bool = f("a case where nothing should change", False)
    noise: Number | None = f("for a control: the change, in percent, that is still noise",
                             None)
    scale: Number | None = f("a capacity to mark on the bars (8 cores)", None)
    summary: Summary | None = f("show this comparison as bars in the study's summary", None)
    before: Figure = f("the figure before")
    after: Figure = f("the figure after")
    history: tuple[HistoryPoint, ...] = f("earlier values, oldest first: drawn as a trend "
                                          "that ends with before and after", ())
    note: Text | None = f("a line under the comparison", None)
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Side:
    # One of two kinds: a version of this project (`commit:`), or a contender measured
    # against another (`name:`, with its version and page): a tool, server or setting.
    commit: str | None = f("the commit of this side (or `name:` for a contender)", None,
                           ref="commits")
    name: Text | None = f("a contender instead of a commit: the tool, server or "
                          "configuration measured", None, example="cargo test")
    version: str | None = f("the contender's version", None, example="1.66.0")
    url: str | None = f("the contender's page: a web address", None)
    label: Text | None = f("what this side is ('main')", None)
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Study:
    id: str = f("name used in links (`#ID`) and references")
    title: Text = f("the study's title")
    before: Side = f("the version or contender before (the baseline)")
    after: Side = f("the version or contender after (compared with it)")
    machine: str | None = f("machine of every figure that names none", None, ref="machines")
    date: dt.date | None = f("date of every figure that names none", None)
    method: Text | None = f("how every figure was measured, unless it says", None)
    comparisons: tuple[Comparison, ...] = f("the comparisons, one by one")
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Claim:
    id: str = f("name used in references (`profiles.PROFILE.ID`)")
    result: Literal["shown", "not-shown"] = f("shown to work, or not shown")
    figure: Figure = f("how many were held (or tried)")
    uses: Figure | None = f("what it used ('2.39 cores of processor')", None)
    note: Text | None = f("a line under the claim", None)
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Profile:
    id: str = f("name used in references")
    title: Text = f("the profile's name ('Typical players')")
    description: Text | None = f("what it is", None)
    claims: tuple[Claim, ...] = f("what was shown and not shown with it")
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Limit:
    value: Number = f("the capacity")
    unit: str | None = f("its unit (the figure's unit)", None, ref="units")
    of: Text | None = f("what the capacity is ('the VPS')", None)
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class BudgetItem:
    id: str = f("name used in references")
    title: Text = f("what is used ('Processor')")
    figure: Figure = f("how much is used")
    limit: Limit | None = f("the capacity it is a share of; over it is 'over the limit'", None)
    note: Text | None = f("a line under it", None)
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Budget:
    id: str = f("name used in links and references")
    title: Text = f("the budget's title")
    items: tuple[BudgetItem, ...] = f("one line per resource")
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Detail:
    label: Text = f("what the figure is ('Time in seconds')")
    figure: Figure = f("the figure")
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class RunItem:
    id: str = f("name used in references")
    title: Text = f("what was tested")
    figure: Figure = f("the result")
    details: tuple[Detail, ...] = f("further figures of this test", ())
    note: Text | None = f("a line under it", None)
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Run:
    id: str = f("name that figures use in `run:`")
    title: Text = f("the run's title")
    date: dt.date | None = f("when it ran", None)
    machine: str | None = f("the machine of its figures", None, ref="machines")
    commit: str | None = f("the commit tested", None, ref="commits")
    command: str | None = f("the command that ran it, shown as code", None)
    intro: Text | None = f("what the run is", None)
    items: tuple[RunItem, ...] = f("what was tested, one by one", ())
    note: Text | None = f("what was and was not tested", None)
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Headline:
    id: str = f("name of the headline")
    label: Text = f("the words after the number")
    figure: str | None = f("reference of the figure shown (`comparisons.ID.after`)", None)
    value: Number | None = f("a rounded number stated by hand; needs `summarises`", None)
    unit: Literal["times"] | None = f("'times' shows the value as 2.5×", None)
    summarises: tuple[str, ...] = f("references (or formulas: `measurements.rate / 1000`) the "
                                    "stated value must agree with", ())
    says: Literal["about", "up-to", "at-least"] = f(
        "how the stated value is read: about (within the range of what it summarises, "
        "rounded), up-to (their highest, rounded), at-least (their lowest, rounded)", "about")
    status: Status | None = f("its evidence status; else its figure's, or the least sure of "
                              "what it summarises", None)
    detail: Text | None = f("the line after the badge", None)
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Data:
    site: Site = f("the site: title, languages, repositories, units")
    machines: tuple[Machine, ...] = f("the machines figures were measured on", ())
    commits: tuple[Commit, ...] = f("the versions figures cite", ())
    headlines: tuple[Headline, ...] = f("the figures at the top of the page", ())
    measurements: tuple[Measurement, ...] = f("figures of their own", ())
    studies: tuple[Study, ...] = f("comparisons of two versions or contenders", ())
    profiles: tuple[Profile, ...] = f("capacity claims, per load profile", ())
    budgets: tuple[Budget, ...] = f("shares of a capacity ('what 1,000 players cost')", ())
    runs: tuple[Run, ...] = f("test runs and what they showed", ())
    datasets: tuple[Dataset, ...] = f("records of runs, read from files (tables, charts)", ())
    roadmaps: tuple[Roadmap, ...] = f("tasks, their proofs and steps", ())
