"""The files published beside the pages, gathered: data.json, feeds, crawlers' files, cards.

They are made from the same model as the pages, after them (the feeds link to the page
that shows each entry). Absolute addresses need the site's base URL: without one, the
sitemap is left out (the format requires absolute URLs), robots.txt names no sitemap,
and the feeds link relatively; see docs/ecosystem.md. The 404 pages are rendered with
the pages, by their environments (render.py, notfound.py).
"""

from __future__ import annotations

import re
from pathlib import Path

from progress_site.derive.site import Model
from progress_site.load.pages import Page
from progress_site.publish.crawlers import robots, sitemap
from progress_site.publish.datajson import data_json
from progress_site.publish.dataschema import data_schema_json
from progress_site.publish.feeds import atom_feed
from progress_site.publish.news import newest
from progress_site.publish.regressions import FEED, regressions_feed
from progress_site.publish.social import card_png
from progress_site.render.i18n import Catalogs
from progress_site.render.places import home_page, language_folder
from progress_site.render.words import Words

# `id="` alone: the space before it (not `data-id="`) is checked apart, in `anchors`.
_ANCHOR = re.compile(rb'id="([^"]+)"')
_SPACE = b" \t\n\r\f\v"


def anchors(files: dict[str, bytes], languages: tuple[str, ...]) -> dict[tuple[str, str], str]:
    """For each (language, `id=` of a page), the first page in sorted order that holds it."""
    found: dict[tuple[str, str], str] = {}
    for name in sorted(files):
        if not name.endswith("index.html"):
            continue
        first = name.split("/", 1)[0]
        lang = first if "/" in name and first in languages[1:] else languages[0]
        html = files[name]
        for match in _ANCHOR.finditer(html):
            if match.start() and html[match.start() - 1] in _SPACE:  # not `data-id="`
                found.setdefault((lang, match.group(1).decode("utf-8")), name)
    return found


def extra_files(model: Model, pages: tuple[Page, ...], catalogs: Catalogs,
                files: dict[str, bytes], *, base_url: str | None,
                cache_dir: Path | None) -> dict[str, bytes]:
    """Every file besides the pages (404 pages included) and assets."""
    site = model.data.site
    default = site.languages[0]
    out = {"data.json": data_json(model), "data.schema.json": data_schema_json(),
           "robots.txt": robots(base_url)}
    if base_url:
        out["sitemap.xml"] = sitemap(pages, default, base_url)
    cards = cache_dir / "social" if cache_dir else None
    where = anchors(files, site.languages)
    news = newest(model)  # the same in every language
    for lang in site.languages:
        words = Words(lang, catalogs.translations[lang], site, model.namespace)
        folder = language_folder(lang, default)
        out[f"{folder}feed.xml"] = atom_feed(model, words, folder, where,
                                             home_page(pages, lang, default), base_url, news)
        if model.series:
            out[f"{folder}{FEED}"] = regressions_feed(model, words, folder, base_url)
        if base_url:  # a preview is only shown through og:image, which must be absolute
            out[f"{folder}social.png"] = card_png(model, words, cards)
    return out
