"""Watch mode under a flood of saves: a data file that fails to build, saved every 10 ms
for 10 s, then left alone for 5 s. The watch process's processor time in each part, and
how many builds it ran: saves that come faster than a build are gathered into one build
(debounced), and once they stop the process sleeps.

    python bench/watch_saves.py [--seconds 10] [--every 0.01]

Targets: at most half a core while the saves come (the builds the debounce lets through),
and no processor time to speak of (< 0.1 s) in the 5 s after the last save.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from common import BUILD, REPO, table, user_env

TARGET_SHARE, TARGET_IDLE_S = 0.5, 0.1
IDLE = 5.0


def cpu_seconds(pid: int) -> float:
    """The processor time (user and system) of a running process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def saves(path: Path, seconds: float, every: float) -> int:
    """Save a file that fails to build every `every` seconds for `seconds`; how many."""
    count, end = 0, time.monotonic() + seconds
    while time.monotonic() < end:
        path.write_text(f"machines:\n  - {{id: m, name: M, unknown{count}: 1}}\n")
        count += 1
        time.sleep(every)
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--every", type=float, default=0.01)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="watch-saves-") as tmp:
        source = Path(tmp) / "src"
        shutil.copytree(REPO / "tests" / "hostile" / "base", source)
        log = Path(tmp) / "log.txt"
        with log.open("w") as out:
            watch = subprocess.Popen([*BUILD, "--watch", "--port", "0", "--source",
                                      str(source), "--out", str(Path(tmp) / "site")],
                                     stdout=out, stderr=subprocess.STDOUT, env=user_env())
            try:
                while "Serving" not in log.read_text():
                    time.sleep(0.1)
                start = cpu_seconds(watch.pid)
                count = saves(source / "data" / "broken.yaml", args.seconds, args.every)
                during = cpu_seconds(watch.pid) - start
                time.sleep(IDLE)
                idle = cpu_seconds(watch.pid) - start - during
            finally:
                watch.terminate()
                watch.wait(10)
        builds = log.read_text().count("Aborted with")
    print(table([("saves", "builds", "processor while saving (s)", "share of a core",
                  f"processor in the {IDLE:.0f} s after (s)", "targets"),
                 (f"{count:,}", f"{builds:,}", f"{during:.2f}",
                  f"{during / args.seconds:.0%}", f"{idle:.2f}",
                  f"<= {TARGET_SHARE:.0%}, < {TARGET_IDLE_S}")]))


if __name__ == "__main__":
    main()
