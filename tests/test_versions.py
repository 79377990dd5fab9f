"""The renderers' versions that key the chart caches, read without importlib.metadata."""

from __future__ import annotations

from importlib.metadata import version

import pytest

from progress_site.versions import installed_version


@pytest.mark.parametrize("dist", ["altair", "vl-convert-python", "markdown-it-py", "PyYAML"])
def test_installed_version_agrees_with_importlib_metadata(dist: str) -> None:
    assert installed_version(dist) == version(dist)


def test_an_unknown_distribution_is_an_error_not_a_guess() -> None:
    installed_version.cache_clear()
    with pytest.raises(Exception, match="no-such-dist"):
        installed_version("no-such-dist")
