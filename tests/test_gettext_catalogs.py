"""A catalog read by Babel and compiled in memory translates, through the standard
library's gettext, as `babel.support.Translations` reads the same compiled catalog: every
message of the engine's French catalog, singular and plural, and a catalog falls back to
the next one."""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from progress_site.cli import main
from progress_site.pipeline import ENGINE_ROOT
from progress_site.render.i18n import (
    compile_catalog,
    language_catalog,
    po_path,
    read_catalog,
    translation_problems,
)

from .conftest import TEMPLATES

COUNTS = [0, 1, 2, 3, 5, 21, 1000000, 2000000, 1000001]


def example_catalog() -> Catalog:
    """The engine's French catalog, parsed."""
    path = po_path(ENGINE_ROOT / "locales", "fr")
    catalog, problems = read_catalog(path, "locales/fr/LC_MESSAGES/messages.po")
    assert catalog is not None, [p.render() for p in problems]
    return catalog


def test_every_message_translates_as_the_catalog_says() -> None:
    """Each message of the engine's French catalog, compiled in memory, gives its msgstr;
    a plural one the form its Plural-Forms rule picks for each count. (Compared with the
    catalog itself: babel.support.Translations reads the same bytes with the same
    standard-library code, so a comparison with it could not fail.)"""
    catalog = example_catalog()
    ours = compile_catalog(catalog)
    form = gettext.c2py(catalog.plural_expr)
    plurals = 0
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple):
            plurals += 1
            for n in COUNTS:
                expected = message.string[form(n)] or message.id[n != 1]
                assert ours.ngettext(*message.id[:2], n) == expected, (message.id, n)
        else:
            assert ours.gettext(message.id) == (message.string or message.id), message.id
    assert plurals  # the catalog's plural forms were read from its header
    assert ours.gettext("not in the catalog") == "not in the catalog"
    assert [ours.ngettext("a", "b", n) for n in COUNTS] == ["a" if n == 1 else "b"
                                                            for n in COUNTS]


def test_a_catalog_falls_back_to_the_next_one() -> None:
    first, second = Catalog(locale="fr"), Catalog(locale="fr")
    first.add("Done", "Fait")
    second.add("Done", "Terminé")
    second.add("Planned", "Prévu")
    ours = compile_catalog(first)
    ours.add_fallback(compile_catalog(second))
    assert (ours.gettext("Done"), ours.gettext("Planned"), ours.gettext("Other")) == (
        "Fait", "Prévu", "Other")


ENGINE_PO = po_path(ENGINE_ROOT / "locales", "fr").read_text("utf-8")
RULE = "nplurals=3; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;"


def site_catalog(tmp_path: Path, old: str, new: str) -> tuple[object, list[str]]:
    """The engine's French catalog with one edit, read from a site's locales/: what
    the build keeps of it, and its problems' first lines."""
    assert old in ENGINE_PO
    path = po_path(tmp_path / "locales", "fr")
    path.parent.mkdir(parents=True)
    path.write_text(ENGINE_PO.replace(old, new, 1), "utf-8")
    merged, problems = language_catalog([(tmp_path / "locales", tmp_path)], "fr", False)
    return merged, [p.render().splitlines()[0] for p in problems]


PO = "locales/fr/LC_MESSAGES/messages.po"


