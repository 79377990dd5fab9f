"""A plain build imports only what it uses: the cold start of `python build.py` counts.

Each build runs in a new process, as a user's does, and reports the modules it ended
with. The example has every kind of block; the small site has none.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO, SOURCE_DATE_EPOCH

# Whatever the site: drawing (only on a chart cache miss), reading .po files (Babel's
# catalog reader and the email package it parses headers with: only on a catalog cache
# miss), editing YAML (record, import), watching, package metadata (versions.py reads it
# without importlib.metadata), "did you mean" hints (difflib: only for a problem),
# importing a tool's results (statistics), and the standard modules that publish and
# feeds no longer need (xml.etree: only a sitemap, written with a base URL, and a chart
# not drawn yet use it; signal: only a forked renderer cancelled, and watch mode).
CATALOG_READING = ("babel.messages", "email")
NEVER = ("altair", "vl_convert", "ruamel", "watchdog", "importlib.metadata", "uuid", "signal",
         "ctypes.util", "xml.etree", "difflib", "statistics",
         "progress_site.watch", "progress_site.serve", "progress_site.record",
         "progress_site.recorder", "progress_site.yamledit", "progress_site.importers",
         *CATALOG_READING)
# Babel's formatting modules, and their translations class: only when a language's locale
# facts are missing from the cache (localecache.py), or a pattern needs Babel itself.
LOCALE_DATA = ("babel.dates", "babel.numbers", "babel.units", "babel.lists", "babel.support")
# Only for a page with a table, agreement or chart block (see render.ReportBlocks).
REPORT_BLOCKS = ("progress_site.tables", "progress_site.agreement",
                 "progress_site.chartblocks", "progress_site.charts", "progress_site.chart_svg",
                 "progress_site.chartstyle")

# Besides the modules, which languages' CLDR data Babel loaded, and which of its global
# tables (likely subtags, time zones...) it read: counted once Babel is imported, if it
# is (a build whose locale facts are all cached never imports it).
PROBE = """
import importlib.util, json, sys
asked = []
def counted(name, ask):
    def call(*args, **kwargs):
        asked.append(f"{name}({args[0]})")
        return ask(*args, **kwargs)
    return call
COUNTED = {"babel.localedata": "load", "babel.core": "get_global"}
class Counting:
    def find_spec(self, fullname, path, target=None):
        if fullname not in COUNTED:
            return None
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(fullname)
        finally:
            sys.meta_path.insert(0, self)
        run = spec.loader.exec_module
        def exec_module(module):
            run(module)
            name = COUNTED[fullname]
            setattr(module, name, counted(name, getattr(module, name)))
        spec.loader.exec_module = exec_module
        return spec
sys.meta_path.insert(0, Counting())
from progress_site.cli import main
status = main(sys.argv[1:])
print(json.dumps({"status": status, "modules": sorted(sys.modules), "asked": asked}))
"""


def build_report(source: Path, out: Path) -> tuple[set[str], list[str]]:
    """The modules a new process holds after `build.py --source SOURCE --out OUT`, and
    what it asked of Babel's locale data (`load(fr)`, `get_global(likely_subtags)`)."""
    env = {**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH}
    done = subprocess.run([sys.executable, "-c", PROBE, "--source", str(source),
                           "--out", str(out)], capture_output=True, text=True, env=env,
                          cwd=REPO, check=True)
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["status"] == 0, done.stderr
    return set(report["modules"]), report["asked"]


def modules_after_build(source: Path, out: Path) -> set[str]:
    """The modules a new process holds after `build.py --source SOURCE --out OUT`."""
    return build_report(source, out)[0]


def loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    """The names among `modules`, with their submodules."""
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


