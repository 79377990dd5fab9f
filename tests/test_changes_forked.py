"""The old data.json parsed in a forked process beside the build: the same summary."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from progress_site.errors import BuildFailed
from progress_site.fork import Forked
from progress_site.pipeline import BuildConfig, build
from progress_site.publish import changes

from .conftest import TODAY


@pytest.fixture()
def children(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every old data.json parsed in a child, even the example's small one in this test
    process; the children started, by pid."""
    started: list[int] = []
    real = Forked.__init__

    def counted(self: Forked[object], work: object) -> None:
        real(self, work)  # type: ignore[arg-type]
        started.append(self.pid)

    monkeypatch.setattr(changes, "FORK_BYTES", 0)
    monkeypatch.setattr(changes, "fork_safe", lambda: True)
    monkeypatch.setattr(Forked, "__init__", counted)
    return started


def edit(source: Path, before: str, after: str) -> None:
    studies = source / "data" / "studies.yaml"
    studies.write_text(studies.read_text("utf-8").replace(before, after), "utf-8")


def summaries(source: Path, out: Path, parallel: bool) -> list[list[str] | None]:
    """The changes each of three builds tells: the first, one edit, the same again."""
    config = BuildConfig(source=source, out=out, today=TODAY, parallel=parallel)
    told = [build(config).changes]
    edit(source, "after: {value: 7.92}", "after: {value: 7.5}")
    told.append(build(config).changes)
    told.append(build(config).changes)
    edit(source, "after: {value: 7.5}", "after: {value: 7.92}")
    return told


def test_a_summary_parsed_in_a_child_is_the_same(example_copy: Path, tmp_path: Path,
                                                 children: list[int]) -> None:
    alone = summaries(example_copy, tmp_path / "alone", parallel=False)
    assert children == []
    forked = summaries(example_copy, tmp_path / "forked", parallel=True)
    assert len(children) == 2  # a child for each build with an old site
    assert forked == alone
    assert alone[0] is None and alone[2] == []
    assert alone[1] == ["figure comparisons.cpu-per-packet-500.after: 7.92 us -> 7.5 us",
                        "2 pages changed: fr/index.html, index.html"]


@pytest.mark.parametrize("old", [b"[" * 100_000 + b"]" * 100_000, b"\xff\xfe not text",
                                 b'{"studies": {"derived": {"quantity": 5}}}'])
def test_an_old_data_json_the_child_cannot_read_is_a_warning(
        old: bytes, example_copy: Path, tmp_path: Path, children: list[int]) -> None:
    config = BuildConfig(source=example_copy, out=tmp_path / "out", today=TODAY)
    build(config)
    (tmp_path / "out" / "data.json").write_bytes(old)
    built = build(config)
    assert len(children) == 1
    assert built.changes is None
    assert [w.message for w in built.warnings] == [
        "no summary of what changed since the previous site: this file is not a data.json "
        "that a build published"]


def test_a_build_that_fails_stops_its_child(example_copy: Path, tmp_path: Path,
                                            children: list[int]) -> None:
    config = BuildConfig(source=example_copy, out=tmp_path / "out", today=TODAY)
    build(config)
    edit(example_copy, "after: {value: 7.92}", "after: {value: abc}")
    with pytest.raises(BuildFailed):
        build(config)
    assert len(children) == 1
    with pytest.raises(ChildProcessError):  # reaped: no child left to wait for
        os.waitpid(children[0], os.WNOHANG)
