"""Validate stage: cross-references, unique ids and the evidence rules, all at once (a
figure's own rules in figures.py).

It also hands each figure the provenance of what holds it (a study's machine and
commits, a run's date), so later stages see every figure complete.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Mapping
from types import MappingProxyType
from typing import Any

from progress_site.errors import Problem, did_you_mean
from progress_site.model.declare import Link, Unit
from progress_site.model.failed import Failed, failed_records
from progress_site.model.keys import figures
from progress_site.model.limits import MAX_EVERY_PAGE, MAX_TITLE
from progress_site.model.links import check_url, repository_problem
from progress_site.model.roadmap import Step, Task
from progress_site.model.schema import (
    BudgetItem,
    Claim,
    Commit,
    Comparison,
    Data,
    Limit,
    Repository,
    RunItem,
    Side,
    Site,
)
from progress_site.model.units import BUILTIN_UNITS, unit_hint
from progress_site.model.values import Number, Text, Where, problem
from progress_site.model.walk import reference_fields, walk
from progress_site.validate.dates import check_dates
from progress_site.validate.figures import awaiting_history, check_figure
from progress_site.validate.provenance import check_holders, complete

# What an id may be: it names anchors, blocks and references (`{{< run real-network >}}`).
ID_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")

# Records whose ids need only be unique within what holds them (`profiles.P.claims.ID`).
SCOPED = (Claim, BudgetItem, RunItem)
# The numbers of a record that only make sense above zero (pull requests, limits, days).
POSITIVE: Mapping[type, tuple[str, ...]] = MappingProxyType({
    Link: ("pull", "issue"), Commit: ("pull",), Limit: ("value",), Site: ("stale_after_days",)})


def known_ids(data: Data, aside: Collection[tuple[str, str]]) -> dict[str, set[str]]:
    """The ids each kind of reference may name; those `aside` too (records that did not
    read, already told: naming them is no mistake of its own)."""
    known = {
        "units": set(BUILTIN_UNITS) | {u.id for u in data.site.units},
        "repositories": {r.id for r in data.site.repositories},
        "machines": {m.id for m in data.machines},
        "commits": {c.id for c in data.commits},
        "runs": {r.id for r in data.runs},
    }
    for kind, ident in aside:
        if kind in known:  # not a whole collection set aside (`collections`)
            known[kind].add(ident)
    return known


def reference_hint(kind: str, value: str, known: set[str]) -> str:
    """'did you mean ...?' (ignoring case: `kB` is `KB`), else where to declare it."""
    if kind == "units":
        return unit_hint(value, known)
    by_case = {k.lower(): k for k in known}
    if value.lower() in by_case:
        return f"did you mean '{by_case[value.lower()]}'?"
    return did_you_mean(value, sorted(known), otherwise=f"declare it under `{kind}:`")


def check_references(data: Data, records: list[Any], aside: Collection[tuple[str, str]],
                     dangling: set[tuple[str, str]], unread: Mapping[str, str]
                     ) -> list[Problem]:
    """Every `machine:`, `commit:`, `unit:`... names something that exists; what names
    nothing is added to `dangling`, as (collection, id). An id of a collection a file
    that could not be read whole may hold (`unread`: the collection, that file) may be
    one of its records: told once, where it is first named, however often it is."""
    ids = known_ids(data, aside)
    out = []
    told: set[tuple[str, str]] = set()
    for rec in records:
        for name, kind in reference_fields(type(rec)):
            value = getattr(rec, name)
            if value is None or value in ids[kind] or (kind, value) in told:
                continue
            singular = kind.rstrip("s").replace("repositorie", "repository")
            if kind in unread:
                told.add((kind, value))
                out.append(problem(rec.where, name, f"no {singular} '{value}' in the files "
                                   f"read: {unread[kind]}, which could not be read whole, "
                                   "may declare it", unread_hint(kind, value, unread[kind])))
            else:
                out.append(problem(rec.where, name, f"no {singular} '{value}'",
                                   reference_hint(kind, value, ids[kind])))
            dangling.add((kind, value))
    return out


def unread_hint(kind: str, value: str, file: str) -> str:
    """What to do about an id that may be a record of a file that did not read."""
    return (f"fix {file} first; if '{value}' is none of its records, declare it under "
            f"`{kind}:` (this is told once, not at every place that names '{value}')")


def check_unique_ids(records: list[Any]) -> list[Problem]:
    """Ids are unique within their kind (claims, items: within what holds them)."""
    seen: dict[tuple[str, str, tuple[str | int, ...]], Where] = {}
    out = []
    for rec in records:
        rec_id = getattr(rec, "id", None)
        if not isinstance(rec_id, str):
            continue
        if not isinstance(rec, Unit) and not ID_WORD.fullmatch(rec_id):  # units: `Mbit/s`
            out.append(problem(rec.where, "id", f"id {rec_id!r} is not a word",
                               "use letters, digits, '-', '_' and '.' only: ids name "
                               "blocks, anchors and references"))
        scope = rec.where.path[:-2] if isinstance(rec, SCOPED) else ()
        key = (type(rec).__name__, rec_id, scope)
        if key in seen:
            first = seen[key].location
            out.append(problem(rec.where, "id", f"id '{rec_id}' is used twice (first at "
                               f"{first})", "give each one its own id"))
        else:
            seen[key] = rec.where
    return out


def check_done(item: Task | Step, today: dt.date) -> list[Problem]:
    """A done task or step has a proof and a validation date, not in the future."""
    w = item.where
    out = []
    if item.status == "done":
        if isinstance(item, Task) and not item.proofs:
            out.append(problem(w, "status", "a done task needs a proof",
                               "add `proofs:` with a link to the merged work"))
        if item.validated is None:
            out.append(problem(w, "status", "a done task needs its validation date",
                               "add `validated: YYYY-MM-DD`"))
    elif item.validated is not None:
        out.append(problem(w, "validated", f"only a done task has a validation date (this one "
                           f"is {item.status})", "remove it, or set `status: done`"))
    if item.validated is not None and item.validated > today:
        out.append(problem(w, "validated", f"validation date {item.validated} is in the "
                           f"future (today is {today})", "a task is validated once it is "
                           "checked: use the date it was"))
    return out


def check_repository(repo: Repository) -> list[Problem]:
    """A repository's address starts every pull, issue and commit link: an http(s)
    address with a host and a path (model/links.py)."""
    why = repository_problem(repo.url)
    if not why:
        return []
    return [problem(repo.where, "url", f"the address {why}",
                    "write it as https://host/owner/name")]


def check_remeasure(data: Data) -> list[Problem]:
    """`remeasure_since` compares figures' dates with its commit's: that commit needs one."""
    rule = data.site.remeasure_since
    commit = next((c for c in data.commits if rule and c.id == rule.commit), None)
    if rule is None or commit is None or commit.date is not None:
        return []
    return [problem(rule.where, "commit", f"commit '{commit.id}' has no date, so figures "
                    "cannot be compared with it", f"add `date: YYYY-MM-DD` to commit "
                    f"'{commit.id}' under commits:")]


def check_site_texts(site: Site) -> list[Problem]:
    """An error at each of the site's texts printed on every page that is longer than
    MAX_TITLE (the title) or MAX_EVERY_PAGE (the others), in any language."""
    out = []
    for name, most in (("title", MAX_TITLE), ("tagline", MAX_EVERY_PAGE),
                       ("description", MAX_EVERY_PAGE), ("footer", MAX_EVERY_PAGE)):
        text: Text | None = getattr(site, name)
        for lang, words in text.by_language if text else ():
            if len(words) > most:
                out.append(language_problem(site.where, name, lang, f"{len(words):,} "
                           f"characters, more than the {most:,} a site's {name} may have: "
                           "it is printed on every page", "say it in fewer words; the rest "
                           "belongs in a page (content/<language>/...)"))
    return out


def language_problem(where: Where, name: str, lang: str, message: str, hint: str
                     ) -> Problem:
    """A problem at one language of a text field (`footer.fr`), when it was written as
    such; else at the field."""
    item = getattr(where.fields, "item", None)
    if item is None or name not in where.fields:
        return problem(where, name, message, hint)
    at = item(name, lang)
    return Problem(at, message, (*where.path, name) + ((lang,) if at != where.of(name)
                                                        else ()), hint)


def check_positive(rec: Any, names: tuple[str, ...]) -> list[Problem]:
    """Each of `names` (POSITIVE) that is 0 or less."""
    out = []
    for name in names:
        value = getattr(rec, name)
        amount = value.value if isinstance(value, Number) else value
        if amount is not None and amount <= 0:
            out.append(problem(rec.where, name, f"{name} must be above 0, got {amount:g}",
                               "check the sign and the number"))
    return out


def check_link(link: Link, data: Data) -> list[Problem]:
    """A link is a safe address, or a pull/issue number in a repository with an address."""
    w = link.where
    ways = [n for n in ("url", "pull", "issue") if getattr(link, n) is not None]
    if len(ways) != 1:
        return [problem(w, ways[-1] if ways else "text", "a link has one of url, pull, issue",
                        "keep exactly one")]
    if link.url is not None:
        reason = check_url(link.url)
        return [problem(w, "url", reason, "use an http(s) address or a page of this site")] \
            if reason else []
    repo = link.repository or data.site.repository
    if repo is None:
        return [problem(w, ways[0], "a pull or issue number needs a repository",
                        "add `repository:` here, or site.repository")]
    return []


def check_comparison(comp: Comparison) -> list[Problem]:
    """Both sides of a comparison are in the comparison's unit."""
    out = []
    for side in (comp.before, comp.after):
        if side.unit is not None and side.unit != comp.unit:
            out.append(problem(side.where, "unit", f"unit '{side.unit}' differs from the "
                               f"comparison's ('{comp.unit}')", "compare like with like"))
    if comp.decimals is not None and not 0 <= comp.decimals <= 6:
        out.append(problem(comp.where, "decimals", f"decimals must be 0 to 6, got "
                           f"{comp.decimals}", "give how many decimals its ratio and change "
                           "print, e.g. `decimals: 2`"))
    if comp.control and comp.noise is None:
        out.append(problem(comp.where, "control", "a control needs its `noise:` band (in %)",
                           "give the change that is still noise, e.g. `noise: 2`"))
    return out