def test_the_example_imports_no_drawing_editing_or_watching(
        example_files: dict[str, bytes], tmp_path: Path) -> None:
    # example_files built the example once: its charts, social cards and rendered
    # prose are in the cache, so the Markdown parser is not needed either; nor the YAML
    # parser: every data file and front matter comes from the parse cache; nor the
    # table of HTML entities: no text it strips of its tags holds one; nor Babel at all:
    # the languages' facts are cached, and plurals.py reads their plural rules; nor
    # Jinja's i18n extension: no template is compiled (templatetext.py).
    modules, asked = build_report(REPO, tmp_path / "site")
    assert loaded(modules, (*NEVER, *LOCALE_DATA, "markdown_it", "yaml",
                            "progress_site.yamlread", "html.entities", "babel",
                            "jinja2.ext")) == []
    assert asked == []  # nor Babel's locale data: every language's facts are cached
    assert "progress_site.chartblocks" in modules  # it has report blocks
    assert "progress_site.chart_svg" not in modules  # but every chart is in the cache


def test_only_a_catalog_missing_from_the_cache_is_read_with_babel(
        example_copy: Path, tmp_path: Path) -> None:
    shutil.rmtree(example_copy / ".cache" / "catalogs", ignore_errors=True)
    cold = modules_after_build(example_copy, tmp_path / "site")
    assert {"babel.messages.pofile", "email.parser"} <= cold  # the probe sees them
    warm = modules_after_build(example_copy, tmp_path / "site")
    assert loaded(warm, CATALOG_READING) == []


def test_only_locale_facts_missing_from_the_cache_are_read_with_babel(
        example_copy: Path, tmp_path: Path) -> None:
    shutil.rmtree(example_copy / ".cache" / "locales", ignore_errors=True)
    modules, asked = build_report(example_copy, tmp_path / "cold")
    assert {"babel.dates", "babel.units"} <= modules  # the probe sees them
    assert {"load(en)", "load(fr)"} <= set(asked)
    modules, asked = build_report(example_copy, tmp_path / "warm")
    assert loaded(modules, ("babel",)) == []
    assert asked == []
    for name in ("index.html", "fr/index.html", "404.html", "fr/feed.xml"):
        assert (tmp_path / "warm" / name).read_bytes() == (tmp_path / "cold" / name).read_bytes()


def small_site(folder: Path, tagline: str, pages: dict[str, str]) -> Path:
    """A site in English with only a title, a tagline and these pages (slug: body)."""
    source = folder / "src"
    (source / "data").mkdir(parents=True)
    (source / "data" / "site.yaml").write_text(
        f"site:\n  title: Small\n  tagline: {tagline}\n  languages: [en]\n", encoding="utf-8")
    (source / "content" / "en").mkdir(parents=True)
    for slug, body in pages.items():
        (source / "content" / "en" / f"{slug}.md").write_text(
            f"---\ntitle: {slug}\n---\n{body}\n", encoding="utf-8")
    return source


def test_a_site_without_report_blocks_does_not_load_their_modules(tmp_path: Path) -> None:
    source = small_site(tmp_path, "A site without tables or charts",
                        {"index": "Some *words*.\n\n{{< machines >}}"})
    modules = modules_after_build(source, tmp_path / "site")
    assert loaded(modules, NEVER + REPORT_BLOCKS) == []


def test_a_site_without_pages_does_not_load_the_markdown_parser(tmp_path: Path) -> None:
    source = small_site(tmp_path, "Plain words need no parser", {})
    assert loaded(modules_after_build(source, tmp_path / "site"), ("markdown_it",)) == []


def test_a_build_whose_prose_is_cached_does_not_load_the_markdown_parser(
        tmp_path: Path) -> None:
    # An inline text, on pages and in feeds; the tagline shows on pages other than home.
    source = small_site(tmp_path, "Some *inline* Markdown",
                        {"index": "Some *words*.", "other": "Some *words*."})
    assert "markdown_it" in modules_after_build(source, tmp_path / "cold")
    assert loaded(modules_after_build(source, tmp_path / "warm"), ("markdown_it",)) == []
    for name in ("other/index.html", "feed.xml"):
        assert (tmp_path / "warm" / name).read_bytes() == (tmp_path / "cold" / name).read_bytes()
    assert b"<em>inline</em>" in (tmp_path / "warm" / "other" / "index.html").read_bytes()
