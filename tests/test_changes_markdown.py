"""`--changes OLD_SITE --format markdown` and `--fail-on-regression`, on hand-made
data.json files: the summary a pull request shows, and the exit status that gates it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

from progress_site import cli, outcome, pipeline
from progress_site.outcome import REGRESSED
from progress_site.pipeline import Built
from progress_site.publish.comment import compare, markdown, md
from progress_site.publish.steps import StepRow, new_regressions, steps_in

STEP = {"key": "parse-large", "status": "regressed", "last_before": "a1b2c3d",
        "first_after": "e4f5a6b", "before": 1.25, "after": 1.5, "percent": 20.0,
        "noise": 0.02}


def figure(value: float, unit: str = "us", status: str = "measured") -> dict[str, Any]:
    """A figure as data.json publishes it."""
    return {"derived": {"quantity": {"kind": "value", "low": value, "high": value,
                                     "decimals": 2, "unit": unit}, "status": status}}


def data_json(*steps: dict[str, Any], cpu: float = 7.92, title: str = "Proxy",
              task: str = "in-progress") -> bytes:
    """A small data.json: one figure, one task, one text, and the steps given."""
    document: dict[str, Any] = {
        "version": 1, "today": "2026-11-08", "site": {"title": title},
        "measurements": [{"id": "cpu", **figure(cpu)}],
        "roadmaps": [{"id": "r", "tasks": [{"id": "t", "status": task, "proofs": []}]}]}
    if steps:  # as publish/regressions.py writes them: under each series
        document["series"] = [{"key": step["key"], "steps": [step]} for step in steps]
    return json.dumps(document).encode()


def html(text: str) -> str:
    """The Markdown as GitHub would render it (CommonMark and tables)."""
    return MarkdownIt("commonmark").enable("table").render(text)


def test_the_summary_tells_figures_tasks_texts_and_new_steps() -> None:
    old = data_json(cpu=1234.5)
    new = data_json(STEP, {**STEP, "key": "startup", "status": "improved",
                           "percent": -12.5, "before": 8.0, "after": 7.0},
                    cpu=1300, title="Proxy 2", task="done")
    assert markdown(compare(old, json.loads(new))) == (
        "## Changes to the progress page\n\n"
        "| Figure | Old -> new | Change |\n| --- | --- | --- |\n"
        "| measurements\\.cpu | 1,234.50 us -> 1,300.00 us | +5.3% |\n\n"
        "### Tasks\n\n- task roadmaps\\.r\\.tasks\\.t\\: in\\-progress \\-&gt; done\n\n"
        "1 text changed.\n\n"
        "### New regressions\n\n"
        "- parse\\-large: 1.250 -> 1.500 (+20.0%) between a1b2c3d and e4f5a6b, judged "
        "against a noise of 2.0%\n\n"
        "### Improvements\n\n"
        "- startup: 8.000 -> 7.000 (-12.5%) between a1b2c3d and e4f5a6b, judged "
        "against a noise of 2.0%\n")


def test_a_step_names_its_levels_in_the_series_unit() -> None:
    """A CI history in microseconds: the levels read as the figures do, unit and all."""
    step = {**STEP, "before": 516.75, "after": 570.0, "percent": 10.3, "noise": 0.011}
    new = json.loads(data_json(step))
    new["series"][0]["unit"] = "us"
    lines = markdown(compare(data_json(), new)).splitlines()
    assert lines[lines.index("### New regressions") + 2] == (
        "- parse\\-large: 516.8 us -> 570.0 us (+10.3%) between a1b2c3d and e4f5a6b, "
        "judged against a noise of 1.1%")


def test_nothing_changed() -> None:
    same = data_json(STEP)
    assert markdown(compare(same, json.loads(same))) == (
        "## Changes to the progress page\n\nNo figure changed.\n\nNo task changed.\n\n"
        "No text changed.\n")


PAGES = [f"p{i}/index.html" for i in range(1, 8)]


@pytest.mark.parametrize(("pages", "said"), [
    ([], "No page changed.\n"),
    (PAGES[:1], "### 1 page changed\n\n- p1\\/index\\.html\n"),
    (PAGES[:5], "### 5 pages changed\n\n" + "".join(
        f"- p{i}\\/index\\.html\n" for i in range(1, 6))),
    (PAGES, "### 7 pages changed\n\n" + "".join(
        f"- p{i}\\/index\\.html\n" for i in range(1, 6)) + "\nAnd 2 more.\n"),
])
def test_the_pages_that_changed_the_first_five_named(pages: list[str], said: str) -> None:
    same = data_json()
    assert markdown(compare(same, json.loads(same), pages)) == (
        "## Changes to the progress page\n\nNo figure changed.\n\nNo task changed.\n\n"
        "No text changed.\n\n" + said)


def test_a_hostile_page_name_stays_inert() -> None:
    same = data_json()
    rendered = html(markdown(compare(same, json.loads(same), [HOSTILE, "index.html"])))
    assert "<a " not in rendered and "<img" not in rendered and "<strong" not in rendered
    assert rendered.count("<li>") == 2


def test_a_step_the_old_site_had_is_not_new_but_a_verdict_that_changed_is() -> None:
    pending = {**STEP, "status": "pending"}
    assert new_regressions(steps_in(json.loads(data_json(STEP))),
                           steps_in(json.loads(data_json(STEP)))) == []
    assert new_regressions(steps_in(json.loads(data_json(pending))),
                           steps_in(json.loads(data_json(STEP)))) == [
        StepRow("parse-large", "regressed", "a1b2c3d", "e4f5a6b", 1.25, 1.5, 20.0, 0.02)]
    moved = {**STEP, "first_after": "ffff000"}  # another range: another step
    assert len(new_regressions(steps_in({"series": [{"steps": [STEP]}]}),
                               steps_in({"series": [{"steps": [moved]}]}))) == 1


@pytest.mark.parametrize("listed", [
    None, "not a list", [1, "x", None], [{**STEP, "status": "worse"}],
    [{**STEP, "percent": "20"}], [{**STEP, "key": 5}], [{**STEP, "noise": True}],
    [{**STEP, "after": float("inf")}], [{k: v for k, v in STEP.items() if k != "before"}],
])
def test_what_is_not_a_step_is_passed_over(listed: Any) -> None:
    document = {} if listed is None else {"series": [{"steps": listed}]}
    assert steps_in(document) == []


HOSTILE = ("[click](https://evil.example) ![x](https://evil.example/a.png) "
           "<img src=x onerror=alert(1)> @octocat www.evil.example | cell **bold** "
           "`code`\nforged line &amp;")


def test_input_is_inert_markdown() -> None:
    text = md(HOSTILE)
    rendered = html(f"| a |\n| --- |\n| {text} |\n")
    for forbidden in ("<a ", "<img", "<strong", "<code", "<br"):
        assert forbidden not in rendered
    assert "@octocat" not in text and "@\u200doctocat" in text
    assert "https://" not in text and "www.evil" not in text  # no autolink either
    assert "\n" not in text and rendered.count("<td>") == 1  # one cell, one row
    assert "line &amp;amp;</td>" in rendered  # an entity in the input shows as typed


def test_hostile_ids_and_steps_stay_inert_in_the_summary() -> None:
    step = {**STEP, "key": HOSTILE, "last_before": "<script>", "first_after": "@x"}
    old = data_json()
    new = json.loads(data_json(step))
    new["measurements"][0]["id"] = HOSTILE
    rendered = html(markdown(compare(old, new)))
    assert "<a " not in rendered and "<img" not in rendered and "<script" not in rendered
    assert "@x" not in rendered


@pytest.fixture()
def source(tmp_path: Path) -> Path:
    """A folder the command line accepts as a source (the build itself is replaced)."""
    (tmp_path / "src" / "data").mkdir(parents=True)
    (tmp_path / "src" / "content" / "en").mkdir(parents=True)
    (tmp_path / "src" / "content" / "en" / "index.md").write_text("# Home\n")
    return tmp_path / "src"


def site(folder: Path, data: bytes) -> Path:
    """A published site: a folder with its data.json."""
    folder.mkdir()
    (folder / "data.json").write_bytes(data)
    return folder


def made(monkeypatch: pytest.MonkeyPatch, new: bytes) -> None:
    """Builds make a site whose data.json is `new` (the command line reaches the build
    through the pipeline, when it builds)."""
    built = Built(files={"index.html": b"", "data.json": new}, changes=[])
    monkeypatch.setattr(pipeline, "make_site", lambda config: built)
    monkeypatch.setattr(pipeline, "build", lambda config, **asked: built)
    # Without a model, what its data.json holds is the file itself.
    monkeypatch.setattr(outcome, "published", lambda built, whole=True: json.loads(new))


@pytest.mark.parametrize(("new_steps", "status"), [
    ((), 0), ((STEP,), REGRESSED), (({**STEP, "status": "pending"},), 0),
    (({**STEP, "status": "improved"},), 0)])
def test_changes_fails_on_a_new_regression(
        new_steps: tuple[dict[str, Any], ...], status: int, source: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    old = site(tmp_path / "old", data_json())
    made(monkeypatch, data_json(*new_steps))
    assert cli.main(["--source", str(source), "--changes", str(old), "--format",
                     "markdown", "--fail-on-regression"]) == status
    out, err = capsys.readouterr()
    assert out.startswith("## Changes to the progress page\n")
    # The old site has no index.html: the new one's is a page that changed.
    assert "\n\n### 1 page changed\n\n- index\\.html\n" in out
    assert ("### New regressions" in out) == (status != 0)
    assert err == ("regression: parse-large: +20.0 % between a1b2c3d and e4f5a6b "
                   "(noise 2.0 %)\n" if status else "")


def test_a_regression_the_old_site_had_does_not_fail(
        source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = site(tmp_path / "old", data_json(STEP))
    made(monkeypatch, data_json(STEP))
    assert cli.main(["--source", str(source), "--changes", str(old),
                     "--fail-on-regression"]) == 0
    assert cli.main(["--source", str(source), "--changes", str(old)]) == 0


def test_without_the_option_a_regression_does_not_fail(
        source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    old = site(tmp_path / "old", data_json())
    made(monkeypatch, data_json(STEP, cpu=8))
    assert cli.main(["--source", str(source), "--changes", str(old)]) == 0
    assert capsys.readouterr().out == ("- figure measurements.cpu: 7.92 us -> 8.00 us\n"
                                       "- 1 page changed: index.html\n")


def test_a_build_fails_on_a_regression_the_site_it_replaces_did_not_have(
        source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    out = site(tmp_path / "out", data_json())
    made(monkeypatch, data_json(STEP))
    args = ["--source", str(source), "--out", str(out), "--fail-on-regression"]
    assert cli.main(args) == REGRESSED
    assert "regression: parse-large" in capsys.readouterr().err
    (out / "data.json").write_bytes(data_json(STEP))  # as the build would have published
    assert cli.main(args) == 0


def test_a_first_build_has_no_new_regression(
        source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    made(monkeypatch, data_json(STEP))
    assert cli.main(["--source", str(source), "--out", str(tmp_path / "none"),
                     "--fail-on-regression"]) == 0
    assert "no previous site to compare with" in capsys.readouterr().err


def test_markdown_is_for_changes(source: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--source", str(source), "--format", "markdown"]) == 2
    assert "--format applies to --changes" in capsys.readouterr().err


EMPTY_SITE = (' (before there is one, a data.json of {"version": 1, "today": "YYYY-MM-DD"} '
              "is a site with nothing on it)")


def test_an_old_site_that_is_not_one_is_a_usage_error_in_markdown(
        source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    old = site(tmp_path / "old", b"[]")
    made(monkeypatch, data_json())
    assert cli.main(["--source", str(source), "--changes", str(old), "--format",
                     "markdown"]) == 2
    assert capsys.readouterr() == ("", f"error: {old}/data.json: it is not a data.json "
                                   "that a build published; pass a folder that a build "
                                   "of progress-site published" + EMPTY_SITE + "\n")


def test_a_long_summary_is_cut_with_a_count() -> None:
    old = json.loads(data_json())
    new = json.loads(data_json())
    new["measurements"] = [{"id": f"m{i:04}", **figure(i)} for i in range(1250)]
    text = markdown(compare(json.dumps(old).encode(), new))
    table = [line for line in text.splitlines() if line.startswith("| m")]
    # 1,251 changes: the figure removed (cpu), then m0000 to m1249, in order.
    assert len(table) == 200 and table[0] == "| measurements\\.cpu | 7.92 us -> none |  |"
    assert table[-1] == "| measurements\\.m0198 | none -> 198.00 us |  |"
    assert "And 1,051 more figures (`--changes OLD_SITE` lists them all)." in text


def test_an_empty_old_site_makes_everything_new_and_every_regression(
        source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """pull-request.yml's base side before the base branch has a site."""
    old = site(tmp_path / "old", b'{"version": 1, "today": "2026-11-08"}\n')
    made(monkeypatch, data_json(STEP))
    assert cli.main(["--source", str(source), "--changes", str(old), "--format",
                     "markdown", "--fail-on-regression"]) == REGRESSED
    out = capsys.readouterr().out
    assert "| measurements\\.cpu | none -> 7.92 us |  |" in out
    assert "### New regressions" in out


