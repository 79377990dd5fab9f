"""Where a new site may not go: inside another site's folders, or inside a published site.

A folder is a site when it holds both `data/` and `content/`; its source folders are
`data/`, `content/`, `templates/` and `locales/` (the build reads every file there), and
`site/` is where it publishes (replaced whole by its next build). A folder holding both
`data.json` and `index.html` is a published site, wherever it is (`--out` may put it
anywhere). A new site inside any of these would break that site or be deleted by it.
The folder is looked at as the file system resolves it: a link on the way in does not
hide the site it leads into.
"""

from __future__ import annotations

import os
from pathlib import Path

from progress_site.errors import UsageError, visible_path
from progress_site.publish.swap import is_published

SITE_FOLDERS = ("data", "content", "templates", "locales", "site")
HINT = ("start the new site in a folder of its own, outside any other site (beside it, "
        "say); nothing was written")


def resolved(folder: Path) -> Path:
    """The folder's real place, its own name kept (a link there is refused elsewhere)."""
    absolute = Path(os.path.abspath(folder))
    return Path(os.path.realpath(absolute.parent)) / absolute.name


def is_site(folder: Path) -> bool:
    """Whether a folder is a site's source: it holds data/ and content/ (a path the
    system cannot look at, too long or without permission, holds nothing)."""
    return os.path.isdir(folder / "data") and os.path.isdir(folder / "content")


def inside_site(folder: Path) -> str | None:
    """Why `folder` cannot hold a new site, or None when it can."""
    target = resolved(folder)
    for above in (target, *target.parents):
        if is_published(above):
            return f"inside {visible_path(str(above))}, a site that a build published"
        if above == target or not is_site(above):
            continue
        first = target.relative_to(above).parts[0]
        if first in SITE_FOLDERS:
            return (f"inside {visible_path(str(above / first))}, the {first}/ folder of the "
                    f"site in {visible_path(str(above))}")
    return None


def refuse_inside_site(folder: Path) -> None:
    """Raise a UsageError when `folder` lies inside another site's folders."""
    reason = inside_site(folder)
    if reason:
        raise UsageError(f"{visible_path(str(folder))}: refusing to start a site {reason}\n"
                         f"    hint: {HINT}")
