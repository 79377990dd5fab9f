"""Templates come from the site's templates/ before the engine's, their compiled code from
Jinja's bytecode cache under .cache/: an edit shows at the next build whatever its time
stamp, and a damaged or unwritable cache never changes what a build writes."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import jinja2
import pytest
from jinja2.bccache import bc_magic

from progress_site.pipeline import ENGINE_ROOT, BuildConfig, make_site

from .conftest import TODAY

LEGEND = Path("templates") / "blocks" / "legend.html"


def config(source: Path) -> BuildConfig:
    """The example's build of `source`, in this process."""
    return BuildConfig(source=source, out=source / "site", today=TODAY, strict=True)


def entries(source: Path) -> list[Path]:
    """The files of the template cache (whatever their names)."""
    folder = source / ".cache" / "templates"
    return sorted(p for p in folder.iterdir() if p.is_file())


def override_legend(source: Path, marker: str) -> Path:
    """The site's own legend block: the engine's, after a paragraph of its own."""
    legend = source / LEGEND
    legend.parent.mkdir(parents=True, exist_ok=True)
    original = (ENGINE_ROOT / LEGEND).read_text("utf-8")
    legend.write_text(f"<p>{marker}</p>\n{original}", "utf-8")
    return legend


def test_a_sites_template_overrides_the_engines(example_copy: Path) -> None:
    override_legend(example_copy, "the site's own legend")
    files = make_site(config(example_copy)).files
    assert b"<p>the site's own legend</p>" in files["index.html"]
    assert b"<p>the site's own legend</p>" in files["fr/index.html"]


def test_without_an_override_the_engines_template_is_used(
        example_copy: Path, example_files: dict[str, bytes]) -> None:
    (example_copy / "templates").mkdir()
    assert make_site(config(example_copy)).files == example_files


def test_the_next_build_sees_an_edit_that_keeps_size_and_time(example_copy: Path) -> None:
    """Whether a template changed is never judged by its time: each build reads it."""
    for marker in ("first-edit", "other-edit"):
        legend = override_legend(example_copy, marker)
        os.utime(legend, ns=(1_700_000_000_000_000_000,) * 2)
        assert f"<p>{marker}</p>".encode() in make_site(config(example_copy)).files["index.html"]


def test_a_warm_build_compiles_no_template(example_copy: Path, example_files: dict[str, bytes],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    assert entries(example_copy), "the example's build filled the cache"

    def compile_again(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled again")

    monkeypatch.setattr(jinja2.Environment, "compile", compile_again)
    assert make_site(config(example_copy)).files == example_files


@pytest.mark.parametrize("damage", [
    lambda data: b"",
    lambda data: data[:len(bc_magic) + 3],  # cut inside the source's checksum
    lambda data: data[:-20],  # cut inside the code
    lambda data: b"j3" + data[2:],  # another format or another Python
    lambda data: data[:len(bc_magic)] + b"\x80\x05garbage" + data[len(bc_magic) + 9:],
    lambda data: data[:-40] + b"\x00" * 40,
], ids=["empty", "cut-checksum", "cut-code", "magic", "garbage-checksum", "garbage-code"])
def test_a_damaged_cache_builds_the_same_site(example_copy: Path,
                                              example_files: dict[str, bytes],
                                              damage: Callable[[bytes], bytes]) -> None:
    for entry in entries(example_copy):
        entry.write_bytes(damage(entry.read_bytes()))
    assert make_site(config(example_copy)).files == example_files
    assert make_site(config(example_copy)).files == example_files  # from the entries made again


def test_a_cache_that_cannot_be_made_builds_the_same_site(
        example_copy: Path, example_files: dict[str, bytes]) -> None:
    shutil.rmtree(example_copy / ".cache" / "templates")
    (example_copy / ".cache" / "templates").write_text("not a folder", "utf-8")
    assert make_site(config(example_copy)).files == example_files
