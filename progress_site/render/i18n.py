"""Gettext catalogs: each language's .po read with Babel, compiled in memory, checked for gaps.

A build reads every catalog it uses, so an edited .po shows in the next build (watch
mode's too), and no .mo is ever written beside it. The compiled catalog is read with the
standard library's gettext, which `babel.support.Translations` extends with what templates
do not use (domains, lazy strings).
"""

from __future__ import annotations

import contextlib
import io
import itertools
import re
import shlex
from dataclasses import dataclass
from gettext import GNUTranslations, NullTranslations
from pathlib import Path
from typing import TYPE_CHECKING

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, read_po

from progress_site.errors import Location, Problem, visible, visible_path
from progress_site.load.text import MAX_CATALOG_BYTES, read_text
from progress_site.regular import read_regular
from progress_site.render.catalogheader import (
    PLURAL_HINT,
    PLURAL_RULE,
    charset_problem,
    header_problems,
    place,
)
from progress_site.render.msgids import repeated_msgids

if TYPE_CHECKING:
    from collections.abc import Callable


@dataclass(frozen=True, slots=True)
class Catalogs:
    """The translations of each language, and where their gaps are."""

    translations: dict[str, NullTranslations]
    problems: tuple[Problem, ...]


def po_path(folder: Path, lang: str) -> Path:
    """Where a language's catalog lives, as Babel and MkDocs lay it out."""
    return folder / lang / "LC_MESSAGES" / "messages.po"


def read_catalog(path: Path, display: str) -> tuple[Catalog | None, list[Problem]]:
    """Parse one .po file with Babel; an unreadable file or a syntax error is a located
    problem. Its text is read as a data file's is (`load.text`): within a page's size
    limit (1 MiB, not a data file's 32: Babel read 32 MiB in a minute), UTF-8 past a BOM,
    no character a page cannot hold (a direction override in a translation reached the
    pages and the feed)."""
    text, problems = read_text(path, display, MAX_CATALOG_BYTES, hint=(
        "a catalog holds the words of the templates: keep the entries they use "
        "(`pybabel update --ignore-obsolete`)"))
    if text is None:
        return None, problems
    problems = header_problems(text, display)
    if problems:  # Babel would read such a catalog without end, or fail in Python's words
        return None, problems
    try:
        catalog = read_po(io.StringIO(text), abort_invalid=True)
    except PoFileError as exc:  # Babel counts lines from 0, and says "on N" after them
        what = str(exc).removesuffix(f" on {exc.lineno}")
        return None, [Problem(Location(display, exc.lineno + 1, 1),
                              f"cannot read the catalog: {what}", hint="run `pybabel "
                              "update` or fix the line", source_line=exc.line.rstrip("\r\n"))]
    problems = charset_problem(catalog.charset, text, display) + repeated_msgids(
        text, display)
    return (None if problems else catalog), problems


def gap_problems(catalog: Catalog, display: str, strict: bool) -> list[Problem]:
    """Entries with no translation, or marked fuzzy, in the order of the catalog: errors
    in --strict, else warnings."""
    out = []
    for message in catalog:
        if not message.id:
            continue
        empty = not message.string or (isinstance(message.string, tuple)
                                       and not all(message.string))
        if empty or message.fuzzy:
            what = "fuzzy" if message.fuzzy and not empty else "not translated"
            msgid = message.id if isinstance(message.id, str) else message.id[0]
            out.append(Problem(Location(display, message.lineno or 0, 1),
                               f"'{msgid}' is {what}", warning=not strict,
                               hint="translate it in the catalog, then drop any `#, fuzzy`"))
    return out


def translation_problems(catalog: Catalog, display: str) -> list[Problem]:
    """Translations whose placeholders or plural forms do not match their msgid (Babel's
    checkers): a `%(name)s` the template does not pass would fail the page's render. A
    msgid with a placeholder is checked even when its `#, python-format` flag is gone."""
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        if any("%(" in str(part) for part in ids):
            message.flags.add("python-format")
    checked = list(catalog.check())
    told = {message.lineno for message, _ in checked}
    return [Problem(Location(display, message.lineno or 0, 1), f"{visible(str(error))}",
                    hint="write the msgid's placeholders, each as it is, `%(name)s`, "
                         "and one msgstr[i] for each plural form")
            for message, errors in checked for error in errors] + [
        Problem(Location(display, message.lineno or 0, 1), why,
                hint="write a percent sign as %%, and only the msgid's placeholders, "
                     "each as `%(name)s`")
        for message in catalog if message.id and message.lineno not in told
        for why in percent_problems(message)]


# A percent sign a template's gettext formats: `%%`, or a named placeholder.
_PERCENT = re.compile(r"%(?:%|\((\w+)\)[-#0 +]?\d*(?:\.\d+)?[diouxXeEfFgGcrsa])")


def percent_problems(message: Message) -> list[str]:
    """What in a translation a template's gettext could not format: Jinja formats every
    translation with its placeholders (`rv % variables`, even with none), so a lone `%`
    (`100 %`), a `%d` or a name the msgid has not would end the build in Python's error."""
    ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
    names = {m.group(1) for part in ids for m in _PERCENT.finditer(str(part)) if m.group(1)}
    names |= {"num"} if len(ids) > 1 else set()  # ngettext passes the count as `num`
    found = []
    for text in message.string if isinstance(message.string, tuple | list) else (
            message.string,):
        text = str(text or "")
        rest = _PERCENT.sub(lambda m: "" if (m.group(1) or "") in names | {""} else "%", text)
        if "%" in rest:
            found.append(f"this translation holds a percent sign that is no placeholder of "
                         f"its msgid: {visible(text)[:80]!r}")
    return found


