"""Cold build of the example site against a floor, in the same run.

Each run is a fresh process (imports included), as a user's `python build.py` is.
The floor (bench/floor.py) renders the same data with jinja2 + yaml + babel and
nothing else. Runs alternate between the two so that noise hits both alike.

    python bench/cold_build.py [--runs 10]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from common import BUILD, REPO, run_timed, table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        build = [*BUILD, "--out", str(out / "site")]
        floor = [sys.executable, str(REPO / "bench" / "floor.py"), str(REPO), str(out / "floor")]
        run_timed(build)  # the first build fills the template and chart caches
        ours, base = [], []
        for _ in range(args.runs):
            ours.append(run_timed(build)[0])
            base.append(run_timed(floor)[0])
    m_ours, m_base = statistics.median(ours), statistics.median(base)
    print(table([
        ("what", "median (s)", "min (s)", "runs"),
        ("progress-site build (warm caches)", f"{m_ours:.3f}", f"{min(ours):.3f}", str(args.runs)),
        ("floor: jinja2 + yaml + babel", f"{m_base:.3f}", f"{min(base):.3f}", str(args.runs)),
    ]))
    print(f"\nratio build / floor: {m_ours / m_base:.2f} (target: <= 1.00)")


if __name__ == "__main__":
    main()
