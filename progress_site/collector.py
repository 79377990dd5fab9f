"""Pausing Python's cycle collector around stages that build many objects and no cycles."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cycle collector for the block, then let it run as before.

    Loading, deriving and rendering a large site make about a million small objects
    (records, texts, positions, pages) and no reference cycles, so collecting finds
    nothing, yet the collector re-scans the growing heap again and again (see
    bench/scale.py). Memory is unchanged: objects without cycles are freed by reference
    counting whether the collector runs or not.

    What a stage made outlives it (it is the build's model), so on the way out it is set
    aside (`gc.freeze`) rather than scanned all at once by the collector waking up. The
    next stage, or the next build in the same process (--watch), hands it back
    (`gc.unfreeze`): nothing stays out of the collector's reach for more than a build.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    gc.unfreeze()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()
