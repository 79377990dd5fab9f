"""Where a page's active content was written: at the line of the site's own template (or
asset) that writes it, else at the page it was found in.

A page is checked once it is whole (active.py), when which template wrote which part of
it is no longer known; the markup is looked for again in the site's own files, first as
the page holds it, then by what it is (`<script`, `onclick=`, `javascript:`). Markup a
template computes (`"<scr" ~ "ipt>"`) is in no file: it is told at the page.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Sequence
from pathlib import Path

from progress_site.errors import Location, Problem
from progress_site.regular import read_regular
from progress_site.render.active import Found, active_content, surely_inert
from progress_site.render.sandbox import MAX_TEMPLATE

HINT = ("a site's templates may write markup, but nothing a browser runs or loads into "
        "the page: no <script>, event handler (on...=), javascript:, vbscript: or data: "
        "address, <iframe>, <object>, <embed>, <base>, <form> or <meta http-equiv=refresh> "
        "(docs/security.md, \"Templates and catalogs of a site\")")


class OwnFiles:
    """The site's own template files (assets too) of a build, read when a page first
    holds active content, then kept: a site whose every page holds some reads them once,
    not once a page."""

    def __init__(self, folders: Sequence[Path | str]) -> None:
        """`folders`: the template folders, the engine's theme last (it writes none)."""
        self.folders = folders[:-1]

    @functools.cached_property
    def files(self) -> list[tuple[str, list[str]]]:
        """Each file as messages name it, with its lines (`own_files`)."""
        return own_files(self.folders)


def active_problems(html: str, sources: OwnFiles, display: str, template: str,
                    problems: list[Problem]) -> None:
    """Add to `problems` each thing of a page rendered with `template` (for the source
    file `display`) that no page may hold, at the line of `sources` that writes it; each
    told once for the whole site."""
    if surely_inert(html):  # most pages: html.parser need not read them
        return
    for item in active_content(html):
        problem = placed(item, sources.files, display, template)
        if problem not in problems:
            problems.append(problem)


def own_files(folders: Sequence[Path | str]) -> list[tuple[str, list[str]]]:
    """The site's own template files (assets too), as messages name them, with their
    lines; in a stable order."""
    files = []
    for folder in folders:
        top = Path(folder).resolve()
        for path in sorted(walked(Path(folder))):
            if not path.resolve().is_relative_to(top):  # a link out: never quoted
                continue
            try:
                text = read_regular(path, MAX_TEMPLATE).decode("utf-8", "replace")
            except OSError:  # a folder, a FIFO, a link out: no template Jinja read
                continue
            shown = (Path("templates") / path.relative_to(folder)).as_posix()
            files.append((shown, text.splitlines()))
    return files


def walked(folder: Path) -> list[Path]:
    """Every file under a folder, links to folders not followed."""
    return [Path(root, name) for root, _, names in os.walk(folder) for name in names]


def placed(item: Found, sources: list[tuple[str, list[str]]], display: str,
           template: str) -> Problem:
    """The problem of one thing found, at the first line of a file that writes it, else
    at the page."""
    what, written, pattern = item
    for needle in (re.escape(written.splitlines()[0] if written else ""), pattern):
        if not needle:
            continue
        rx = re.compile(needle, re.IGNORECASE)
        for shown, lines in sources:
            for number, line in enumerate(lines, start=1):
                match = rx.search(line)
                if match:
                    # At the attribute itself when the line shows it.
                    exact = re.compile(pattern, re.IGNORECASE).search(line, match.start())
                    column = (exact or match).start() + 1
                    noun = "template" if shown.endswith(".html") else "file"
                    return Problem(Location(shown, number, column),
                                   f"this {noun} writes {what}, which no page may hold",
                                   hint=HINT, source_line=line)
    return Problem(Location(display), f"this page, as its template {template} renders it, "
                   f"holds {what} ({written}), which no page may hold", hint=HINT)
