"""The files beside the pages: data.json and its schema, feeds, sitemap, robots, 404, preview."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import io
import json
import re
from pathlib import Path
from xml.etree import ElementTree as ET

import jsonschema
import pytest

from progress_site.cli import main
from progress_site.model.base_url import BaseUrlError, check_base_url
from progress_site.pipeline import BuildConfig, make_site
from progress_site.publish.datarecords import DERIVED_RECORDS
from progress_site.publish.dataschema import data_schema, derived_schemas
from progress_site.publish.outputs import anchors
from progress_site.publish.social import card_png
from progress_site.render.i18n import load_catalogs
from progress_site.render.words import Words

from .conftest import REPO, TEMPLATES, TODAY
from .dom import parse

BASE = "https://example.github.io/meridian/"
ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The example site built with a base URL (previews kept in the session's cache)."""
    config = BuildConfig(source=REPO, out=REPO / "site", today=TODAY, strict=True,
                         base_url=BASE, compiled=TEMPLATES)
    return make_site(config).files


def test_every_file_is_published(published: dict[str, bytes],
                                 example_files: dict[str, bytes]) -> None:
    expected = {"data.json", "data.schema.json", "feed.xml", "fr/feed.xml", "sitemap.xml",
                "robots.txt", "404.html", "fr/404.html", "social.png", "fr/social.png",
                ".nojekyll"}
    assert expected <= set(published)
    relative_only = expected - {"sitemap.xml", "social.png", "fr/social.png"}
    assert relative_only <= set(example_files)
    assert not {"sitemap.xml", "social.png", "fr/social.png"} & set(example_files)


def test_data_json_validates_against_its_schema(published: dict[str, bytes]) -> None:
    data = json.loads(published["data.json"])
    schema = json.loads(published["data.schema.json"])
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker()
                                    ).validate(data)
    assert data["version"] == 1 and data["today"] == "2026-11-29"
    assert list(data) == sorted(data)


def test_data_json_holds_the_derived_numbers(published: dict[str, bytes]) -> None:
    data = json.loads(published["data.json"])
    comparison = next(c for s in data["studies"] for c in s["comparisons"]
                      if c["id"] == "cpu-per-packet-500")
    assert comparison["before"]["value"] == 20.31
    assert round(comparison["derived"]["ratio"]["low"], 3) == 2.564
    assert comparison["derived"]["improved"] is True
    assert comparison["after"]["derived"]["status"] == "measured"
    roadmap = data["roadmaps"][0]
    assert roadmap["derived"]["total"] >= roadmap["derived"]["done"] >= 1
    headline = data["headlines"][0]
    assert headline["derived"]["quantity"]["low"] == 2.5


def test_the_schema_declares_derived_for_the_records_that_carry_it() -> None:
    """data.json's writer and its schema name the same records as carrying `derived`."""
    assert set(derived_schemas()) == DERIVED_RECORDS


def test_each_schema_of_data_json_is_its_own(published: dict[str, bytes]) -> None:
    """A caller that edits the schema it was given edits no other: not the next one made,
    nor the one a build publishes."""
    first = data_schema()
    first["$defs"]["Dataset"]["properties"]["rows"]["description"] = "edited"
    first["$defs"]["Dataset"]["properties"]["rows"]["items"]["additionalProperties"] = {}
    first["$defs"]["Quantity"]["required"].append("edited")
    first["$defs"]["Figure"]["properties"]["derived"]["required"].append("edited")
    first["properties"]["series"]["edited"] = True
    assert data_schema() == json.loads(published["data.schema.json"])


def test_a_broken_data_json_fails_its_schema(published: dict[str, bytes]) -> None:
    data = json.loads(published["data.json"])
    schema = json.loads(published["data.schema.json"])
    del data["studies"][0]["comparisons"][0]["derived"]
    with pytest.raises(jsonschema.ValidationError, match="'derived' is a required property"):
        jsonschema.validate(data, schema)


