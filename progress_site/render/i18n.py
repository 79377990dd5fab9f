"""Gettext catalogs: compiled from .po (or taken from the cache), checked for gaps.

A compiled catalog is read with the standard library's gettext, which Babel's
`babel.support.Translations` extends with what templates do not use (domains, lazy
strings) and whose import brings in Babel's dates, numbers and units modules.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from gettext import GNUTranslations, NullTranslations
from pathlib import Path
from typing import TYPE_CHECKING

from progress_site.errors import Location, Problem
from progress_site.render import catalog_cache as catalogcache
from progress_site.render.catalog_cache import Compiled, Gap

if TYPE_CHECKING:
    # Reading a .po imports babel.messages and the standard email package (~25 ms):
    # only a catalog missing from the cache pays for them (see catalogcache.py).
    from babel.messages.catalog import Catalog


@dataclass(frozen=True, slots=True)
class Catalogs:
    """The translations of each language, and where their gaps are."""

    translations: dict[str, NullTranslations]
    problems: tuple[Problem, ...]


def po_path(folder: Path, lang: str) -> Path:
    """Where a language's catalog lives, as Babel and MkDocs lay it out."""
    return folder / lang / "LC_MESSAGES" / "messages.po"


def parse_catalog(data: bytes, display: str) -> tuple[Catalog | None, list[Problem]]:
    """Parse the bytes of one .po file; a syntax error is a located problem."""
    from babel.messages.pofile import PoFileError, read_po

    try:
        return read_po(io.BytesIO(data), abort_invalid=True), []
    except PoFileError as exc:
        return None, [Problem(Location(display), f"cannot read the catalog: {exc}",
                              hint="run `pybabel update` or fix the line it names")]
    except UnicodeDecodeError as exc:
        return None, [Problem(Location(display), f"cannot read the catalog: {exc}")]


def po_bytes(path: Path, display: str) -> tuple[bytes | None, list[Problem]]:
    """The bytes of one .po file; a file that cannot be read is a located problem."""
    try:
        return path.read_bytes(), []
    except OSError as exc:
        return None, [Problem(Location(display), f"cannot read the catalog: {exc}")]


def read_catalog(path: Path, display: str) -> tuple[Catalog | None, list[Problem]]:
    """Parse one .po file; a syntax error or an unreadable file is a located problem."""
    data, problems = po_bytes(path, display)
    return parse_catalog(data, display) if data is not None else (None, problems)


def catalog_gaps(catalog: Catalog) -> tuple[Gap, ...]:
    """Entries with no translation, or marked fuzzy, in the order of the catalog."""
    out = []
    for message in catalog:
        if not message.id:
            continue
        empty = not message.string or (isinstance(message.string, tuple)
                                       and not all(message.string))
        if empty or message.fuzzy:
            what = "fuzzy" if message.fuzzy and not empty else "not translated"
            msgid = message.id if isinstance(message.id, str) else message.id[0]
            out.append(Gap(msgid, message.lineno or 0, what))
    return tuple(out)


def gap_problems(gaps: tuple[Gap, ...], display: str, strict: bool) -> list[Problem]:
    """The gaps as problems: errors in --strict, else warnings."""
    return [Problem(Location(display, gap.line, 1), f"'{gap.msgid}' is {gap.what}",
                    hint="translate it in the catalog, then drop any `#, fuzzy`",
                    warning=not strict)
            for gap in gaps]


def mo_bytes(catalog: Catalog) -> bytes:
    """The catalog compiled as gettext reads it, in memory (no .mo beside the .po)."""
    from babel.messages.mofile import write_mo

    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def compile_catalog(catalog: Catalog) -> GNUTranslations:
    """The catalog as gettext reads it, compiled in memory (no .mo on disk)."""
    return GNUTranslations(io.BytesIO(mo_bytes(catalog)))


def compiled_po(path: Path, display: str, entries: Path | None
                ) -> tuple[Compiled | None, list[Problem]]:
    """One .po file compiled, taken from the cache folder `entries` when it holds these
    bytes; None if the file cannot be read or parsed (never stored: reported each build)."""
    data, problems = po_bytes(path, display)
    if data is None:
        return None, problems
    stored = catalogcache.read_entry(entries, path, data) if entries is not None else None
    if stored is not None:
        return stored, []
    catalog, problems = parse_catalog(data, display)
    if catalog is None:
        return None, problems
    compiled = Compiled(mo_bytes(catalog), catalog_gaps(catalog))
    if entries is not None:
        catalogcache.write_entry(entries, path, data, compiled)
    return compiled, []


def load_catalogs(folders: list[tuple[Path, Path]], languages: tuple[str, ...],
                  strict: bool, cache_dir: Path | None = None) -> Catalogs:
    """Each language's catalogs, the first folder's entries winning over the later ones
    (compiled catalogs kept in `cache_dir`/catalogs when it is given)."""
    translations: dict[str, NullTranslations] = {}
    problems: list[Problem] = []
    entries = cache_dir / "catalogs" if cache_dir is not None else None
    for lang in languages:
        merged: NullTranslations | None = None
        for folder, root in reversed(folders):
            path = po_path(folder, lang)
            if not path.is_file():
                continue
            display = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
            compiled, found = compiled_po(path, display, entries)
            problems += found
            if compiled is None:
                continue
            if folder == folders[0][0] or len(folders) == 1:
                problems += gap_problems(compiled.gaps, display, strict)
            translation = GNUTranslations(io.BytesIO(compiled.mo))
            if merged is not None:
                translation.add_fallback(merged)
            merged = translation
        if merged is None and lang != languages[0]:
            where = Location(f"locales/{lang}/LC_MESSAGES/messages.po")
            problems.append(Problem(where, f"no catalog for '{lang}': template words stay "
                                    "in English", hint=f"run `pybabel init -i locales/messages.pot"
                                    f" -d locales -l {lang}` and translate it",
                                    warning=not strict))
        translations[lang] = merged or NullTranslations()
    return Catalogs(translations, tuple(problems))
