#!/usr/bin/env python3
"""Build the site: `python build.py --help` lists the options."""

import gc
import os
import sys

# Importing the engine makes only objects that live as long as the process: the cycle
# collector would scan them a few dozen times for nothing (~4 ms of a ~0.2 s build).
gc.disable()
from progress_site.cli import main  # noqa: E402

gc.enable()

if __name__ == "__main__":
    status = main(sys.argv[1:])
    # Python's teardown frees every module and object one at a time (~3 ms of a 0.2 s
    # build) for a process about to end. Every file the build wrote is closed by now,
    # nothing registers exit handlers, and only the standard streams hold output.
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # a closed pipe (`| head`): what the reader wanted is already out
        pass
    os._exit(status)
