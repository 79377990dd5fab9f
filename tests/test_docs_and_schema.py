"""The published format stays true to the declarations: the guide, the JSON Schema, the data.

The committed docs/data-format.md (its generated section) and schemas/data-files.schema.json
are compared with what the code generates, so they never drift. To regenerate them:

    python -m progress_site.tools.docs_reference --write
    python -m progress_site.tools.editor_schema schemas

Schema validation uses the `jsonschema` package (a test-only dependency); the tests that
need it are skipped when it is missing, the others still run.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any, Literal

import pytest

from progress_site.load.site import load_data
from progress_site.load.yaml import parse
from progress_site.model.declare import fields, held_record, hints, record_classes
from progress_site.model.figure import Figure
from progress_site.model.limits import MAX_DATA_TEXT
from progress_site.model.schema import Data
from progress_site.model.units import BUILTIN_UNITS
from progress_site.model.values import Number, Text
from progress_site.tools import docs_reference as reference
from progress_site.tools.docs_reference import (
    data_format_markdown,
    type_name,
    with_section,
)
from progress_site.tools.editor_schema import (
    data_schema,
    render,
    type_schema,
    write_schemas,
)
from progress_site.tools.editor_schema import main as schema_main

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "data-format.md"
SCHEMA = ROOT / "schemas" / "data-files.schema.json"
DATA_FILES = sorted((ROOT / "data").glob("*.yaml"))
YAML_FENCE = re.compile(r"^```yaml\n(.*?)^```", re.MULTILINE | re.DOTALL)
SITE = "site: {title: Example, tagline: An example}\n"


# -- helpers -----------------------------------------------------------------------------

def guide_examples() -> list[str]:
    """The YAML code blocks of the guide, each a whole data file."""
    return YAML_FENCE.findall(GUIDE.read_text(encoding="utf-8"))


def as_json(value: Any) -> Any:
    """Parsed YAML as an editor sees it: dates are the characters written."""
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_json(v) for v in value]
    if isinstance(value, dt.date):  # a datetime too: it prints with its time, and fails
        return value.isoformat()
    return value


def read_yaml(text: str) -> Any:
    """A data file read by the build's own YAML reader (YAML 1.2 booleans)."""
    doc, problems = parse(text, "case.yaml")
    assert problems == []
    return as_json(doc.data)


def schema_errors(validator: Any, text: str) -> list[str]:
    """Every schema error of a data file, as `key/path: message`, in a stable order."""
    data = read_yaml(text)
    if data is None:  # only comments: an empty file, which the build accepts
        return []
    return sorted(f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
                  for e in validator.iter_errors(data))


def build_problems(tmp_path: Path, text: str) -> list[str]:
    """The problems the build's load stage finds in a data file (beside a minimal site)."""
    (tmp_path / "data").mkdir(parents=True)
    (tmp_path / "data" / "case.yaml").write_text(text, encoding="utf-8")
    if "site" not in (read_yaml(text) or {}):
        (tmp_path / "data" / "site.yaml").write_text(SITE, encoding="utf-8")
    _, _, problems, *_ = load_data(tmp_path, strict=True)
    return [p.render() for p in problems]


@pytest.fixture(scope="module", params=["2020-12", "7"])
def validator(request: pytest.FixtureRequest) -> Any:
    """A validator of the committed schema; also draft 7, which most editors still run."""
    jsonschema = pytest.importorskip("jsonschema")
    cls = {"2020-12": jsonschema.Draft202012Validator,
           "7": jsonschema.Draft7Validator}[request.param]
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


# -- (a) the committed files are what the code generates ---------------------------------

def test_guide_reference_is_up_to_date() -> None:
    document = GUIDE.read_text(encoding="utf-8")
    assert with_section(document, data_format_markdown()) == document, (
        "docs/data-format.md is out of date: run "
        "`python -m progress_site.tools.docs_reference --write`")


def test_schema_file_is_up_to_date() -> None:
    assert SCHEMA.read_text(encoding="utf-8") == render(data_schema()), (
        "schemas/data-files.schema.json is out of date: run "
        "`python -m progress_site.tools.editor_schema schemas`")


def test_write_schemas_writes_the_committed_file(tmp_path: Path) -> None:
    write_schemas(tmp_path / "out")
    assert (tmp_path / "out" / "data-files.schema.json").read_bytes() == SCHEMA.read_bytes()


def test_schema_is_deterministic() -> None:
    assert render(data_schema()) == render(data_schema())


def test_schema_command_needs_its_folder(capsys: pytest.CaptureFixture[str]) -> None:
    assert schema_main([]) == 2
    assert capsys.readouterr().err == "usage: python -m progress_site.tools.editor_schema OUT_DIR\n"