def test_feeds_parse_and_have_the_required_elements(published: dict[str, bytes]) -> None:
    for name, lang in (("feed.xml", "en"), ("fr/feed.xml", "fr")):
        feed = ET.fromstring(published[name])
        assert feed.tag == f"{ATOM}feed"
        assert feed.get("{http://www.w3.org/XML/1998/namespace}lang") == lang
        for child in ("id", "title", "updated", "author"):
            assert feed.find(f"{ATOM}{child}") is not None, child
        assert feed.find(f"{ATOM}link[@rel='self']").get("href") == BASE + name  # type: ignore[union-attr]
        entries = feed.findall(f"{ATOM}entry")
        assert len(entries) > 10
        ids = [e.findtext(f"{ATOM}id") for e in entries]
        assert len(set(ids)) == len(ids) and all(i and i.startswith("urn:uuid:") for i in ids)
        updated = [e.findtext(f"{ATOM}updated") or "" for e in entries]
        assert updated == sorted(updated, reverse=True)
        assert feed.findtext(f"{ATOM}updated") == updated[0] == "2026-11-08T00:00:00Z"
        for e in entries:
            assert e.findtext(f"{ATOM}title")
            assert (e.find(f"{ATOM}link") is not None
                    and e.find(f"{ATOM}link").get("href", "").startswith(BASE))  # type: ignore[union-attr]


def test_feed_entries_name_tasks_and_figures(published: dict[str, bytes]) -> None:
    feed = published["feed.xml"].decode()
    assert "<title>Validated: Fewer writes to each player</title>" in feed
    assert f'href="{BASE}#task-fewer-writes"' in feed
    assert "Processor per packet (500 typical players): 20.31\u00a0μs (Measured) → " in feed
    french = published["fr/feed.xml"].decode()
    assert f'href="{BASE}fr/#task-fewer-writes"' in french


def test_feeds_do_not_depend_on_the_day_of_the_build(published: dict[str, bytes]) -> None:
    later = BuildConfig(source=REPO, out=REPO / "site", today=TODAY + dt.timedelta(days=3),
                        strict=True, base_url=BASE, compiled=TEMPLATES)
    files = make_site(later).files
    assert files["feed.xml"] == published["feed.xml"]
    assert files["fr/feed.xml"] == published["fr/feed.xml"]


def test_feed_without_a_base_url_links_relatively(example_files: dict[str, bytes]) -> None:
    feed = ET.fromstring(example_files["fr/feed.xml"])
    assert feed.find(f"{ATOM}link[@rel='alternate']").get("href") == "index.html"  # type: ignore[union-attr]
    assert feed.find(f"{ATOM}link[@rel='self']").get("href") == "feed.xml"  # type: ignore[union-attr]


def test_sitemap_lists_each_page_with_its_alternates(published: dict[str, bytes]) -> None:
    urlset = ET.fromstring(published["sitemap.xml"])
    assert urlset.tag == f"{SITEMAP}urlset"
    urls = urlset.findall(f"{SITEMAP}url")
    pages = {"": BASE, "horizon-four-way/": BASE + "horizon-four-way/"}
    assert sorted(u.findtext(f"{SITEMAP}loc") or "" for u in urls) == sorted(
        [*pages.values(), *(BASE + "fr/" + slug for slug in pages)])
    for url in urls:
        loc = url.findtext(f"{SITEMAP}loc") or ""
        slug = loc.removeprefix(BASE).removeprefix("fr/")
        links = {(x.get("rel"), x.get("hreflang"), x.get("href"))
                 for x in url.findall(f"{XHTML}link")}
        assert links == {("alternate", "en", BASE + slug),
                         ("alternate", "fr", BASE + "fr/" + slug),
                         ("alternate", "x-default", BASE + slug)}


def test_robots_names_the_sitemap_only_with_a_base_url(
        published: dict[str, bytes], example_files: dict[str, bytes]) -> None:
    assert published["robots.txt"] == (
        f"User-agent: *\nAllow: /\n\nSitemap: {BASE}sitemap.xml\n").encode()
    assert example_files["robots.txt"] == b"User-agent: *\nAllow: /\n"


