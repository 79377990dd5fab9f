"""Work done in a forked process, beside the build's own: the charts a first build draws
(`charts/ahead.py`). The child is a fork of the build (no pickling of its state, no
re-import); only its result, or the exception it raised, comes back, pickled through a pipe.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


def fork_safe() -> bool:
    """Whether a fork is safe here, and has a second core to run on.

    Never with other threads (watch mode's server and observer, which a fork would copy
    mid-step), nor once vl-convert is loaded: its JavaScript engine runs threads of its
    own that Python does not list, and a child drawing a chart would wait on them forever.
    """
    return (hasattr(os, "fork") and cpus() > 1
            and threading.active_count() == 1 and "vl_convert" not in sys.modules)


def cpus() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def idle_core() -> bool:
    """Whether a core is idle now: fewer tasks running than cores, this process included
    (the kernel's count, /proc/loadavg); True where it cannot be read. On a machine busy
    with other work, a second process of ours takes a core from it, and its start is
    paid for without a core of its own to gain."""
    try:
        with open("/proc/loadavg", encoding="ascii") as file:
            running = int(file.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return True
    return running < cpus()


class Forked(Generic[T]):
    """`work()` running in a child process; `result()` waits for what it returned."""

    def __init__(self, work: Callable[[], T]) -> None:
        read, write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns
            os.close(read)
            _run_child(work, write)
        os.close(write)
        self.read = read
        # Named in the error of a child that dies.
        self.what = getattr(getattr(work, "func", work), "__name__", "work")  # a partial's

    def result(self) -> T:
        """What `work()` returned, or the exception it raised, raised here."""
        with os.fdopen(self.read, "rb") as pipe:
            data = pipe.read()
        _, status = os.waitpid(self.pid, 0)
        if not data:
            raise RuntimeError(f"the forked process doing {self.what}() ended without a "
                               f"result (wait status {status})")
        done, value = pickle.loads(data)
        if done:
            result: T = value
            return result
        raise value

    def cancel(self) -> None:
        """Stop the child (the build failed or was interrupted here) and reap it."""
        os.close(self.read)
        with contextlib.suppress(ProcessLookupError):  # it may have finished already
            os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)


def _run_child(work: Callable[[], T], write: int) -> None:
    """Run `work`, send (True, result) or (False, exception) to the parent, and exit
    without running the parent's exit handlers or flushing its copied buffers."""
    try:
        try:
            payload = pickle.dumps((True, work()), protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException as exc:  # everything goes to the parent, which decides
            payload = _pickled_failure(exc)
        with os.fdopen(write, "wb") as pipe:
            pipe.write(payload)
    finally:
        os._exit(0)


def _pickled_failure(exc: BaseException) -> bytes:
    """The exception, pickled; or a RuntimeError naming it when it cannot be."""
    try:
        return pickle.dumps((False, exc))
    except Exception:
        return pickle.dumps((False, RuntimeError(f"{type(exc).__name__}: {exc}")))
