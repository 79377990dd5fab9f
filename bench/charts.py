"""First builds with charts, as CI makes them (empty cache), beside warm builds: a
generated site of N charts and the example site, against their targets (issue 16).

Every build is a new process (`python build.py`). The first build starts with no
cache folder at all (`--cache-dir`, a new folder), so it draws every chart; the warm
builds that follow read them back.
The generated site's charts are trends, half of measurements and half of comparisons,
each of four points over commits (no two alike), in English and French.

Then the example after an edit that changes one chart's numbers (a run's MSPT), so that
the chart is drawn again: with its shape's Vega spec kept in the cache (`charts/shapes/`:
no Altair, no Vega-Lite compiler) and without it, taking turns, `--runs` of each.

    python bench/charts.py [--charts 200] [--runs 3]
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import tempfile
from pathlib import Path

from common import BUILD, REPO, Timed, run_timed, table

TARGETS_S = {"generated": 6.0, "example": 1.2}
COMMITS = ("aaaaaaa", "bbbbbbb", "ccccccc", "ddddddd")

SITE = """site:
  title: Charts
  tagline: {en: Generated, fr: Généré}
  repository: own
  repositories:
    - {id: own, name: Own, url: "https://example.org/own"}
machines:
  - {id: box, name: {en: The box, fr: La boîte}}
commits:
""" + "".join(f"  - {{id: {c}}}\n" for c in COMMITS)


def history(values: list[float], indent: str) -> str:
    """A `history:` of earlier values, one commit each."""
    points = "".join(f"{indent}  - {{value: {v:.2f}, commit: {c}}}\n"
                     for v, c in zip(values, COMMITS, strict=False))
    return f"{indent}history:\n{points}"


def generate(out: Path, charts: int) -> None:
    """Write a site of `charts` trends a language under `out`."""
    alone, compared = charts - charts // 2, charts // 2
    lines = ["measurements:"]
    for i in range(alone):
        lines.append(f"  - id: m{i}\n    title: {{en: Time of step {i}, fr: Durée de l'étape "
                     f"{i}}}\n    figure: {{value: {10 + i / 100:.2f}, unit: ms, machine: box, "
                     f"date: 2026-11-08, commit: {COMMITS[3]}}}\n"
                     + history([12 + i / 50, 11.5, 11 - i / 100], "    ").rstrip("\n"))
    studies = ["studies:", "  - id: big", "    title: {en: Big, fr: Grande}",
               f"    before: {{commit: {COMMITS[2]}}}", f"    after: {{commit: {COMMITS[3]}}}",
               "    machine: box", "    date: 2026-11-08", "    comparisons:"]
    for i in range(compared):
        studies.append(f"      - id: c{i}\n        title: {{en: Memory of part {i}, fr: Mémoire "
                       f"de la partie {i}}}\n        unit: KB\n        before: {{value: "
                       f"{500 + i}}}\n        after: {{value: {450 + i / 10:.1f}}}\n"
                       + history([520 + i, 510 - i / 10], "        ").rstrip("\n"))
    (out / "data").mkdir(parents=True, exist_ok=True)
    (out / "data" / "site.yaml").write_text(SITE, "utf-8")
    (out / "data" / "measurements.yaml").write_text("\n".join(lines) + "\n", "utf-8")
    (out / "data" / "studies.yaml").write_text("\n".join(studies) + "\n", "utf-8")
    trends = "".join(f"{{{{< trend measurements m{i} >}}}}\n\n" for i in range(alone))
    for lang, title in (("en", "Charts"), ("fr", "Graphiques")):
        (out / "content" / lang).mkdir(parents=True, exist_ok=True)
        page = f"---\ntitle: {title}\n---\n{{{{< comparisons big >}}}}\n\n{trends}"
        (out / "content" / lang / "index.md").write_text(page, "utf-8")


def charts_a_language(site: Path) -> int:
    """How many charts the built pages show, a language."""
    pages = list(site.rglob("*.html"))
    count = sum(len(re.findall(r'<svg [^>]*class="chart(?: wide)?"', p.read_text("utf-8")))
                for p in pages)
    return count // 2


def builds(source: Path, runs: int) -> tuple[float, float, float, int]:
    """The first build of `source` (no cache), the median of `runs` warm builds after
    it, the first build's processor time, and the charts a language."""
    out = source / "site"
    # --force: the same build again would find nothing changed, and do nothing.
    cmd = [*BUILD, "--source", str(source), "--out", str(out),
           "--cache-dir", str(source.parent / f"{source.name}-cache"), "--force"]
    first = run_timed(cmd)
    warm = [run_timed(cmd).seconds for _ in range(runs)]
    return first.seconds, statistics.median(warm), first.cpu, charts_a_language(out)