def check_side(side: Side) -> list[Problem]:
    """A side is a commit of this project or a named contender, never both nor neither;
    a version and a page belong to a contender, and the page is a safe address."""
    w = side.where
    if side.commit is not None and side.name is not None:
        return [problem(w, "name", "a side is a commit or a contender, not both",
                        "keep `commit:` for a version of this project, or `name:` (with "
                        "`version:`) for a tool, server or configuration")]
    if side.commit is None and side.name is None:
        return [problem(w, "commit", "a side needs a `commit:` or a contender's `name:`",
                        "add `commit: ID` for a version of this project, or `name:` and "
                        "`version:` for a tool, server or configuration")]
    out = []
    for name in ("version", "url"):
        if side.commit is not None and getattr(side, name) is not None:
            out.append(problem(w, name, f"`{name}:` belongs to a contender, and this side "
                               "is a commit", f"remove `{name}:`, or name the contender "
                               "with `name:` instead of `commit:`"))
    reason = check_url(side.url) if side.url is not None else None
    if reason:
        out.append(problem(w, "url", reason, "use an http(s) address or a page of this site"))
    return out


def validate(data: Data, today: dt.date, aside: Collection[tuple[str, str]] = (),
             strict: bool = False, unread: Mapping[str, str] = MappingProxyType({})
             ) -> tuple[Data, list[Problem], Failed]:
    """The completed data, every problem the cross-file rules find, and the records they
    were found in (`aside`: the (collection, id) of records that did not read, which
    references may name; `unread`: the collections a file that did not read may hold,
    with that file); dates after `today` are warnings, errors with `strict`."""
    # References are checked where they are written, before figures inherit them: one
    # wrong machine in a study is one error, not one per figure of the study.
    records = list(walk(data))
    dangling: set[tuple[str, str]] = set()
    ids = check_unique_ids(records)
    out = check_references(data, records, aside, dangling, unread) + ids + \
        check_remeasure(data)
    # A study or run without the machine or date its figures need: said once, there.
    at_holders, excused = check_holders(data)
    out += at_holders
    data = complete(data)
    # Figures are checked complete, found by their keys in the completed data; the other
    # records are the same before and after.
    for keyed in figures(data):
        waiting = awaiting_history(keyed.key.parts[1], keyed.figure) \
            if len(keyed.key.parts) == 2 and keyed.key.parts[0] == "measurements" else None
        out += [waiting] if waiting else check_figure(keyed.figure,
                                                      excused.get(keyed.key, frozenset()))
    for rec in records:
        if isinstance(rec, (Task, Step)):
            out += check_done(rec, today)
        elif isinstance(rec, Link):
            out += check_link(rec, data)
        elif isinstance(rec, Comparison):
            out += check_comparison(rec)
        elif isinstance(rec, Side):
            out += check_side(rec)
        elif isinstance(rec, Repository):
            out += check_repository(rec)
        elif isinstance(rec, Site):
            out += check_site_texts(rec)
        out += check_positive(rec, POSITIVE.get(type(rec), ()))
    # On the records as written: a study's date is said once, not once per figure.
    out += check_dates(records, today, strict)
    return data, out, failed(records, out, dangling, ids)


def failed(records: list[Any], found: list[Problem], dangling: set[tuple[str, str]],
           ids: list[Problem]) -> Failed:
    """The records the errors are about: derive works on the others, and leaves out or
    reads as not judgeable what depends on these (a good build pays nothing here)."""
    errors = [(p.location.file, p.key_path) for p in found if not p.warning]
    if not errors:
        return Failed()
    places = {(rec.where.location.file, rec.where.path) for rec in records
              if isinstance(getattr(rec, "where", None), Where) and rec.where.path}
    return Failed(failed_records(places, errors), frozenset(dangling),
                  frozenset((p.location.file, p.key_path[:-1]) for p in ids
                            if p.key_path[-1:] == ("id",)))
