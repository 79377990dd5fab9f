"""A catalog read by Babel and compiled in memory translates, through the standard
library's gettext, as `babel.support.Translations` reads the same compiled catalog: every
message of the engine's French catalog, singular and plural, and a catalog falls back to
the next one."""

from __future__ import annotations

import io

from babel.messages.catalog import Catalog
from babel.support import Translations

from progress_site.pipeline import ENGINE_ROOT
from progress_site.render.i18n import compile_catalog, mo_bytes, po_path, read_catalog

COUNTS = [0, 1, 2, 3, 5, 21, 1000000, 2000000, 1000001]


def example_catalog() -> Catalog:
    """The engine's French catalog, parsed."""
    path = po_path(ENGINE_ROOT / "locales", "fr")
    catalog, problems = read_catalog(path, "locales/fr/LC_MESSAGES/messages.po")
    assert catalog is not None, [p.render() for p in problems]
    return catalog


def test_every_message_translates_as_babels_translations_did() -> None:
    catalog = example_catalog()
    ours = compile_catalog(catalog)
    babels = Translations(io.BytesIO(mo_bytes(catalog)))
    plurals = 0
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            plurals += 1
            for n in COUNTS:
                assert ours.ngettext(*message.id[:2], n) == babels.ngettext(*message.id[:2], n)
        else:
            assert ours.gettext(message.id) == babels.gettext(message.id)
    assert plurals  # the catalog's plural forms were read from its header
    assert ours.gettext("not in the catalog") == "not in the catalog"
    assert [ours.ngettext("a", "b", n) for n in COUNTS] == [
        babels.ngettext("a", "b", n) for n in COUNTS]


def test_a_catalog_falls_back_to_the_next_one() -> None:
    first, second = Catalog(locale="fr"), Catalog(locale="fr")
    first.add("Done", "Fait")
    second.add("Done", "Terminé")
    second.add("Planned", "Prévu")
    ours = compile_catalog(first)
    ours.add_fallback(compile_catalog(second))
    assert (ours.gettext("Done"), ours.gettext("Planned"), ours.gettext("Other")) == (
        "Fait", "Prévu", "Other")