@pytest.mark.parametrize(("old", "new", "expected"), [
    (RULE, "nplurals=3; plural=(n>1;", "15:2: the Plural-Forms header cannot be read: "
                                       "unbalanced parenthesis in plural form"),
    (RULE, 'nplurals=3; plural=__import__(\\"os\\").system(\\"x\\");',
     "15:2: the Plural-Forms header cannot be read: invalid token in plural form: "
     "__import__"),
    (RULE, "nplurals=3; plural=" + "(" * 600 + "n" + ")" * 600 + ";",
     "15:2: the Plural-Forms header cannot be read: plural form expression is too long"),
    (RULE, "nplurals=3; plural=n % (n - n);",
     "15:2: the Plural-Forms rule divides by zero for 0"),
    (RULE, "nplurals=3; plural=n + 2;",
     "15:2: the Plural-Forms rule picks form 3 for 1, and there are 3 (nplurals)"),
    ('msgstr "%(allowed)s permis"', 'msgstr "%(nope)s permis"',
     "22:1: unknown named placeholder 'nope'"),
    ('#, python-format\nmsgid "%(allowed)s allowed"\nmsgstr "%(allowed)s permis"',
     'msgid "%(allowed)s allowed"\nmsgstr "%(allowed)s permis %(x)s"',
     "21:1: unknown named placeholder 'x'"),
])
def test_a_catalog_that_would_fail_a_page_is_a_located_error(
        tmp_path: Path, old: str, new: str, expected: str) -> None:
    """A Plural-Forms rule gettext refuses or that fails for a count, and a placeholder
    the template does not pass, are each located: no page's render meets them."""
    merged, problems = site_catalog(tmp_path, old, new)
    assert merged is None
    assert [p for p in problems if "is not translated" not in p] == [f"{PO}:{expected}"]


def test_a_catalog_that_would_fail_a_page_is_a_located_error_ok(tmp_path: Path) -> None:
    merged, problems = site_catalog(tmp_path, RULE, "nplurals=3; plural=(n > 1) ? 2 : n;")
    assert merged is not None
    assert merged.ngettext("%(num)s of %(total)s validated",
                           "%(num)s of %(total)s validated", 5) != ""
    assert problems == []


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_broken_catalog_is_counted_as_a_catalog_error(
        example_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        lang: str) -> None:
    """The closing line names a catalog's errors as the catalog's, not the data's, in
    the catalog of either language."""
    path = po_path(example_copy / "locales", lang)
    path.parent.mkdir(parents=True)
    path.write_text(ENGINE_PO.replace('msgstr "%(allowed)s permis"',
                                      'msgstr "%(nope)s permis"', 1), "utf-8")
    status = main(["--source", str(example_copy), "--out", str(tmp_path / "out")],
                  TEMPLATES)
    err = capsys.readouterr().err.splitlines()
    assert status == 1
    assert f"locales/{lang}/LC_MESSAGES/messages.po:22:1: unknown named placeholder " \
           "'nope'" in err
    assert err[-2:] == ["Aborted with 1 catalog error.",
                        "The previous site was left as it was."]


def test_the_engines_catalogs_pass_babels_checkers() -> None:
    """A site's build does not run Babel's checkers on the engine's own catalogs (the
    site cannot edit them): each is checked here instead, every language the engine
    ships, as a site's own catalog is checked by its build."""
    languages = sorted(p.name for p in (ENGINE_ROOT / "locales").iterdir()
                       if po_path(ENGINE_ROOT / "locales", p.name).is_file())
    assert languages
    for lang in languages:
        path = po_path(ENGINE_ROOT / "locales", lang)
        catalog, problems = read_catalog(path, str(path))
        assert catalog is not None, [p.render() for p in problems]
        assert [p.render() for p in translation_problems(catalog, str(path))] == []


def test_a_sites_own_catalog_is_checked_where_the_engines_is_trusted(tmp_path: Path) -> None:
    """The same broken placeholder is an error in the site's own catalog, and is not
    looked for in the trusted folder (the engine's, which the test above checks)."""
    folder = tmp_path / "locales"
    path = po_path(folder, "fr")
    path.parent.mkdir(parents=True)
    path.write_text(ENGINE_PO.replace('msgstr "%(allowed)s permis"',
                                      'msgstr "%(nope)s permis"', 1), "utf-8")
    _, own = language_catalog([(folder, tmp_path)], "fr", False)
    _, trusted = language_catalog([(folder, tmp_path)], "fr", False, trusted=folder)
    assert [p.message for p in own] == ["unknown named placeholder 'nope'"]
    assert trusted == []
