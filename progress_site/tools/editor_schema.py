"""The data format published as JSON Schema, so editors check data/*.yaml while typing.

Generated from the declarations in `model/schema.py`, read the way the validator reads
them (`model.declare.hints` and `model.declare.fields`): the schema and the build cannot
disagree on which keys exist, which are required, or what type each holds. Rules that
span records or files (ids that exist, evidence a status needs) stay with the build.

    python -m progress_site.tools.editor_schema schemas  # schemas/data-files.schema.json
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import sys
from pathlib import Path
from typing import Any

import yaml

from progress_site.model.declare import fields, hints, json_schema, record_classes
from progress_site.model.limits import MAX_DATA_TEXT
from progress_site.model.schema import Data, Site
from progress_site.model.units import BUILTIN_UNITS
from progress_site.model.values import Number, Text

DIALECT = "https://json-schema.org/draft/2020-12/schema"
FILE_NAME = "data-files.schema.json"  # not data.schema.json: that is data.json's, in site/

def ref_home(kind: str) -> str:
    """Where the ids a `ref=` names are declared: `machines:` or `site.units`."""
    if kind in hints(Data):
        return f"`{kind}:`"
    if kind in hints(Site):
        return f"`site.{kind}`"
    raise ValueError(f"ref={kind!r} names no collection")  # a slip in schema.py


def ref_note(kind: str) -> str:
    """What a reference field names, in words."""
    singular = kind[:-3] + "y" if kind.endswith("ies") else kind[:-1]
    note = f"the id of a {singular} under {ref_home(kind)}"
    if kind == "units":
        note = f"a built-in unit ({', '.join(sorted(BUILTIN_UNITS))}) or {note}"
    return note


def type_schema(tp: Any) -> dict[str, Any]:
    """The schema of a value of type `tp` (records by reference to their definition)."""
    return json_schema(tp, {
        # A YAML 1.2 editor reads a bare 57930e6 or 1234567 as a number; the build keeps
        # such a commit id as written (`Converter.text_value`), so a word may be a number.
        str: {"type": ["string", "number"]},
        int: {"type": "integer"},
        bool: {"type": "boolean"},
        Number: {"type": "number"},
        # Unquoted, YAML reads 2026-11-08 as a date; editors (YAML 1.2) see the same
        # characters as a string. The pattern makes the check work in editors that ignore
        # `format`.
        dt.date: {"type": "string", "format": "date", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
        Text: {"$ref": "#/$defs/Text"},
    })


def plain_default(value: Any) -> Any:
    """A default as JSON writes it (tuples as lists, a record as an empty mapping)."""
    if dataclasses.is_dataclass(value):
        return {}
    return list(value) if isinstance(value, tuple) else value


def field_schema(cls: type, fld: dataclasses.Field[Any]) -> dict[str, Any]:
    """One field: its type, its description (and what it refers to), example, default."""
    schema = type_schema(hints(cls)[fld.name])
    description = fld.metadata["doc"]
    if fld.metadata.get("ref"):
        description += f"; {ref_note(fld.metadata['ref'])}"
    schema["description"] = description
    if fld.metadata.get("example"):
        # Examples are written as YAML (`{en: core, fr: cœur}`); publish the value they mean.
        schema["examples"] = [yaml.safe_load(fld.metadata["example"])]
    if fld.default is not dataclasses.MISSING and fld.default is not None:
        schema["default"] = plain_default(fld.default)
    return schema


def record_schema(cls: type) -> dict[str, Any]:
    """A record: its fields, those without a default required, no other key allowed."""
    schema: dict[str, Any] = {
        "title": cls.__name__,
        "type": "object",
        "additionalProperties": False,
        "properties": {fld.name: field_schema(cls, fld) for fld in fields(cls)},
    }
    required = [fld.name for fld in fields(cls) if fld.default is dataclasses.MISSING]
    if required:
        schema["required"] = required
    return schema


def data_schema() -> dict[str, Any]:
    """The JSON Schema of one file under data/."""
    top = record_schema(Data)
    # Collections may be split across files (and `site:` is in one of them): no file
    # needs any key.
    top.pop("required", None)
    top.pop("title")
    defs = {cls.__name__: record_schema(cls) for cls in record_classes(Data)[1:]}
    defs["Text"] = {
        "description": "one text for every language, or {en: ..., fr: ...} in the site's "
                       "languages",
        # The keys are not listed: each site declares its own `languages:`.
        "anyOf": [
            {"type": "string", "maxLength": MAX_DATA_TEXT},
            {"type": "object", "additionalProperties": {"type": "string",
                                                        "maxLength": MAX_DATA_TEXT}},
        ],
    }
    return {
        "$schema": DIALECT,
        "title": "progress-site data file",
        "description": "A file under data/: a mapping of collections (site:, machines:, "
                       "studies:, ...). See docs/data-format.md.",
        **top,
        "$defs": defs,
    }


def render(schema: dict[str, Any]) -> str:
    """The schema as written to disk: sorted keys, two spaces, a final newline."""
    return json.dumps(schema, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def write_schemas(folder: Path) -> None:
    """Write data-files.schema.json into `folder`, creating it if needed."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / FILE_NAME).write_text(render(data_schema()), encoding="utf-8", newline="\n")


def main(argv: list[str]) -> int:
    """`python -m progress_site.tools.editor_schema OUT_DIR`."""
    if len(argv) != 1:
        print("usage: python -m progress_site.tools.editor_schema OUT_DIR", file=sys.stderr)
        return 2
    write_schemas(Path(argv[0]))
    print(f"wrote {Path(argv[0]) / FILE_NAME}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
