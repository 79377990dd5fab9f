"""Generate a site of a given size: N figures (about half of them the two sides of one
study's comparisons, the rest standalone measurements) and T tasks, in both languages,
for the scale and MkDocs benches.

    python bench/generate.py OUT_DIR --figures 10000 --tasks 1000
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

SITE = """site:
  title: Scale
  tagline: {en: Generated, fr: Généré}
  repository: own
  repositories:
    - {id: own, name: Own, url: "https://example.org/own"}
machines:
  - {id: box, name: {en: The box, fr: La boîte}}
commits:
  - {id: aaaaaaa}
  - {id: bbbbbbb}
"""


def measurements(count: int, rng: random.Random) -> str:
    """`count` standalone measurements."""
    lines = ["measurements:"]
    for i in range(count):
        value = round(rng.uniform(0.1, 1000), 2)
        lines.append(f"  - id: m{i}\n    title: {{en: Measure {i}, fr: Mesure {i}}}\n"
                     f"    figure: {{value: {value}, unit: ms, machine: box, "
                     f"date: 2026-11-0{1 + i % 9}, commit: aaaaaaa}}")
    return "\n".join(lines) + "\n"


def study(comparisons: int, rng: random.Random) -> str:
    """One study with `comparisons` before/after comparisons (two figures each)."""
    lines = ["studies:", "  - id: big", "    title: {en: Big, fr: Grande}",
             "    before: {commit: aaaaaaa}", "    after: {commit: bbbbbbb}",
             "    machine: box", "    date: 2026-11-08", "    comparisons:"]
    for i in range(comparisons):
        before, after = round(rng.uniform(10, 100), 2), round(rng.uniform(5, 100), 2)
        lines.append(f"      - id: c{i}\n        title: {{en: Compared {i}, fr: Comparé {i}}}\n"
                     f"        unit: us\n        before: {{value: {before}}}\n"
                     f"        after: {{value: {after}}}")
    return "\n".join(lines) + "\n"


def roadmap(tasks: int) -> str:
    """One roadmap of `tasks` tasks, a third of them done."""
    lines = ["roadmaps:", "  - id: plan", "    title: {en: Plan, fr: Plan}",
             "    counted: true", "    tasks:"]
    for i in range(tasks):
        status = ("done", "in-progress", "planned")[i % 3]
        extra = (f"\n        proofs: [{{pull: {i + 1}}}]\n        validated: 2026-11-08"
                 if status == "done" else "")
        lines.append(f"      - id: t{i}\n        title: {{en: Task {i}, fr: Tâche {i}}}\n"
                     f"        status: {status}{extra}")
    return "\n".join(lines) + "\n"


PAGE = """---
title: {title}
---
{{{{< comparisons big trends=no >}}}}

{{{{< measurements >}}}}

{{{{< roadmaps >}}}}
"""


def generate(out: Path, count: int, tasks: int, seed: int = 1) -> None:
    """Write the generated site's data/ and content/ under `out`: `count` figures."""
    rng = random.Random(seed)
    comparisons = count // 4
    (out / "data").mkdir(parents=True, exist_ok=True)
    (out / "data" / "site.yaml").write_text(SITE, "utf-8")
    standalone = measurements(count - 2 * comparisons, rng)
    (out / "data" / "measurements.yaml").write_text(standalone, "utf-8")
    (out / "data" / "studies.yaml").write_text(study(comparisons, rng), "utf-8")
    (out / "data" / "roadmaps.yaml").write_text(roadmap(tasks), "utf-8")
    for lang, title in (("en", "Scale"), ("fr", "Échelle")):
        (out / "content" / lang).mkdir(parents=True, exist_ok=True)
        (out / "content" / lang / "index.md").write_text(PAGE.format(title=title), "utf-8")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--figures", type=int, default=10_000)
    parser.add_argument("--tasks", type=int, default=1_000)
    args = parser.parse_args()
    generate(args.out, args.figures, args.tasks)