def edit_a_chart(source: Path, run: int) -> None:
    """Give the first run of the example's benchmark an MSPT no build drew before."""
    records = source / "data" / "horizon-four-way" / "runs.jsonl"
    lines = records.read_text("utf-8").split("\n")
    lines[0] = re.sub(r'"mspt": [0-9.]+', f'"mspt": {13 + run / 100:.2f}', lines[0], count=1)
    records.write_text("\n".join(lines), "utf-8")


def redrawn(example: Path, runs: int) -> list[tuple[str, ...]]:
    """The example rebuilt after an edit that changes a chart, with the chart's shape kept
    in the cache and without it (the runs take turns): wall and processor medians."""
    cache = example.parent / f"{example.name}-cache"
    cmd = [*BUILD, "--source", str(example), "--out", str(example / "site"),
           "--cache-dir", str(cache)]
    timed: dict[bool, list[Timed]] = {True: [], False: []}
    for run in range(runs):
        for kept in (True, False):
            edit_a_chart(example, 2 * run + kept)
            if not kept:
                shutil.rmtree(cache / "charts" / "shapes", ignore_errors=True)
            timed[kept].append(run_timed(cmd))
    return [("example, one chart edited", "build (s)", "cpu (s)"),
            *((f"shape {'kept' if kept else 'compiled again'}",
               f"{statistics.median(t.seconds for t in timed[kept]):.2f}",
               f"{statistics.median(t.cpu for t in timed[kept]):.2f}") for kept in timed)]


def main() -> None:
    """Build both sites, then print their first and warm builds beside the targets."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--charts", type=int, default=200,
                        help="charts a language in the generated site (default %(default)s)")
    parser.add_argument("--runs", type=int, default=3, help="warm builds timed (median)")
    args = parser.parse_args()
    rows: list[tuple[str, ...]] = [("site", "charts a language", "first build (s)",
                                    "cpu (s)", "warm build (s)", "target first (s)")]
    verdicts = []
    with tempfile.TemporaryDirectory() as tmp:
        generated, example = Path(tmp) / "generated", Path(tmp) / "example"
        generate(generated, args.charts)
        for name in ("data", "content"):
            shutil.copytree(REPO / name, example / name)
        for what, source, target in (("generated", generated, TARGETS_S["generated"]),
                                     ("example", example, TARGETS_S["example"])):
            first, warm, cpu, count = builds(source, args.runs)
            rows.append((f"{what} site", str(count), f"{first:.2f}", f"{cpu:.2f}",
                         f"{warm:.2f}", f"<= {target}"))
            verdicts.append(f"{what} {'met' if first <= target else 'MISSED'}")
        edited = redrawn(example, args.runs)
    print(table(rows))
    print(f"\ntargets: a first build (empty cache, every chart drawn) of {args.charts} charts "
          f"within {TARGETS_S['generated']} s (at 200 charts) and of the example within "
          f"{TARGETS_S['example']} s: {', '.join(verdicts)}")
    print(f"\n{table(edited)}")


if __name__ == "__main__":
    main()
