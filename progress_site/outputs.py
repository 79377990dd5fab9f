"""The files published beside the pages: data.json, feeds, sitemap, robots.txt, 404 pages.

They are made from the same model as the pages, after them (the feeds link to the page
that shows each entry). Absolute addresses need the site's base URL: without one, the
sitemap is left out (the format requires absolute URLs), robots.txt names no sitemap,
and the feeds link relatively; see docs/ecosystem.md.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from .bytecode import TemplateLoader, template_cache
from .datajson import data_json, data_schema_json
from .derive import Model
from .feeds import atom_feed, newest
from .i18n import Catalogs
from .load import Page, PageMeta
from .localecache import facts
from .present import Words
from .prosecache import ProseCache
from .render import PagePlace, make_environment
from .social import SocialCard, card_path

SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML = "http://www.w3.org/1999/xhtml"
# `id="` first: a pattern that starts with a literal is searched for it quickly (5x
# faster than one starting with `\s`); the space before is checked apart (`anchors`).
_ANCHOR = re.compile(rb'id="([^"]+)"')
_SPACE = b" \t\n\r\f\v"


class BaseUrlError(ValueError):
    """A --base-url that is not an http(s) address."""


def check_base_url(text: str) -> str:
    """An http(s) address with a host, ending in '/' (what every absolute link starts with)."""
    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise BaseUrlError(f"expected an http:// or https:// address, got {text!r}")
    if parts.query or parts.fragment:
        raise BaseUrlError(f"the base URL takes no ?query or #fragment, got {text!r}")
    path = parts.path if parts.path.endswith("/") else parts.path + "/"
    return f"{parts.scheme}://{parts.netloc}{path}"


def language_folder(lang: str, default: str) -> str:
    """Where a language's files live: '' for the default language, 'fr/' for the others."""
    return "" if lang == default else f"{lang}/"


def language_name(lang: str) -> str:
    """A language's name in that language, as a link to it reads: `Français`."""
    name = facts(lang).name
    return name[:1].upper() + name[1:]


def public_url(path: str, base_url: str) -> str:
    """The address of a published file; `x/index.html` is served as `x/`."""
    return base_url + path.removesuffix("index.html")


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
                folders: list[Path], files: dict[str, bytes], *, base_url: str | None,
                cache_dir: Path | None, languages: tuple[str, ...] | None = None
                ) -> dict[str, bytes]:
    """Every file besides the pages and assets, as {published path: bytes}; with
    `languages`, those of these languages, and the site's own if the first is one."""
    site = model.data.site
    default = site.languages[0]
    out: dict[str, bytes] = {}
    if languages is None or default in languages:
        out |= {"data.json": data_json(model), "data.schema.json": data_schema_json(cache_dir),
                "robots.txt": robots(base_url)}
        if base_url:
            out["sitemap.xml"] = sitemap(pages, default, base_url)
    card = SocialCard(cache_dir / "social" if cache_dir else None)
    where = anchors(files, site.languages)
    css = files.get("assets/style.css", b"").decode("utf-8")
    news = newest(model)  # the same entries in every language
    for lang in languages or site.languages:
        # Feeds and cards print data texts too; their own file, not the pages' (whose
        # entries saving this pass would otherwise drop, and the next build write back).
        prose = ProseCache.in_folder(cache_dir, f"extras-{lang}")
        words = Words(lang, catalogs.translations[lang], site, model.namespace, prose)
        folder = language_folder(lang, default)
        out[f"{folder}feed.xml"] = atom_feed(model, words, folder, where, base_url, news)
        out[f"{folder}404.html"] = not_found(model, words, folders, css, base_url,
                                             cache_dir)
        if base_url:  # a preview is only shown through og:image, which must be absolute
            out[card_path(lang, default)] = card.png(model, words)
        prose.save()
    return out


def robots(base_url: str | None) -> bytes:
    """Crawlers may read everything; the sitemap is named when its address is known."""
    lines = ["User-agent: *", "Allow: /"]
    if base_url:
        lines += ["", f"Sitemap: {base_url}sitemap.xml"]
    return ("\n".join(lines) + "\n").encode("utf-8")


def sitemap(pages: tuple[Page, ...], default: str, base_url: str) -> bytes:
    """Every page once, with its versions in the other languages as hreflang alternates."""
    from xml.etree import ElementTree as ET  # here: only a site with a base URL has one

    ET.register_namespace("", SITEMAP)
    ET.register_namespace("xhtml", XHTML)
    root = ET.Element(f"{{{SITEMAP}}}urlset")
    ordered = sorted(pages, key=lambda p: (p.slug, p.language != default, p.language))
    for page in ordered:
        url = ET.SubElement(root, f"{{{SITEMAP}}}url")
        here = PagePlace.of(page.language, page.slug, default)
        ET.SubElement(url, f"{{{SITEMAP}}}loc").text = public_url(here.path, base_url)
        versions = [p for p in ordered if p.slug == page.slug]
        if len(versions) < 2:
            continue
        for other in versions:
            href = public_url(PagePlace.of(other.language, other.slug, default).path, base_url)
            ET.SubElement(url, f"{{{XHTML}}}link", rel="alternate", hreflang=other.language,
                          href=href)
        home = public_url(PagePlace.of(default, page.slug, default).path, base_url)
        ET.SubElement(url, f"{{{XHTML}}}link", rel="alternate", hreflang="x-default",
                      href=home)
    ET.indent(root)
    data: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return data + b"\n"


def not_found(model: Model, words: Words, folders: list[Path], css: str,
              base_url: str | None, cache_dir: Path | None) -> bytes:
    """The 'page not found' page of one language, linking to the others' home pages.

    A host serves it at whatever address was asked for, so its links cannot be relative
    to where it is: they start at the base URL when there is one. Its style is inlined,
    so it is styled at any depth even without a base URL.
    """
    site = model.data.site
    default = site.languages[0]
    folder = language_folder(words.lang, default)
    # Without a base URL, links are relative to where the page is published.
    root = base_url or "../" * folder.count("/")
    here = PagePlace(f"{folder}404.html", root)
    env = make_environment(TemplateLoader(folders, template_cache(cache_dir / "templates")
                                          if cache_dir else None), words, model)
    env.globals["base_url"] = base_url or ""
    homes = [(lang, root + language_folder(lang, default) + ("" if base_url else "index.html"),
              language_name(lang)) for lang in site.languages]
    page = Page(words.lang, "404", PageMeta(title=words.gettext("Page not found")), "", 1,
                "templates/404.html")
    # No hreflang alternates: a 404 page has no versions to index; it links to each home.
    html = env.get_template("404.html").render(
        page=page, body="", here=here, alternates=[], homes=homes, css=css, pages=[],
        place=lambda p: "")
    return html.encode("utf-8")
