"""The renderers' versions that key the chart caches, read without importlib.metadata."""

from __future__ import annotations

import os
import shutil
from importlib.metadata import version
from pathlib import Path

import pytest

from progress_site import versions
from progress_site.versions import installed_version


@pytest.mark.parametrize("dist", ["altair", "vl-convert-python", "markdown-it-py", "PyYAML"])
def test_installed_version_agrees_with_importlib_metadata(dist: str) -> None:
    assert installed_version(dist) == version(dist)


def test_an_unknown_distribution_is_an_error_not_a_guess() -> None:
    installed_version.cache_clear()
    with pytest.raises(Exception, match="no-such-dist"):
        installed_version("no-such-dist")


def test_the_code_digest_changes_with_any_edit_of_a_module_it_names(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("charts.py", "units.py"):
        shutil.copy2(versions.ENGINE / name, tmp_path / name)
    monkeypatch.setattr(versions, "ENGINE", tmp_path)
    digest = versions.code_digest.__wrapped__  # not the process's remembered digests
    before = digest("charts.py", "units.py")
    assert digest("charts.py", "units.py") == before
    assert digest("charts.py") != before
    module = tmp_path / "units.py"
    info = module.stat()
    module.write_text(module.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert digest("charts.py", "units.py") != before  # longer
    module.write_text(module.read_text(encoding="utf-8")[:-1].replace("a", "b", 1),
                      encoding="utf-8")
    os.utime(module, ns=(info.st_atime_ns, info.st_mtime_ns + 1))
    assert digest("charts.py", "units.py") != before  # same size, later
