"""What changed between two sites: figures, task statuses, proofs (`--changes`)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from progress_site.pipeline import BuildConfig, make_site
from progress_site.publish.changes import (
    describe,
    lines_between,
    pages_changed,
    pages_line,
    parse_snapshot,
)
from progress_site.publish.datajson import plain
from progress_site.publish.snapshot import Snapshot, number, snapshot

from .conftest import TODAY, copy_example
from .done_site import done_source
from .runs_site import runs_source
from .test_pipeline import run_build

BASE = Snapshot(figures={"measurements.m": ("7.92 us", "measured")},
                tasks={"roadmaps.r.tasks.t": ("in-progress", 1)})


@pytest.mark.parametrize(("new", "expected"), [
    (BASE, []),
    (Snapshot({"measurements.m": ("7.90 us", "measured")}, BASE.tasks),
     ["figure measurements.m: 7.92 us -> 7.90 us"]),
    (Snapshot({"measurements.m": ("7.92 us", "watch")}, BASE.tasks),
     ["figure measurements.m: measured -> watch"]),
    (Snapshot({"measurements.m": ("8.00 us", "watch")}, BASE.tasks),
     ["figure measurements.m: 7.92 us -> 8.00 us (measured -> watch)"]),
    (Snapshot({**BASE.figures, "measurements.n": ("3 players", "measured")}, BASE.tasks),
     ["new figure measurements.n: 3 players (measured)"]),
    (Snapshot({}, BASE.tasks), ["figure removed measurements.m (was 7.92 us)"]),
    (Snapshot(BASE.figures, {"roadmaps.r.tasks.t": ("done", 2)}),
     ["task roadmaps.r.tasks.t: in-progress -> done", "task roadmaps.r.tasks.t: 1 new proof(s)"]),
    (Snapshot(BASE.figures, {**BASE.tasks, "roadmaps.r.tasks.u": ("planned", 0)}),
     ["new task roadmaps.r.tasks.u: planned"]),
])
def test_describe(new: Snapshot, expected: list[str]) -> None:
    assert describe(BASE, new) == expected


def test_changes_for_a_pull_request(example_copy: Path, tmp_path: Path) -> None:
    old = tmp_path / "old"
    assert run_build("--source", example_copy, "--out", old).returncode == 0
    studies = example_copy / "data" / "studies.yaml"
    studies.write_text(studies.read_text().replace("after: {value: 7.92}", "after: {value: 7.5}"))
    roadmaps = example_copy / "data" / "roadmaps.yaml"
    text = roadmaps.read_text()
    roadmaps.write_text(text.replace(
        "      - id: load-tests\n        title: {en: Load tests with real Horizon servers, "
        "fr: Tests de charge avec de vrais serveurs Horizon}\n        status: in-progress\n",
        "      - id: load-tests\n        title: {en: Load tests with real Horizon servers, "
        "fr: Tests de charge avec de vrais serveurs Horizon}\n        status: done\n"
        "        proofs: [{pull: 170}]\n        validated: 2026-11-20\n"))
    result = run_build("--source", example_copy, "--changes", old)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "- figure Processor per packet (500 typical players), After "
        "(comparisons.cpu-per-packet-500.after): 7.92 us -> 7.5 us",
        "- task Load tests with real Horizon servers (roadmaps.meridian.tasks.load-tests): "
        "in-progress -> done",
        "- task Load tests with real Horizon servers (roadmaps.meridian.tasks.load-tests): "
        "1 new proof(s)",
        "- 2 pages changed: fr/index.html, index.html",
    ]
    assert not (example_copy / "site").exists(), "--changes publishes nothing"


def test_each_build_says_what_changed(example_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = run_build("--source", example_copy, "--out", out)
    assert "previous site" not in first.stdout  # nothing to compare with yet
    again = run_build("--source", example_copy, "--out", out, "--force")
    assert again.stdout.splitlines()[-1] == (
        "No page, figure or task changed since the previous site.")


def test_changes_needs_a_published_site(example_copy: Path, tmp_path: Path) -> None:
    result = run_build("--source", example_copy, "--changes", tmp_path)
    assert result.returncode == 2
    assert result.stderr == (f"error: {tmp_path}: no data.json here; pass a folder that a "
                             "build of progress-site published\n")


GOLDEN_DATA = Path(__file__).parent / "golden" / "data.json"


def test_a_snapshot_holds_every_figure_by_its_key_and_every_task_by_its_ids_path() -> None:
    snap = parse_snapshot(GOLDEN_DATA.read_bytes())
    assert snap is not None and len(snap.figures) == 50 and len(snap.tasks) == 28
    assert snap.figures["comparisons.cpu-per-packet-500.after"] == ("7.92 us", "measured")
    assert snap.figures["measurements.players-lost"][1] == "measured"
    assert snap.figures["runs.real-network.stop-at-once.details.0"][1] == "measured"
    assert "roadmaps.meridian.tasks.several-proxies" in snap.tasks
    assert all(status in ("done", "in-progress", "planned") for status, _ in snap.tasks.values())


def without_keys(value: object) -> object:
    """A data.json as builds wrote it before figures had keys: no `derived.key`."""
    if isinstance(value, dict):
        return {k: without_keys(v) for k, v in value.items()
                if not (k == "key" and isinstance(v, str))}
    return [without_keys(v) for v in value] if isinstance(value, list) else value


def test_an_old_data_json_names_its_figures_by_the_same_keys() -> None:
    """A site published before keys (`measurements.ID.figure`) compares with a new one
    figure by figure: nothing is reported removed and added again."""
    new = GOLDEN_DATA.read_bytes()
    old = json.loads(new)
    assert "derived" in old["measurements"][0]["figure"]
    old = without_keys(old)
    assert "key" not in old["measurements"][0]["figure"]["derived"]
    assert parse_snapshot(json.dumps(old).encode()) == parse_snapshot(new)
    old["studies"][0]["comparisons"][0]["after"]["derived"]["quantity"]["low"] = 8.5
    assert lines_between(json.dumps(old).encode(), json.loads(new)) == [
        "figure Processor per packet (500 typical players), After "
        "(comparisons.cpu-per-packet-500.after): 8.50 us -> 7.92 us"]


@pytest.mark.parametrize("old", [b"", b"not json", b"[]", b'"a text"', b"null",
                                 b"\xff{}", b"[" * 200 + b"]" * 200])
def test_an_old_data_json_that_is_not_one_is_unreadable_not_a_crash(old: bytes) -> None:
    new = parse_snapshot(GOLDEN_DATA.read_bytes())
    assert new is not None and parse_snapshot(old) is None


@pytest.mark.parametrize("make", [runs_source, done_source])
def test_a_build_summarises_its_model_as_its_data_json_holds_it(
        make: Callable[[Path], Path], tmp_path: Path) -> None:
    """The new side of a build's summary comes from its model, not its data.json parsed
    again: the same figures, tasks (and steps), contenders."""
    source = make(tmp_path / "src")
    built = make_site(BuildConfig(source=source, out=tmp_path / "site", today=TODAY))
    assert built.model is not None
    document = plain(built.model)
    assert document == json.loads(built.files["data.json"])
    snap = snapshot(document)
    assert snap == parse_snapshot(built.files["data.json"])
    assert snap.figures and (snap.tasks if make is runs_source else snap.sides)


def edited(example_copy: Path, before: str, after: str) -> None:
    studies = example_copy / "data" / "studies.yaml"
    studies.write_text(studies.read_text().replace(before, after))


def test_each_build_compares_with_the_site_it_replaces(example_copy: Path,
                                                       tmp_path: Path) -> None:
    out = tmp_path / "out"
    path = "Processor per packet (500 typical players), After " \
           "(comparisons.cpu-per-packet-500.after)"
    assert run_build("--source", example_copy, "--out", out).returncode == 0
    for value, was in (("7.5", "7.92"), ("7.25", "7.5")):
        edited(example_copy, f"after: {{value: {was}}}", f"after: {{value: {value}}}")
        result = run_build("--source", example_copy, "--out", out)
        assert result.stdout.splitlines()[-2:] == [f"  figure {path}: {was} us -> {value} us",
                                                   "  2 pages changed: fr/index.html, index.html"]


WARNING = ("{out}/data.json: warning: no summary of what changed since the previous site: "
           "this file {why}\n"
           "    hint: the new site is published all the same, and the next build compares "
           "with it\n")


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory,
              example_files: dict[str, bytes]) -> tuple[Path, Path]:
    """A copy of the example and the site a build of it published, made once for the tests
    below: each builds the same source again over a copy of that site, its data.json
    spoiled (the source is only read; the outputs are the tests' own)."""
    folder = tmp_path_factory.mktemp("published")
    copy_example(folder / "src")
    assert run_build("--source", folder / "src", "--out", folder / "out").returncode == 0
    return folder / "src", folder / "out"


@pytest.mark.parametrize("old", [
    pytest.param(b'{"studies": {"derived": {"quantity": 5}}}', id="figure not a mapping"),
    pytest.param(b'{"studies": {"derived": {"quantity": {"kind": "value", "decimals": "a", '
                 b'"low": 1}}}}', id="decimals not a number"),
    pytest.param(b'{"studies": {"derived": {"quantity": {"kind": "value", "decimals": '
                 b'1000000000, "low": 1, "high": 1}}}}', id="a billion decimals"),
    pytest.param(b'{"studies": [{"status": [], "proofs": 3}]}', id="status not a word"),
    pytest.param(b'{"studies": {"derived": {"quantity": {"kind": "value", "low": 1'
                 + b"0" * 400 + b', "high": 1}}}}', id="no float holds it"),
    pytest.param(b"[" * 100_000 + b"]" * 100_000, id="deeper than json reads"),
    pytest.param(b'{"studies": ' + b"1" * 5000 + b"}", id="longer than Python reads"),
    pytest.param(b"\xff\xfe not even text", id="not text"),
    *(pytest.param(b'{"version": 1, "today": "2026-11-08", "measurements": [{"id": "x", '
                   b'"derived": {"quantity": {"kind": "value", "low": %s, "high": 1, '
                   b'"decimals": 2}}}]}' % number, id=f"a figure of {number.decode()}")
      for number in (b"NaN", b"Infinity", b"-Infinity")),
])
def test_a_previous_site_that_cannot_be_compared_is_still_replaced(
        old: bytes, published: tuple[Path, Path], tmp_path: Path) -> None:
    """The summary is worked out before the swap; one that cannot be made is a warning,
    and the new site is published (exit 0), never a traceback over a published site."""
    source, out = published[0], shutil.copytree(published[1], tmp_path / "out")
    data = (out / "data.json").read_bytes()
    (out / "data.json").write_bytes(old)
    result = run_build("--source", source, "--out", out)
    assert result.returncode == 0, result.stderr
    assert result.stderr == WARNING.format(out=out, why="is not a data.json that a build "
                                                        "published")
    assert result.stdout.startswith("Built 4 pages into ")
    assert result.stdout.endswith(" (1 warning).\n")
    assert (out / "data.json").read_bytes() == data


def test_a_previous_data_json_that_cannot_be_read_is_a_warning(published: tuple[Path, Path],
                                                               tmp_path: Path) -> None:
    source, out = published[0], shutil.copytree(published[1], tmp_path / "out")
    data = (out / "data.json").read_bytes()
    (out / "data.json").unlink()
    (out / "data.json").mkdir()
    result = run_build("--source", source, "--out", out)
    assert result.returncode == 0, result.stderr
    assert result.stderr == WARNING.format(out=out, why="is a folder, not a regular file")
    assert (out / "data.json").read_bytes() == data
    again = run_build("--source", source, "--out", out, "--force")
    assert (again.stderr, again.stdout.splitlines()[-1]) == (
        "", "No page, figure or task changed since the previous site.")


NOT_ONE = ("{old}/data.json: it is not a data.json that a build published{why}; pass a "
           "folder that a build of progress-site published (before there is one, a "
           'data.json of {{"version": 1, "today": "YYYY-MM-DD"}} is a site with nothing on it)')
DAY = '"today": "2026-11-08"'


@pytest.mark.parametrize(("old", "why"), [
    (b"[]", ""),
    (b"{}", " (version: expected 1, got missing)"),
    (b'{"version": 99, ' + DAY.encode() + b"}", " (version: expected 1, got 99)"),
    (b'{"version": true, ' + DAY.encode() + b"}", " (version: expected 1, got true)"),
    (b'{"version": 1}', " (today: expected a date (YYYY-MM-DD), got missing)"),
    (b'{"version": 1, "today": "2026-13-01"}',
     ' (today: expected a date (YYYY-MM-DD), got "2026-13-01")'),
    (b'{"version": 1, ' + DAY.encode() + b', "measurements": {}}',
     " (measurements: expected a list, got dict)"),
    (b'{"version": 1, ' + DAY.encode() + b', "site": []}',
     " (site: expected an object, got list)"),
])
def test_changes_against_a_file_that_is_not_a_published_data_json(
        old: bytes, why: str, example_copy: Path, tmp_path: Path) -> None:
    """`--changes OLD_SITE` is the user's argument: a file no build published is refused
    (exit 2) and says why, never read as a site with nothing on it."""
    site = tmp_path / "old"
    site.mkdir()
    (site / "data.json").write_bytes(old)
    result = run_build("--source", example_copy, "--changes", site)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "error: " + NOT_ONE.format(old=site, why=why) + "\n"


def test_changes_against_a_site_with_nothing_on_it(example_copy: Path,
                                                    tmp_path: Path) -> None:
    """The `_ok` twin: the smallest data.json (what pull-request.yml writes for a base
    with no site yet) makes every figure new."""
    site = tmp_path / "old"
    site.mkdir()
    (site / "data.json").write_bytes(b'{"version": 1, ' + DAY.encode() + b"}")
    result = run_build("--source", example_copy, "--changes", site)
    assert result.returncode == 0, result.stderr
    assert ("- new figure Players lost in one hour at 1,000 typical players "
            "(measurements.players-lost): ") in result.stdout


def test_changes_against_a_site_that_cannot_be_read(example_copy: Path,
                                                    tmp_path: Path) -> None:
    site = tmp_path / "old"
    (site / "data.json").mkdir(parents=True)
    result = run_build("--source", example_copy, "--changes", site)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (f"error: {site}: cannot read its data.json: it is a folder, "
                             "not a regular file\n")


def test_summary_lines_are_spelled_out(example_copy: Path, tmp_path: Path) -> None:
    """Ids of the old side may hold anything: an escape sequence is printed as text."""
    old = tmp_path / "old"
    old.mkdir()
    (old / "data.json").write_text('{"version": 1, "today": "2026-11-08", "roadmaps": '
                                   '[{"id": "r\\u001b[2J", "tasks": [{"id": '
                                   '"t\\nforged", "status": "done", "proofs": []}]}]}')
    result = run_build("--source", example_copy, "--changes", old)
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout
    assert "- task removed roadmaps.r\\x1b[2J.tasks.t\\nforged (was done)" in \
        result.stdout.splitlines()


def test_a_distribution_is_compared_part_by_part() -> None:
    quantity = {"kind": "distribution", "low": 19.03, "high": 19.03, "decimals": 2,
                "unit": "us", "signed": False,
                "parts": {"n": 1000, "p50": 19.03, "p99": 65.0, "mean": 21.5, "sd": 4.0}}
    assert number(quantity) == ("p50 19.03 us · p99 65.00 us · mean 21.50 us · sd 4.00 us "
                                "(n = 1000)")
    with pytest.raises(ValueError):
        number({**quantity, "parts": {"p50": "19"}})


def test_a_text_edited_is_a_change(example_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run_build("--source", example_copy, "--out", out).returncode == 0
    page = example_copy / "content" / "fr" / "index.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nUne phrase de plus.\n",
                    encoding="utf-8")
    again = run_build("--source", example_copy, "--out", out)
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[-2:] == [
        "Changes since the previous site:", "  1 page changed: fr/index.html"]


def test_a_summary_names_five_pages_and_counts_the_rest(tmp_path: Path) -> None:
    files = {f"p{i}/index.html": b"new" for i in range(7)} | {"data.json": b"{}"}
    (tmp_path / "p0").mkdir()
    (tmp_path / "p0" / "index.html").write_bytes(b"new")
    (tmp_path / "p1").mkdir()
    (tmp_path / "p1" / "index.html").write_bytes(b"newer")  # longer: read no further
    assert pages_line(pages_changed(tmp_path, files)) == [
        "6 pages changed: p1/index.html, p2/index.html, p3/index.html, p4/index.html, "
        "p5/index.html and 1 more"]


@pytest.mark.parametrize(("key", "named"), [
    ("measurements.players-lost",
     "Players lost in one hour at 1,000 typical players (measurements.players-lost)"),
    ("comparisons.cpu-per-packet-500.before",
     "Processor per packet (500 typical players), Before "
     "(comparisons.cpu-per-packet-500.before)"),
    ("budgets.players-1000.memory",
     "What 1,000 typical players cost: Memory (budgets.players-1000.memory)"),
    ("profiles.light.held", "Light players: held (profiles.light.held)"),
    ("runs.real-network.transfers.details.0",
     "real network run (VPS + PC): Moves from one server to another and back: "
     "Time in seconds (runs.real-network.transfers.details.0)"),
    ("headlines.processor", "headlines.processor"),  # its words cite numbers: its key
])
def test_the_summary_names_a_figure_by_its_title_then_its_key(key: str, named: str) -> None:
    """A reviewer reads what changed by its title; the key says where to edit it."""
    snap = parse_snapshot(GOLDEN_DATA.read_bytes())
    assert snap is not None and key in snap.figures
    assert snap.named(key) == named