def test_404_pages_in_both_languages(published: dict[str, bytes],
                                     example_files: dict[str, bytes]) -> None:
    english = published["404.html"].decode()
    assert '<html lang="en">' in english and "<h1>Page not found</h1>" in english
    assert f'<a href="{BASE}fr/" hreflang="fr" lang="fr">Français</a>' in english
    assert "<style>" in english and 'rel="stylesheet"' not in english
    assert 'rel="canonical"' not in english
    french = published["fr/404.html"].decode()
    assert '<html lang="fr">' in french
    assert f'<a href="{BASE}" hreflang="en" lang="en">English</a>' in french
    relative = example_files["fr/404.html"].decode()
    assert '<a href="../index.html" hreflang="en" lang="en">English</a>' in relative


def test_pages_link_their_feed(example_files: dict[str, bytes]) -> None:
    link = '<link rel="alternate" type="application/atom+xml" title="Meridian" href="{}">'
    assert link.format("feed.xml") in example_files["index.html"].decode()
    assert link.format("../fr/feed.xml") in example_files["fr/index.html"].decode()


def test_pages_carry_canonical_and_open_graph_with_a_base_url(
        published: dict[str, bytes]) -> None:
    html = published["fr/index.html"].decode()
    assert f'<link rel="canonical" href="{BASE}fr/">' in html
    assert f'<meta property="og:image" content="{BASE}fr/social.png">' in html
    assert '<meta name="twitter:card" content="summary_large_image">' in html


def test_pages_without_a_base_url_stay_relative(example_files: dict[str, bytes]) -> None:
    for name in ("index.html", "fr/index.html", "404.html", "fr/404.html"):
        html = example_files[name].decode()
        assert 'rel="canonical"' not in html and "og:" not in html


