"""Links and images of the pages to files of the site that the build does not publish
(an image left beside the Markdown, a page's name mistyped): each is located, a warning
that --strict makes an error; an image under templates/assets/ is published."""

from __future__ import annotations

from pathlib import Path

import pytest

from progress_site.cli import main

from .conftest import SOURCE_DATE_EPOCH, TEMPLATES, copy_hostile_base
from .dom import parse

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d4944415478da63f8cfc0f01f0005000201e5270ba50000000049454e44ae426082")


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The smallest site, with a second page in each language."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
    source = tmp_path / "site"
    copy_hostile_base(source)
    for lang in ("en", "fr"):
        (source / "content" / lang / "guide.md").write_text("---\ntitle: Guide\n---\nWords.\n")
    return source


def build(capsys: pytest.CaptureFixture[str], source: Path, *args: str) -> tuple[int, str]:
    status = main(["--source", str(source), *args], TEMPLATES)
    return status, capsys.readouterr().err


def add(source: Path, lang: str, page: str, text: str) -> None:
    path = source / "content" / lang / page
    path.write_text(path.read_text("utf-8") + text, "utf-8")


def test_an_image_beside_the_markdown_is_a_located_warning(
        site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (site / "content" / "en" / "tiles.png").write_bytes(PNG)
    add(site, "en", "guide.md", "\n![The tiles](tiles.png) and [the news](../news/index.html)\n")
    status, err = build(capsys, site)
    assert status == 0
    assert (
        "content/en/guide.md:6:14: warning: link to 'tiles.png': the site publishes no file "
        "at guide/tiles.png\n    ![The tiles](tiles.png) and [the news](../news/index.html)\n"
        "                 ^\n    hint: link a page by its address (news/index.html for "
        "content/LANG/news.md, ../index.html back to the home page); an image goes in "
        "templates/assets/ and is published as assets/NAME (see docs/data-format.md, "
        "\"Images\")\n") in err
    assert "content/en/guide.md:6:40: warning: link to '../news/index.html': the site " \
           "publishes no file at news/index.html\n" in err
    status, err = build(capsys, site, "--strict", "--force")
    assert status == 1
    assert "content/en/guide.md:6:14: link to 'tiles.png'" in err


def test_an_image_in_the_assets_and_links_to_pages_ok(
        site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The _ok twin: an image published from templates/assets/, links to the pages, the
    feed, the home page, a folder, an anchor and a web address are all found."""
    (site / "templates" / "assets").mkdir(parents=True)
    (site / "templates" / "assets" / "tiles.png").write_bytes(PNG)
    add(site, "en", "index.md", "\n![The tiles](assets/tiles.png) [g](guide/index.html) "
        "[g2](guide/) [f](feed.xml) [d](data.json) [a](#top) [w](https://example.org/x.png)\n")
    add(site, "fr", "guide.md", "\n![Les tuiles](../../assets/tiles.png) [a](../index.html) "
        "[en](../../guide/index.html?x=1#top) [f](../feed.xml)\n")
    status, err = build(capsys, site)
    assert status == 0
    assert "link to" not in err, err
    page = parse((site / "site" / "index.html").read_bytes())
    (image,) = page.find_all("img")
    assert image.attrs["src"] == "assets/tiles.png"
    assert (site / "site" / "assets" / "tiles.png").read_bytes() == PNG


def test_a_link_error_is_told_with_the_pages_other_errors(
        site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Links are checked where the prose is rendered: under --strict, a link to no file
    and an unknown block of the same build are told at once, not one build each."""
    add(site, "en", "guide.md", "\n[Old](old.html)\n\n{{< roadmapz >}}\n")
    status, err = build(capsys, site, "--strict")
    assert status == 1
    assert "content/en/guide.md:6:7: link to 'old.html': the site publishes no file at " \
           "guide/old.html\n" in err
    assert "content/en/guide.md:8:1: unknown block 'roadmapz'\n" in err
    assert "Aborted with 2 data errors." in err


def test_a_link_and_a_block_ok(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The _ok twin: the same page with a link to a page and a known block builds."""
    add(site, "en", "guide.md", "\n[Home](../index.html)\n\n{{< legend >}}\n")
    status, err = build(capsys, site, "--strict")
    assert status == 0, err


def test_a_link_to_an_asset_the_build_refuses_is_told_too(
        site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One rule says which assets are published, for the assets and the links to them:
    an asset that links out of its folder is refused, and a link to it leads nowhere."""
    assets = site / "templates" / "assets"
    assets.mkdir(parents=True)
    (tmp_path / "outside.png").write_bytes(PNG)
    (assets / "outside.png").symlink_to(tmp_path / "outside.png")
    add(site, "en", "index.md", "\n![b](assets/outside.png)\n")
    status, err = build(capsys, site)
    assert status == 1
    assert "link to 'assets/outside.png': the site publishes no file at assets/outside.png" \
           in err
    assert "templates/assets/outside.png: this asset cannot be published: it links to a " \
           "place outside its folder\n" in err
    assert not (site / "site").exists()


def test_a_link_to_an_anchor_no_element_has_is_a_located_warning(
        site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """On the same page, on another page by its file or its folder: each located, with
    the id it most likely meant; --strict makes them errors."""
    add(site, "en", "guide.md", "\n## Set up\n\nSee [setting up](#set-upp).\n")
    add(site, "en", "index.md", "\n[guide](guide/index.html#set-up) "
        "[guide](guide/index.html#setup-x) [folder](guide/#zzz)\n")
    status, err = build(capsys, site)
    assert status == 0
    assert (
        "content/en/guide.md:8:18: warning: link to '#set-upp': guide/index.html has no "
        "element with the id 'set-upp'\n    See [setting up](#set-upp).\n"
        "                     ^\n    hint: did you mean 'set-up'?\n") in err
    assert ("content/en/index.md:6:42: warning: link to 'guide/index.html#setup-x': "
            "guide/index.html has no element with the id 'setup-x'\n") in err
    assert ("content/en/index.md:6:77: warning: link to 'guide/#zzz': guide/index.html has "
            "no element with the id 'zzz'\n") in err
    assert "hint: link to an id the page has: a heading's is made from its words, or " \
           "given as `## Words {#id}`\n" in err
    assert err.count("warning: link to") == 3, err
    status, err = build(capsys, site, "--strict", "--force")
    assert status == 1
    assert "content/en/guide.md:8:18: link to '#set-upp'" in err
    assert "Aborted with 3 " in err


def test_links_to_anchors_the_pages_have_ok(
        site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The _ok twin: a heading's made id and its given one, the page's top, an id the
    template gives, on the page itself and on another."""
    add(site, "en", "guide.md", "\n## Set up\n\n## Later {#then}\n\n"
        "[a](#set-up) [b](#then) [c](#) [d](#top) [e](../index.html#main) ![i](#pixel)\n")
    add(site, "en", "index.md", "\n[a](guide/index.html#set-up) [b](guide/#then)\n")
    status, err = build(capsys, site, "--strict")
    assert status == 0, err
    assert "link to" not in err, err


def test_a_headings_anchor_is_made_as_the_docs_say(
        site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/data-format.md's example: accents dropped, punctuation left out, words
    joined by '-', a second heading of the same words '-2'; links to them are clean."""
    add(site, "fr", "index.md", "\n## Régler la machine : l’essentiel\n\n"
        "## Régler la machine : l’essentiel\n\n"
        "[un](#regler-la-machine-l-essentiel) [deux](#regler-la-machine-l-essentiel-2)\n")
    status, err = build(capsys, site)
    assert status == 0 and "#regler" not in err, err
    ids = [h.attrs.get("id") for h in parse((site / "site" / "fr" / "index.html").read_text(
        "utf-8")).find_all("h2")]
    assert ids[-2:] == ["regler-la-machine-l-essentiel", "regler-la-machine-l-essentiel-2"]
