"""Load, validate and derive (`derive.derived`), then the catalogs, the typed-number lint
and the dashboard's pages: what rendering reads, every problem found so far at its
source line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from progress_site.collector import collector_paused
from progress_site.derive.derived import derived, with_source_lines
from progress_site.derive.site import Model
from progress_site.errors import Problem
from progress_site.render.dashboard import dashboard_pages, unlinked_series, unused_group_titles
from progress_site.render.i18n import Catalogs, load_catalogs
from progress_site.render.typed import typed_numbers

if TYPE_CHECKING:
    from progress_site.load.pages import Page
    from progress_site.pipeline.config import BuildConfig


@dataclass(frozen=True, slots=True)
class Prepared:
    """What rendering reads once load, validate and derive are done: the model, the pages,
    the catalogs, and the problems found so far. With errors among them (`failing`),
    rendering only checks the pages, so that a build tells every error at once."""

    model: Model
    pages: tuple[Page, ...]
    catalogs: Catalogs
    problems: list[Problem]

    @property
    def failing(self) -> bool:
        """Whether an error was found: nothing is to be published."""
        return any(not p.warning for p in self.problems)


def prepare(config: BuildConfig) -> Prepared:
    """Load, validate and derive every input, with every problem found; BuildFailed only
    when loading left nothing whole to check (the pages need the data to be checked)."""
    # Large sites make about a million objects here and no cycles (bench/scale.py).
    with collector_paused():
        found = derived(config.source, config.today, config.strict, kept=config.remembered)
        model, pages, problems = found.model, found.source.pages, found.problems
        catalogs = load_catalogs([(f, config.source) for f in config.folders("locales")],
                                 model.data.site.languages, config.strict,
                                 config.engine_folder("locales"))
        problems += list(catalogs.problems)
        problems += typed_numbers(model, pages, config.source, config.strict)
    pages += dashboard_pages(model, pages, catalogs)
    problems += with_source_lines(unlinked_series(model, pages, config.strict)
                                  + unused_group_titles(model, config.strict), config.source)
    return Prepared(model, pages, catalogs, problems)