def test_texts_are_counted_by_id_so_an_insert_counts_once() -> None:
    old = json.loads(data_json())
    old["measurements"] = [{"id": f"m{i}", "title": f"Title {i}"} for i in range(5)]
    new = json.loads(json.dumps(old))
    new["measurements"].insert(0, {"id": "first", "title": "A new one"})
    found = compare(json.dumps(old).encode(), new)
    assert found.texts == 1
    new["measurements"][3]["title"] = "Renamed"
    assert compare(json.dumps(old).encode(), new).texts == 2


@pytest.mark.parametrize(("count", "listed"), [(200, 200), (10_000, 200)])
def test_steps_past_200_are_counted_not_listed(count: int, listed: int) -> None:
    """A pull request of 10,000 series, each with a step, listed them all: 930 KB of
    summary, near what GitHub keeps of one (1 MiB), which it then drops whole."""
    steps = [{**STEP, "key": f"s{i:05}"} for i in range(count)]
    text = markdown(compare(data_json(), json.loads(data_json(*steps))))
    assert sum(line.startswith("- s") for line in text.splitlines()) == listed
    assert ("And 9,800 more regressions (`--changes OLD_SITE` lists them all)."
            in text) == (count > listed)
    assert len(text) < 60_000


@pytest.mark.parametrize("length", [500, 1_000_000])
def test_a_long_name_or_unit_is_cut_to_500_characters(length: int) -> None:
    """A figure's id, or its unit, of 1 MB made a line of 1 MB (2 MB escaped)."""
    new = json.loads(data_json())
    new["measurements"][0]["id"] = "i" * (length - len("measurements."))
    new["measurements"][0]["derived"]["quantity"]["unit"] = "<" * length
    row = next(line for line in markdown(compare(data_json(), new))
               .splitlines() if line.startswith("| measurements\\.i"))
    cut = "\u2026" if length > 500 else ""
    assert row == (f"| measurements\\.{'i' * 487}{cut} | none -> 7.92 {'&lt;' * 500}{cut} "
                   "|  |")


