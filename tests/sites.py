"""The sites that the page checks run on (tests/test_html_valid.py, test_fragments.py).

The example, built without and with a base URL (one with a space, which every address
must carry percent-encoded), the example without its French home page, the example with
history files and its benchmarks dashboard (tests/history_site.py), the same with
runs, a measurements table and a whole legend (tests/runs_site.py), and every
`_ok` case of tests/cases/ (each a variant of the example that builds): all built in
memory, once a test session, sharing the session's cache folder (conftest).
"""

from __future__ import annotations

import functools
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from progress_site.pipeline import BuildConfig, make_site

from .conftest import REPO, TODAY
from .done_site import done_source
from .history_site import history_source
from .runs_site import runs_source
from .test_cases import CASES, apply_case, load_case

BASE_URL = "https://example.org/a%20b/"  # as `--base-url 'https://example.org/a b/'` gives


@dataclass(frozen=True)
class Site:
    """One built site: its files by published path, and its base URL if it has one."""

    name: str
    files: dict[str, bytes]
    base_url: str | None = None


def source_copy(root: Path, name: str) -> Path:
    """A fresh copy of the example's data/ and content/ (its charts are in the session's
    cache folder, which every build shares)."""
    source = root / name
    for folder in ("data", "content"):
        shutil.copytree(REPO / folder, source / folder)
    return source


def build(source: Path, base_url: str | None = None) -> dict[str, bytes]:
    """Every file of a site, built in memory as `build.py` would (none written)."""
    config = BuildConfig(source=source, out=source / "site", today=TODAY, base_url=base_url)
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
    for folder in sorted(p for p in CASES.iterdir() if p.name.endswith("_ok")):
        case = load_case(folder)
        if case.get("xfail"):
            continue
        source = source_copy(root, folder.name)
        apply_case(source, case)
        sites.append(Site(folder.name, build(source)))
    return tuple(sites)
