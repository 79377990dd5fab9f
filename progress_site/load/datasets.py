"""Datasets: a declaration (`datasets:`, docs/data-format.md) checked before any record is
read, then its records read from the file its `records:` names (.jsonl, .json or a YAML
list) and checked against its fields by rows.py."""

from __future__ import annotations

import dataclasses
import posixpath
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from progress_site.errors import KeyPath, Location, Problem, did_you_mean
from progress_site.load.document import Document
from progress_site.load.files import leads_out
from progress_site.load.jsonfiles import parse_json_lines, parse_json_list
from progress_site.load.rows import convert_rows
from progress_site.load.text import read_text
from progress_site.model.dataset import NOTE, Dataset, RecordField, Row, records_path
from progress_site.model.schema import Data
from progress_site.model.units import BUILTIN_UNITS, unit_hint
from progress_site.model.values import problem

RECORD_SUFFIXES = (".jsonl", ".json", ".yaml", ".yml")
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def declared_records(docs: list[Document]) -> set[str]:
    """The records' files that the datasets of these documents name, as written, even
    where a declaration has errors: its records are no data file left over."""
    found = set()
    for doc in docs:
        declared = doc.data.get("datasets") if isinstance(doc.data, dict) else None
        for ds in declared if isinstance(declared, list) else ():
            if isinstance(ds, dict) and isinstance(ds.get("records"), str):
                folder = posixpath.dirname(doc.display)
                found.add(posixpath.normpath(posixpath.join(folder, ds["records"])))
    return found


def attach_records(root: Path, data: Data, lists: dict[str, Document]
                   ) -> tuple[Data, list[Problem]]:
    """Every dataset with its records (`lists`: the data files that are YAML lists)."""
    problems: list[Problem] = []
    datasets = []
    for ds in data.datasets:
        found_here = check_declaration(ds, {u.id for u in data.site.units})
        problems += found_here
        display = records_path(ds)
        if found_here:
            datasets.append(ds)
            continue
        doc, found_here = read_records(root, ds, display, lists)
        if doc is not None:
            rows, found_here = _checked_rows(ds, doc, found_here)
            ds = dataclasses.replace(ds, rows=rows)
        problems += found_here
        datasets.append(ds)
    return dataclasses.replace(data, datasets=tuple(datasets)), problems


def unclaimed(data: Data, lists: dict[str, Document], declared: Iterable[str]
              ) -> list[Problem]:
    """An error at each YAML list that no dataset names as its records (`declared`: the
    records' files named by declarations that did not load): it could not be read as data."""
    claimed = {*declared, *(records_path(ds) for ds in data.datasets)}
    return [lists[display].problem(
        (), "a data file must be a mapping of collections (machines:, studies:, ...)",
        "write its items under the collection they belong to (`machines:`, its items "
        "indented below it); a list of a dataset's records is named by its `records:`")
        for display in sorted(lists) if display not in claimed]


def _checked_rows(ds: Dataset, doc: Document, found: list[Problem]
                  ) -> tuple[tuple[Row, ...], list[Problem]]:
    """The records of `doc` as rows, and every problem of its file (`found` on reading
    it); no rows and the first problems only, when there were too many to read on."""
    rows, more = convert_rows(ds, doc)
    return (rows, found + more) if not doc.unread else ((), doc.told(found + more))


def check_declaration(ds: Dataset, site_units: set[str]) -> list[Problem]:
    """A dataset's declaration makes sense on its own, before any record is read."""
    out = []
    w = ds.where
    if not NAME.fullmatch(ds.id):
        out.append(problem(w, "id", f"'{ds.id}' cannot name a dataset", "use letters, digits, "
                           "'-' and '_', starting with a letter"))
    shown = records_path(ds)
    if not shown.startswith("data/") or not shown.endswith(RECORD_SUFFIXES):
        out.append(problem(w, "records", f"records must be a .jsonl, .json or .yaml file under "
                           f"data/, got '{ds.records}'", "name a file beside this one, such as "
                           "runs.jsonl"))
    units = set(BUILTIN_UNITS) | site_units | {u.id for u in ds.units}
    names: set[str] = set()
    for fld in ds.fields:
        out += check_field(fld, names, units)
        names.add(fld.name)
    computed = {fld.name for fld in ds.fields if fld.formula is not None}
    for key in ds.key:
        if key not in names:
            out.append(problem(w, "key", f"the key names no field '{key}'",
                               did_you_mean(key, names)))
        elif key in computed:
            out.append(problem(w, "key", f"the key names '{key}', which a formula computes",
                               "a key tells records apart by what they give"))
    notes = [n.name for n in ds.notes]
    for i, note in enumerate(ds.notes):
        if note.name in notes[:i]:
            out.append(problem(note.where, "name", f"note '{note.name}' is declared twice",
                               "keep one"))
    return out