@pytest.mark.parametrize("fill", ["&", "a"])
def test_the_summary_is_cut_at_a_line_below_1_mb(fill: str) -> None:
    """200 rows of five pieces of 300 characters each: `&` is escaped `&amp;`, 1.5 MB of
    table, which GitHub drops whole; cut at a whole row, it says so under the table."""
    old, new = json.loads(data_json()), json.loads(data_json())
    old["measurements"] = [{"id": f"m{i:03}" + fill * 300, **figure(1, fill * 300,
                                                                    fill * 300)}
                           for i in range(200)]
    new["measurements"] = [{**m, **figure(2, fill * 300, "x" + fill * 300)}
                           for m in old["measurements"]]
    text = markdown(compare(json.dumps(old).encode(), new))
    rows = [line for line in text.splitlines() if line.startswith("| measurements")]
    assert len(text.encode()) <= 1_000_000 and rows[-1].endswith(" | +100.0% |")
    assert len(rows) == (200 if fill == "a" else 132)
    assert text.endswith("\n\nThe summary is cut here, at 1 MB, the most a job's summary "
                         "may hold (`--changes OLD_SITE` lists everything).\n") == (
        fill == "&")
    assert html(text).count("<table>") == 1


@pytest.mark.parametrize(("written", "shown"), [
    ("7.92", "7.92 us"), ("-0.0", "0.00 us"), ("NaN", None), ("Infinity", None),
    ("-Infinity", None)])
