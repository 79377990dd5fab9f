"""Installed versions of the renderers, which the caches of drawn charts are keyed on."""

from __future__ import annotations

import functools
import os
import sys


@functools.cache
def installed_version(dist: str) -> str:
    """The version of an installed distribution, read from its `.dist-info` folder's name.

    importlib.metadata says the same, but importing it costs 15-20 ms: a tenth of a whole
    build of the example site. It is the fallback for installs laid out otherwise.
    """
    prefix = dist.replace("-", "_").lower() + "-"
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.lower().startswith(prefix) and name.endswith(".dist-info"):
                return name[len(prefix):-len(".dist-info")]
    from importlib.metadata import version

    return version(dist)
