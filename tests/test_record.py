"""`record`: round-trip edits that keep every other byte, refusals, suggested statuses."""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
from pathlib import Path

import pytest
from ruamel import yaml
from ruamel.yaml.comments import CommentedMap

from progress_site.cli import main
from progress_site.load.site import load
from progress_site.pipeline import ENGINE_ROOT
from progress_site.record.pending import Pending, confirm
from progress_site.record.recorder import Refused, Suggestion, parse_number, suggest
from progress_site.record.yamledit import YamlFile, dump

from .conftest import SOURCE_DATE_EPOCH, copy_hostile_base


@pytest.fixture(autouse=True)
def fixed_today(monkeypatch: pytest.MonkeyPatch) -> None:
    """'Today' is 2026-11-29 for every recording."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)


def smallest_site(folder: Path) -> Path:
    """The smallest valid site (tests/hostile/base) with the example's machines and
    commits, in `folder`/small: for the tests of what one recording writes and reads back,
    where `record` reading every data file of the example again and again is not the
    point."""
    copy_hostile_base(folder / "small")
    shutil.copy(ENGINE_ROOT / "data" / "machines.yaml", folder / "small" / "data")
    return folder / "small"


@pytest.fixture
def small_site(tmp_path: Path) -> Path:
    """The smallest site with the example's machines and commits (`smallest_site`)."""
    return smallest_site(tmp_path)


def record(source: Path, *args: str) -> int:
    """`progress-site record ... --source SOURCE`."""
    return main(["record", *args, "--source", str(source)])


def hashes(root: Path) -> dict[str, str]:
    """The hash of every file under a folder (data, content and caches alike)."""
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    """The lines only in `before` and only in `after`, asserting the rest is identical."""
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    end = 0
    while end < min(len(old), len(new)) - start and old[-1 - end] == new[-1 - end]:
        end += 1
    assert old[:start] + old[len(old) - end:] == new[:start] + new[len(new) - end:]
    return old[start:len(old) - end], new[start:len(new) - end]


