"""Work in a forked process: its result or its exception comes back; forking is refused
where it is unsafe."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

from progress_site import fork as parallel
from progress_site.fork import Forked, fork_safe


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
    monkeypatch.setattr(parallel, "cpus", lambda: 2)
    monkeypatch.delitem(sys.modules, "vl_convert", raising=False)
    assert fork_safe()
    monkeypatch.setitem(sys.modules, "vl_convert", sys)  # its engine has threads
    assert not fork_safe()
    monkeypatch.delitem(sys.modules, "vl_convert")
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not fork_safe()  # watch mode's server and observer
    finally:
        stop.set()
        thread.join()
    monkeypatch.setattr(parallel, "cpus", lambda: 1)
    assert not fork_safe()


@pytest.mark.skipif(not Path("/proc/loadavg").exists(), reason="Linux counts its tasks there")
def test_a_core_is_idle_only_while_fewer_tasks_run_than_there_are_cores(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "cpus", lambda: 1)
    assert not parallel.idle_core()  # this process runs, on the only core
    monkeypatch.setattr(parallel, "cpus", lambda: 10**6)
    assert parallel.idle_core()
