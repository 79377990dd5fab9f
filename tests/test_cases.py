"""Broken-input cases: one folder per case under tests/cases/, each with its exact message.

A case is a small change to a fresh copy of the example site (its data/ and content/;
templates and locales come from the engine's own). Its folder holds:

- case.yaml: what to change, and what the build must do.

      edits:                      # applied in order
        - file: data/studies.yaml
          replace: "exact text"   # must occur exactly once in the file
          with: "new text"
        - file: data/studies.yaml
          encoding: cp1252        # re-save the whole file in this encoding
      write:                      # add or replace whole files (UTF-8)
        data/extra.yaml: "text"
      delete: [data/site.yaml]    # remove files
      args: [--strict]            # extra options for build.py
      ok: true                    # an `_ok` twin: the build must succeed
      contains: {index.html: ["text"]}   # ok cases: text the published page must hold
      lacks: {index.html: ["text"]}      # ok cases: text it must not hold
      xfail: "engine bug: ..."    # a known engine problem; the case fails until it is fixed

- expected.txt: the exact stderr of the build, compared whole. An `ok` case without
  expected.txt must print nothing on stderr; with one, stderr is compared with it (for a
  build that succeeds with warnings).

Every build runs the command line `build.py --source SRC --out OUT` runs (`cli.main`),
in the test's process (a new interpreter per case would cost more than most builds),
with SOURCE_DATE_EPOCH set to 2026-11-29, so "today" is fixed. The `ok` cases that take
no arguments and print nothing are built a few together, as tests/sites.py groups them
(`Grouped`): a case whose group does not build cleanly is built alone. A failing case must exit
with status 1, print no traceback, and leave OUT (a copy of the pristine build) byte for
byte as it was.

To regenerate every expected.txt after an intended change of the messages:

    UPDATE_CASES=1 python -m pytest tests/test_cases.py

then read each changed message (`git diff tests/cases`) as a maintainer would: does it
point at the right line and column, name the key path, say what is wrong and how to fix
it? Only then commit. The expected.txt of an `xfail` case is the message we want, written
by hand; UPDATE_CASES leaves it alone. Once the engine is fixed, drop the `xfail:` line
and regenerate.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import signal
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from progress_site.cli import main

from .conftest import TEMPLATES, copy_example

ROOT = Path(__file__).resolve().parents[1]
CASES = Path(__file__).resolve().parent / "cases"
BUILD = ROOT / "build.py"
# 2026-11-29 00:00 UTC: the build's "today", so dates in the future stay in the future.
SOURCE_DATE_EPOCH = "1795910400"
UPDATE = os.environ.get("UPDATE_CASES") == "1"
CASE_KEYS = {"edits", "write", "delete", "args", "ok", "contains", "lacks", "xfail"}


@dataclass(frozen=True)
class Result:
    """What one run of build.py did."""

    status: int
    stdout: str
    stderr: str


class Hung(BaseException):
    """A build that took longer than its test allows (not an Exception: the command
    line's own error handling must not catch it)."""


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise Hung in the block after `seconds` (SIGALRM: the tests' main thread)."""
    def hung(signum: int, frame: Any) -> None:
        raise Hung(f"the build took more than {seconds} s")
    previous = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_build(source: Path, out: Path, args: list[str], timeout: float = 120) -> Result:
    """Run the command line as a user does, from the source's parent folder, with a fixed
    'today'; a build that takes longer than `timeout` seconds fails the test (it hangs)."""
    stdout, stderr = io.StringIO(), io.StringIO()
    with (pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(stdout),
          contextlib.redirect_stderr(stderr), deadline(timeout)):
        patch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
        patch.chdir(source.parent)
        try:
            status = main(["--source", str(source), "--out", str(out), *args], TEMPLATES)
        except SystemExit as exc:  # argparse's refusals
            status = exc.code if isinstance(exc.code, int) else 2
    return Result(status, stdout.getvalue(), stderr.getvalue())


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under a folder, by relative path, with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@dataclass(frozen=True)
class Pristine:
    """The example site's source and its build, made once per test session."""

    source: Path
    out: Path
    files: dict[str, bytes]


@pytest.fixture(scope="session")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Pristine:
    """The example site copied and built once; every case starts from a copy of it."""
    base = tmp_path_factory.mktemp("pristine")
    source = copy_example(base / "src")
    out = base / "out"
    result = run_build(source, out, [])
    assert (result.status, result.stderr) == (0, ""), result.stderr
    return Pristine(source, out, snapshot(out))


def load_case(folder: Path) -> dict[str, Any]:
    """A case's settings, refusing keys the runner does not know (a typo would pass)."""
    case = yaml.safe_load((folder / "case.yaml").read_text(encoding="utf-8")) or {}
    unknown = set(case) - CASE_KEYS
    assert not unknown, f"{folder.name}/case.yaml: unknown keys {sorted(unknown)}"
    assert folder.name.endswith("_ok") == bool(case.get("ok")), (
        f"{folder.name}: a case named *_ok has `ok: true`, and only such a case")
    return case


def apply_edit(source: Path, edit: dict[str, Any]) -> None:
    """Replace one exact text in a file, and/or re-save it in another encoding."""
    path = source / edit["file"]
    text = path.read_text(encoding="utf-8")
    if "replace" in edit:
        count = text.count(edit["replace"])
        assert count == 1, (f"{edit['file']}: {edit['replace']!r} occurs {count} times, "
                            "not once; has the example data changed?")
        text = text.replace(edit["replace"], edit["with"])
    path.write_bytes(text.encode(edit.get("encoding", "utf-8")))


def apply_case(source: Path, case: dict[str, Any]) -> None:
    """Make the case's changes to a copy of the example source."""
    for edit in case.get("edits", []):
        apply_edit(source, edit)
    for name, text in case.get("write", {}).items():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text(text, encoding="utf-8")
    for name in case.get("delete", []):
        (source / name).unlink()


def case_params() -> list[Any]:
    """One test per case folder; cases that show a known engine bug are strict xfails."""
    params = []
    for folder in sorted(p for p in CASES.iterdir() if p.is_dir()):
        reason = load_case(folder).get("xfail")
        marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
        params.append(pytest.param(folder, id=folder.name, marks=marks))
    return params


@dataclass
class Grouped:
    """The `_ok` cases that build with nothing to print, built a few together as
    tests/sites.py groups them (one copy of the example takes the edits of cases that touch
    different text): a group is built when a member's test first asks, and its members
    are checked on its build. Where a group's build fails or prints anything, each member
    is built alone (by its own test, as the other cases are), which names the case at
    fault; so is a member whose pages lack what they must hold beside the others' edits."""

    root: Path
    pristine: Pristine
    groups: dict[str, tuple[int, list[tuple[str, dict[str, Any]]]]]  # by member's name
    built: dict[int, tuple[Path, set[str]]]  # each group built: its output, members shown

    def out(self, name: str) -> Path | None:
        """The published folder of the group's build that shows this case, if any."""
        if name not in self.groups:
            return None
        number, members = self.groups[name]
        if number not in self.built:
            self.built[number] = self.build(number, members)
        out, shown = self.built[number]
        return out if name in shown else None

    def build(self, number: int, members: list[tuple[str, dict[str, Any]]]
              ) -> tuple[Path, set[str]]:
        """Build one group: its output, and the members whose pages it shows as they must."""
        folder = self.root / f"group-{number}"
        source, out = folder / "src", folder / "out"
        shutil.copytree(self.pristine.source, source)
        shutil.copytree(self.pristine.out, out)
        for _, case in members:
            apply_case(source, case)
        result = run_build(source, out, [])
        if ((result.status, result.stderr) != (0, "") or "Traceback" in result.stdout
                or any(p.name.startswith(".out-") for p in folder.iterdir())):
            return out, set()
        return out, {name for name, case in members if shows(out, case)}


def shows(out: Path, case: dict[str, Any]) -> bool:
    """Whether the published pages hold (and lack) the texts the case names."""
    try:
        check_pages(out, case)
    except AssertionError:
        return False
    return True


@pytest.fixture(scope="module")
def grouped(pristine: Pristine, tmp_path_factory: pytest.TempPathFactory) -> Grouped:
    """The `_ok` cases without arguments or expected.txt, in groups (none when updating)."""
    from .sites import case_groups, ok_cases  # sites.py imports this module

    quiet = [] if UPDATE else [(name, case) for name, case in ok_cases()
                               if not case.get("args") and not (CASES / name / "expected.txt")
                               .exists()]
    groups = {name: (number, group) for number, group in enumerate(case_groups(quiet))
              for name, _ in group if len(group) > 1}
    return Grouped(tmp_path_factory.mktemp("grouped"), pristine, groups, {})


def check_pages(out: Path, case: dict[str, Any]) -> None:
    """The published pages hold (or lack) the texts the case names."""
    for page, texts in case.get("contains", {}).items():
        html = (out / page).read_text(encoding="utf-8")
        for text in texts:
            assert text in html, f"{page} should contain {text!r}"
    for page, texts in case.get("lacks", {}).items():
        html = (out / page).read_text(encoding="utf-8")
        for text in texts:
            assert text not in html, f"{page} should not contain {text!r}"


@pytest.mark.parametrize("folder", case_params())
def test_case(folder: Path, pristine: Pristine, grouped: Grouped, tmp_path: Path) -> None:
    """The build of the edited example exits as the case says, with exactly its message."""
    case = load_case(folder)
    shared = grouped.out(folder.name)
    if shared is not None:  # built with other `_ok` cases: exit 0, nothing printed
        assert {"index.html", "fr/index.html"} <= set(snapshot(shared))
        check_pages(shared, case)
        return
    source, out = tmp_path / "src", tmp_path / "out"
    shutil.copytree(pristine.source, source)
    shutil.copytree(pristine.out, out)
    apply_case(source, case)

    result = run_build(source, out, list(case.get("args", [])))

    assert "Traceback" not in result.stdout + result.stderr
    assert "internal error" not in result.stderr, result.stderr
    expected_file = folder / "expected.txt"
    ok = bool(case.get("ok"))
    assert result.status == (0 if ok else 1), result.stderr
    if UPDATE and not case.get("xfail"):
        if result.stderr or not ok:
            expected_file.write_text(result.stderr, encoding="utf-8")
        else:
            expected_file.unlink(missing_ok=True)
    assert ok or expected_file.exists(), "no expected.txt: run UPDATE_CASES=1 (see the top)"
    expected = expected_file.read_text(encoding="utf-8") if expected_file.exists() else ""
    assert result.stderr == expected
    if ok:
        assert {"index.html", "fr/index.html"} <= set(snapshot(out))
        check_pages(out, case)
    else:
        assert "The previous site was left as it was." in result.stderr
        assert snapshot(out) == pristine.files, "a failed build changed the published site"
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".out-")]
    assert not leftovers, f"the build left temporary folders behind: {leftovers}"