def test_write_rewrites_only_the_section(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "guide.md"
    page.write_text(f"# Guide\n\n{reference.START}\nstale\n{reference.END}\n\nAfter.\n",
                    encoding="utf-8")
    assert reference.main(["--write", str(page)]) == 0
    assert reference.main(["--write", str(page)]) == 0
    assert capsys.readouterr().out == f"{page}: updated\n{page}: already up to date\n"
    text = page.read_text(encoding="utf-8")
    assert text.startswith(f"# Guide\n\n{reference.START}\n\n_Generated from")
    assert text.endswith(f"|\n\n{reference.END}\n\nAfter.\n")
    assert with_section(text, data_format_markdown()) == text


def test_write_without_markers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "guide.md"
    page.write_text("# Guide\n", encoding="utf-8")
    assert reference.main(["--write", str(page)]) == 1
    assert capsys.readouterr().err == (
        f"{page}: the document needs the markers {reference.START} and {reference.END}, "
        "in that order\n")


def test_write_without_markers_ok() -> None:
    assert with_section(f"{reference.START}{reference.END}", "x\n") == (
        f"{reference.START}\n\nx\n\n{reference.END}")


def test_print(capsys: pytest.CaptureFixture[str]) -> None:
    assert reference.main([]) == 0
    assert capsys.readouterr().out == data_format_markdown()


# -- (b) the example data, and the guide's examples, are valid ----------------------------

@pytest.mark.parametrize("path", DATA_FILES, ids=[p.name for p in DATA_FILES])
def test_example_data_matches_schema(validator: Any, path: Path) -> None:
    assert schema_errors(validator, path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("index", range(len(guide_examples())))
def test_guide_example_matches_schema(validator: Any, index: int) -> None:
    assert schema_errors(validator, guide_examples()[index]) == []


@pytest.mark.parametrize("index", range(len(guide_examples())))
def test_guide_example_is_read_by_the_build(tmp_path: Path, index: int) -> None:
    assert build_problems(tmp_path, guide_examples()[index]) == []


# -- (c) what the schema refuses, each with its `_ok` twin --------------------------------

LONG = "x" * (MAX_DATA_TEXT + 1)  # a text one character past its limit
# (name, a file the schema and the build refuse, the schema's errors, its valid twin)
CASES = [
    ("unknown_key",
     "machines: [{id: pc, name: PC, fact: [Linux]}]",
     ["machines/0: Additional properties are not allowed ('fact' was unexpected)"],
     "machines: [{id: pc, name: PC, facts: [Linux]}]"),
    ("unknown_collection",
     "machine: [{id: pc, name: PC}]",
     [": Additional properties are not allowed ('machine' was unexpected)"],
     "machines: [{id: pc, name: PC}]"),
    ("missing_key",
     "machines: [{id: pc}]",
     ["machines/0: 'name' is a required property"],
     "machines: [{id: pc, name: PC}]"),
    ("yes_is_not_true",
     "commits: [{id: c38a01e, merged: yes}]",
     ["commits/0/merged: 'yes' is not of type 'boolean'"],
     "commits: [{id: c38a01e, merged: true}]"),
    ("unit_in_the_number",
     "measurements: [{id: m, title: M, figure: {value: 20.31 us, status: estimate}}]",
     ["measurements/0/figure/value: '20.31 us' is not valid under any of the given schemas"],
     "measurements: [{id: m, title: M, figure: {value: 20.31, unit: us, status: estimate}}]"),
    ("misspelt_status",
     "measurements: [{id: m, title: M, figure: {value: 1, status: estimated}}]",
     ["measurements/0/figure/status: 'estimated' is not one of "
      "['measured', 'watch', 'estimate', 'not-judgeable']"],
     "measurements: [{id: m, title: M, figure: {value: 1, status: estimate}}]"),
    ("text_not_words",
     "machines: [{id: pc, name: {en: 3, fr: 3}}]",
     ["machines/0/name: {'en': 3, 'fr': 3} is not valid under any of the given schemas"],
     "machines: [{id: pc, name: {en: '3', fr: '3'}}]"),
    # An editor warns where the build would (MAX_DATA_TEXT), for one text or a language's.
    ("text_too_long",
     f"machines: [{{id: pc, name: {LONG}}}]",
     [f"machines/0/name: {LONG!r} is not valid under any of the given schemas"],
     f"machines: [{{id: pc, name: {LONG[1:]}}}]"),
    ("text_too_long_in_a_language",
     f"machines: [{{id: pc, name: {{en: PC, fr: {LONG}}}}}]",
     [f"machines/0/name: {{'en': 'PC', 'fr': {LONG!r}}} is not valid under any of the given "
      "schemas"],
     f"machines: [{{id: pc, name: {{en: PC, fr: {LONG[1:]}}}}}]"),
    ("date_with_a_time",
     "runs: [{id: r, title: R, date: 2026-11-08 10:00:00}]",
     ["runs/0/date: '2026-11-08T10:00:00' is not valid under any of the given schemas"],
     "runs: [{id: r, title: R, date: 2026-11-08}]"),
    ("list_for_a_mapping",
     "site: [Meridian]",
     ["site: ['Meridian'] is not of type 'object'"],
     "site: {title: Meridian, tagline: Progress}"),
]


@pytest.mark.parametrize("name,text,expected,twin", CASES, ids=[c[0] for c in CASES])
def test_schema_refuses(validator: Any, name: str, text: str, expected: list[str],
                        twin: str) -> None:
    assert schema_errors(validator, text) == expected


@pytest.mark.parametrize("name,text,expected,twin", CASES, ids=[c[0] + "_ok" for c in CASES])
def test_schema_refuses_ok(validator: Any, name: str, text: str, expected: list[str],
                           twin: str) -> None:
    assert schema_errors(validator, twin) == []


@pytest.mark.parametrize("name,text,expected,twin", CASES, ids=[c[0] for c in CASES])
def test_build_agrees(tmp_path: Path, name: str, text: str, expected: list[str],
                      twin: str) -> None:
    # What the editor refuses, the build refuses too; the twin passes both.
    assert build_problems(tmp_path / "bad", text) != []
    assert build_problems(tmp_path / "ok", twin) == []


# -- (d) every field is documented ---------------------------------------------------------

def test_every_field_has_a_description() -> None:
    undocumented = [f"{cls.__name__}.{fld.name}" for cls in record_classes(Data)
                    for fld in fields(cls) if not fld.metadata.get("doc", "").strip()]
    assert undocumented == []


def test_every_example_matches_its_field(validator: Any) -> None:
    schema = validator.schema
    for name, definition in schema["$defs"].items():
        for key, prop in definition.get("properties", {}).items():
            for example in prop.get("examples", []):
                one = type(validator)({**prop, "$defs": schema["$defs"]})
                assert list(one.iter_errors(example)) == [], f"{name}.{key}: {example!r}"


# -- the generated parts, piece by piece ---------------------------------------------------

def test_records_in_reading_order() -> None:
    collections = [held_record(hints(Data)[f.name]) for f in fields(Data)]
    assert record_classes(Data)[: len(collections) + 1] == [Data, *collections]


@pytest.mark.parametrize("tp,ref,expected", [
    (Text, "", "text in each language"),
    (Text | None, "", "text in each language"),
    (Number, "", "number"),
    (int, "", "whole number"),
    (bool, "", "true or false"),
    (str, "", "plain text"),
    (dt.date | None, "", "date (YYYY-MM-DD)"),
    (Literal["lower", "higher"], "", "one of: lower, higher"),
    (Figure, "", "[Figure](#figure)"),
    (tuple[Figure, ...], "", "list of [Figure](#figure)"),
    (tuple[Number, ...] | None, "", "list of numbers"),
    (tuple[Text, ...], "", "list of texts in each language"),
    (str | None, "machines", "id of a machine"),
    (str, "repositories", "id of a repository"),
    (str | None, "units", "unit: built-in, or of `site.units`"),
    (tuple[str, ...], "commits", "list of ids of commits"),
])
def test_type_name(tp: Any, ref: str, expected: str) -> None:
    assert type_name(tp, ref) == expected


@pytest.mark.parametrize("tp,expected", [
    (Text, {"$ref": "#/$defs/Text"}),
    (Number, {"type": "number"}),
    (int | None, {"anyOf": [{"type": "integer"}, {"type": "null"}]}),
    (bool, {"type": "boolean"}),
    (str, {"type": ["string", "number"]}),
    (dt.date, {"type": "string", "format": "date", "pattern": r"^\d{4}-\d{2}-\d{2}$"}),
    (Literal["lower", "higher"], {"enum": ["lower", "higher"]}),
    (tuple[Figure, ...], {"type": "array", "items": {"$ref": "#/$defs/Figure"}}),
])
def test_type_schema(tp: Any, expected: dict[str, Any]) -> None:
    assert type_schema(tp) == expected


def test_reference_fields_say_what_they_name() -> None:
    unit = data_schema()["$defs"]["Figure"]["properties"]["unit"]["description"]
    assert unit.startswith("unit of value or range (us, ms, s, KB, MB, GB, %, or your own); "
                           "a built-in unit (%, B, GB, ")
    assert unit.endswith(") or the id of a unit under `site.units`")
    machine = data_schema()["$defs"]["Figure"]["properties"]["machine"]["description"]
    assert machine == "machine it was measured on; the id of a machine under `machines:`"


def test_guide_lists_every_block() -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    blocks = sorted(p.stem for p in (ROOT / "templates" / "blocks").glob("*.html"))
    assert [b for b in blocks if f"`{{{{< {b}" not in guide] == []


def test_guide_lists_every_collection() -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    table = guide[guide.index("| key | holds |"):guide.index("How you split them")]
    assert [f.name for f in fields(Data) if f"| `{f.name}` |" not in table] == []


def test_guide_lists_every_builtin_unit() -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    units = guide[guide.index("## Units"):guide.index("## Naming a derived number")]
    assert sorted(u for u in BUILTIN_UNITS if f"`{u}`" not in units) == []

