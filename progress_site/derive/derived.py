"""Load, validate and derive a source folder, every problem found at its source line:
what a build prepares from, and what `record` checks an edit with (which so imports no
stage above this one: no rendering, no publishing)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from progress_site.derive.site import Model, derive
from progress_site.errors import BuildFailed, Problem, SourceLines
from progress_site.load.site import Source, load
from progress_site.model.failed import spoiled
from progress_site.validate.placeholders import check_placeholders
from progress_site.validate.rules import validate

if TYPE_CHECKING:
    from progress_site.load.document import Document
    from progress_site.load.parse_cache import Remembered


@dataclass(frozen=True, slots=True)
class Derived:
    """The source as derive left it: its model, and the problems found so far (errors
    of validate among them: derive reads past the records they are about)."""

    source: Source
    model: Model
    problems: list[Problem]


def derived(root: Path, today: dt.date, strict: bool,
            edited: Mapping[Path, str] | None = None, kept: Remembered | None = None
            ) -> Derived:
    """The source folder loaded, validated and derived; BuildFailed when load leaves
    nothing whole to check. Validate's errors do not stop it (derive reads past them), so
    what cites the data is checked in the same build. `edited`: data files' texts that
    `record` checks before writing them; `kept`: what earlier builds parsed."""
    source, problems = load(root, strict, edited, kept)
    lines = () if source is None else source.documents
    # All errors at once: the data is checked past those that spoiled a part only.
    if source is None or not source.checkable:
        fail_on_errors(problems, root, lines)
    assert source is not None
    data, found, failed = validate(source.data, today, source.aside, strict, source.unread)
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
