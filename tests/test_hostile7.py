"""Hostile input, seventh round: what earlier rounds did not try (catalogs' format
strings, YAML and Markdown at their limits, odd files, the preview server). Each hole
found has its test here: a located error, never a traceback or a hang, the previous
site untouched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import copy_hostile_base
from .test_hostile import within
from .test_hostile_templates import CATALOG
from .test_pipeline import run_build
from .test_record import smallest_site


@pytest.fixture
def base(tmp_path: Path) -> Path:
    copy_hostile_base(tmp_path / "src")
    return tmp_path / "src"


def refused(base: Path, out: Path) -> str:
    """The errors of a build that failed cleanly: exit status 1, no traceback."""
    result = run_build("--source", base, "--out", out)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    return result.stderr


def catalog(base: Path, text: str) -> None:
    folder = base / "locales" / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "messages.po").write_text(text, encoding="utf-8")


@pytest.mark.parametrize("translation", ["Aller au contenu, 100 %", "Aller au contenu %d",
                                         "Aller %(x)s", "Aller %s au contenu", "100 %(x"])
def test_a_translations_lone_percent_sign_is_told_at_its_line(
        base: Path, tmp_path: Path, translation: str) -> None:
    """Jinja formats every translation a template prints (`rv % variables`): a `%` that
    is no placeholder of its msgid was an internal error (ValueError, exit status 70)."""
    catalog(base, CATALOG.replace("<script>window.__pwned=1</script> & co", translation))
    assert refused(base, tmp_path / "out") == (
        "locales/fr/LC_MESSAGES/messages.po:6:1: this translation holds a percent sign "
        f"that is no placeholder of its msgid: {translation!r}\n"
        "    msgid \"Skip to the content\"\n    ^\n"
        "    hint: write a percent sign as %%, and only the msgid's placeholders, each as "
        "`%(name)s`\nAborted with 1 catalog error.\nThe previous site was left as it was.\n")


def test_a_translations_percent_signs_ok(base: Path, tmp_path: Path) -> None:
    catalog(base, CATALOG.replace("<script>window.__pwned=1</script> & co",
                                  "Aller au contenu, 100 %%"))
    result = run_build("--source", base, "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert "Aller au contenu, 100 %</a>" in (tmp_path / "out" / "fr" / "index.html").read_text()


def test_a_page_of_many_unknown_blocks_is_told_at_once(base: Path, tmp_path: Path) -> None:
    """Each problem's source line was read from the file again, from its start: 50,000
    lines naming no block took minutes (each also listed the template folders)."""
    page = base / "content" / "en" / "index.md"
    page.write_text("---\ntitle: Base\n---\n" + "".join(
        f"{{{{< x{i % 5000} >}}}}\n" for i in range(50_000)), encoding="utf-8")
    result = within(30, "--source", base, "--out", tmp_path / "out")  # it took minutes
    assert result.code == 1, result.err
    err = result.err
    assert err.startswith("content/en/index.md:4:1: unknown block 'x0'\n    {{< x0 >}}\n")
    assert "content/en/index.md: and 49,900 more problems in this file" in err


@pytest.mark.parametrize("target", ["/etc/passwd", "outside/messages.po"])
def test_a_catalog_linked_from_outside_is_neither_read_nor_quoted(
        base: Path, tmp_path: Path, target: str) -> None:
    """A catalog that was a link to /etc/passwd was read, and its first line printed
    under the error (`root:x:0:0:...`), into a CI log anyone reads; one to another
    project's catalog published its words."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "messages.po").write_text(CATALOG.replace("& co", "SECRET"), encoding="utf-8")
    folder = base / "locales" / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "messages.po").symlink_to(target if target.startswith("/")
                                        else tmp_path / target)
    err = refused(base, tmp_path / "out")
    assert err == (
        "locales/fr/LC_MESSAGES/messages.po: this catalog links to a place outside its "
        "locales/ folder\n    hint: put the file itself in its place under locales/, or "
        "delete it\nAborted with 1 catalog error.\nThe previous site was left as it was.\n")


def test_a_catalog_linked_inside_its_folder_ok(base: Path, tmp_path: Path) -> None:
    catalog(base, CATALOG)
    (base / "locales" / "fr").rename(base / "locales" / "fr-fr")
    (base / "locales" / "fr").symlink_to("fr-fr")
    result = run_build("--source", base, "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("name", ["a\nb.css", "a\tb.css"])
def test_an_asset_named_with_a_newline_or_tab_is_refused(
        base: Path, tmp_path: Path, name: str) -> None:
    """A text may hold a newline or a tab, a file name may not: `a\\nb.css` was
    published under that name."""
    (base / "templates" / "assets").mkdir(parents=True)
    (base / "templates" / "assets" / name).write_text("a {}", encoding="utf-8")
    err = refused(base, tmp_path / "out")
    code = "000A" if "\n" in name else "0009"
    spelled = name.replace("\n", "\\n").replace("\t", "\\t")
    assert err.startswith(f"templates/assets/{spelled}: this file's name holds U+{code} "
                          "(a control character)\n")


def data_js(entries: int, benches: int = 1) -> str:
    """github-action-benchmark's data.js: `entries` commits of `benches` benchmarks."""
    return "window.BENCHMARK_DATA = " + json.dumps({"entries": {"s": [
        {"commit": {"id": f"{n:07x}", "timestamp": "2026-05-01T00:00:00Z"},
         "date": 1777593600000 + n, "tool": "go",
         "benches": [{"name": f"BenchmarkB{b}-8", "value": 1.5, "unit": "ns/op"}
                     for b in range(benches)]} for n in range(entries)]}})


def test_a_long_history_is_imported_in_time(tmp_path: Path) -> None:
    """Each point added looked for its commit, its series' newest point and its unit by
    a walk of every point, and each name's twin among every point read: 5,000 commits
    of one benchmark took 23 s, 100,000 hours (14 s now)."""
    site = smallest_site(tmp_path)
    (tmp_path / "data.js").write_text(data_js(20_000), encoding="utf-8")
    result = within(30, "import", "github-action-benchmark", tmp_path / "data.js",
                    "--source", site, "--machine", "test-pc", "--yes")
    assert result.code == 0, result.err
    assert "20000 points added (now 20000 points)" in result.out
    lines = (site / "data" / "history" / "measurements.b0.jsonl").read_text().splitlines()
    assert len(lines) == 20_000
    assert json.loads(lines[-1])["commit"] == f"{19_999:07x}"
