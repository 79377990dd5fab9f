"""Valid HTML5 on every page of the example and of every test site (tests/sites.py).

html-validate, from npm (`.ci/run` installs it into /opt/html-validate), checks every
page with tests/html-validate.json: its recommended rules, less the few about style
rather than validity, each named in STYLE_RULES with why. Without it these tests skip
on a developer's machine, and fail under CI, which must run them. What html-validate
does not check, the W3C checker's table model (every row as wide as the columns the
table declares), is checked here on the parsed pages.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from . import browser
from .dom import Node, parse
from .sites import Site, built_sites, ok_cases

CONFIG = Path(__file__).parent / "html-validate.json"
HTML_VALIDATE = [os.environ.get("HTML_VALIDATE", ""),
                 "/opt/html-validate/node_modules/.bin/html-validate"]
# The rules of html-validate:recommended that CONFIG turns off, and why: each is about
# how a page is written, not whether it is valid HTML.
STYLE_RULES = {
    "doctype-style": "`<!doctype html>` is the same doctype as `<!DOCTYPE html>`",
    "long-title": "a title's length is search-engine advice, and its page's author's words",
    "no-inline-style": "a style attribute is valid; the bars take their width from the data",
    "prefer-native-element": "a scrolling table sits in a labelled, focusable role=region "
                             "<div>, the pattern for a scrolling region, not a <section>",
}
# And one it relaxes to what HTML allows: an id is a series' key (`measurements.index.htm`
# makes `row-benchmarks-index.htm`), whose dots HTML and fragments take; the strict rule
# (letters, digits, `-` and `_`) is for ids written into CSS selectors, which these are not.
RELAXED = {"valid-id": ["error", {"relaxed": True}]}


def validator() -> str:
    """The html-validate command, or a skip (a failure under CI) without it."""
    for candidate in HTML_VALIDATE:
        if candidate and Path(candidate).is_file():
            return candidate
    browser.unavailable("html-validate (npm install --prefix /opt/html-validate html-validate)")
    raise AssertionError("unreachable")


def validate(paths: list[Path]) -> list[str]:
    """Every error html-validate finds in these files, one line each."""
    done = subprocess.run([validator(), "--config", str(CONFIG), "--formatter", "json",
                           *map(str, paths)], capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.stdout.strip(), done.stderr
    return [f"{result['filePath']}:{m['line']}:{m['column']}: {m['ruleId']}: {m['message']}"
            for result in json.loads(done.stdout) for m in result["messages"]]


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory,
          example_files: dict[str, bytes]) -> tuple[Site, ...]:
    """The test sites, built once a session (after the example, whose cache they share)."""
    return built_sites(tmp_path_factory)


@pytest.fixture(scope="module")
def written(sites: tuple[Site, ...], tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Every distinct HTML page of the test sites, written under a folder named for its
    site (a page that another site publishes byte for byte is checked once)."""
    root = tmp_path_factory.mktemp("html")
    paths, seen = [], set()
    for site in sites:
        for name, data in sorted(site.files.items()):
            if name.endswith(".html") and data not in seen:
                seen.add(data)
                path = root / site.name / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
                paths.append(path)
    return paths


def test_the_config_turns_off_only_the_style_rules() -> None:
    config = json.loads(CONFIG.read_text("utf-8"))
    assert config["extends"] == ["html-validate:recommended"]
    assert config["rules"] == dict.fromkeys(STYLE_RULES, "off") | RELAXED


def test_every_page_is_valid_html(written: list[Path], sites: tuple[Site, ...]) -> None:
    for site in sites:  # both languages (but where the case leaves one out), 404 pages
        pages = {"index.html", "404.html", "fr/404.html"} | (
            set() if site.name == "no-french-home" else {"fr/index.html"})
        assert pages <= set(site.files), site.name
    assert {case for site in sites for case in site.cases} == {n for n, _ in ok_cases()}
    assert validate(written) == []


def test_the_validator_finds_invalid_html(tmp_path: Path) -> None:
    """What the pages were before: a <details> inside a <p>, a caption in the middle."""
    page = tmp_path / "bad.html"
    page.write_text('<!doctype html><html lang="en"><head><title>x</title></head><body>'
                    "<p><details><summary>s</summary>d</details></p>"
                    "<figure><img src=x alt=x><figcaption>c</figcaption><p>p</p></figure>"
                    "</body></html>", "utf-8")
    rules = {line.split(": ")[1] for line in validate([page])}
    assert {"close-order", "element-permitted-order"} <= rules


def row_widths(group: list[Node]) -> list[int]:
    """How many columns each row of a row group spans, cells of the rows above that
    reach down (rowspan) counted: the HTML table model, as the W3C checker reads it."""
    below: dict[int, int] = {}  # column -> rows it is still taken for
    widths = []
    for row in group:
        column = 0
        for cell in (c for c in row.children if isinstance(c, Node) and c.tag in ("td", "th")):
            while below.get(column, 0):
                column += 1
            span = int(cell.attrs.get("colspan", "1"))
            for taken in range(column, column + span):
                below[taken] = max(below.get(taken, 0), int(cell.attrs.get("rowspan", "1")))
            column += span
        widths.append(max([column, *(c + 1 for c, n in below.items() if n)]))
        below = {c: n - 1 for c, n in below.items() if n > 1}
    return widths


def test_every_table_row_is_as_wide_as_its_columns(sites: tuple[Site, ...]) -> None:
    found, seen = [], set()
    for site in sites:
        for name in sorted(n for n in site.files if n.endswith(".html")):
            if site.files[name] in seen:  # a page another site publishes byte for byte
                continue
            seen.add(site.files[name])
            for table in parse(site.files[name]).find_all("table"):
                groups = [g for g in table.children if isinstance(g, Node)
                          and g.tag in ("thead", "tbody", "tfoot")]
                widths = [w for g in groups for w in row_widths(
                    [r for r in g.children if isinstance(r, Node) and r.tag == "tr"])]
                declared = sum(int(c.attrs.get("span", "1")) for c in table.children
                               if isinstance(c, Node) and c.tag == "colgroup")
                expected = {declared} if declared else {max(widths, default=0)}
                if set(widths) - expected:
                    found.append(f"{site.name}/{name}: table {table.attrs.get('id', '')} "
                                 f"rows {sorted(set(widths))} wide, columns {expected}")
    assert found == []
