"""The site issue #22 is done with ("One figure, one key, one kind"), written from
scratch in the documented data format (docs/data-format.md): derived figures shown and
summarised by headlines and used in a budget, a latency distribution before and after a
change, two tools compared by name and version, and a count computed with. Every number
on its pages is computed from this data."""

from __future__ import annotations

from pathlib import Path
from string import Template

# Every number of the data, as typed (its decimals are what the page prints); the
# test computes what the pages must show from these.
NUMBERS = {
    "requests": "120000", "seconds": "60", "ok": "483", "of": "500",
    "per_request": "0.35", "connections": "2000", "limit": "1000", "extra": "1.4",
    "thousands": "2", "decimals": "2", "n": "1000",
    "before_p50": "12.4", "before_p95": "30.1", "before_p99": "61.7",
    "after_p50": "8.2", "after_p95": "15.5", "after_p99": "20.9",
    "suite_before": "69.10", "suite_after": "28.08",
}

SITE = """\
site:
  title: Done when
  tagline: {en: Progress and benchmarks, fr: Avancement et mesures}
  description: {en: What was measured., fr: Ce qui a été mesuré.}
  languages: [en, fr]
  repository: project
  repositories:
    - {id: project, name: Project, url: "https://github.com/example/project"}
  units:
    - id: requests
      one: {en: request, fr: requête}
      other: {en: requests, fr: requêtes}
machines:
  - id: bench
    name: {en: The bench machine, fr: La machine de banc}
    facts: [{en: 8 cores, fr: 8 cœurs}]
commits:
  - {id: 1a2b3c4, label: {en: before the cache, fr: avant le cache}, date: 2026-11-10}
  - {id: 5d6e7f8, label: {en: with the cache, fr: avec le cache}, date: 2026-11-20}
"""

FIGURES = """\
measurements:
  - id: requests
    title: {en: Requests served, fr: Requêtes servies}
    figure: {value: $requests, unit: requests, machine: bench, date: 2026-11-20, commit: 5d6e7f8}
  - id: seconds
    title: {en: Time taken, fr: Durée}
    figure: {value: $seconds, unit: s, machine: bench, date: 2026-11-20, commit: 5d6e7f8}
  - id: rate
    title: {en: Requests per second, fr: Requêtes par seconde}
    figure: {formula: requests.value / seconds.value, decimals: 0}
  - id: checks
    title: {en: Checks of the test suite, fr: Vérifications de la suite de tests}
    figure: {ok: $ok, of: $of, machine: bench, date: 2026-11-20, commit: 5d6e7f8}
  - id: checks-failed
    title: {en: Checks failed, fr: Vérifications en échec}
    figure: {formula: checks.of - checks.ok}
  - id: per-request
    title: {en: Memory per open request, fr: Mémoire par requête ouverte}
    figure: {value: $per_request, unit: MB, machine: bench, date: 2026-11-20, commit: 5d6e7f8}
  - id: extra
    title: {en: Extra cores for encryption, fr: Cœurs en plus pour le chiffrement}
    figure:
      value: $extra
      status: estimate
      method: {en: the cost of one byte times the traffic, fr: le coût d'un octet fois le trafic}
headlines:
  - id: rate
    figure: measurements.rate
    label: {en: requests a second, fr: requêtes par seconde}
  - id: thousands
    value: $thousands
    summarises: ["measurements.rate / 1000"]
    label: {en: thousand requests a second, fr: milliers de requêtes par seconde}
  - id: encryption
    value: $extra
    summarises: [measurements.extra]
    label: {en: more cores for encryption, fr: cœurs de plus pour le chiffrement}
budgets:
  - id: server
    title: {en: What the server uses, fr: Ce qu'utilise le serveur}
    items:
      - id: memory
        title: {en: Memory of the open requests, fr: Mémoire des requêtes ouvertes}
        figure: {formula: "measurements.per-request * $connections", unit: MB, decimals: 0}
        limit: {value: $limit, unit: MB, of: {en: the server, fr: le serveur}}
"""

STUDIES = """\
studies:
  - id: cache
    title: {en: Before and after the cache, fr: Avant et après le cache}
    before: {commit: 1a2b3c4, label: {en: Before, fr: Avant}}
    after: {commit: 5d6e7f8, label: {en: After, fr: Après}}
    machine: bench
    date: 2026-11-20
    comparisons:
      - id: latency
        title: {en: Time to answer a request, fr: Temps de réponse à une requête}
        unit: ms
        decimals: $decimals
        wording: {en: less time, fr: moins de temps}
        before: {distribution: {p50: $before_p50, p95: $before_p95, p99: $before_p99, n: $n}}
        after: {distribution: {p50: $after_p50, p95: $after_p95, p99: $after_p99, n: $n}}
  - id: runners
    title: {en: Two test runners, fr: Deux lanceurs de tests}
    before: {name: cargo test, version: 1.66.0, url: "https://doc.rust-lang.org/cargo/"}
    after: {name: cargo nextest, version: 0.9.67}
    machine: bench
    date: 2026-11-20
    comparisons:
      - id: suite-time
        title: {en: Time of the whole suite, fr: Durée de toute la suite}
        unit: s
        wording: {en: less time, fr: moins de temps}
        before: {value: $suite_before}
        after: {value: $suite_after}
"""

PAGES = {
    "en": """\
---
title: Progress and benchmarks
---
{{< headlines >}}

## Throughput {#throughput}

The server answers {{ measurements.rate }} a second; {{ measurements.checks-failed }} \
of {{ measurements.checks.of }} checks failed.

{{< measurements >}}

{{< budget server >}}

## The cache {#cache}

The slowest answers: p99 {{ comparisons.latency.before.p99 }} before, \
{{ comparisons.latency.after.p99 }} after, {{ comparisons.latency.ratio.p99 }} times less.

{{< versions cache >}}

{{< comparisons cache >}}

## Test runners {#runners}

{{< versions runners >}}

{{< comparisons runners >}}

## Badges {#badges}

{{< machines >}}

{{< legend >}}
""",
    "fr": """\
---
title: Avancement et mesures
---
{{< headlines >}}

## Débit {#throughput}

Le serveur répond à {{ measurements.rate }} par seconde ; {{ measurements.checks-failed }} \
vérifications sur {{ measurements.checks.of }} ont échoué.

{{< measurements >}}

{{< budget server >}}

## Le cache {#cache}

Les réponses les plus lentes : p99 {{ comparisons.latency.before.p99 }} avant, \
{{ comparisons.latency.after.p99 }} après, {{ comparisons.latency.ratio.p99 }} fois moins.

{{< versions cache >}}

{{< comparisons cache >}}

## Lanceurs de tests {#runners}

{{< versions runners >}}

{{< comparisons runners >}}

## Badges {#badges}

{{< machines >}}

{{< legend >}}
""",
}

DATA = {"site.yaml": SITE, "figures.yaml": FIGURES, "studies.yaml": STUDIES}



def done_source(root: Path) -> Path:
    """The site, written under `root` (data/ and content/)."""
    (root / "data").mkdir(parents=True)
    for name, text in DATA.items():
        (root / "data" / name).write_text(Template(text).substitute(NUMBERS),
                                          encoding="utf-8")
    for lang, text in PAGES.items():
        (root / "content" / lang).mkdir(parents=True)
        (root / "content" / lang / "index.md").write_text(text, encoding="utf-8")
    return root
