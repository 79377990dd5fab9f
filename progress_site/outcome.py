"""What a build tells its user: its summary and warnings, what changed since the site it
replaced (or, with `--changes OLD_SITE`, since any published site), and the exit status
of `--fail-on-regression`. The command line (`cli.py`) parses and dispatches; this runs
the build it asked for and reports."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from progress_site.errors import UsageError, rendered, visible, visible_path

if TYPE_CHECKING:
    from progress_site.charts.ahead import Drawer
    from progress_site.pipeline import BuildConfig, Built
    from progress_site.publish import lastbuild

T = TypeVar("T")
# The exit status of --fail-on-regression: 1 is bad data, 2 a wrong command line.
REGRESSED = 3


def plural(count: int, noun: str) -> str:
    """`1 warning`, `2 warnings`."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def replay(record: lastbuild.Record, out: Path) -> int:
    """A build that found nothing changed: the last build's warnings again, and one line."""
    for warning in record.warnings:
        print("\n".join(visible(line) for line in warning.split("\n")), file=sys.stderr)
    counts = plural(record.pages, "page") + (
        f", {plural(len(record.warnings), 'warning')}" if record.warnings else "")
    print(f"Nothing changed since the last build: {visible_path(str(out))} was left as it "
          f"was ({counts}); --force builds it again.")
    return 0


def build_and_report(config: BuildConfig, gate: bool = False,
                     last: lastbuild.LastBuild | None = None,
                     charts: Drawer | None = None) -> int:
    """Build and publish the site, then print its warnings, a summary, and what changed
    since the site it replaced; with `gate`, REGRESSED when it found a new regression.
    With `last`, a build that exits 0 is remembered: the same build again does nothing."""
    from progress_site.pipeline import build

    previous = previous_document(config.out) if gate else None
    started = time.perf_counter()
    built = build(config, drawer=charts, changes=True)
    # A file's first hundred warnings, as its errors: 20,000 typed numbers printed 10 MB.
    for warning in rendered(built.warnings):
        print(warning, file=sys.stderr)
    pages = sum(1 for name in built.files if name.endswith("index.html"))
    elapsed = time.perf_counter() - started
    print(f"Built {plural(pages, 'page')} into {visible_path(str(config.out))} in "
          f"{elapsed:.2f} s" + (f" ({plural(len(built.warnings), 'warning')})"
                                if built.warnings else "") + ".")
    if built.changes is not None:
        # Ids come from the data, and the old side from any file: spelled out.
        print("\n".join(["Changes since the previous site:",
                         *("  " + visible_path(x) for x in built.changes)])
              if built.changes else "No page, figure or task changed since the previous "
                                    "site.")
    status = 0
    if gate:
        if previous is None:
            print("warning: --fail-on-regression: no previous site to compare with, so no "
                  "regression is new", file=sys.stderr)
        status = gate_status(previous, published(built, whole=False))
    if last is not None and status == 0:
        # A warning about the site this one replaced is not met again by the next build.
        last.remember(pages, rendered([w for w in built.warnings
                                       if not Path(w.location.file).is_relative_to(config.out)]))
    return status


def previous_document(out: Path) -> dict[str, Any] | None:
    """The parsed data.json of the site a build replaces; None when there is none, or
    none that reads (the build warns about that itself)."""
    from progress_site.publish import changes

    try:
        old = changes.read_published(out)
    except OSError:
        return None
    return None if old is None else changes.parse_document(old)


def published(built: Built, whole: bool = True) -> dict[str, Any]:
    """What a new site's data.json holds, made from its model rather than parsed again:
    the whole document, else its series alone (all the regression gate reads)."""
    from progress_site.publish.datajson import plain
    from progress_site.publish.regressions import series_json

    assert built.model is not None  # a site made without errors has its model
    return plain(built.model) if whole else {"series": series_json(built.model)}


def gate_status(old: dict[str, Any] | None, new: dict[str, Any]) -> int:
    """REGRESSED, each new regression told on stderr, when the new site (`new`: the
    document its data.json holds) has any; else 0."""
    from progress_site.publish import steps  # --fail-on-regression only

    found = steps.regressions_between(old, new)
    for row in found:
        print(f"regression: {visible_path(steps.told(row))}", file=sys.stderr)
    return REGRESSED if found else 0


def print_changes(config: BuildConfig, old_site: Path, form: str = "text",
                  gate: bool = False) -> int:
    """`--changes OLD_SITE`: build in memory, print what differs from OLD_SITE (as text or
    Markdown), write nothing; with `gate`, REGRESSED when there is a new regression."""
    from progress_site.pipeline import make_site
    from progress_site.publish import changes, comment  # --changes only

    built = make_site(config)
    files, new = built.files, published(built)
    old = read_old_site(old_site)
    pages = changes.pages_changed(old_site, files)
    if form == "markdown":
        print(comment.markdown(old_summary(old_site,
                                           lambda: comment.compare(old, new, pages))),
              end="")
    else:
        lines = old_summary(old_site, lambda: changes.lines_between(old, new))
        lines += changes.pages_line(pages)
        print("\n".join(f"- {visible_path(line)}" for line in lines) if lines else
              "No page, figure or task changed.")
    return gate_status(changes.parse_document(old), new) if gate else 0


def old_summary(old_site: Path, make: Callable[[], T]) -> T:
    """The summary `make` works out, its ValueError (the old side is not a data.json)
    told as a usage error."""
    try:
        return make()
    except ValueError as exc:
        raise UsageError(f"{visible_path(str(old_site))}/data.json: {exc}; pass a folder "
                         "that a build of progress-site published (before there is one, "
                         'a data.json of {"version": 1, "today": "YYYY-MM-DD"} is a site '
                         "with nothing on it)") from exc


def read_old_site(old_site: Path) -> bytes:
    """OLD_SITE's data.json, or a usage error that says why there is none to read."""
    from progress_site.publish import changes

    shown = visible_path(str(old_site))
    try:
        old = changes.read_published(old_site)
    except OSError as exc:
        raise UsageError(f"{shown}: cannot read its data.json: {exc.strerror or exc}") from exc
    if old is None:
        raise UsageError(f"{shown}: no data.json here; pass a folder that a build of "
                         "progress-site published")
    return old
