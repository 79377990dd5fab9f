"""`python -m progress_site`: the same command line as `python build.py`."""

import sys

from progress_site.cli import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
