"""Rendered Markdown is kept in .cache/prose: a warm build writes exactly what a cold one
writes without running the parser, an edit shows at once, stale entries go, and a
damaged or planted file is ignored and rewritten."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from progress_site import pipeline
from progress_site.pipeline import (
    NOTHING_YET,
    BuildConfig,
    finish,
    first_pages,
    make_site,
    prepare,
)
from progress_site.render import markdown as markup
from progress_site.render import prose_cache as prosecache
from progress_site.render.prose_cache import ProseCache, entry_key

from .conftest import TODAY
from .test_pipeline import run_build

EDITED = ("Meridian is a working proxy", "Meridian is an edited proxy")
# A chunk between two blocks: deleting it leaves no new text to render.
ALONE = ("With game servers that send a tick's packets together, as real servers do, "
         "the proxy now spends about")


def config(source: Path, parallel: bool = False) -> BuildConfig:
    """The example's build, in this process (watch mode's: no fork) unless `parallel`."""
    return BuildConfig(source=source, out=source / "site", today=TODAY, strict=True,
                       parallel=parallel)


def stored(source: Path) -> dict[str, bytes]:
    """Every file of the prose cache, by name."""
    folder = source / ".cache" / "prose"
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())} if folder.is_dir() else {}


def entries(source: Path, name: str = "pages-en.json") -> dict[str, str]:
    """One cache file's map of key to HTML."""
    found: dict[str, str] = json.loads(stored(source)[name])
    return found


def edit(source: Path, old: str, new: str) -> None:
    """Replace a piece of the English home page's prose."""
    page = source / "content" / "en" / "index.md"
    text = page.read_text("utf-8")
    assert old in text
    page.write_text(text.replace(old, new), "utf-8")


def cold(source: Path) -> Path:
    """The source, with its prose cache removed (the others stay: charts are slow)."""
    shutil.rmtree(source / ".cache" / "prose", ignore_errors=True)
    return source


