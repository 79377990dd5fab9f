"""The build, top to bottom: load -> validate -> derive -> render -> publish.

`build` reads as the stages run, and is the one way in for the command line and watch
mode alike (docs/architecture.md says which module of this folder holds which part).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

from progress_site.pipeline.config import ENGINE_ROOT, BuildConfig
from progress_site.pipeline.prepared import Prepared, prepare
from progress_site.pipeline.rendering import Built, finish
from progress_site.publish import changes as summary
from progress_site.publish.swap import publish

if TYPE_CHECKING:
    from progress_site.charts.ahead import Drawer
    from progress_site.charts.cache import LatestCharts

__all__ = ["ENGINE_ROOT", "BuildConfig", "Built", "Prepared", "build", "finish", "make_site",
           "prepare"]


def build(config: BuildConfig, first: frozenset[str] = frozenset(),
          shown: Callable[[dict[str, bytes]], None] | None = None,
          last_drawings: LatestCharts | None = None, drawer: Drawer | None = None,
          changes: bool = False) -> Built:
    """Build the site and publish it: every file is made in memory before `out` is
    touched; on any error `out` is left as it was. `first`, `shown`, `last_drawings` and
    `drawer` are `finish`'s. With `changes`, what changed since the published site is
    worked out before the swap (`Built.changes`), for the command line's summary."""
    previous = summary.Previous(config.out) if changes else None  # the site it replaces
    ready = prepare(config)  # load -> validate -> derive
    built = finish(config, ready, first, shown, last_drawings, drawer)  # render
    if previous is not None:
        # Before the swap, which replaces the data.json to compare with: nothing may
        # fail once the new site is out (a summary that cannot be made is a warning).
        lines, found = summary.before_swap(previous, built.files, ready.model)
        built = dataclasses.replace(built, warnings=built.warnings + found, changes=lines)
    publish(built.files, config.out)
    return built


def make_site(config: BuildConfig) -> Built:
    """Every file of the site in memory, nothing written (`--changes`, tests)."""
    return finish(config, prepare(config))
