"""The engine as another project gets it: a wheel, installed into a fresh virtualenv
outside the checkout, builds a site made by `progress-site new` and the example.

Installing the wheel's dependencies takes PyPI (pip's cache helps), so the install
test runs in CI (`CI` set, as `.ci/run` is run) or when PROGRESS_SITE_TEST_WHEEL=1;
the list of packages is checked everywhere.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import REPO, SOURCE_DATE_EPOCH

WANTED = bool(os.environ.get("CI")) or os.environ.get("PROGRESS_SITE_TEST_WHEEL") == "1"


def test_every_package_of_the_engine_is_in_the_wheel() -> None:
    # pyproject.toml lists the packages by hand (the theme is a mapped folder, which
    # `find` cannot see): a new stage folder must be listed there too.
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))
                 ["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(REPO).parts)
             for p in (REPO / "progress_site").rglob("__init__.py")}
    assert found <= listed, f"add {sorted(found - listed)} to pyproject.toml's packages"


def run(*command: str | Path, cwd: Path) -> str:
    """A command's output; its errors in the failure when it fails."""
    done = subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True,
                          text=True, timeout=600,
                          env={**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH,
                               "PYTHONPATH": ""})
    assert done.returncode == 0, f"{command}:\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The bin/ folder of a fresh virtualenv holding the engine's wheel."""
    if not WANTED:
        pytest.skip("installs from PyPI: runs in CI, or with PROGRESS_SITE_TEST_WHEEL=1")
    root = tmp_path_factory.mktemp("wheel")
    run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", root / "dist", REPO,
        cwd=root)
    wheel = next((root / "dist").glob("progress_site-*.whl"))
    # No pip of its own (ensurepip takes longer than the install): this pip installs into
    # it. Nothing is compiled ahead: the builds below compile what they import.
    run(sys.executable, "-m", "venv", "--without-pip", root / "venv", cwd=root)
    bin_dir = root / "venv" / "bin"
    run(sys.executable, "-m", "pip", "--python", bin_dir / "python", "install", "-q",
        "--no-compile", wheel, cwd=root)
    yield bin_dir


def test_installed_wheel_builds_a_new_site(installed: Path, tmp_path: Path) -> None:
    out = run(installed / "progress-site", "new", "mysite", "--name", "Tool", "--repo",
              "https://github.com/someone/tool", cwd=tmp_path)
    assert "  data/site.yaml\n" in out and "  .gitignore\n" in out  # dotfiles are shipped
    workflow = (tmp_path / "mysite" / ".github" / "workflows" / "pages.yml").read_text()
    assert f"PROGRESS_SITE: progress-site=={version()}\n" in workflow
    # Not --strict: the sample figures `new` writes are there to be replaced.
    built = run(installed / "progress-site", cwd=tmp_path / "mysite")
    assert "Built 2 pages" in built
    page = (tmp_path / "mysite" / "site" / "fr" / "index.html").read_text("utf-8")
    assert "Feuille de route" in page  # the French catalog and the blocks came along
    assert (tmp_path / "mysite" / "site" / "assets" / "style.css").is_file()


def test_installed_wheel_builds_the_example(installed: Path, tmp_path: Path) -> None:
    out = run(installed / "progress-site", "--strict", "--source", REPO, "--out",
              tmp_path / "site", "--cache-dir", tmp_path / "cache", cwd=tmp_path)
    assert "Built 4 pages" in out, out
    assert (tmp_path / "site" / "horizon-four-way" / "index.html").is_file()
    assert (tmp_path / "cache" / "charts").is_dir()


def version() -> str:
    """The version pyproject.toml gives the package."""
    return str(tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
               ["version"])


def test_installed_wheel_says_its_version(installed: Path, tmp_path: Path) -> None:
    expected = f"progress-site {version()}"
    assert run(installed / "progress-site", "--version", cwd=tmp_path).strip() == expected
    assert run(installed / "python", "-m", "progress_site", "--version",
               cwd=tmp_path).strip() == expected