def plural_problem(translation: GNUTranslations, catalog: Catalog) -> str:
    """What is wrong with a plural rule that fails or picks a form the catalog has not,
    for a count of 0 to 1,000 or a power of ten up to 10^9 (gettext evaluates it for every
    count a page prints, where a failure would be an internal error); '' when nothing."""
    forms = catalog.num_plurals
    # gettext sets `plural` from the header as it reads the catalog; typeshed omits it.
    rule: Callable[[int], int] = translation.plural  # type: ignore[attr-defined]
    for count in itertools.chain(range(1001), (10**k for k in range(4, 10))):
        try:
            form = rule(count)
        except ZeroDivisionError:
            return f"the Plural-Forms rule divides by zero for {count}"
        if not 0 <= form < forms:
            return (f"the Plural-Forms rule picks form {form} for {count}, and there are "
                    f"{forms} (nplurals)")
    return ""


def header_line(path: Path, display: str) -> Location:
    """Where the catalog's Plural-Forms header is written (else its first line)."""
    with contextlib.suppress(OSError):
        return place(read_regular(path).decode("utf-8", "replace"), display, "plural-forms:")
    return Location(display, 1, 1)


def compiled(catalog: Catalog, path: Path, display: str, checked: bool = True
             ) -> tuple[GNUTranslations | None, list[Problem]]:
    """The catalog compiled, or the problems that keep it from being used; its
    translations' placeholders are checked unless `checked` is False (the engine's own
    catalog, which its tests check: Babel finds its checkers by scanning every installed
    package's entry points, on every build)."""
    problems = translation_problems(catalog, display) if checked else []
    try:
        translation = compile_catalog(catalog)
    except ValueError as exc:  # gettext refuses the Plural-Forms rule
        return None, [*problems, Problem(
            header_line(path, display),
            f"the Plural-Forms header cannot be read: {visible(str(exc))}",
            hint=PLURAL_HINT)]
    plural = plural_problem(translation, catalog)
    # The file is read again for the header's line only when there is a problem to place.
    problems += [Problem(header_line(path, display), plural, hint=PLURAL_RULE)] if plural else []
    return (None if problems else translation), problems


def compile_catalog(catalog: Catalog) -> GNUTranslations:
    """The catalog as gettext reads it, compiled in memory (no .mo on disk)."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return GNUTranslations(buffer)


def language_catalog(folders: list[tuple[Path, Path]], lang: str, strict: bool,
                     trusted: Path | None = None
                     ) -> tuple[NullTranslations | None, list[Problem]]:
    """One language's catalogs merged, the first folder's entries winning over the later
    ones; None when no folder has one. Only the first folder's gaps are reported (the
    engine's own catalog fills a site's gaps); the `trusted` folder's translations are
    not checked (see `compiled`)."""
    merged: NullTranslations | None = None
    problems: list[Problem] = []
    for folder, root in reversed(folders):
        path = po_path(folder, lang)
        if not path.is_file():
            continue
        display = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
        if not path.resolve().is_relative_to(folder.resolve()):  # never read, nor quoted
            problems.append(Problem(Location(display), "this catalog links to a place "
                                    "outside its locales/ folder", hint="put the file "
                                    "itself in its place under locales/, or delete it"))
            continue
        catalog, found = read_catalog(path, display)
        problems += found
        if catalog is None:
            continue
        if folder == folders[0][0]:
            problems += gap_problems(catalog, display, strict)
        translation, found = compiled(catalog, path, display, folder != trusted)
        problems += found
        if translation is None:
            continue
        if merged is not None:
            translation.add_fallback(merged)
        merged = translation
    return merged, problems


def template_path(folders: list[tuple[Path, Path]]) -> str:
    """The messages.pot a new catalog starts from, as the user can type it: a site made
    by `new` has none of its own, the engine's theme has."""
    for folder, root in folders:
        pot = folder / "messages.pot"
        if pot.is_file():
            return (pot.relative_to(root).as_posix() if pot.is_relative_to(root)
                    else shlex.quote(visible_path(str(pot))))
    return "locales/messages.pot"


# The language the templates' words (the catalogs' msgids) are written in: it needs no
# catalog, whichever place it has in site.languages.
TEMPLATE_LANGUAGE = "en"


def load_catalogs(folders: list[tuple[Path, Path]], languages: tuple[str, ...],
                  strict: bool, trusted: Path | None = None) -> Catalogs:
    """Each language's translations, read from the .po files of `folders` (each with the
    root its files are shown relative to), and their problems. `trusted`: the engine's
    own folder when it is not the site's (a site can't edit it; its tests check it)."""
    translations: dict[str, NullTranslations] = {}
    problems: list[Problem] = []
    for lang in languages:
        merged, found = language_catalog(folders, lang, strict, trusted)
        problems += found
        if merged is None and lang != TEMPLATE_LANGUAGE:
            where = Location(f"locales/{lang}/LC_MESSAGES/messages.po")
            problems.append(Problem(where, f"no catalog for '{lang}': template words stay "
                                    "in English", hint=f"run `pybabel init -i "
                                    f"{template_path(folders)} -d locales -l {lang}` and "
                                    "translate it", warning=not strict))
        translations[lang] = merged or NullTranslations()
    return Catalogs(translations, tuple(problems))
