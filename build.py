#!/usr/bin/env python3
"""Build the site: `python build.py --help` lists the options."""

import gc
import sys

# Importing the engine makes only objects that live as long as the process: the cycle
# collector would scan them a few dozen times for nothing (~4 ms of a ~0.2 s build).
gc.disable()
from progress_site.cli import main  # noqa: E402

gc.enable()

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