def test_an_old_figure_of_no_finite_number_is_no_site_a_build_published(
        written: str, shown: str | None) -> None:
    """JSON's reader takes NaN and Infinity, which no build writes: a planted old site's
    figure of NaN read `| NaN.00 us -> 8.00 us | +NaN.0% |`."""
    old = data_json().replace(b'"low": 7.92', f'"low": {written}'.encode())
    if shown is None:
        with pytest.raises(ValueError, match=r"not a data\.json that a build published"):
            compare(old, json.loads(data_json(cpu=8)))
        return
    rows = markdown(compare(old, json.loads(data_json(cpu=8)))).splitlines()
    assert rows[4].startswith(f"| measurements\\.cpu | {shown} -> 8.00 us |")


@pytest.mark.parametrize(("part", "refused"), [("2.5", False), ("NaN", True)])
def test_an_old_distribution_of_a_part_of_no_finite_number_is_no_site(
        part: str, refused: bool) -> None:
    old = json.loads(data_json())
    old["measurements"][0]["derived"]["quantity"].update(
        kind="distribution", parts={"p50": 7.92, "p99": 0})
    text = json.dumps(old).replace('"p99": 0', f'"p99": {part}').encode()
    if refused:
        with pytest.raises(ValueError, match=r"not a data\.json that a build published"):
            compare(text, json.loads(data_json(cpu=8)))
    else:
        assert markdown(compare(text, json.loads(data_json(cpu=8)))).splitlines()[4] == (
            "| measurements\\.cpu | 7.92 us -> 8.00 us | +1.0% |")