def check_field(fld: RecordField, before: set[str], units: set[str]) -> list[Problem]:
    """One field's declaration: a usable name, and options that fit its type."""
    w = fld.where
    out = []
    if not NAME.fullmatch(fld.name) or fld.name == NOTE:
        out.append(problem(w, "name", f"'{fld.name}' cannot name a field", "use letters, "
                           "digits, '-' and '_', starting with a letter; `note` is taken"))
    if fld.name in before:
        out.append(problem(w, "name", f"field '{fld.name}' is declared twice", "keep one"))
    numeric = fld.type in ("number", "whole")
    if fld.choices and fld.type != "word":
        out.append(problem(w, "choices", "only a word field has choices", "set `type: word`"))
    if not numeric and (fld.unit is not None or fld.decimals is not None):
        out.append(problem(w, "unit" if fld.unit is not None else "decimals",
                           f"a {fld.type} field has no unit and no decimals",
                           "keep them for number and whole fields"))
    if fld.unit is not None and fld.unit not in units:
        out.append(problem(w, "unit", f"no unit '{fld.unit}'", unit_hint(
            fld.unit, units, "the dataset's `units:` or site.units")))
    if fld.formula is not None and not numeric:
        out.append(problem(w, "formula", f"a {fld.type} field has no formula",
                           "a formula computes a number: set `type: number`"))
    if fld.decimals is not None and not 0 <= fld.decimals <= 6:
        out.append(problem(w, "decimals", f"decimals must be 0 to 6, got {fld.decimals}"))
    values = [c.value for c in fld.choices]
    for i, choice in enumerate(fld.choices):
        if choice.value in values[:i]:
            out.append(problem(choice.where, "value", f"choice '{choice.value}' is declared "
                               "twice", "keep one"))
    return out


def read_records(root: Path, ds: Dataset, display: str, lists: dict[str, Document]
                 ) -> tuple[Document | None, list[Problem]]:
    """The records' file as a Document: values with their positions, under `records`."""
    if display in lists:
        doc = lists[display]
        return _prefixed(doc), []
    path = root / display
    if not (path.exists() or path.is_symlink()):  # a FIFO is refused by read_text
        return None, [problem(ds.where, "records", f"no file {display}",
                              "write the records there, or correct `records:`")]
    if display.endswith((".yaml", ".yml")):
        return None, [problem(ds.where, "records", f"{display} holds a mapping, not a list of "
                              "records", "write one `- name: value` item per record")]
    if leads_out(path, root / "data", broken=False):  # read_text says why it cannot read it
        return None, [Problem(Location(display), "this file links to a place outside data/",
                              hint="copy the file into the folder instead of linking to it")]
    text, problems = read_text(path, display)
    if text is None:
        return None, problems
    if display.endswith(".jsonl"):
        return parse_json_lines(text, display)
    return parse_json_list(text, display)


def _prefixed(doc: Document) -> Document:
    """A YAML list's document with its paths under `records`, as JSON files have them."""
    def under(table: dict[KeyPath, Any]) -> dict[KeyPath, Any]:
        return {("records", *k): v for k, v in table.items()}

    def every() -> tuple[dict[KeyPath, Any], dict[KeyPath, Any]]:
        """Every position of the list, under `records`, found when a problem asks."""
        doc.every_position()
        return under(doc.values), under(doc.keys)

    prefixed = Document(doc.display, doc.lines, doc.data, under(doc.values),
                        under(doc.keys), under(doc.raw))
    prefixed.reread = None if doc.reread is None else every
    return prefixed
