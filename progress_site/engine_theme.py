"""Where the engine's own theme lies: the templates/ and locales/ a site's own folders
override, and which the engine trusts as it trusts its code (DESIGN.md, "Who is trusted")."""

from __future__ import annotations

from pathlib import Path


def theme_root() -> Path:
    """The folder that holds the engine's own templates/ and locales/ (the theme a site's
    own folders override): progress_site/theme/ in an installed wheel (pyproject.toml maps
    it from the repository's top-level folders), else the checkout beside the package."""
    package = Path(__file__).resolve().parent
    installed = package / "theme"
    return installed if (installed / "templates").is_dir() else package.parent