def test_a_distribution_whose_tail_moved_shows_its_parts() -> None:
    """A frame time's p99 that fell while its median stayed: the row said `10.56 ms ->
    10.56 ms | 0.0%`, a change no reader could see. Its parts are printed, and no change
    of the median is claimed; a median that moved keeps the short form."""
    def with_parts(p50: float, p99: float) -> dict[str, Any]:
        document = json.loads(data_json())
        document["measurements"][0]["derived"]["quantity"].update(
            kind="distribution", low=p50, high=p50, unit="ms",
            parts={"p50": p50, "p99": p99, "n": 300})
        return document
    old = json.dumps(with_parts(10.56, 21.70)).encode()
    rows = markdown(compare(old, with_parts(10.56, 17.90))).splitlines()
    assert rows[4] == ("| measurements\\.cpu | p50 10\\.56 ms · p99 21\\.70 ms \\(n \\= 300\\) -> "
                       "p50 10\\.56 ms · p99 17\\.90 ms \\(n \\= 300\\) |  |")
    assert "p99 21.70 ms (n = 300) -&gt; p50 10.56 ms · p99 17.90 ms" in html("\n".join(rows))
    rows = markdown(compare(old, with_parts(10.00, 17.90))).splitlines()
    assert rows[4] == "| measurements\\.cpu | 10.56 ms -> 10.00 ms | -5.3% |"
