"""Load, validate and derive: what rendering reads, every problem found so far at its
source line; the same checks for `record`, on data edited but not yet written."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from progress_site.collector import collector_paused
from progress_site.derive.site import Model, derive
from progress_site.errors import BuildFailed, Problem, SourceLines
from progress_site.load.site import Source, load
from progress_site.model.failed import spoiled
from progress_site.render.dashboard import dashboard_pages, unlinked_series, unused_group_titles
from progress_site.render.i18n import Catalogs, load_catalogs
from progress_site.render.typed import typed_numbers
from progress_site.validate.placeholders import check_placeholders
from progress_site.validate.rules import validate

if TYPE_CHECKING:
    from progress_site.load.document import Document
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
        found = derived(config.source, config.today, config.strict)
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


@dataclass(frozen=True, slots=True)
class Derived:
    """The source as derive left it: its model, and the problems found so far (errors
    of validate among them: derive reads past the records they are about)."""

    source: Source
    model: Model
    problems: list[Problem]


def derived(root: Path, today: dt.date, strict: bool,
            edited: Mapping[Path, str] | None = None) -> Derived:
    """Load, validate and derive the source folder, each problem with its source line;
    BuildFailed with every error found when load finds one that leaves nothing whole to
    check. Validate's errors do not stop it: derive reads the records that passed (and
    what depends on one that failed as not judgeable), so that what cites the data is
    checked in the same build. The data files `edited` names are read as holding its
    texts (`record` checks a change before writing it); nothing is written."""
    source, problems = load(root, strict, edited)
    lines = () if source is None else source.documents
    # All errors at once: the data is checked past those that spoiled a part only.
    if source is None or not source.checkable:
        fail_on_errors(problems, root, lines)
    assert source is not None
    data, found, failed = validate(source.data, today, source.aside, strict)
    failed = dataclasses.replace(failed, told=spoiled(source.data.datasets, source.aside,
                                                      problems))
    problems += with_source_lines(found + check_placeholders(data, strict), root, lines)
    model, found = derive(data, today, source.history, failed)
    return Derived(source, model, problems + with_source_lines(found, root, lines))


def fail_on_errors(problems: list[Problem], root: Path,
                   documents: Sequence[Document] = ()) -> None:
    """Stop the build once, with every problem found so far."""
    if any(not p.warning for p in problems):
        raise BuildFailed(with_source_lines(problems, root, documents))


def with_source_lines(problems: list[Problem], root: Path,
                      documents: Sequence[Document] = ()) -> list[Problem]:
    """Problems found after loading (cross-checks, blocks) with their source line too:
    as the file read (`documents`, which may hold an edit not written yet), else as the
    file on disk has it."""
    texts = {doc.display: doc for doc in documents}
    on_disk = SourceLines(root)
    return [p if p.source_line or not p.location.line else
            dataclasses.replace(p, source_line=texts[p.location.file].line(p.location.line)
                                if p.location.file in texts else
                                on_disk.line(p.location.file, p.location.line))
            for p in problems]
