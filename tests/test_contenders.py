"""A study of contenders (#22, item 6): two tools, each a name and a version, compared
like two commits; pages, charts, data.json and the feed name them, never "commit X"."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import pytest

from progress_site.pipeline import BuildConfig, make_site
from progress_site.publish import changes, comment

from .conftest import TEMPLATES, TODAY, copy_example
from .dom import Node, parse

TOOLS = """\
studies:
  - id: test-runners
    title: {en: Two test runners, fr: Deux lanceurs de tests}
    before: {name: cargo test, version: 1.66.0, url: "https://doc.rust-lang.org/cargo/"}
    after: {name: cargo nextest, version: 0.9.67}
    machine: test-pc
    date: 2026-11-20
    comparisons:
      - id: suite-time
        title: {en: Time of the whole suite, fr: Durée de toute la suite}
        unit: s
        wording: {en: less time, fr: moins de temps}
        summary: {title: {en: The whole suite, fr: Toute la suite}}
        before: {value: 69.10}
        after: {value: 28.08}
        history:
          - {value: 71.5, label: cargo test 1.65.0}
"""

PAGE = """
## Test runners {#test-runners}

{{< versions test-runners >}}

{{< bars test-runners >}}

{{< comparisons test-runners >}}
"""


def with_tools(source: Path) -> Path:
    """The example with a study of two tools, shown on both home pages."""
    (source / "data" / "tools.yaml").write_text(TOOLS, encoding="utf-8")
    for lang in ("en", "fr"):
        page = source / "content" / lang / "index.md"
        page.write_text(page.read_text(encoding="utf-8") + PAGE, encoding="utf-8")
    return source


def build(source: Path) -> dict[str, bytes]:
    """The site's files, built in memory as the command line does."""
    return make_site(BuildConfig(source=source, out=source / "site", today=TODAY,
                                 strict=True, compiled=TEMPLATES)).files


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, example_files: dict[str, bytes]
          ) -> dict[str, bytes]:
    """The example with the two tools, built once for this module's tests (the
    example's charts are in the session's cache: `example_files` drew them)."""
    return build(with_tools(copy_example(tmp_path_factory.mktemp("tools") / "src")))


def section(files: dict[str, bytes], page: str) -> Node:
    """The part of a home page after the test runners' heading."""
    doc = parse(files[page])
    versions = doc.find_all("ul", class_="versions")
    assert len(versions) == 2, "the example's study, then the tools'"
    return versions[1]


@pytest.mark.parametrize("page", ["index.html", "fr/index.html"])
def test_the_versions_block_names_each_tool_and_its_version(built: dict[str, bytes],
                                                            page: str) -> None:
    items = section(built, page).find_all("li", class_="version")
    assert [li.text() for li in items] == ["cargo test 1.66.0", "cargo nextest 0.9.67"]
    link = items[0].find("a")
    assert (link.attrs["href"], link.text()) == ("https://doc.rust-lang.org/cargo/",
                                                 "cargo test 1.66.0")
    assert not items[1].find_all("a"), "no page given, no link"
    assert "commit" not in section(built, page).text().lower()


@pytest.mark.parametrize(("page", "verdict"), [
    ("index.html", "2.46\u00a0times less time"),
    ("fr/index.html", "2,46\u00a0fois moins de temps"),
])
def test_comparisons_and_bars_name_the_tools(built: dict[str, bytes], page: str,
                                             verdict: str) -> None:
    doc = parse(built[page])
    measure = doc.find("section", id="suite-time")
    sides = [div.find("dt").text() for div in measure.find("dl", class_="sides").children
             if isinstance(div, Node)]
    assert sides == ["cargo test 1.66.0", "cargo nextest 0.9.67"]
    assert measure.find("p", class_="verdict").text().startswith(verdict)
    bars = doc.find("figure", id="bars-suite-time")
    assert [dt.text() for dt in bars.find_all("dt")] == ["cargo test 1.66.0",
                                                         "cargo nextest 0.9.67"]


def test_the_trend_names_the_tools(built: dict[str, bytes]) -> None:
    """The chart's table: the earlier version's label, then both tools, by version."""
    measure = parse(built["index.html"]).find("section", id="suite-time")
    rows = [[cell.text() for cell in tr.children if isinstance(cell, Node)]
            for tr in measure.find("table").find_all("tr")]
    assert rows == [["Version", "s"], ["cargo test 1.65.0", "71.5\u00a0s"],
                    ["cargo test 1.66.0", "69.10\u00a0s"],
                    ["cargo nextest 0.9.67", "28.08\u00a0s"]]