def test_social_preview_is_a_png_drawn_once(published: dict[str, bytes], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    assert published["social.png"].startswith(b"\x89PNG\r\n\x1a\n")
    assert published["social.png"] != published["fr/social.png"]
    model = make_site(BuildConfig(source=REPO, out=REPO / "site", today=TODAY,
                                  compiled=TEMPLATES)).model
    assert model is not None
    catalogs = load_catalogs([(REPO / "locales", REPO)], ("en", "fr"), False)
    words = Words("fr", catalogs.translations["fr"], model.data.site, model.namespace)
    import vl_convert

    drawn: list[str] = []  # each card vl-convert drew
    draw = vl_convert.svg_to_png
    monkeypatch.setattr(vl_convert, "svg_to_png", lambda svg: drawn.append(svg) or draw(svg))
    first = card_png(model, words, tmp_path)
    assert card_png(model, words, tmp_path) == first
    assert len(drawn) == 1
    for kept in tmp_path.rglob("*"):  # damaged: drawn again, not published as it is
        if kept.is_file():
            kept.write_bytes(b"not a PNG")
    assert card_png(model, words, tmp_path) == first
    assert len(drawn) == 2


@pytest.mark.parametrize(("given", "expected"), [
    ("https://owner.github.io/repo/", "https://owner.github.io/repo/"),
    ("http://localhost:8000/", "http://localhost:8000/"),
    ("https://example.org", "https://example.org/"),  # a host alone: its root folder
    ("HTTPS://Example.ORG/", "https://example.org/"),
    ("https://ex.org/a b/", "https://ex.org/a%20b/"),
    ("https://ex.org/a%20b/", "https://ex.org/a%20b/"),  # an escape already written
    ("https://ex.org/caf\u00e9/<x>/\"/", "https://ex.org/caf%C3%A9/%3Cx%3E/%22/"),
    ("https://ex.org/100%/", "https://ex.org/100%25/"),
    ("https://b\u00fccher.de/", "https://xn--bcher-kva.de/"),
    ("http://[::1]:8080/", "http://[::1]:8080/"),
])
def test_check_base_url(given: str, expected: str) -> None:
    assert check_base_url(given) == expected


@pytest.mark.parametrize(("given", "message"), [
    ("ftp://example.org/", "expected an http:// or https:// address, got 'ftp://example.org/'"),
    ("example.org", "expected an http:// or https:// address, got 'example.org'"),
    ("javascript:alert(1)", "expected an http:// or https:// address"),
    ("https://example.org/?a=1", "the base URL takes no ?query or #fragment"),
    ("https://example.org/#top", "the base URL takes no ?query or #fragment"),
    ("https://owner.github.io/repo", "the base URL is the address of a folder, ending in "
                                     "'/': write 'https://owner.github.io/repo/'"),
    ("https://ex ample.org/", "'ex ample.org' is not a host name"),
    ("https://user:secret@example.org/", "the base URL takes no user name or password"),
    ("https://example.org:99999/", "the port is not a number from 0 to 65535"),
    ("https://example.org/a\nb/", "the base URL holds a control character"),
])
def test_check_base_url_refuses(given: str, message: str) -> None:
    with pytest.raises(BaseUrlError, match=re.escape(message)):
        check_base_url(given)


def test_bad_base_url_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--base-url", "https://owner.github.io/repo"])
    assert caught.value.code == 2
    assert ("argument --base-url: the base URL is the address of a folder, ending in '/': "
            "write 'https://owner.github.io/repo/', not 'https://owner.github.io/repo'") in \
        capsys.readouterr().err


def test_every_address_of_a_page_is_the_same(published: dict[str, bytes]) -> None:
    """Canonical, Open Graph, hreflang alternates (with x-default) and the sitemap give
    one absolute address for each page."""
    sitemap = ET.fromstring(published["sitemap.xml"])
    in_sitemap = {u.findtext(f"{SITEMAP}loc"): {x.get("hreflang"): x.get("href")
                                                for x in u.findall(f"{XHTML}link")}
                  for u in sitemap.findall(f"{SITEMAP}url")}
    for name, url in (("index.html", BASE), ("fr/index.html", BASE + "fr/"),
                      ("horizon-four-way/index.html", BASE + "horizon-four-way/"),
                      ("fr/horizon-four-way/index.html", BASE + "fr/horizon-four-way/")):
        head = parse(published[name]).find("head")
        assert head.find("link", rel="canonical").attrs["href"] == url
        assert head.find("meta", property="og:url").attrs["content"] == url
        alternates = {link.attrs["hreflang"]: link.attrs["href"]
                      for link in head.find_all("link", rel="alternate")
                      if "hreflang" in link.attrs}
        assert alternates == in_sitemap[url]
        assert alternates["x-default"] == alternates["en"] and url in alternates.values()


def test_a_base_url_with_a_space_is_written_encoded(tmp_path: Path) -> None:
    out = tmp_path / "site"
    with contextlib.redirect_stdout(io.StringIO()):
        code = main(["--source", str(REPO), "--out", str(out),
                     "--base-url", "https://ex.org/a b/"])
    assert code == 0
    assert (out / "robots.txt").read_text() == (
        "User-agent: *\nAllow: /\n\nSitemap: https://ex.org/a%20b/sitemap.xml\n")
    for path in sorted(out.rglob("*")):
        if path.suffix in (".html", ".xml", ".txt"):
            text = path.read_text("utf-8")
            assert "ex.org/a b" not in text, path
    assert 'href="https://ex.org/a%20b/fr/"' in (out / "index.html").read_text("utf-8")


def test_without_a_base_url_alternates_stay_relative(example_files: dict[str, bytes]) -> None:
    head = parse(example_files["fr/horizon-four-way/index.html"]).find("head")
    assert {link.attrs["hreflang"]: link.attrs["href"]
            for link in head.find_all("link", rel="alternate") if "hreflang" in link.attrs} == {
        "en": "../../horizon-four-way/index.html", "fr": "index.html",
        "x-default": "../../horizon-four-way/index.html"}


def test_build_config_default_has_no_base_url() -> None:
    fields = {f.name: f.default for f in dataclasses.fields(BuildConfig)}
    assert fields["base_url"] is None


def test_feed_keeps_the_newest_entries_only(tmp_path: Path) -> None:
    """Sixty dated figures: the feed holds the 50 newest, newest first, and the
    measurements left out are still on the page."""
    lines = ["site: {title: Many, tagline: Feed, repository: own, repositories: "
             "[{id: own, name: Own, url: 'https://example.org/own'}]}",
             "machines: [{id: box, name: Box}]", "commits: [{id: aaaaaaa}]", "measurements:"]
    start = dt.date(2026, 1, 1)
    for i in range(60):
        day = start + dt.timedelta(days=i)
        lines.append(f"  - {{id: m{i}, title: Measure {i}, figure: "
                     f"{{value: {i + 1}, unit: ms, machine: box, date: {day}, commit: aaaaaaa}}}}")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "site.yaml").write_text("\n".join(lines) + "\n", "utf-8")
    (tmp_path / "content" / "en").mkdir(parents=True)
    (tmp_path / "content" / "en" / "index.md").write_text(
        "---\ntitle: Many\n---\n{{< measurements >}}\n", "utf-8")
    config = BuildConfig(source=tmp_path, out=tmp_path / "site", today=TODAY, compiled=TEMPLATES)
    files = make_site(config).files
    titles = [e.findtext(f"{ATOM}title") for e in
              ET.fromstring(files["feed.xml"]).iter(f"{ATOM}entry")]
    assert len(titles) == 50
    assert titles[0] is not None and titles[0].startswith("Measure 59:")
    assert titles[-1] is not None and titles[-1].startswith("Measure 10:")
    assert b'id="measurement-m0"' in files["index.html"]


