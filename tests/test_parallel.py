"""The other languages rendered in a forked process: the same files, the same errors."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import jinja2
import pytest

from progress_site import fork as parallel
from progress_site.errors import BuildFailed
from progress_site.fork import Forked, can_fork
from progress_site.pipeline import BuildConfig, Built, make_site

from .conftest import TODAY


@pytest.fixture()
def forking(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fork whatever the size (the example is small), even in this test process: the
    example's charts are cached, so no child ever needs vl-convert's engine."""
    monkeypatch.setattr(parallel, "can_fork", lambda records: True)


@pytest.fixture()
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The children this process forks from now on, counted at the system's call."""
    started: list[int] = []
    real = os.fork

    def counted() -> int:
        pid = real()
        started.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", counted)
    return started


def config(source: Path) -> BuildConfig:
    return BuildConfig(source=source, out=source / "site", today=TODAY, strict=True)


def alone(source: Path, monkeypatch: pytest.MonkeyPatch) -> Built:
    """The site built in this process only, as where forking is unsafe."""
    with monkeypatch.context() as patched:
        patched.setattr(parallel, "can_fork", lambda records: False)
        return make_site(config(source))


def test_a_forked_build_writes_the_same_files(example_copy: Path, forking: None,
                                              forks: list[int],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    single = alone(example_copy, monkeypatch)
    assert forks == []
    forked = make_site(config(example_copy))
    assert len(forks) == 1
    assert forked.files == single.files
    assert forked.warnings == single.warnings


def test_the_child_compiles_no_template_the_parent_compiled(example_copy: Path, forking: None,
                                                           tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """Templates are compiled before the fork: the child renders its language with the
    parent's code (a template only another template names, as roadmap.html, aside)."""
    log = tmp_path / "compiled"
    real = jinja2.Environment.compile

    def logged(self: jinja2.Environment, source: str, name: str | None = None,
               *args: object, **kwargs: object) -> object:
        with log.open("a") as file:
            file.write(f"{os.getpid()} {name}\n")
        return real(self, source, name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(jinja2.Environment, "compile", logged)
    make_site(config(example_copy))
    by_child = [line.split()[1] for line in log.read_text().splitlines()
                if int(line.split()[0]) != os.getpid()]
    assert by_child == ["blocks/roadmap.html"]


def test_errors_of_the_other_language_come_back_in_order(example_copy: Path, forking: None,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    for lang in ("en", "fr"):
        page = example_copy / "content" / lang / "index.md"
        page.write_text(page.read_text("utf-8") + f"\n{{{{< no-such-{lang} >}}}}\n", "utf-8")
    with pytest.raises(BuildFailed) as single:
        alone(example_copy, monkeypatch)
    with pytest.raises(BuildFailed) as forked:
        make_site(config(example_copy))
    assert forked.value.render() == single.value.render()
    assert "no-such-en" in forked.value.render() and "no-such-fr" in forked.value.render()


def test_a_child_returns_its_result_or_raises_its_exception() -> None:
    assert Forked(lambda: {"page": b"bytes"}).result() == {"page": b"bytes"}

    def broken() -> None:
        raise KeyError("missing")

    with pytest.raises(KeyError, match="missing"):
        Forked(broken).result()


def test_a_child_that_dies_is_an_error_not_a_hang() -> None:
    with pytest.raises(RuntimeError, match="ended without a result"):
        Forked(lambda: os._exit(3)).result()

    def draw_charts() -> None:
        os._exit(3)

    with pytest.raises(RuntimeError, match=r"doing draw_charts\(\) ended without a result"):
        Forked(draw_charts).result()  # a dead child names its work, whatever it was


def test_forking_is_refused_where_it_is_unsafe(monkeypatch: pytest.MonkeyPatch) -> None:
    large = 10**9  # records: whether a site is large enough to gain is the bench's
    monkeypatch.setattr(parallel, "cpus", lambda: 2)
    monkeypatch.delitem(sys.modules, "vl_convert", raising=False)
    assert can_fork(large)
    monkeypatch.setitem(sys.modules, "vl_convert", sys)  # its engine has threads
    assert not can_fork(large)
    monkeypatch.delitem(sys.modules, "vl_convert")
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not can_fork(large)  # watch mode's server and observer
    finally:
        stop.set()
        thread.join()
    monkeypatch.setattr(parallel, "cpus", lambda: 1)
    assert not can_fork(large)


@pytest.mark.skipif(not Path("/proc/loadavg").exists(), reason="Linux counts its tasks there")
def test_a_core_is_idle_only_while_fewer_tasks_run_than_there_are_cores(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "cpus", lambda: 1)
    assert not parallel.idle_core()  # this process runs, on the only core
    monkeypatch.setattr(parallel, "cpus", lambda: 10**6)
    assert parallel.idle_core()


def test_a_build_beside_other_threads_forks_no_child(example_copy: Path, forks: list[int],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Watch mode builds beside its server and observer threads: it never forks."""
    # The example is small: forked whatever its size, where forking is safe.
    monkeypatch.setattr(parallel, "can_fork", lambda records: parallel.fork_safe())
    monkeypatch.setattr(parallel, "cpus", lambda: 2)
    monkeypatch.delitem(sys.modules, "vl_convert", raising=False)
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        beside = make_site(config(example_copy))
    finally:
        stop.set()
        thread.join()
    assert forks == []
    assert make_site(config(example_copy)).files == beside.files
    assert forks  # alone in its process, the same build forks
