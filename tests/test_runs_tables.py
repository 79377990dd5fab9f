"""Runs, profiles and measurements as tables, and a legend of the statuses a page shows
(issue #24, items 1 and 4), read from built pages. How tall they are and how they reflow
is for the browser: tests/test_runs_browser.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from progress_site.errors import BuildFailed
from progress_site.render.blocks.legend import STATUSES

from .dom import Node, parse
from .runs_site import ITEMS, RUNS, runs_source
from .sites import build

NBSP, NNBSP = "\u00a0", "\u202f"


def origin(node: Node) -> list[tuple[str, str]]:
    """The (word, value) pairs of a table's line of where its figures come from."""
    line = node.find_all(class_="origin")
    assert len(line) == 1, "said once"
    return [(d.find("dt").text(), d.find("dd").text()) for d in line[0].find_all("div")]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The site of tests/runs_site.py, built in memory."""
    return build(runs_source(tmp_path_factory.mktemp("runs") / "src"))


def page(files: dict[str, bytes], path: str) -> Node:
    return parse(files[path])


def test_a_run_says_where_its_figures_come_from_once(files: dict[str, bytes]) -> None:
    run = page(files, "runs/index.html").find(id=f"run-{RUNS[0]}")
    assert origin(run) == [("Machine", "The test PC"), ("Date", "November\u00a08,\u00a02026"),
                           ("Commit", "c38a01e"), ("Command", "./load --bots 100 --ticks 600")]
    rows = run.find("tbody").find_all("tr")
    assert len(rows) == ITEMS
    # Only the last test, measured on another machine, says its own source.
    assert [len(r.find_all(class_="source")) for r in rows] == [0] * (ITEMS - 1) + [1]
    assert "The VPS" in rows[-1].find(class_="source").text()


def test_a_runs_command_is_code_in_its_line_in_french(files: dict[str, bytes]) -> None:
    run = page(files, "fr/runs/index.html").find(id=f"run-{RUNS[1]}")
    assert origin(run)[-1] == ("Commande", "./load --bots 200 --ticks 600")
    assert run.find(class_="origin").find_all("code")[-1].text() == "./load --bots 200 --ticks 600"


HOSTILE = "</code><script>alert(1)</script> & <b>"


def test_a_hostile_command_prints_as_text(example_copy: Path) -> None:
    runs = example_copy / "data" / "runs.yaml"
    text = runs.read_text(encoding="utf-8")
    runs.write_text(text.replace("    commit: c38a01e\n",
                                 f"    commit: c38a01e\n    command: '{HOSTILE}'\n", 1),
                    encoding="utf-8")
    for path in ("index.html", "fr/index.html"):
        run = page(build(example_copy), path).find(id="run-real-network")
        code = run.find(class_="origin").find_all("div")[-1].find("code")
        assert code.children == [HOSTILE]
        assert not run.find_all("script") and not run.find_all("b")


def test_a_run_without_figures_in_common_still_says_its_command(example_copy: Path) -> None:
    runs = example_copy / "data" / "runs.yaml"
    runs.write_text(runs.read_text(encoding="utf-8").replace(
        "runs:\n", "runs:\n  - id: bare\n    title: {en: Bare, fr: Nu}\n"
        "    command: make bench\n", 1), encoding="utf-8")
    index = example_copy / "content" / "en" / "index.md"
    index.write_text(index.read_text(encoding="utf-8") + "\n{{< run bare >}}\n",
                     encoding="utf-8")
    run = page(build(example_copy), "index.html").find(id="run-bare")
    assert origin(run) == [("Command", "make bench")]


def test_a_row_is_name_value_status_notes(files: dict[str, bytes]) -> None:
    run = page(files, "fr/runs/index.html").find(id=f"run-{RUNS[0]}")
    headers = [th.text() for th in run.find("thead").find_all("th")]
    assert headers == ["Test", "Résultat", "Statut", "Notes"]
    row = run.find(id=f"run-{RUNS[0]}-test-3")
    cells = [row.find("th").text()] + [td.text() for td in row.find_all("td")]
    assert cells == ["Test numéro 3 de l'essai", f"13{NNBSP}Mo", "Mesuré, à surveiller",
                     "Le test a été fait deux fois\u202f; c'est le second qui est montré."]
    detail = run.find(id=f"run-{RUNS[0]}-test-1").find(class_="detail").text()
    assert detail == f"Durée en secondes{NBSP}: 1,4 à 2,1"


def test_a_runs_intro_follows_its_heading(files: dict[str, bytes]) -> None:
    run = page(files, "index.html").find(id="run-real-network")
    tags = [n.tag for n in run.children if isinstance(n, Node)]
    assert tags[:2] == ["h3", "p"] and "intro" in run.find("p").attrs["class"]


def test_profiles_are_tables_with_their_source_once(files: dict[str, bytes]) -> None:
    light = page(files, "index.html").find(id="profile-light")
    assert origin(light) == [("Machine", "The test PC"), ("Date", "November\u00a02,\u00a02026"),
                             ("Commit", "57930e6")]
    rows = light.find("tbody").find_all("tr")
    cells = [[c.text().replace(NBSP, " ") for c in r.find_all("th") + r.find_all("td")]
             for r in rows]
    assert cells[0][:4] == ["1,500 players", "Shown to work", "Measured",
                            "2.39 cores of processor"]
    assert cells[1][:4] == ["2,000 players", "Not shown", "Not judgeable", ""]
    assert not light.find_all(class_="source")


@pytest.mark.parametrize(("path", "change"), [("figures/index.html", "+4.2%"),
                                              ("fr/figures/index.html", f"+4,2{NBSP}%")])
def test_measurements_as_a_table(files: dict[str, bytes], path: str, change: str) -> None:
    table = page(files, path).find("table")
    heads = [h.text() for h in table.find("thead").find_all("th")]
    assert heads[4] == ("Since the previous point" if path.startswith("figures")
                        else "Depuis le point précédent")  # a row has a change: shown
    rows = {r.attrs["id"]: r for r in table.find("tbody").find_all("tr")}
    assert list(rows) == ["measurement-startup", "measurement-render-new",
                          "measurement-players-lost"]
    # 12.0 then 12.5 ms: +4.2 %, printed by Babel; no history, no change.
    assert rows["measurement-render-new"].find(class_="change").text().endswith(change)
    assert rows["measurement-players-lost"].find(class_="change").text() == ""
    assert rows["measurement-players-lost"].find("time").attrs["datetime"] == "2026-11-08"


def legend(files: dict[str, bytes], path: str) -> list[str]:
    """The statuses a page's legend lists, in order."""
    found = page(files, path).find(class_="legend").find_all(class_="badge")
    return [b.attrs["class"].removeprefix("badge badge-") for b in found]