def test_data_json_holds_the_tools(built: dict[str, bytes]) -> None:
    data = json.loads(built["data.json"])
    study = next(s for s in data["studies"] if s["id"] == "test-runners")
    assert study["before"] == {"commit": None, "name": "cargo test", "version": "1.66.0",
                               "url": "https://doc.rust-lang.org/cargo/", "label": None}
    assert study["after"] == {"commit": None, "name": "cargo nextest", "version": "0.9.67",
                              "url": None, "label": None}
    comp = study["comparisons"][0]
    assert comp["derived"]["ratio"]["low"] == pytest.approx(69.10 / 28.08)
    assert comp["before"]["commit"] is None and comp["before"]["date"] == "2026-11-20"


@pytest.mark.parametrize(("feed", "title"), [
    ("feed.xml", "Time of the whole suite: cargo test 1.66.0 69.10\u00a0s (Measured) → "
     "cargo nextest 0.9.67 28.08\u00a0s (Measured), -59.4%"),
    ("fr/feed.xml", "Durée de toute la suite\u00a0: cargo test 1.66.0 69,10\u202fs (Mesuré) "
     "→ cargo nextest 0.9.67 28,08\u202fs (Mesuré), -59,4\u00a0%"),
])
def test_the_feed_names_the_tools(built: dict[str, bytes], feed: str, title: str) -> None:
    atom = "{http://www.w3.org/2005/Atom}"
    entries = ElementTree.fromstring(built[feed]).iter(f"{atom}entry")
    titles = [e.findtext(f"{atom}title") for e in entries]
    assert title in titles


def test_the_change_summary_names_the_tools(built: dict[str, bytes]) -> None:
    """A contender's figure that changed is named with its tool, in the build's summary
    and in the pull request's Markdown."""
    old = built["data.json"]
    document = json.loads(old)
    study = next(s for s in document["studies"] if s["id"] == "test-runners")
    study["comparisons"][0]["after"]["derived"]["quantity"]["low"] = 27.5
    study["comparisons"][0]["after"]["derived"]["quantity"]["high"] = 27.5
    assert changes.lines_between(old, document) == [
        "figure Time of the whole suite, cargo nextest 0.9.67 (comparisons.suite-time.after): "
        "28.08 s -> 27.50 s"]
    table = comment.markdown(comment.compare(old, document))
    # Escaped as the summary escapes every word of the data: inert Markdown.
    assert ("| Time of the whole suite\\, cargo nextest 0\\.9\\.67 "
            "\\(comparisons\\.suite\\-time\\.after\\) | 28.08 s -> 27.50 s | -2.1% |") in table


def test_a_contender_measured_before_remeasure_since_is_to_re_measure(
        example_copy: Path) -> None:
    """Freshness goes by a figure's date, so sides without a commit are judged too: the
    example's `remeasure_since` commit is of 2026-11-01, the tools were measured before."""
    source = with_tools(example_copy)
    tools = source / "data" / "tools.yaml"
    tools.write_text(tools.read_text(encoding="utf-8").replace("2026-11-20", "2026-10-20"),
                     encoding="utf-8")
    files = build(source)
    study = next(s for s in json.loads(files["data.json"])["studies"]
                 if s["id"] == "test-runners")
    sides = study["comparisons"][0]
    assert (sides["before"]["derived"]["stale"], sides["after"]["derived"]["stale"]) == (
        True, True)
    measure = parse(files["index.html"]).find("section", id="suite-time")
    assert "Measured before the threading change of the proxy" in measure.text()


def test_a_contender_s_words_are_never_markup(example_copy: Path) -> None:
    """A name and a version are shown as written: escaped on the pages, in the chart's
    table and in the feed; nothing of them becomes an element."""
    source = with_tools(example_copy)
    tools = source / "data" / "tools.yaml"
    tools.write_text(tools.read_text(encoding="utf-8").replace(
        "{name: cargo nextest, version: 0.9.67}",
        "{name: '<script>alert(1)</script>', version: '<b onclick=x>1</b>'}"),
        encoding="utf-8")
    files = build(source)
    for page in ("index.html", "fr/index.html"):
        doc = parse(files[page])
        assert not doc.find_all("script") and not doc.find_all("b")
        assert not [n for n in doc.iter() if "onclick" in n.attrs]
        written = "<script>alert(1)</script> <b onclick=x>1</b>"
        items = doc.find_all("li", class_="version")
        assert items[-1].text() == written
        assert doc.find("figure", id="bars-suite-time").find_all("dt")[-1].text() == written
    titles = [e.findtext("{http://www.w3.org/2005/Atom}title")
              for e in ElementTree.fromstring(files["feed.xml"]).iter(
                  "{http://www.w3.org/2005/Atom}entry")]
    assert any("→ <script>alert(1)</script> <b onclick=x>1</b> 28.08" in (t or "")
               for t in titles)