def without_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, a text that is not in the cache fails the build."""
    def parse(source: str) -> str:
        raise AssertionError(f"parsed again: {source[:60]!r}")

    monkeypatch.setattr(prosecache, "markdown_html", parse)
    monkeypatch.setattr(prosecache, "inline_html", parse)


@pytest.fixture()
def no_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    """A test where a cache hit is the only way to render a text."""
    without_parser(monkeypatch)


def test_a_warm_build_writes_what_a_cold_one_writes_without_parsing(
        example_copy: Path, example_files: dict[str, bytes],
        monkeypatch: pytest.MonkeyPatch) -> None:
    first = make_site(config(cold(example_copy))).files
    assert sorted(stored(example_copy)) == ["pages-en.json", "pages-fr.json"]
    assert first == example_files
    without_parser(monkeypatch)
    assert make_site(config(example_copy)).files == first


def test_without_its_cache_the_build_needs_the_parser(example_copy: Path,
                                                      no_parser: None) -> None:
    with pytest.raises(AssertionError, match="parsed again"):
        make_site(config(cold(example_copy)))


def test_an_edited_paragraph_shows_on_the_next_build_in_the_same_process(
        example_copy: Path) -> None:
    make_site(config(example_copy))
    before = entries(example_copy)
    edit(example_copy, *EDITED)
    page = make_site(config(example_copy)).files["index.html"].decode("utf-8")
    assert EDITED[1] in page and EDITED[0] not in page
    after = entries(example_copy)
    assert len(after) == len(before) and len(set(after) - set(before)) == 1
    make_site(config(cold(example_copy)))
    assert entries(example_copy) == after  # the old paragraph's entry was dropped


def test_an_edited_paragraph_shows_on_the_next_build_in_a_new_process(
        example_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert run_build("--source", example_copy, "--out", out).returncode == 0
    edit(example_copy, *EDITED)
    assert run_build("--source", example_copy, "--out", out).returncode == 0
    page = (out / "index.html").read_text("utf-8")
    assert EDITED[1] in page and EDITED[0] not in page


def watch_rebuild(source: Path, open_pages: frozenset[str]) -> dict[str, bytes]:
    """A rebuild as watch mode makes it (rebuild.Builder): the open pages, then the rest."""
    ready = prepare(config(source))
    early = first_pages(config(source), ready, open_pages) if open_pages else NOTHING_YET
    return finish(config(source), ready, early).files


def written(source: Path) -> dict[str, tuple[int, int]]:
    """When each cache file was last replaced (a write makes a new file: os.replace)."""
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns)
            for p in (source / ".cache" / "prose").iterdir()}


@pytest.mark.parametrize("open_pages", [frozenset(), frozenset({"index.html"})],
                         ids=["no-tab", "home-page-open"])
def test_a_rebuild_with_nothing_new_leaves_the_file_alone(
        open_pages: frozenset[str], example_copy: Path) -> None:
    make_site(config(example_copy))
    before = written(example_copy)
    for _ in range(3):
        watch_rebuild(example_copy, open_pages)
    assert written(example_copy) == before


def test_a_watch_rebuild_with_the_page_open_adds_and_the_next_full_one_drops(
        example_copy: Path) -> None:
    make_site(config(example_copy))
    before = entries(example_copy)
    edit(example_copy, *EDITED)
    page = watch_rebuild(example_copy, frozenset({"index.html"}))["index.html"].decode()
    assert EDITED[1] in page and EDITED[0] not in page
    grown = entries(example_copy)  # neither pass saw every page: nothing dropped
    assert set(before) < set(grown) and len(grown) == len(before) + 1
    stable = written(example_copy)
    watch_rebuild(example_copy, frozenset({"index.html"}))
    assert written(example_copy) == stable
    watch_rebuild(example_copy, frozenset())  # every page in one pass: the old one goes
    after = entries(example_copy)
    make_site(config(cold(example_copy)))
    assert after == entries(example_copy) and len(after) == len(before)


def test_a_deleted_paragraph_leaves_the_file(example_copy: Path) -> None:
    make_site(config(example_copy))
    before = entries(example_copy)
    french = stored(example_copy)["pages-fr.json"]
    page = example_copy / "content" / "en" / "index.md"
    lines = page.read_text("utf-8").split("\n")
    page.write_text("\n".join(line for line in lines if not line.startswith(ALONE)), "utf-8")
    make_site(config(example_copy))
    after = entries(example_copy)
    assert len(after) == len(before) - 1 and set(after) < set(before)
    assert stored(example_copy)["pages-fr.json"] == french  # untouched: nothing changed


NOT_HTML = b"the real keys, each with a number"


@pytest.mark.parametrize("damage", [
    b"", b"{not json", b"\xff\xfe\x00", b"null", b"[]", NOT_HTML,
    # A planted entry under a key no text has: never served, and dropped.
    b'{"' + b"0" * 64 + b'": "<script>window.__pwned=1</script>"}',
], ids=["empty", "truncated", "not-utf8", "null", "list", "not-html", "planted"])
def test_a_damaged_or_foreign_file_is_ignored_and_rewritten(
        damage: bytes, example_copy: Path) -> None:
    clean = make_site(config(cold(example_copy))).files
    good = stored(example_copy)
    if damage == NOT_HTML:
        damage = json.dumps(dict.fromkeys(entries(example_copy), 1)).encode()
    (example_copy / ".cache" / "prose" / "pages-en.json").write_bytes(damage)
    assert make_site(config(example_copy)).files == clean
    assert stored(example_copy) == good


def test_a_folder_that_cannot_be_written_is_no_cache(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    cache = ProseCache.in_folder(blocker, "pages-en")
    assert cache.block("*a*") == "<p><em>a</em></p>\n"
    cache.save()  # no error, nothing written
    assert blocker.read_text() == ""


def test_a_page_chunk_and_an_inline_text_are_different_entries(tmp_path: Path) -> None:
    first = ProseCache.in_folder(tmp_path, "x")
    assert first.block("*a*") == "<p><em>a</em></p>\n"
    assert first.inline("*a*") == "<em>a</em>"
    first.save()
    again = ProseCache.in_folder(tmp_path, "x")
    assert again.stored == {entry_key("block", "*a*"): "<p><em>a</em></p>\n",
                            entry_key("inline", "*a*"): "<em>a</em>"}
    assert again.inline("*a*") == "<em>a</em>" and again.block("*a*") == "<p><em>a</em></p>\n"


def test_without_a_folder_the_process_still_parses_a_text_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    text = "A text *only this test* renders."
    html = "<p>A text <em>only this test</em> renders.</p>\n"
    assert ProseCache(None).block(text) == html

    def broken() -> None:
        raise AssertionError("parsed again")

    monkeypatch.setattr(markup, "shared_parser", broken)
    assert ProseCache(None).block(text) == html  # watch mode's in-process cache


def test_a_forked_language_writes_its_own_file(example_copy: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "can_fork", lambda records: True)
    alone = make_site(config(cold(example_copy))).files
    files = stored(example_copy)
    assert make_site(config(cold(example_copy), parallel=True)).files == alone
    assert stored(example_copy) == files  # the child wrote French, the parent English
