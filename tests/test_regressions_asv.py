"""Our steps beside asv's `step_detect` on the fixed-seed corpus: a reference, never a
dependency. Every disagreement is printed (`pytest -s`); a few are expected (the two
methods differ at the edge of the noise), many mean one of them broke.

asv is not installed by the project. Point ASV_WHEEL at a downloaded wheel to run this:

    pip download asv==0.6.6 --no-deps -d /tmp/asv
    ASV_WHEEL=$(ls /tmp/asv/asv-*.whl) python3 -m pytest -s tests/test_regressions_asv.py

Only `asv/step_detect.py` and its compiled helper are taken from the wheel, as a package
of their own (asv's `__init__` would import the rest of asv).
"""

from __future__ import annotations

import importlib
import os
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

from progress_site.derive.regressions import analyse

from .regression_corpus import corpus, series


@pytest.fixture(scope="module")
def step_detect(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """asv's step_detect, loaded from the wheel named by ASV_WHEEL."""
    wheel = os.environ.get("ASV_WHEEL")
    if not wheel or not Path(wheel).is_file():
        pytest.skip("set ASV_WHEEL to a downloaded asv wheel (see this file's docstring)")
    package = tmp_path_factory.mktemp("asv") / "asv_reference"
    package.mkdir()
    (package / "__init__.py").write_text("", "utf-8")
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if name == "asv/step_detect.py" or name.startswith("asv/_rangemedian"):
                (package / Path(name).name).write_bytes(archive.read(name))
    sys.path.insert(0, str(package.parent))
    try:
        return importlib.import_module("asv_reference.step_detect")
    finally:
        sys.path.remove(str(package.parent))


def asv_regressions(module: ModuleType, values: tuple[float, ...]) -> list[int]:
    """Where asv's regressions start (first index of the worse level), at its 5 %."""
    found = module.detect_regressions(module.detect_steps(list(values)), threshold=0.05)
    return [after for _, after, _, _ in (found[2] or [])]


def disagreements(module: ModuleType, seed: int, change: float, outliers: bool
                  ) -> list[str]:
    """The corpus series where our regressions and asv's differ by more than a commit."""
    found = []
    for i, p in enumerate(corpus(seed, 50, change=change, outliers=outliers)):
        ours = [s.index for s in analyse(series(p.values)).steps
                if s.direction == "regression"]
        theirs = asv_regressions(module, p.values)
        if len(ours) != len(theirs) or any(abs(a - b) > 1 for a, b in zip(ours, theirs,
                                                                          strict=True)):
            found.append(f"series {i} (step at {p.at}): ours {ours}, asv {theirs}")
    return found


@pytest.mark.parametrize(("change", "outliers", "most"), [
    (0.0, False, 2), (0.0, True, 2), (0.10, False, 5), (0.10, True, 5), (0.50, False, 1)])
def test_our_regressions_agree_with_asv(step_detect: ModuleType, change: float,
                                         outliers: bool, most: int) -> None:
    found = disagreements(step_detect, 31, change, outliers)
    print(f"\n{change:.0%} step, outliers {outliers}: {len(found)} of 50 differ",
          *found, sep="\n  ")
    assert len(found) <= most
