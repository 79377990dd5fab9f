"""The floor for a cold build: the same data rendered with jinja2 + yaml + babel, nothing else.

It reads every data file (YAML, and a harness's JSON lines) and content page, renders
one page per language that walks every record and formats every number and date with
Babel, and writes the files. No
validation, no derivation, no Markdown: what any build of this data must at least do.

    python bench/floor.py SOURCE_DIR OUT_DIR
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path

import jinja2
import yaml
from babel.dates import format_date
from babel.numbers import format_decimal

TEMPLATE = """<!doctype html><html lang="{{ lang }}"><head><meta charset="utf-8">
<title>{{ title }}</title></head><body><main>
{% for page in pages %}<section>{{ page }}</section>{% endfor %}
{% macro walk(value) %}{% if value is mapping %}<dl>{% for k, v in value.items() %}
<dt>{{ k }}</dt><dd>{{ walk(v) }}</dd>{% endfor %}</dl>{% elif value is string %}{{ value }}
{% elif value is iterable %}<ul>{% for v in value %}<li>{{ walk(v) }}</li>{% endfor %}</ul>
{% elif value is number %}{{ num(value) }}{% elif value is sameas none %}{% else %}{{ day(value) }}
{% endif %}{% endmacro %}
{% for name, value in data.items() %}<h2>{{ name }}</h2>{{ walk(value) }}{% endfor %}
</main></body></html>
"""


def pick(value: object, lang: str) -> object:
    """Texts in one language: {en: ..., fr: ...} maps become their `lang` string."""
    if isinstance(value, dict):
        if value and set(value) <= {"en", "fr"}:
            return value.get(lang, "")
        return {k: pick(v, lang) for k, v in value.items()}
    if isinstance(value, list):
        return [pick(v, lang) for v in value]
    return str(value) if isinstance(value, bool) else value


def main(source: Path, out: Path) -> None:
    data: dict[str, object] = {}
    for path in sorted((source / "data").rglob("*.yaml")):
        loaded = yaml.load(path.read_text("utf-8"), Loader=yaml.CSafeLoader) or {}
        data.update(loaded if isinstance(loaded, dict) else {path.stem: loaded})
    for path in sorted((source / "data").rglob("*.jsonl")):  # a harness's records
        lines = path.read_text("utf-8").splitlines()
        data[path.stem] = [json.loads(line) for line in lines if line.strip()]
    env = jinja2.Environment(autoescape=True)
    template = env.from_string(TEMPLATE)
    for lang in ("en", "fr"):
        pages = [p.read_text("utf-8") for p in sorted((source / "content" / lang).glob("*.md"))]
        html = template.render(
            lang=lang, title="floor", pages=pages, data=pick(data, lang),
            num=lambda v, lang=lang: format_decimal(v, locale=lang),
            day=lambda d, lang=lang: format_date(d, "long", locale=lang)
            if isinstance(d, dt.date) else str(d))
        target = out / ("index.html" if lang == "en" else f"{lang}/index.html")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(html, "utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