def test_the_legend_lists_the_statuses_the_page_shows(files: dict[str, bytes]) -> None:
    # The home page cites its one estimate in a note: no badge shows it.
    assert legend(files, "index.html") == [
        "measured", "watch", "over-limit", "not-judgeable", "shown", "not-shown", "done",
        "in-progress", "planned"]
    assert legend(files, "fr/statuses/index.html") == list(STATUSES)


@pytest.mark.parametrize("path", ["benchmarks/index.html", "fr/benchmarks/index.html"])
def test_the_dashboard_under_a_legend(files: dict[str, bytes], path: str) -> None:
    board = page(files, path)
    assert legend(files, path) == list(STATUSES)
    assert board.find_all(class_="dashboard") and board.find_all("table", class_="series-table")


def test_a_legend_on_a_page_of_measured_figures_only(example_copy: Path) -> None:
    page_md = example_copy / "content" / "en" / "machines.md"
    page_md.write_text("---\ntitle: Machines\n---\n{{< legend >}}\n\n"
                       "{{< measurements players-lost >}}\n", encoding="utf-8")
    (example_copy / "content" / "fr" / "machines.md").write_text(
        "---\ntitle: Machines\n---\n{{< legend >}}\n", encoding="utf-8")
    built = build(example_copy)
    assert legend(built, "machines/index.html") == ["measured"]
    assert not page(built, "fr/machines/index.html").find_all(class_="legend")


@pytest.mark.parametrize(("line", "message"), [
    ("{{< legend al=true >}}", "legend: unknown option 'al'"),
    ("{{< legend all=maybe >}}", "legend all=: expected true or false, got 'maybe'"),
    ("{{< measurements form=grid >}}",
     "measurements form=: expected one of list, table, got 'grid'"),
    ("{{< measurements from=table >}}", "measurements: unknown option 'from'"),
])
def test_block_options_are_checked(example_copy: Path, line: str, message: str) -> None:
    index = example_copy / "content" / "en" / "index.md"
    index.write_text(index.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")
    with pytest.raises(BuildFailed) as failed:
        build(example_copy)
    assert [p.message for p in failed.value.problems] == [message]
