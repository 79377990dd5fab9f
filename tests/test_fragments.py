"""Every link the build writes to its own site resolves: to a file it built, and with a
`#fragment` to an element of that page with that id.

Pages, feeds (their links and the HTML of their entries), the sitemap, the 404 pages
and the Open Graph addresses, on the example and every test site (tests/sites.py):
among them one with a base URL, where links are absolute, and one without its French
home page, whose feed and 404 pages must not link to it.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit
from xml.etree import ElementTree as ET

import pytest

from progress_site.render.ids import element_ids

from .dom import parse
from .sites import Site, built_sites

ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory,
          example_files: dict[str, bytes]) -> tuple[Site, ...]:
    """The test sites, built once a session (after the example, whose cache they share)."""
    return built_sites(tmp_path_factory)


def html_links(html: str | bytes) -> Iterator[str]:
    """The addresses an HTML page or fragment links to or loads."""
    for node in parse(html).iter():
        for name in ("href", "src"):
            if name in node.attrs:
                yield node.attrs[name]
        if node.tag == "meta" and node.attrs.get("property") in ("og:url", "og:image"):
            yield node.attrs["content"]


def xml_links(data: bytes) -> Iterator[str]:
    """The addresses a feed or a sitemap gives, and those in its entries' HTML."""
    for element in ET.fromstring(data).iter():
        if element.get("href"):
            yield element.get("href", "")
        if element.tag == f"{SITEMAP}loc":
            yield element.text or ""
        if element.tag == f"{ATOM}content" and element.get("type") == "html":
            yield from html_links(element.text or "")


def links(name: str, data: bytes) -> Iterator[str]:
    """The addresses a built file gives."""
    if name.endswith(".html"):
        yield from html_links(data)
    elif name.endswith(".xml"):
        yield from xml_links(data)


@dataclass
class Parsed:
    """What the files read so far give, by their bytes: most pages of the test sites are
    the example's byte for byte, and are parsed once for all of them."""

    links: dict[tuple[str, bytes], list[str]] = field(default_factory=dict)
    ids: dict[bytes, set[str]] = field(default_factory=dict)

    def links_of(self, name: str, data: bytes) -> list[str]:
        """The addresses a built file gives (a page or a feed: its kind is its suffix)."""
        kind = name.rpartition(".")[2]
        if (kind, data) not in self.links:
            self.links[kind, data] = list(links(name, data))
        return self.links[kind, data]

    def ids_of(self, data: bytes) -> set[str]:
        """The ids of a page's elements."""
        if data not in self.ids:
            self.ids[data] = set(element_ids(data.decode("utf-8")))
        return self.ids[data]


def target(source: str, href: str, base_url: str | None) -> tuple[str, str] | None:
    """The built file and the fragment a link from `source` names; None for another
    site, an e-mail address or data."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc:
        if not base_url or not href.startswith(base_url):
            return None
        path = unquote(urlsplit(href[len(base_url):]).path)
    elif not parts.path:
        path = source  # `#fragment`: the same page
    else:
        path = posixpath.normpath(posixpath.join(posixpath.dirname(source),
                                                 unquote(parts.path)))
        if parts.path.endswith("/"):
            path += "/"
    if path in ("", ".") or path.endswith("/"):
        path = path.rstrip("/") + "/index.html" if path.strip("./") else "index.html"
    return path, parts.fragment


def broken_links(site: Site, parsed: Parsed) -> Iterator[str]:
    """Every link of a site to a file it did not build, or to an id its target lacks."""
    for name in sorted(site.files):
        for href in parsed.links_of(name, site.files[name]):
            found = target(name, href, site.base_url)
            if found is None:
                continue
            path, fragment = found
            if path not in site.files:
                yield f"{site.name}/{name}: {href} -> {path}, which is not built"
            elif fragment and fragment not in parsed.ids_of(site.files[path]):
                yield f"{site.name}/{name}: {href} -> no id '{fragment}' in {path}"


def test_every_link_to_the_site_resolves(sites: tuple[Site, ...]) -> None:
    parsed = Parsed()
    assert [line for site in sites for line in broken_links(site, parsed)] == []


def test_links_are_read_from_every_kind_of_file(sites: tuple[Site, ...]) -> None:
    """The check above looks where the links are: pages, feeds, sitemap, 404 pages."""
    site = next(s for s in sites if s.name == "example-base-url")
    counted = {name: sum(1 for href in links(name, data) if target(name, href, site.base_url))
               for name, data in site.files.items()}
    for name in ("index.html", "fr/index.html", "feed.xml", "fr/feed.xml", "sitemap.xml",
                 "404.html", "fr/404.html", "horizon-four-way/index.html"):
        assert counted[name] >= 2, name


@pytest.mark.parametrize("name", ["example", "example-base-url"])
def test_every_feed_entry_links_to_its_element(sites: tuple[Site, ...], name: str) -> None:
    """Each entry of the example's feeds names the element that shows it: its own, or
    the one that cites it (a comparison's note, a task, a headline)."""
    site = next(s for s in sites if s.name == name)
    for feed in ("feed.xml", "fr/feed.xml"):
        entries = ET.fromstring(site.files[feed]).findall(f"{ATOM}entry")
        hrefs = [e.find(f"{ATOM}link").get("href", "") for e in entries]  # type: ignore[union-attr]
        assert len(hrefs) > 30 and all("#" in h for h in hrefs), feed


def test_a_site_without_its_french_home_links_to_none(sites: tuple[Site, ...]) -> None:
    site = next(s for s in sites if s.name == "no-french-home")
    assert "fr/index.html" not in site.files and "fr/feed.xml" in site.files
    french_404 = parse(site.files["fr/404.html"])
    assert [a.attrs["href"] for a in french_404.find("ul", class_="not-found-links")
            .find_all("a")] == ["../index.html"]
    english_404 = parse(site.files["404.html"])
    assert [a.attrs["href"] for a in english_404.find("ul", class_="not-found-links")
            .find_all("a")] == ["index.html"]
    feed = ET.fromstring(site.files["fr/feed.xml"])
    assert feed.find(f"{ATOM}link[@rel='alternate']").get("href") == "../index.html"  # type: ignore[union-attr]
    assert b"fr/index.html" not in site.files["fr/feed.xml"]


@pytest.mark.parametrize(("html", "ids"), [
    ('<p id="a">', ["a"]),
    ('<p\nid="a"><a\tid="b"></a><b\fid="c"><i\rid="">', ["a", "b", "c", ""]),
    ('id="start"<p data-id="x" aria-id="y">', []),  # not an element's id
    ('<p class="x"id="glued">', []),
    ('<p title="id=&#34;no&#34;" id="yes">', ["yes"]),  # a value's words are escaped
    ('<p id="twice"><p id="twice">', ["twice", "twice"]),
])
def test_element_ids_are_the_id_attributes_after_a_blank(html: str, ids: list[str]) -> None:
    assert element_ids(html) == ids
