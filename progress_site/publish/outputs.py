"""The files published beside the pages: data.json, feeds, sitemap, robots.txt, cards.

They are made from the same model as the pages, after them (the feeds link to the page
that shows each entry). Absolute addresses need the site's base URL: without one, the
sitemap is left out (the format requires absolute URLs), robots.txt names no sitemap,
and the feeds link relatively; see docs/ecosystem.md. The 404 pages are rendered with
the pages, by their environments (render.py, notfound.py).
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree as ET

from progress_site.derive.model import Model
from progress_site.load.pages import Page
from progress_site.publish.datajson import data_json, data_schema_json
from progress_site.publish.feeds import atom_feed, newest
from progress_site.publish.regressions import FEED, regressions_feed
from progress_site.publish.social import SocialCard, card_path
from progress_site.render.i18n import Catalogs
from progress_site.render.places import PagePlace, home_page, language_folder, public_url
from progress_site.render.words import Words

SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML = "http://www.w3.org/1999/xhtml"
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
                cache_dir: Path | None, languages: tuple[str, ...] | None = None
                ) -> dict[str, bytes]:
    """Every file besides the pages (404 pages included) and assets, as {published path:
    bytes}; with `languages`, those of these languages, and the site's own if the first
    is one."""
    site = model.data.site
    default = site.languages[0]
    out: dict[str, bytes] = {}
    if languages is None or default in languages:
        out |= {"data.json": data_json(model), "data.schema.json": data_schema_json(),
                "robots.txt": robots(base_url)}
        if base_url:
            out["sitemap.xml"] = sitemap(pages, default, base_url)
    card = SocialCard(cache_dir / "social" if cache_dir else None)
    where = anchors(files, site.languages)
    news = newest(model)  # the same entries in every language
    for lang in languages or site.languages:
        words = Words(lang, catalogs.translations[lang], site, model.namespace)
        folder = language_folder(lang, default)
        out[f"{folder}feed.xml"] = atom_feed(model, words, folder, where,
                                             home_page(pages, lang, default), base_url, news)
        if model.series:
            out[f"{folder}{FEED}"] = regressions_feed(model, words, folder, base_url)
        if base_url:  # a preview is only shown through og:image, which must be absolute
            out[card_path(lang, default)] = card.png(model, words)
    return out


def robots(base_url: str | None) -> bytes:
    """Crawlers may read everything; the sitemap is named when its address is known."""
    lines = ["User-agent: *", "Allow: /"]
    if base_url:
        lines += ["", f"Sitemap: {base_url}sitemap.xml"]
    return ("\n".join(lines) + "\n").encode("utf-8")


def sitemap(pages: tuple[Page, ...], default: str, base_url: str) -> bytes:
    """Every page once, with its versions in the other languages as hreflang alternates."""
    # The namespaces are declared on the root and names written with their prefix, as
    # the sitemap protocol's examples do, rather than registered in ElementTree's one
    # registry for the whole process.
    root = ET.Element("urlset", {"xmlns": SITEMAP, "xmlns:xhtml": XHTML})
    ordered = sorted(pages, key=lambda p: (p.slug, p.language != default, p.language))
    for page in ordered:
        url = ET.SubElement(root, "url")
        here = PagePlace.of(page.language, page.slug, default)
        ET.SubElement(url, "loc").text = public_url(here.path, base_url)
        versions = [p for p in ordered if p.slug == page.slug]
        if len(versions) < 2:
            continue
        for other in versions:
            href = public_url(PagePlace.of(other.language, other.slug, default).path, base_url)
            ET.SubElement(url, "xhtml:link", rel="alternate", hreflang=other.language,
                          href=href)
        if any(other.language == default for other in versions):
            home = public_url(PagePlace.of(default, page.slug, default).path, base_url)
            ET.SubElement(url, "xhtml:link", rel="alternate", hreflang="x-default", href=home)
    ET.indent(root)
    data: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return data + b"\n"
