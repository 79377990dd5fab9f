"""What crawlers read: robots.txt, and the sitemap when the site's base URL is known
(the sitemap format requires absolute addresses)."""

from __future__ import annotations

from xml.etree import ElementTree as ET

from progress_site.load.pages import Page
from progress_site.publish.feeds import xml_bytes
from progress_site.render.places import PagePlace, public_url

SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML = "http://www.w3.org/1999/xhtml"


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
    by_name: dict[str, list[Page]] = {}  # found once: a pass for each page is quadratic
    for page in ordered:
        by_name.setdefault(page.slug, []).append(page)
    for page in ordered:
        url = ET.SubElement(root, "url")
        here = PagePlace.of(page.language, page.slug, default)
        ET.SubElement(url, "loc").text = public_url(here.path, base_url)
        versions = by_name[page.slug]
        if len(versions) < 2:
            continue
        for other in versions:
            href = public_url(PagePlace.of(other.language, other.slug, default).path, base_url)
            ET.SubElement(url, "xhtml:link", rel="alternate", hreflang=other.language,
                          href=href)
        if any(other.language == default for other in versions):
            home = public_url(PagePlace.of(default, page.slug, default).path, base_url)
            ET.SubElement(url, "xhtml:link", rel="alternate", hreflang="x-default", href=home)
    return xml_bytes(root)
