"""What a build is told: what to build, where, as of which day; the folders that follows."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from progress_site.cache import refusal, user_folder
from progress_site.engine_theme import theme_root
from progress_site.load.parse_cache import Remembered
from progress_site.load.site import remembered
from progress_site.render.templates import CompiledTemplates

ENGINE_ROOT = theme_root()


@dataclass(frozen=True, slots=True)
class BuildConfig:
    """What to build, where, and as of which day (never read from the clock in here)."""

    source: Path
    out: Path
    today: dt.date
    strict: bool = False
    engine_root: Path = ENGINE_ROOT
    base_url: str | None = None  # the public address, ending in '/'; None: all relative
    # --cache-dir (checked by cli.config_from); None: the user's cache folder.
    cache: Path | None = None
    disk_cache: bool = True  # False: nothing kept between builds (every chart drawn)
    # Compiled once for a build's languages and its forked child, and for the process's
    # later builds of the same config (watch, tests); in memory only: compiled code runs.
    compiled: CompiledTemplates = field(default_factory=CompiledTemplates, compare=False)
    # The data files parsed and converted, by their text, for the same builds (a watch
    # rebuild converts again only the files a save changed); in memory only.
    remembered: Remembered = field(default_factory=remembered, compare=False)

    @property
    def cache_dir(self) -> Path | None:
        """Where drawn charts are kept between builds (safe to delete: the next build
        draws them again): `cache`, else the user's cache folder; None for no cache on
        disk, and never a folder the source or the output holds (`cache.refusal`)."""
        if not self.disk_cache:
            return None
        folder = self.cache if self.cache is not None else user_folder()
        return None if refusal(folder, self.source, self.out) else folder

    def own_folders(self) -> list[Path]:
        """The project's folders that publishing must never replace: what the build reads
        (the source's and the engine's), the cache, the repository."""
        names = ("data", "content", "templates", "locales", ".git")
        cache = [] if self.cache_dir is None else [self.cache_dir]
        return [*(self.source / n for n in names), *cache,
                *(self.engine_root / n for n in ("templates", "locales"))]

    def engine_folder(self, name: str) -> Path | None:
        """The engine's folder of that name as `folders` lists it, unless it is the
        source's own (the repository's example is built from the engine's folders)."""
        engine = (self.engine_root / name).resolve()
        return None if engine == (self.source / name).resolve() else engine

    def folders(self, name: str) -> list[Path]:
        """The source's folder of that name, then the engine's (overrides come first)."""
        found = [self.source / name, self.engine_root / name]
        unique = list(dict.fromkeys(p.resolve() for p in found))
        return [p for p in unique if p.is_dir()]
