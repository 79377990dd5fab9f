"""The files of the template folders' assets/ that the site publishes: one rule, by
which rendering copies them and the pages' links to them are checked (sitelinks.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from progress_site.errors import Location, Problem
from progress_site.load.files import unreadable_name
from progress_site.regular import looked_at, read_regular

# The largest file a site's templates/assets/ may publish: a font, an image.
MAX_ASSET = 32 << 20


def asset_files(folders: list[Path]) -> Iterator[tuple[str, Path, str | None]]:
    """(published path, file, why it cannot be published or None) for each file of the
    folders' assets/, the engine's first, a source's after (it replaces the engine's):
    only a regular file inside its folder is published (a link to /etc/passwd, or a FIFO
    that would wait forever, is not)."""
    for folder in reversed(folders):
        assets = folder / "assets"
        for asset in sorted(assets.glob("*")) if assets.is_dir() else []:
            if not asset.is_dir():
                yield f"assets/{asset.name}", asset, refusal(asset, folder)


def refusal(asset: Path, folder: Path) -> str | None:
    """Why a file of a folder's assets/ cannot be published; None when it can."""
    try:
        if not asset.resolve().is_relative_to(folder.resolve()):
            return "it links to a place outside its folder"
        looked_at(asset, MAX_ASSET)
    except OSError as exc:
        return str(exc.strerror or exc)
    return None


def assets(folders: list[Path], problems: list[Problem]) -> dict[str, bytes]:
    """The files of the template folders' assets/ as {published path: bytes}; each that
    cannot be published is a problem in `problems`."""
    found: dict[str, bytes] = {}
    for name, asset, why in asset_files(folders):
        # Its name is published and printed as a data file's is: no control character
        # (`\x1b[2J` in a CI log), no bytes that are not UTF-8, composed (NFC).
        misnamed = unreadable_name(f"templates/{name}")
        if misnamed:
            problems += misnamed
            continue
        try:
            if why is None:
                found[name] = read_regular(asset, MAX_ASSET)
        except OSError as exc:  # it changed since it was looked at
            why = str(exc.strerror or exc)
        if why is not None:
            problems.append(Problem(Location(f"templates/{name}"), "this asset cannot be "
                                    f"published: {why}", hint="put the file itself in "
                                    "templates/assets/, or delete it"))
    return found
