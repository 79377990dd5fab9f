"""Gettext catalogs: compiled from .po at every build, checked for gaps."""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, read_po
from babel.support import NullTranslations, Translations

from .errors import Location, Problem
from .frozen import frozen


@frozen
class Catalogs:
    """The translations of each language, and where their gaps are."""

    translations: dict[str, NullTranslations]
    problems: tuple[Problem, ...]


def po_path(folder: Path, lang: str) -> Path:
    """Where a language's catalog lives, as Babel and MkDocs lay it out."""
    return folder / lang / "LC_MESSAGES" / "messages.po"


def read_catalog(path: Path, display: str) -> tuple[Catalog | None, list[Problem]]:
    """Parse one .po file; a syntax error is a located problem."""
    try:
        with path.open("rb") as fh:
            return read_po(fh, abort_invalid=True), []
    except PoFileError as exc:
        return None, [Problem(Location(display), f"cannot read the catalog: {exc}",
                              hint="run `pybabel update` or fix the line it names")]
    except (OSError, UnicodeDecodeError) as exc:
        return None, [Problem(Location(display), f"cannot read the catalog: {exc}")]


def gaps(catalog: Catalog, display: str, strict: bool) -> list[Problem]:
    """Entries with no translation, or marked fuzzy: errors in --strict, else warnings."""
    out = []
    for message in catalog:
        if not message.id:
            continue
        empty = not message.string or (isinstance(message.string, tuple)
                                       and not all(message.string))
        if empty or message.fuzzy:
            line = message.lineno or 0
            what = "fuzzy" if message.fuzzy and not empty else "not translated"
            msgid = message.id if isinstance(message.id, str) else message.id[0]
            out.append(Problem(Location(display, line, 1), f"'{msgid}' is {what}",
                               hint="translate it in the catalog, then drop any `#, fuzzy`",
                               warning=not strict))
    return out


def compile_catalog(catalog: Catalog) -> Translations:
    """The catalog as gettext reads it, compiled in memory (no .mo on disk)."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer)


def load_catalogs(folders: list[tuple[Path, Path]], languages: tuple[str, ...],
                  strict: bool) -> Catalogs:
    """Each language's catalogs, the first folder's entries winning over the later ones."""
    translations: dict[str, NullTranslations] = {}
    problems: list[Problem] = []
    for lang in languages:
        merged: NullTranslations | None = None
        for folder, root in reversed(folders):
            path = po_path(folder, lang)
            if not path.is_file():
                continue
            display = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
            catalog, found = read_catalog(path, display)
            problems += found
            if catalog is None:
                continue
            if folder == folders[0][0] or len(folders) == 1:
                problems += gaps(catalog, display, strict)
            compiled = compile_catalog(catalog)
            if merged is not None:
                compiled.add_fallback(merged)
            merged = compiled
        if merged is None and lang != languages[0]:
            where = Location(f"locales/{lang}/LC_MESSAGES/messages.po")
            problems.append(Problem(where, f"no catalog for '{lang}': template words stay "
                                    "in English", hint=f"run `pybabel init -i locales/messages.pot"
                                    f" -d locales -l {lang}` and translate it",
                                    warning=not strict))
        translations[lang] = merged or NullTranslations()
    return Catalogs(translations, tuple(problems))