def test_new_measurement_is_added_after_the_others(
        example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    studies = example_copy / "data" / "studies.yaml"
    before = studies.read_text()
    status = record(example_copy, "measurement", "startup", "--value", "12.50", "--unit", "ms",
                    "--machine", "test-pc", "--commit", "c38a01e", "--title", "Start-up time")
    out = capsys.readouterr()
    assert status == 0, out.err
    assert out.out == ("measurements.startup: 12.50 ms, status measured\n"
                       "Wrote 1 figure to data/studies.yaml.\nThe data is valid.\n")
    removed, added = changed_lines(before, studies.read_text())
    assert removed == []
    assert added == ["  - id: startup\n", "    title: Start-up time\n",
                     "    figure: {value: 12.50, unit: ms, machine: test-pc, date: 2026-11-29, "
                     "commit: c38a01e}\n"]
    assert out.err == ""


def test_existing_measurement_is_refused_without_replace(
        example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    studies = example_copy / "data" / "studies.yaml"
    before = studies.read_text()
    status = record(example_copy, "measurement", "memory-500-after", "--value", "480",
                    "--unit", "KB", "--machine", "test-pc", "--commit", "c38a01e")
    assert status == 1
    assert capsys.readouterr().err == (
        "error: measurement 'memory-500-after' is already recorded (data/studies.yaml:150); "
        "pass --replace to overwrite its figure\n")
    assert studies.read_text() == before


def test_existing_measurement_is_replaced_with_replace(
        example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    studies = example_copy / "data" / "studies.yaml"
    before = studies.read_text()
    status = record(example_copy, "measurement", "memory-500-after", "--value", "480",
                    "--unit", "KB", "--machine", "test-pc", "--commit", "c38a01e",
                    "--date", "2026-11-20", "--replace")
    assert status == 0, capsys.readouterr().err
    removed, added = changed_lines(before, studies.read_text())
    assert removed == ["    figure: {value: 499, unit: KB, machine: test-pc, date: 2026-11-08, "
                       "commit: c38a01e}\n"]
    assert added == ["    figure: {value: 480, unit: KB, machine: test-pc, date: 2026-11-20, "
                     "commit: c38a01e}\n"]


def test_comparison_figures_are_updated_in_place(
        example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    studies = example_copy / "data" / "studies.yaml"
    before = studies.read_text()
    assert record(example_copy, "comparison", "optimisation/cpu-per-packet-500",
                  "--before", "20.5", "--after", "7.90") == 1
    assert "comparison optimisation/cpu-per-packet-500 already has a before figure " \
           "(data/studies.yaml:20); pass --replace" in capsys.readouterr().err
    assert studies.read_text() == before
    status = record(example_copy, "comparison", "optimisation/cpu-per-packet-500",
                    "--before", "20.5", "--after", "7.90", "--replace")
    assert status == 0, capsys.readouterr().err
    removed, added = changed_lines(before, studies.read_text())
    assert removed == ["        before: {value: 20.31}\n", "        after: {value: 7.92}\n"]
    assert added == ["        before: {value: 20.5}\n", "        after: {value: 7.90}\n"]


def test_a_not_judgeable_side_keeps_its_keys_in_place_and_loses_its_reason_once_measured(
        example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A number recorded into a not-judgeable side (the contender that could not run,
    now measured): its status and reason stay where they are written (they were moved
    after the number, the reason first), and once `--status measured` says the number
    stands, the reason that said why there was none goes (it stayed, stale)."""
    studies = example_copy / "data" / "studies.yaml"
    before = studies.read_text()
    status = record(example_copy, "comparison", "optimisation/latency-1000", "--before",
                    "41.5", "--replace")
    assert status == 0, capsys.readouterr().err
    removed, added = changed_lines(before, studies.read_text())
    assert (removed, added) == ([], ["          value: 41.5\n"])
    assert studies.read_text().count("          status: not-judgeable\n          reason:") == 2
    studies.write_text(before)
    status = record(example_copy, "comparison", "optimisation/latency-1000", "--before",
                    "41.5", "--after", "12.5", "--replace", "--status", "measured")
    assert status == 0, capsys.readouterr().err
    removed, added = changed_lines(before, studies.read_text())
    assert added == ["          value: 41.5\n", "        after:\n", "          value: 12.5\n"]
    assert [line.strip().split(":")[0] for line in removed] == [
        "status", "reason", "after", "status", "reason"]


def test_a_change_that_breaks_a_headline_is_refused_with_the_error_located(
        example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = hashes(example_copy)
    status = record(example_copy, "comparison", "optimisation/cpu-per-packet-1000",
                    "--after", "5", "--replace")
    out = capsys.readouterr()
    assert status == 1
    assert out.out == "comparisons.cpu-per-packet-1000.after: 5, status measured\n"
    assert out.err.startswith(
        "data/headlines.yaml:7:12: headlines[0].value: the headline states 2.5 but what it "
        "summarises says otherwise: comparisons.cpu-per-packet-500.ratio = 2.5644, "
        "comparisons.cpu-per-packet-1000.ratio = 3.806\n")
    # Texts that cite the headline still read its stated number: one error, not three.
    assert out.err.endswith("error: nothing written: the data as changed would not build "
                            "(1 error, above)\n")
    assert hashes(example_copy) == before


def test_a_change_that_keeps_the_headline_true_is_written(
        example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = record(example_copy, "comparison", "optimisation/cpu-per-packet-1000",
                    "--after", "7.9", "--replace")
    assert status == 0, capsys.readouterr().err


def test_a_refused_record_leaves_every_file_byte_identical(
        example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = hashes(example_copy)
    # A new commit to declare and a new file to make: neither may be left behind.
    status = record(example_copy, "measurement", "x", "--value", "1", "--machine", "test-pcc",
                    "--commit", "1234abc", "--file", "data/new.yaml", "--yes")
    assert status == 1
    err = capsys.readouterr().err
    assert err == (
        "data/new.yaml:4:33: measurements[0].figure.machine: no machine 'test-pcc'\n"
        "        figure: {value: 1, machine: test-pcc, date: 2026-11-29, commit: 1234abc}\n"
        "                                    ^\n"
        "    hint: did you mean 'test-pc'?\n"
        "error: nothing written: the data as changed would not build (1 error, above)\n")
    assert "declared commit" not in capsys.readouterr().out
    assert hashes(example_copy) == before


# Texts that a YAML reader may take for something else: numbers, booleans, nulls, dates.
SCALARS = ["57930e6", "1e10", "0x1f", "0o17", "010", "yes", "no", "on", "off", "null", "Null",
           "~", "true", ".inf", "1_000", "12:30", "2026-11-08", "0x1f2e3d4"]
NOT_IDS = ("~", ".inf", "12:30")  # texts, but no id is written so (see the refusal below)


# One text of each kind a YAML reader may take it for runs in the quick run; CI runs all.
QUICK_SCALARS = {"57930e6", "0x1f2e3d4", "1_000", "yes", "null", "12:30", "2026-11-08"}


@pytest.mark.parametrize("text", [
    pytest.param(text, marks=() if text in QUICK_SCALARS else pytest.mark.slow)
    for text in SCALARS])
def test_a_text_is_written_and_read_back_as_given(
        text: str, small_site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made = ["--value", "1", "--unit", "ms", "--machine", "test-pc", "--title", text,
            *(["--commit", text] if text not in NOT_IDS else ["--status", "estimate"])]
    assert record(small_site, "measurement", "first", *made) == 0, capsys.readouterr().err
    declared = capsys.readouterr().out.count(f"declared commit {text} under `commits:`")
    assert declared == (text not in (*NOT_IDS, "57930e6"))  # the example's is found
    assert record(small_site, "measurement", "second", *made) == 0, capsys.readouterr().err
    # Not declared again: record's reader (DataFiles.find) found the commit it wrote.
    assert "declared commit" not in capsys.readouterr().out
    loaded, problems = load(small_site, strict=True)
    assert loaded is not None and not [p for p in problems if not p.warning]
    written = {m.id: m for m in loaded.data.measurements if m.id in ("first", "second")}
    assert [m.title.get("en") for m in written.values()] == [text, text]
    if text not in NOT_IDS:
        assert [m.figure.commit for m in written.values()] == [text, text]
        assert [c.id for c in loaded.data.commits].count(text) == 1


@pytest.mark.parametrize("commit", NOT_IDS)
def test_a_commit_that_is_no_id_is_refused(
        commit: str, example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = hashes(example_copy)
    assert record(example_copy, "measurement", "x", "--value", "1", "--machine", "test-pc",
                  "--commit", commit) == 1
    assert f"commits[2].id: id '{commit}' is not a word" in capsys.readouterr().err
    assert hashes(example_copy) == before


@pytest.mark.parametrize("commit", ["57930e6", "1e10", "0x1f", "0o17", "010", "yes", "on",
                                    "1_000", "0x1f2e3d4"])
def test_a_commit_written_unquoted_by_hand_is_found(
        commit: str, small_site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    machines = small_site / "data" / "machines.yaml"
    if commit != "57930e6":
        machines.write_text(machines.read_text() + f"  - id: {commit}\n")
    before = machines.read_bytes()
    status = record(small_site, "measurement", "x", "--value", "1", "--unit", "ms",
                    "--machine", "test-pc", "--commit", commit)
    out = capsys.readouterr()
    assert status == 0, out.err
    assert "declared commit" not in out.out
    assert machines.read_bytes() == before


def test_noisy_samples_suggest_watch_and_a_new_commit_is_declared(
        example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    machines = example_copy / "data" / "machines.yaml"
    before = machines.read_text()
    status = record(example_copy, "measurement", "jitter", "--samples", "10,12,15",
                    "--unit", "ms", "--machine", "test-pc", "--commit", "9999999",
                    "--file", "data/new.yaml")
    out = capsys.readouterr()
    assert status == 0, out.err
    assert out.out.startswith(
        "measurements.jitter: 10, 12, 15 ms, status watch (the runs vary by 20.4 % "
        "(coefficient of variation), over 5 %)\n")
    assert "note: no terminal to confirm on; keeping the suggested statuses" in out.err
    assert (example_copy / "data" / "new.yaml").read_text() == (
        "measurements:\n  - id: jitter\n    title: jitter\n    figure: {samples: [10, 12, 15],"
        " unit: ms, status: watch, machine: test-pc, date: 2026-11-29, commit: '9999999'}\n")
    assert changed_lines(before, machines.read_text()) == ([], ["  - id: '9999999'\n"])


def test_a_measured_figure_needs_its_machine(example_copy: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert record(example_copy, "measurement", "x", "--value", "1", "--commit", "c38a01e") == 1
    assert capsys.readouterr().err == ("error: a measured figure needs --machine; or pass "
                                       "--status estimate\n")
    assert record(example_copy, "measurement", "x", "--value", "1", "--status", "estimate",
                  "--dry-run") == 0
    assert "+    figure: {value: 1, status: estimate, date: 2026-11-29}\n" in \
        capsys.readouterr().out


def test_an_unknown_machine_is_a_located_error(example_copy: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    status = record(example_copy, "measurement", "x", "--value", "1", "--machine", "test-pcc",
                    "--commit", "c38a01e", "--yes")
    assert status == 1
    err = capsys.readouterr().err
    assert "figure.machine: no machine 'test-pcc'\n" in err
    assert "hint: did you mean 'test-pc'?" in err


def test_dry_run_writes_nothing(example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    studies = example_copy / "data" / "studies.yaml"
    before = studies.read_text()
    assert record(example_copy, "comparison", "optimisation/cpu-per-packet-500", "--after",
                  "7", "--replace", "--dry-run") == 0
    assert "-        after: {value: 7.92}\n+        after: {value: 7}\n" in capsys.readouterr().out
    assert studies.read_text() == before


def pending(status: str, suggestion: Suggestion | None) -> Pending:
    return Pending("measurements.x", "1 ms", status, suggestion, lambda s: None)


def options(**values: bool) -> argparse.Namespace:
    return argparse.Namespace(**{"yes": False, "dry_run": False, **values})


def test_confirm_asks_once_and_no_writes_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    asked: list[str] = []
    noisy = [pending("watch", suggest(0.09)), pending("measured", suggest(0.01))]
    confirm(noisy, options(), lambda q: asked.append(q) or "")
    assert asked == ["Write with these statuses? [Y/n] "]
    with pytest.raises(Refused, match="nothing written"):
        confirm(noisy, options(), lambda q: "n")
    confirm(noisy, options(yes=True), lambda q: pytest.fail("asked despite --yes"))
    confirm([pending("estimate", None)], options(), lambda q: pytest.fail("nothing to confirm"))
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(("cv", "expected"), [
    (None, None),
    (0.05, Suggestion("measured", "the runs vary by 5.0 %, within 5 %")),
    (0.0501, Suggestion("watch", "the runs vary by 5.0 % (coefficient of variation), "
                                 "over 5 %")),
])
def test_suggest(cv: float | None, expected: Suggestion | None) -> None:
    assert suggest(cv) == expected


@pytest.mark.parametrize(("text", "written"), [("12.50", "12.50"), ("1e3", "1000"),
                                               ("1_000", "1000"), ("-0.5", "-0.5")])
def test_parse_number_keeps_what_was_typed(text: str, written: str) -> None:
    assert parse_number(text, "--value") == written


def test_parse_number_refuses_words() -> None:
    with pytest.raises(Exception, match="--value: expected a number, got 'abc'"):
        parse_number("abc", "--value")


def test_edits_keep_comments_and_flow_lists(tmp_path: Path) -> None:
    path = tmp_path / "data.yaml"
    text = ("# top comment\nmeasurements:   # trailing\n  - id: a  # why a\n"
            "    title: A\n    proofs: [{issue: 117}]\n    figure:\n      value: 1  # raw\n"
            "      unit: ms\n\n  # about b\n  - id: b\n    title: B\n    figure: {value: 2}\n"
            "# closing\n")
    path.write_text(text)
    file = YamlFile(path, "data.yaml")
    a = file.tree["measurements"][0]
    figure = a["figure"]
    figure["value"] = 3
    file.set(a, "figure", figure)
    removed, added = changed_lines(text, file.result())
    assert removed == ["      value: 1  # raw\n"]
    assert [line.split("#")[0].rstrip() + " #" + line.split("#")[1] for line in added] == [
        "      value: 3 # raw\n"]  # ruamel keeps the comment, at its own column


# Titles a tool may give, each written by ruamel in its own way: quoted, escaped, folded
# past the line width, with a break of YAML 1.1 the writer indents after.
AWKWARD = ("plain", "a: b", "- dash", "#hash", "'q'", '"dq"', "multi\nline", "trail ",
           " lead", "y " * 1100, "y " * 3000, "é ü ß", "", "null", "1.50", "yes", "a\n\nb",
           "tab\tx", "[x]", "a #b", "\u2028ls", "end\n", "|", "k: v\n- z", "\x85")


@pytest.mark.parametrize("dash, col", [(0, 2), (2, 4), (4, 8)])
def test_items_appended_together_read_as_each_alone(tmp_path: Path, dash: int, col: int
                                                    ) -> None:
    """Many new entries (an import's thousands of series) are written at once, byte for
    byte as ruamel writes each alone, at the list's own columns."""
    def entry(n: int, title: str) -> CommentedMap:
        figure = CommentedMap([("unit", "ns")])
        figure.fa.set_flow_style()
        return CommentedMap([("id", f"m{n}"), ("title", title),
                             ("facts", [title, "x"]), ("figure", figure)])

    path = tmp_path / "data.yaml"
    head = "measurements:\n" + " " * dash + "-" + " " * (col - dash - 1) + "id: first\n"
    path.write_text(head + " " * col + "title: First\n")
    together = YamlFile(path, "data.yaml")
    for n, title in enumerate(AWKWARD):
        together.append("measurements", entry(n, title))
    alone = ""  # each entry as the writer writes it alone, moved over to the list's columns
    for n, title in enumerate(AWKWARD):
        first, *rest = dump(entry(n, title)).rstrip("\n").split("\n")
        alone += " " * dash + "-" + " " * (col - dash - 1) + first + "\n" + "".join(
            " " * col + line + "\n" if line else "\n" for line in rest)
    assert together.result() == path.read_text() + alone
    read = yaml.YAML(typ="safe").load(together.result())["measurements"]
    # (U+0085 is a control no text may hold: the build refuses it, written as it may be.)
    assert [m["title"] for m in read[1:]] == [t.replace("\x85", " ") for t in AWKWARD]


def test_what_a_recording_names_prints_spelled_out(
        example_copy: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    """An id and a file name holding a newline, ESC, a C1 control or a direction override
    reach the terminal spelled out: no forged line, no cleared screen. (Such a unit is
    refused at its option: tests/test_hostile_import.py.)"""
    before = hashes(example_copy)
    status = record(example_copy, "measurement", "x\nFORGED: Wrote 0 figures\x1b[2J",
                    "--value", "1", "--unit", "ms", "--status", "estimate",
                    "--file", "data/n\x1b[2J\u202e.yaml")
    out, err = capsysbinary.readouterr()
    assert status == 1
    assert not re.search(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]",
                         out + err), out + err
    assert out == b"measurements.x\\nFORGED: Wrote 0 figures\\x1b[2J: 1 ms, status estimate\n"
    assert b"\nFORGED" not in err
    assert err.startswith(b"data/n\\x1b[2J\\u202e.yaml:")
    assert hashes(example_copy) == before


@pytest.mark.parametrize("file", ["data/../../x.yaml", "../x.yaml", "data/../site.yaml"])
def test_a_file_outside_data_is_refused_by_name(
        file: str, example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`data/../../x.yaml` is outside data/ as `../x.yaml` is: the same usage error, not a
    'link that leads to no file'."""
    before = hashes(example_copy)
    status = record(example_copy, "measurement", "x", "--value", "1", "--unit", "ms",
                    "--status", "estimate", "--file", file)
    outside = os.path.normpath(example_copy / file)
    assert (status, capsys.readouterr().err) == (2, f"error: --file {outside}: expected a "
                                                 f".yaml file under {example_copy / 'data'}\n")
    assert hashes(example_copy) == before


def test_a_file_under_data_ok(example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = record(example_copy, "measurement", "x", "--value", "1", "--unit", "ms",
                    "--status", "estimate", "--file", "data/sub/../new.yaml")
    assert status == 0, capsys.readouterr().err
    assert "id: x" in (example_copy / "data" / "new.yaml").read_text()


def test_replace_keeps_a_figures_unit_unless_unit_changes_it(
        example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    studies = example_copy / "data" / "studies.yaml"
    before = hashes(example_copy)
    made = ["--machine", "test-pc", "--commit", "c38a01e", "--date", "2026-11-20", "--replace"]
    assert record(example_copy, "measurement", "memory-500-after", "--value", "480", *made) == 1
    assert capsys.readouterr().err == (
        "error: measurement 'memory-500-after' is recorded in KB (data/studies.yaml:150), the "
        "new figure in no unit: refusing to change its unit; pass --unit KB to keep it, or "
        "--unit '' to drop it on purpose\n")
    assert hashes(example_copy) == before
    text = studies.read_text()
    assert record(example_copy, "measurement", "memory-500-after", "--value", "0.48",
                  "--unit", "MB", *made) == 0, capsys.readouterr().err
    assert changed_lines(text, studies.read_text())[1] == [
        "    figure: {value: 0.48, unit: MB, machine: test-pc, date: 2026-11-20, "
        "commit: c38a01e}\n"]


def test_a_distribution_is_recorded_as_the_tool_reported_it(
        example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # mean ± sd gives the noise (2.8 / 55.4 = 5.1 %), which suggests "to watch".
    status = record(example_copy, "measurement", "startup", "--distribution",
                    "p50=55.1,mean=55.4,sd=2.8,n=10", "--unit", "ms", "--machine", "test-pc",
                    "--commit", "c38a01e", "--file", "data/new.yaml", "--yes")
    out = capsys.readouterr()
    assert status == 0, out.err
    assert out.out.startswith(
        "measurements.startup: p50=55.1 ms, mean=55.4 ms, sd=2.8 ms, n=10, status watch (the runs "
        "vary by 5.1 % (coefficient of variation), over 5 %)\n")
    assert (example_copy / "data" / "new.yaml").read_text() == (
        "measurements:\n  - id: startup\n    title: startup\n    figure: {distribution: "
        "{p50: 55.1, mean: 55.4, sd: 2.8, n: 10}, unit: ms, status: watch, machine: "
        "test-pc, date: 2026-11-29, commit: c38a01e}\n")


def test_a_distribution_the_build_refuses_is_not_written(
        example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = hashes(example_copy)
    status = record(example_copy, "measurement", "latency", "--distribution",
                    "p50=16,p95=12,p59=3", "--unit", "us", "--machine", "test-pc",
                    "--commit", "c38a01e", "--file", "data/new.yaml", "--yes")
    err = capsys.readouterr().err
    assert status == 1
    assert [line for line in err.splitlines() if line.startswith(("data/", "    hint"))] == [
        "data/new.yaml:4:47: measurements[0].figure.distribution.p59: unknown key 'p59'",
        "    hint: did you mean 'p99'?"]
    assert hashes(example_copy) == before


def test_comparison_sides_are_recorded_as_distributions(
        example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The medians stay 20.31 and 7.92: the headline that summarises the ratio still agrees.
    studies = example_copy / "data" / "studies.yaml"
    before = studies.read_text()
    status = record(example_copy, "comparison", "optimisation/cpu-per-packet-500",
                    "--before", "p50=20.31,p99=44.0,n=1000", "--after",
                    "p50=7.92,p99=16.25,n=1000", "--replace", "--yes")
    out = capsys.readouterr()
    assert status == 0, out.err
    assert "comparisons.cpu-per-packet-500.before: p50=20.31, p99=44.0, n=1000" in out.out
    removed, added = changed_lines(before, studies.read_text())
    assert removed == ["        before: {value: 20.31}\n", "        after: {value: 7.92}\n"]
    assert added == ["        before: {distribution: {p50: 20.31, p99: 44.0, n: 1000}}\n",
                     "        after: {distribution: {p50: 7.92, p99: 16.25, n: 1000}}\n"]
    # Back to a value: the distribution is replaced, not kept beside it.
    assert record(example_copy, "comparison", "optimisation/cpu-per-packet-500",
                  "--after", "7.92", "--replace", "--yes") == 0, capsys.readouterr().err
    assert "        after: {value: 7.92}\n" in studies.read_text()


@pytest.mark.parametrize(("written", "why"), [
    ("2026-13-01", "month must be in 1..12"),
    ("2026-02-30", "day is out of range for month"),
    ("26-1-1", "write it as YYYY-MM-DD, such as 2026-11-08"),
])
def test_a_date_that_is_no_day_is_refused_in_words(
        example_copy: Path, capsys: pytest.CaptureFixture[str], written: str, why: str) -> None:
    before = hashes(example_copy)
    with pytest.raises(SystemExit) as stop:
        record(example_copy, "measurement", "startup", "--value", "12", "--date", written)
    assert stop.value.code == 2
    assert capsys.readouterr().err.endswith(
        f"error: argument --date: '{written}' is not a day of the calendar: {why}\n")
    assert hashes(example_copy) == before


def test_a_date_after_today_is_refused(
        example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = hashes(example_copy)
    assert record(example_copy, "measurement", "startup", "--value", "12",
                  "--date", "2026-11-30") == 2
    assert capsys.readouterr().err == (
        "error: --date 2026-11-30: a day after today (2026-11-29); nothing is measured in "
        "the future, and the build would refuse it\n")
    assert hashes(example_copy) == before


def test_a_date_of_today_is_recorded(
        example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = record(example_copy, "measurement", "startup", "--value", "12.50", "--unit", "ms",
                    "--machine", "test-pc", "--commit", "c38a01e", "--title", "Start-up time",
                    "--date", "2026-11-29")
    assert status == 0, capsys.readouterr().err
    assert "date: 2026-11-29" in (example_copy / "data" / "studies.yaml").read_text()


def test_a_change_that_leaves_a_page_citing_a_part_no_longer_given_is_refused(
        example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A page cites the p99 of a distribution; recording a plain value in its place
    would fail the next build at that page, so it is refused, as the docs promise."""
    assert record(example_copy, "comparison", "optimisation/cpu-per-packet-500",
                  "--before", "p50=20.31,p99=44.0,n=1000", "--after",
                  "p50=7.92,p99=16.25,n=1000", "--replace", "--yes") == 0
    for lang in ("en", "fr"):
        page = example_copy / "content" / lang / "index.md"
        page.write_text(page.read_text(encoding="utf-8")
                        + "\nTail: {{ comparisons.cpu-per-packet-500.after.p99 }}.\n",
                        encoding="utf-8")
    capsys.readouterr()
    before = hashes(example_copy)
    status = record(example_copy, "comparison", "optimisation/cpu-per-packet-500",
                    "--after", "7.92", "--replace", "--yes")
    err = capsys.readouterr().err
    assert status == 1
    located = [line.split(": ", 1)[0] for line in err.splitlines()
               if line.startswith("content/")]
    assert [where.rsplit(":", 2)[0] for where in located] == [
        "content/en/index.md", "content/fr/index.md"]
    assert "no number named 'comparisons.cpu-per-packet-500.after.p99'" in err
    assert err.endswith("error: nothing written: the data as changed would not build "
                        "(2 errors, above)\n")
    assert hashes(example_copy) == before


def cite(source: Path, words: str) -> None:
    """Add a line of prose to the English home page."""
    page = source / "content" / "en" / "index.md"
    page.write_text(page.read_text(encoding="utf-8") + f"\n{words}\n", encoding="utf-8")


def test_a_refusal_tells_the_pages_errors_with_the_datas(
        example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A change that fails the data is checked against the pages too, as a build checks
    them: both errors are told at once, not the page's once the data is mended."""
    cite(example_copy, "Lost: {{ measurements.nowhere }}.")
    before = hashes(example_copy)
    status = record(example_copy, "measurement", "x", "--value", "1", "--machine", "test-pcc",
                    "--commit", "c38a01e", "--file", "data/new.yaml", "--yes")
    err = capsys.readouterr().err
    assert status == 1
    assert "measurements[0].figure.machine: no machine 'test-pcc'" in err
    assert "no number named 'measurements.nowhere'" in err
    assert err.endswith("error: nothing written: the data as changed would not build "
                        "(2 errors, above)\n")
    assert hashes(example_copy) == before


def test_a_page_citing_the_refused_figure_adds_no_error_of_its_own(
        example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The page cites the figure whose machine is wrong: that figure's error is told, at
    the figure, once; the page's reference to it is not told as a second one."""
    cite(example_copy, "New: {{ measurements.x }} ({{ measurements.x.value }}).")
    status = record(example_copy, "measurement", "x", "--value", "1", "--machine", "test-pcc",
                    "--commit", "c38a01e", "--file", "data/new.yaml", "--yes")
    err = capsys.readouterr().err
    assert status == 1
    assert "no machine 'test-pcc'" in err and "content/" not in err
    assert err.endswith("error: nothing written: the data as changed would not build "
                        "(1 error, above)\n")


def test_a_data_file_that_does_not_read_leaves_the_rest_checked(
        example_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A data file that cannot be read (a tab in its indentation) is told with every other
    error of the change at once: the page's, and the machine the new figure names, which
    that file may declare, told once however many figures name it."""
    machines = example_copy / "data" / "machines.yaml"
    machines.write_text(machines.read_text(encoding="utf-8").replace(
        "  - id: vps\n", "\t- id: vps\n"), encoding="utf-8")
    cite(example_copy, "Lost: {{ measurements.nowhere }}.")
    before = hashes(example_copy)
    status = record(example_copy, "measurement", "x", "--value", "1", "--machine", "test-pc",
                    "--commit", "c38a01e", "--file", "data/new.yaml", "--yes")
    err = capsys.readouterr().err
    assert status == 1
    assert "data/machines.yaml:13:1: YAML syntax error" in err
    assert err.count("no machine 'test-pc' in the files read: data/machines.yaml, which "
                     "could not be read whole, may declare it") == 1
    assert "no number named 'measurements.nowhere'" in err
    assert "Traceback" not in err
    assert hashes(example_copy) == before