def feed_entries(xml: bytes) -> list[tuple[str | None, ...]]:
    """A feed's entries as ElementTree reads them: id, title, date, link, content."""
    return [(e.findtext(f"{ATOM}id"), e.findtext(f"{ATOM}title"),
             e.findtext(f"{ATOM}updated"), e.find(f"{ATOM}link").get("href"),  # type: ignore[union-attr]
             e.findtext(f"{ATOM}content"))
            for e in ET.fromstring(xml).iter(f"{ATOM}entry")]


def test_feeds_hold_the_golden_entries(example_files: dict[str, bytes]) -> None:
    """What a feed reader sees: the same entries as the committed copy, and the same
    news in both languages (ids differ: each language's feed is its own)."""
    golden = Path(__file__).parent / "golden"
    english, french = (feed_entries(example_files[n]) for n in ("feed.xml", "fr/feed.xml"))
    assert english == feed_entries((golden / "feed.xml").read_bytes())
    assert french == feed_entries((golden / "fr" / "feed.xml").read_bytes())
    assert len(english) == len(french) > 10
    assert [e[2] for e in english] == [e[2] for e in french]
    assert [e[3].partition("#")[2] for e in english] == [  # type: ignore[union-attr]
        e[3].partition("#")[2] for e in french]  # type: ignore[union-attr]
    assert not {e[0] for e in english} & {e[0] for e in french}


def test_anchors_are_ids_after_any_space_first_page_first() -> None:
    files = {
        "index.html": b'<p id="a">x</p><p\nid="b"></p><p\tid="c"><i data-id="no">',
        "fr/index.html": b'<p id="a"></p><p class="x" id="d">',
        "report/index.html": b'id="start"<h2 id="a"><h2 id="e">',
        "assets/style.css": b' id="css"',
    }
    assert anchors(files, ("en", "fr")) == {
        ("en", "a"): "index.html", ("en", "b"): "index.html", ("en", "c"): "index.html",
        ("en", "e"): "report/index.html", ("fr", "a"): "fr/index.html",
        ("fr", "d"): "fr/index.html"}
