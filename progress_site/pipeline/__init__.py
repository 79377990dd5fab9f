"""The build, top to bottom: load -> validate -> derive -> render -> publish.

`build` reads as the stages run; each part is a module of this folder: config.py (what a
build is told), prepared.py (load, validate, derive), rendering.py (every file in memory,
the pages asked for first, the charts) and languages.py (a large site's other languages
in a forked process). Publishing is `publish.swap`'s.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from progress_site.pipeline.config import ENGINE_ROOT, BuildConfig
from progress_site.pipeline.prepared import Prepared, prepare
from progress_site.pipeline.rendering import Built, finish
from progress_site.publish import changes
from progress_site.publish.swap import publish

if TYPE_CHECKING:
    from progress_site.charts.ahead import Drawer

__all__ = ["ENGINE_ROOT", "BuildConfig", "Built", "Prepared", "build", "finish", "make_site",
           "prepare"]


def build(config: BuildConfig, drawer: Drawer | None = None) -> Built:
    """Build the site and publish it: every file is made in memory, and what changed
    since the published site worked out, before `out` is touched; on any error `out` is
    left as it was. `drawer`: a child ready to draw the charts the pages miss."""
    # The old data.json is read now; one of another day, large, is parsed beside the build.
    with changes.Previous(config.out, config.today) as previous:
        ready = prepare(config)  # load -> validate -> derive
        built = finish(config, ready, drawer=drawer)  # render
        # Before the swap, which replaces the data.json to compare with: nothing may fail
        # once the new site is out (a summary that cannot be made is a warning).
        lines, found = changes.before_swap(previous, built.files, ready.model)
    publish(built.files, config.out)
    return dataclasses.replace(built, warnings=built.warnings + found, changes=lines)


def make_site(config: BuildConfig) -> Built:
    """Every file of the site in memory, nothing written (`--changes`, tests)."""
    return finish(config, prepare(config))
