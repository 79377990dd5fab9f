"""Each problem of a content page is told at its line and column, however many the page
holds and however long its lines: the places a build prints are found in the page's
text here, independently, and compared one by one."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from progress_site.errors import BuildFailed, Problem
from progress_site.pipeline import BuildConfig, make_site

from .conftest import TEMPLATES, TODAY

HOSTILE = Path(__file__).parent / "hostile"
REFERENCE = "{{ nothing }}"


def problems_of(tmp_path: Path, body: str) -> list[Problem]:
    """Every problem of a build of the smallest site with a page of `body` (in English)."""
    source = tmp_path / "src"
    shutil.copytree(HOSTILE / "base", source)
    (source / "content/en/many.md").write_text("---\ntitle: M\n---\n" + body, "utf-8")
    (source / "content/fr/many.md").write_text("---\ntitle: M\n---\nx\n", "utf-8")
    config = BuildConfig(source=source, out=source / "site", today=TODAY,
                         compiled=TEMPLATES)
    with pytest.raises(BuildFailed) as failed:
        make_site(config)
    return [p for p in failed.value.problems if p.location.file == "content/en/many.md"]


def written(body: str) -> list[tuple[int, int]]:
    """(line, column) of each reference's name in a page of `body`, as an editor counts
    them: the body starts on the file's line 4, columns count characters from 1."""
    return [(number, match.start() + 4)
            for number, line in enumerate(body.split("\n"), start=4)
            for match in re.finditer(re.escape(REFERENCE), line)]


def told(problems: list[Problem]) -> list[tuple[int, int]]:
    """(line, column) of each problem, in the order the build sorts them."""
    return [(p.location.line, p.location.column) for p in problems]


def test_problems_on_one_long_line_are_each_at_their_column(tmp_path: Path) -> None:
    body = "Intro é → ok.\n\n" + "x€ " + (REFERENCE + " ü ") * 3000 + "\nlast " + REFERENCE
    problems = problems_of(tmp_path, body)
    assert told(problems) == written(body)
    assert len(problems) == 3001
    for problem in problems:
        at = problem.location.column - 1 - problem.source_from
        assert problem.source_line[at:].startswith("nothing }}")
        assert problem.message == "no number named 'nothing'"


def test_problems_on_many_lines_are_each_at_their_line(tmp_path: Path) -> None:
    lines = [f"{'- ' if n % 3 == 0 else '> ' if n % 3 == 1 else ''}{'ä' * (n % 7)}"
             f"{REFERENCE}{' and ' + REFERENCE if n % 5 == 0 else ''}" for n in range(2000)]
    body = "\n\n".join(lines) + "\n"
    problems = problems_of(tmp_path, body)
    assert told(problems) == written(body)
    assert len(problems) == 2000 + 400
    last = problems[-1]
    assert last.render().splitlines()[1:3] == [
        "    " + lines[-1], "    " + " " * (last.location.column - 1) + "^"]
