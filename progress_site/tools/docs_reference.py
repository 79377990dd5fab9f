"""The field reference of docs/data-format.md, generated from the declarations.

One table per record, in the order a reader meets them, so the documentation says
exactly what the validator accepts. The guide around it is written by hand; only the
part between the two markers below is generated.

    python -m progress_site.tools.docs_reference            # prints the reference
    python -m progress_site.tools.docs_reference --write    # rewrites it in docs/data-format.md
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import sys
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from progress_site.model.declare import declared, fields, held_record, hints, record_classes
from progress_site.model.schema import Data
from progress_site.model.values import Number, Text

START = "<!-- reference:start -->"
END = "<!-- reference:end -->"
DOCUMENT = Path("docs/data-format.md")
COMMAND = "python -m progress_site.tools.docs_reference --write"

# Each scalar type as a reader names it, alone and in a list.
NAMES: Mapping[Any, tuple[str, str]] = MappingProxyType({
    str: ("plain text", "plain texts"),
    int: ("whole number", "whole numbers"),
    bool: ("true or false", "true or false values"),
    Number: ("number", "numbers"),
    dt.date: ("date (YYYY-MM-DD)", "dates (YYYY-MM-DD)"),
    Text: ("text in each language", "texts in each language"),
})

INTRO: Mapping[type, str] = MappingProxyType({
    Data: "The top-level keys of a data file. A file holds any of them: `site:` is one "
          "mapping in one file, and each list may be split across files (the build joins "
          "them), so \"required\" is about the data as a whole, not each file.",
})


def anchor(cls: type) -> str:
    """The Markdown link to a record's section (GitHub's heading anchors)."""
    return f"[{cls.__name__}](#{cls.__name__.lower()})"


def ref_name(kind: str, plural: bool) -> str:
    """What a reference field holds: the id of something declared elsewhere."""
    if kind == "units":
        return "unit names" if plural else "unit: built-in, or of `site.units`"
    singular = kind[:-3] + "y" if kind.endswith("ies") else kind[:-1]
    return f"ids of {kind}" if plural else f"id of a {singular}"


def type_name(tp: Any, ref: str = "", plural: bool = False) -> str:
    """A field's type as a reader names it ("list of Figure", "id of a machine")."""
    kind, arg, _ = declared(tp)
    if kind == "sequence":
        return "list of " + type_name(arg, ref, plural=True)
    if kind == "choice":
        return "one of: " + ", ".join(map(str, arg))
    if kind == "record":
        return anchor(arg)
    if ref:
        return ref_name(ref, plural)
    return NAMES[arg][plural]


def yaml_word(value: Any) -> str:
    """A default as YAML writes it (`false`, `[en, fr]`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(map(yaml_word, value)) + "]"
    return str(value)


def required(fld: dataclasses.Field[Any]) -> str:
    """The `required` cell: yes, no, or no with the default the build uses."""
    if fld.default is dataclasses.MISSING:
        return "yes"
    if fld.default is None or fld.default == ():
        return "no"
    return f"no (default `{yaml_word(fld.default)}`)"


def cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def row(cls: type, fld: dataclasses.Field[Any]) -> str:
    """One field as a table row."""
    description = fld.metadata["doc"]
    if fld.metadata.get("example"):
        description += f". Example: `{fld.metadata['example']}`"
    kind = type_name(hints(cls)[fld.name], fld.metadata.get("ref", ""))
    cells = [f"`{fld.name}`", kind, required(fld), description]
    return "| " + " | ".join(cell(c) for c in cells) + " |"


def holders(records: list[type]) -> dict[type, list[str]]:
    """For each record, the fields that hold it (`[Study](#study) `before`, `after``)."""
    found: dict[type, dict[type, list[str]]] = {cls: {} for cls in records}
    for owner in records:
        for fld in fields(owner):
            child = held_record(hints(owner)[fld.name])
            if child is not None:
                found[child].setdefault(owner, []).append(f"`{fld.name}`")
    return {cls: [f"{anchor(owner)} {', '.join(names)}" for owner, names in by.items()]
            for cls, by in found.items()}


def section(cls: type, held_by: list[str]) -> str:
    """A record's section: heading, where it is used, its table."""
    lines = [f"### {cls.__name__}", ""]
    if cls in INTRO:
        lines += [INTRO[cls], ""]
    if held_by:
        lines += ["Written under: " + "; ".join(held_by) + ".", ""]
    lines += ["| key | type | required | description |", "|---|---|---|---|"]
    lines += [row(cls, fld) for fld in fields(cls)]
    return "\n".join(lines) + "\n"


def data_format_markdown() -> str:
    """The generated field reference: one section per record type."""
    records = record_classes(Data)
    held = holders(records)
    notice = (f"_Generated from `progress_site/model/schema.py` (and `figure.py`, "
              f"`roadmap.py`, `dataset.py`, `declare.py`) by `{COMMAND}`; "
              "edit the declarations there, not this section._\n")
    return "\n".join([notice, *(section(cls, held[cls]) for cls in records)])


def with_section(document: str, markdown: str) -> str:
    """The document with its generated section, between the markers, replaced by `markdown`."""
    start, end = document.find(START), document.find(END)
    if start < 0 or end < start:
        raise ValueError(f"the document needs the markers {START} and {END}, in that order")
    before, after = document[:start], document[end + len(END):]
    return f"{before}{START}\n\n{markdown.strip(chr(10))}\n\n{END}{after}"


def write(path: Path) -> bool:
    """Rewrite the generated section of `path`; whether the file changed."""
    old = path.read_text(encoding="utf-8")
    new = with_section(old, data_format_markdown())
    if new != old:
        path.write_text(new, encoding="utf-8", newline="\n")
    return new != old


def main(argv: list[str]) -> int:
    """`python -m progress_site.tools.docs_reference [--write [PATH]]`."""
    parser = argparse.ArgumentParser(prog="python -m progress_site.tools.docs_reference",
                                     description="Print the field reference of the data "
                                                 "format, or rewrite it in place.")
    parser.add_argument("--write", nargs="?", const=DOCUMENT, type=Path, metavar="PATH",
                        help=f"rewrite the section between the markers of PATH "
                             f"(default: {DOCUMENT})")
    args = parser.parse_args(argv)
    if args.write is None:
        sys.stdout.write(data_format_markdown())
        return 0
    try:
        changed = write(args.write)
    except (OSError, ValueError) as exc:
        print(f"{args.write}: {exc}", file=sys.stderr)
        return 1
    print(f"{args.write}: {'updated' if changed else 'already up to date'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
