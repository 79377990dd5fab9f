"""Figures measured too long ago, or before a named commit, are marked 'to re-measure'."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from progress_site.errors import BuildFailed
from progress_site.pipeline import BuildConfig, make_site

from .conftest import TEMPLATES
from .dom import parse

SITE = """site:
  title: Fresh
  tagline: {en: Fresh, fr: Frais}
  repository: own
  repositories: [{id: own, name: Own, url: "https://example.org/own"}]
  %s
machines: [{id: box, name: {en: The box, fr: La boîte}}]
commits:
  - {id: aaaaaaa, date: 2026-10-01}
  - {id: bbbbbbb, date: 2026-11-01}
measurements:
  - {id: old, title: Old, figure: {value: 1, machine: box, date: 2026-10-15, commit: aaaaaaa}}
  - {id: new, title: New, figure: {value: 2, machine: box, date: 2026-11-20, commit: bbbbbbb}}
  - id: guess
    title: Guess
    figure: {value: 3, status: estimate, date: 2026-01-01}
"""
PAGE = "---\ntitle: {title}\n---\n{{{{< measurements >}}}}\n"


def write(tmp_path: Path, rule: str) -> BuildConfig:
    """A tiny two-language site with that freshness rule, ready to build."""
    (tmp_path / "data").mkdir(parents=True)
    (tmp_path / "data" / "site.yaml").write_text(SITE % rule)
    for lang in ("en", "fr"):
        (tmp_path / "content" / lang).mkdir(parents=True)
        (tmp_path / "content" / lang / "index.md").write_text(PAGE.format(title=lang))
    return BuildConfig(source=tmp_path, out=tmp_path / "site", today=dt.date(2026, 11, 29),
                       compiled=TEMPLATES)


def build(tmp_path: Path, rule: str) -> dict[str, bytes]:
    return make_site(write(tmp_path, rule)).files


def stale(files: dict[str, bytes], page: str) -> dict[str, str]:
    """Measurement id -> its 'to re-measure' note ('' when fresh)."""
    out = {}
    for node in parse(files[page]).find_all(class_="measurement"):
        badge = node.find_all(class_="badge-stale")
        note = node.find_all(class_="figure-note")
        out[node.attrs["id"].removeprefix("measurement-")] = (
            note[0].text() if badge and note else "")
    return out


def test_figures_older_than_the_age_are_to_remeasure(tmp_path: Path) -> None:
    files = build(tmp_path, "stale_after_days: 30")
    assert stale(files, "index.html") == {
        "old": "Measured more than 30\u00a0days ago.", "new": "", "guess": ""}  # estimates age not
    assert stale(files, "fr/index.html")["old"] == "Mesuré il y a plus de 30\u00a0jours."


def test_figures_measured_before_a_commit_are_to_remeasure(tmp_path: Path) -> None:
    files = build(tmp_path, "remeasure_since: {commit: bbbbbbb, reason: {en: The proxy "
                            "changed its threads., fr: Le proxy a changé ses fils.}}")
    assert stale(files, "index.html") == {
        "old": "The proxy changed its threads.", "new": "", "guess": ""}
    assert stale(files, "fr/index.html")["old"] == "Le proxy a changé ses fils."


def test_nothing_is_stale_without_a_rule(tmp_path: Path) -> None:
    assert set(stale(build(tmp_path, ""), "index.html").values()) == {""}


def test_remeasure_commit_needs_a_date(tmp_path: Path) -> None:
    config = write(tmp_path, "remeasure_since: {commit: aaaaaaa, reason: R}")
    site = tmp_path / "data" / "site.yaml"
    site.write_text(site.read_text().replace("{id: aaaaaaa, date: 2026-10-01}", "{id: aaaaaaa}"))
    with pytest.raises(BuildFailed) as failed:
        make_site(config)
    assert failed.value.render().startswith(
        "data/site.yaml:6:29: site.remeasure_since.commit: commit 'aaaaaaa' has no date, so "
        "figures cannot be compared with it\n")
