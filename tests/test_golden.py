"""The example site, byte for byte, against the committed golden copy in tests/golden/.

After an intended change, regenerate the golden copy and review the diff:

    UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"
# Charts and other binary-ish assets are checked elsewhere; the golden copy holds the
# files a reviewer reads in a diff.
TEXT_SUFFIXES = (".html", ".css", ".json", ".xml", ".txt")


def golden_names(files: dict[str, bytes]) -> list[str]:
    """The built files that the golden copy holds."""
    return sorted(n for n in files if n.endswith(TEXT_SUFFIXES))


def write_golden(files: dict[str, bytes]) -> None:
    """Replace the golden copy with this build's files."""
    shutil.rmtree(GOLDEN, ignore_errors=True)
    for name in golden_names(files):
        target = GOLDEN / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(files[name])


def test_golden_site(example_files: dict[str, bytes]) -> None:
    if os.environ.get("UPDATE_GOLDEN"):
        write_golden(example_files)
        pytest.skip("golden copy rewritten; review `git diff tests/golden`")
    expected = sorted(p.relative_to(GOLDEN).as_posix() for p in GOLDEN.rglob("*")
                      if p.is_file())
    assert golden_names(example_files) == expected, "files added or removed"
    for name in expected:
        built = example_files[name].decode("utf-8")
        assert built == (GOLDEN / name).read_text("utf-8"), (
            f"{name} differs from tests/golden/{name}; if intended, run "
            "UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py and review the diff")
