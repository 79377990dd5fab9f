#!/usr/bin/env python3
"""Build the site: `python build.py --help` lists the options (as `python -m progress_site`)."""

import sys

from progress_site.cli import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
