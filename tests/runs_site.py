"""The example with history (tests/history_site.py) and four pages more (issue #24):
`runs`, three runs of a dozen items each, written in the documented format
(docs/data-format.md, Runs), to measure how tall such a page is and how its tables read;
`figures`, measurements as a table; `statuses`, a legend of every status; `benchmarks`,
the dashboard under that legend."""

from __future__ import annotations

from pathlib import Path

from .history_site import history_source

RUNS = ("load-small", "load-medium", "load-large")
ITEMS = 12
# What each item of a run shows, in turn: a value with its text, a range, a count, a
# value to watch; a note on every third item, details on every fourth.
FIGURES = (
    "{value: VALUE, unit: ms, text: {en: per tick, fr: par tick}}",
    "{range: [VALUE, HIGH], unit: packets}",
    "{ok: 12, of: 12, text: ok}",
    "{value: VALUE, unit: MB, status: watch}",
)


def item(run: int, i: int) -> str:
    """One item of a run, in YAML."""
    value = 10 + run * 3 + i
    figure = FIGURES[i % len(FIGURES)].replace("HIGH", str(value + 4)).replace(
        "VALUE", str(value))
    lines = [f"      - id: test-{i}",
             f"        title: {{en: Test number {i} of the run, fr: Test numéro {i} de l'essai}}",
             f"        figure: {figure}"]
    if i % 4 == 1:
        lines += ["        details:",
                  "          - label: {en: Time in seconds, fr: Durée en secondes}",
                  "            figure: {range: [1.4, 2.1]}"]
    if i % 3 == 0:
        lines += ["        note:",
                  "          en: The test was run twice; the second run is the one shown.",
                  "          fr: Le test a été fait deux fois ; c'est le second qui est montré."]
    return "\n".join(lines)


def run(n: int, name: str) -> str:
    """One run of ITEMS items, in YAML; its last item was measured on another machine."""
    items = [item(n, i) for i in range(ITEMS)]
    items[-1] = items[-1].replace("figure: {", "figure: {machine: vps, date: 2026-11-07, ", 1)
    return "\n".join([
        f"  - id: {name}",
        f"    title: {{en: Load test {n + 1}, fr: Essai de charge {n + 1}}}",
        "    date: 2026-11-08",
        "    machine: test-pc",
        "    commit: c38a01e",
        f"    command: {COMMANDS[n]}",
        "    intro:",
        "      en: Bots on the test PC, each test one after the other.",
        "      fr: Des bots sur le PC de test, chaque test l'un après l'autre.",
        "    items:",
        *items,
        "    note: {en: \"Not tested here: many machines.\",",
        "           fr: \"Non testé ici : plusieurs machines.\"}",
    ]) + "\n"


# What ran each run: the last one long, with a path no space breaks, as a phone must
# still show without scrolling sideways.
COMMANDS = ("./load --bots 100 --ticks 600", "./load --bots 200 --ticks 600",
            "./load --bots 300 --ticks 600 --out=/var/lib/progress-site/load-tests/"
            "results-of-the-third-load-test-with-three-hundred-bots.jsonl")


PAGE = {"en": "---\ntitle: Load tests\n---\n## The runs {#runs}\n\n",
        "fr": "---\ntitle: Essais de charge\n---\n## Les essais {#runs}\n\n"}


def runs_source(root: Path) -> Path:
    """The example with history, the three runs and the pages `runs`, `figures` and
    `statuses`."""
    history_source(root)
    runs = root / "data" / "runs.yaml"
    text = runs.read_text(encoding="utf-8")
    added = "".join(run(n, name) for n, name in enumerate(RUNS))
    runs.write_text(text.replace("runs:\n", "runs:\n" + added, 1), encoding="utf-8")
    blocks = "\n\n".join(f"{{{{< run {name} >}}}}" for name in RUNS)
    for lang, head in PAGE.items():
        (root / "content" / lang / "runs.md").write_text(head + blocks + "\n",
                                                         encoding="utf-8")
        for name, body in OTHER_PAGES.items():
            (root / "content" / lang / f"{name}.md").write_text(
                f"---\ntitle: {name}\n---\n{body}\n", encoding="utf-8")
    return root


# Measurements with two points of history and more, and one without history; a page of
# every status; the benchmarks dashboard under a legend of them (the author's page in
# place of the one the build makes).
OTHER_PAGES = {"figures": "{{< measurements startup render-new players-lost form=table >}}",
               "statuses": "{{< legend all=true >}}",
               "benchmarks": "{{< legend all=true >}}\n\n{{< dashboard >}}"}
