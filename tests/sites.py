"""The sites that the page checks run on (tests/test_html_valid.py, test_fragments.py).

The example, built without and with a base URL (one with a space, which every address
must carry percent-encoded), the example without its French home page, the example with
history files and its benchmarks dashboard (tests/history_site.py), the same with
runs, a measurements table and a whole legend (tests/runs_site.py), and every
`_ok` case of tests/cases/ (each a variant of the example that builds): all built in
memory, once a test session, sharing the session's cache folder (conftest).

The `_ok` cases are built a few together: one copy of the example takes the edits of
several cases (those that touch different text), so that each page is built and checked
once for all of them, not once a case. A group whose build fails, or in which a case's
own page checks (`contains`, `lacks`) fail, is built again a case at a time.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from progress_site.errors import BuildFailed
from progress_site.pipeline import BuildConfig, make_site

from .conftest import REPO, TEMPLATES, TODAY, copy_example
from .done_site import done_source
from .history_site import history_source
from .runs_site import runs_source
from .test_cases import CASES, apply_case, load_case

# How many `_ok` cases one site takes at most: few enough that a failure in a group
# names a handful of cases to look at.
GROUP = 10

BASE_URL = "https://example.org/a%20b/"  # as `--base-url 'https://example.org/a b/'` gives


@dataclass(frozen=True)
class Site:
    """One built site: its files by published path, and its base URL if it has one."""

    name: str
    files: dict[str, bytes]
    base_url: str | None = None
    cases: tuple[str, ...] = ()  # the `_ok` cases of tests/cases/ this site holds


def source_copy(root: Path, name: str) -> Path:
    """A fresh copy of the example's data/ and content/ (its charts are in the session's
    cache folder, which every build shares)."""
    return copy_example(root / name)


def build(source: Path, base_url: str | None = None) -> dict[str, bytes]:
    """Every file of a site, built in memory as `build.py` would (none written)."""
    config = BuildConfig(source=source, out=source / "site", today=TODAY, base_url=base_url,
                         compiled=TEMPLATES)
    return make_site(config).files


def built_sites(factory: pytest.TempPathFactory) -> tuple[Site, ...]:
    """The example and its variants, built once a session (the session's temporary
    folder names it: test modules share the sites)."""
    return _built(factory.getbasetemp())


@functools.cache
def _built(session: Path) -> tuple[Site, ...]:
    """The sites, built in a folder of the session's temporary folder."""
    root = session / "sites"
    root.mkdir()
    example = source_copy(root, "example")
    sites = [Site("example", build(example)),
             Site("example-base-url", build(example, BASE_URL), BASE_URL)]
    no_french_home = source_copy(root, "no-french-home")
    (no_french_home / "content" / "fr" / "index.md").unlink()
    # Its author's link to that page goes to the English one instead: what is checked
    # here is the links the build writes itself (feeds, 404 pages, alternates).
    report = no_french_home / "content" / "fr" / "horizon-four-way.md"
    report.write_text(report.read_text("utf-8").replace("(../index.html)",
                                                        "(../../index.html)"), "utf-8")
    sites.append(Site("no-french-home", build(no_french_home)))
    sites.append(Site("history", build(history_source(root / "history"))))
    sites.append(Site("runs", build(runs_source(root / "runs"))))
    sites.append(Site("done", build(done_source(root / "done"))))
    for number, group in enumerate(case_groups(ok_cases())):
        sites += group_sites(root, f"ok-{number}", group)
    return tuple(sites)


def ok_cases() -> list[tuple[str, dict[str, Any]]]:
    """Every `_ok` case of tests/cases/ that builds (not a known engine bug): name, case."""
    found = []
    for folder in sorted(p for p in CASES.iterdir() if p.name.endswith("_ok")):
        case = load_case(folder)
        if not case.get("xfail"):
            found.append((folder.name, case))
    return found


def touched(case: dict[str, Any]) -> tuple[set[str], set[str]]:
    """The files a case edits in place, and those it writes whole or deletes."""
    edited = {edit["file"] for edit in case.get("edits", [])}
    return edited, set(case.get("write", {})) | set(case.get("delete", []))


def fits(case: dict[str, Any], texts: dict[str, str], whole: set[str]) -> bool:
    """Whether a case's edits still apply to a group's copy (`texts`: its edited files as
    they are now; `whole`: the files it wrote or deleted): each text it replaces is there
    once, and no file is both replaced whole and edited by two cases."""
    edited, replaced = touched(case)
    if (edited | replaced) & whole or replaced & set(texts):
        return False
    for edit in case.get("edits", []):
        text = texts.get(edit["file"], (REPO / edit["file"]).read_text("utf-8"))
        if "replace" in edit:
            if text.count(edit["replace"]) != 1:
                return False
            texts[edit["file"]] = text.replace(edit["replace"], edit["with"])
    return True


@dataclass
class Group:
    """`_ok` cases built as one site: their names and cases, the files they edited (as
    edited so far), the files they wrote or deleted, and whether it takes no more."""

    members: list[tuple[str, dict[str, Any]]]
    texts: dict[str, str]
    whole: set[str]
    full: bool = False

    def take(self, name: str, case: dict[str, Any]) -> bool:
        """Add a case if its edits apply beside the others'; whether they did."""
        trial = dict(self.texts)
        if self.full or len(self.members) >= GROUP or not fits(case, trial, self.whole):
            return False
        self.members.append((name, case))
        self.texts = trial
        self.whole |= touched(case)[1]
        # A file saved in another encoding is no longer one the next case can edit.
        self.full = any("encoding" in edit for edit in case.get("edits", []))
        return True


def case_groups(cases: list[tuple[str, dict[str, Any]]]) -> list[list[tuple[str, dict[str, Any]]]]:
    """The cases in groups of at most GROUP whose edits apply together, first fit."""
    groups: list[Group] = []
    for name, case in cases:
        if not any(group.take(name, case) for group in groups):
            groups.append(Group([], {}, set()))
            assert groups[-1].take(name, case), f"{name}: its edits do not apply to the example"
    return [group.members for group in groups]


def group_sites(root: Path, name: str, group: list[tuple[str, dict[str, Any]]]) -> list[Site]:
    """The site of a group of cases; each case on its own where the group's build fails or
    does not show what the case's pages must (or must not) hold."""
    source = source_copy(root, name)
    for _, case in group:
        apply_case(source, case)
    try:
        files = build(source)
    except BuildFailed:  # one case's edit refused beside another's: each alone, below
        files = {}
    alone = [(n, c) for n, c in group if not files or not shows(files, c)]
    held = tuple(n for n, _ in group if n not in {n for n, _ in alone})
    sites = [Site(name, files, cases=held)] if files else []
    for case_name, case in alone:
        source = source_copy(root, case_name)
        apply_case(source, case)
        sites.append(Site(case_name, build(source), cases=(case_name,)))
    return sites


def shows(files: dict[str, bytes], case: dict[str, Any]) -> bool:
    """Whether a build holds the texts a case's pages must hold, and lacks those they
    must lack (tests/test_cases.py checks the same on the case's own build)."""
    def page(name: str) -> str:
        return files.get(name, b"").decode("utf-8")
    return (all(text in page(name) for name, texts in case.get("contains", {}).items()
                for text in texts)
            and not any(text in page(name) for name, texts in case.get("lacks", {}).items()
                        for text in texts))
