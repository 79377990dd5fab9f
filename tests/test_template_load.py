"""Templates come from the site's templates/ before the engine's; their compiled code is
kept in the process's memory only (watch mode's rebuilds share them), and an edit shows
at the next build whatever its time stamp."""

from __future__ import annotations

import os
from pathlib import Path

from progress_site.pipeline import ENGINE_ROOT, BuildConfig, make_site

from .conftest import TODAY

LEGEND = Path("templates") / "blocks" / "legend.html"


def config(source: Path) -> BuildConfig:
    """The example's build of `source`, in this process."""
    return BuildConfig(source=source, out=source / "site", today=TODAY, strict=True)


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
    """Whether a template changed is never judged by its time: each build reads it, even
    in a process that compiled the earlier text (watch mode keeps one config)."""
    kept = config(example_copy)
    for marker in ("first-edit", "other-edit"):
        legend = override_legend(example_copy, marker)
        os.utime(legend, ns=(1_700_000_000_000_000_000,) * 2)
        assert f"<p>{marker}</p>".encode() in make_site(kept).files["index.html"]


def test_a_rebuild_in_the_same_process_gives_the_same_site(
        example_copy: Path, example_files: dict[str, bytes]) -> None:
    """Watch mode keeps one config, and the templates compiled for it, between builds."""
    kept = config(example_copy)
    assert make_site(kept).files == example_files
    assert make_site(kept).files == example_files
