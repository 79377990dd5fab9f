"""Datasets: records read from JSON lines, JSON or YAML, each error located; the agreement rule."""

from __future__ import annotations

import datetime as dt
import json
import re
import textwrap
from decimal import Decimal
from pathlib import Path

import pytest

from progress_site.errors import BuildFailed, Problem
from progress_site.load.site import load
from progress_site.model.dataset import Choice, RecordField, Row
from progress_site.model.values import Number, Text
from progress_site.pipeline import BuildConfig, make_site
from progress_site.render.blocks.agreement import agrees, check_groups
from progress_site.render.blocks.tables import ordered

from .conftest import TEMPLATES
from .dom import parse

SITE = """\
site:
  title: Bench
  tagline: Runs of a bench
  languages: [en, fr]
"""

DECLARATION = """\
datasets:
  - id: runs
    title: {en: Runs, fr: Passages}
    records: runs.jsonl
    key: [bots, server]
    notes:
      - name: watchdog
        label: {en: stopped by its watchdog, fr: arrêté par son watchdog}
    units:
      - {id: chunks, one: chunk, other: chunks}
    fields:
      - {name: bots, label: Bots, type: whole}
      - name: server
        label: {en: Server, fr: Serveur}
        type: word
        choices:
          - {value: horizon, label: Horizon}
          - {value: paper, label: Paper}
      - {name: mspt, label: MSPT, unit: ms, decimals: 2}
      - {name: chunks, label: Chunks, type: whole, unit: chunks, required: false}
      - {name: ok, label: OK, type: bool, required: false}
"""

GOOD = [
    {"bots": 1, "server": "horizon", "mspt": 13.7, "chunks": 6280},
    {"bots": 1, "server": "paper", "mspt": 10.31, "chunks": None, "ok": True},
    {"bots": 50, "server": "horizon", "mspt": 47.83},
    {"bots": 50, "server": "paper", "note": "watchdog"},
]


def write_source(root: Path, records: str, *, name: str = "runs.jsonl",
                 declaration: str = DECLARATION, content: str | None = None) -> Path:
    """A small source folder: the site, one dataset, its records and, maybe, a page."""
    (root / "data" / "bench").mkdir(parents=True)
    (root / "data" / "site.yaml").write_text(SITE)
    (root / "data" / "bench" / "bench.yaml").write_text(declaration)
    (root / "data" / "bench" / name).write_text(records)
    if content is not None:
        for lang in ("en", "fr"):
            (root / "content" / lang).mkdir(parents=True)
            (root / "content" / lang / "index.md").write_text(f"---\ntitle: T\n---\n{content}")
    return root


def lines(*records: dict[str, object]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def problems_of(root: Path) -> str:
    _, problems = load(root, strict=False)
    return "\n".join(p.render() for p in sorted(problems, key=Problem.sort_key))


BAD_RECORDS = [
    pytest.param(
        lines(*GOOD, *({"bots": n, "server": "horizon", "mspt": 20} for n in (2, 3)))
        + '{"mspt": "fast", "bots": 7, "server": "paper"}\n\n',
        "data/bench/runs.jsonl:7:10: records[6].mspt: expected a number, got 'fast'\n"
        '    {"mspt": "fast", "bots": 7, "server": "paper"}\n'
        "             ^\n"
        "    hint: write the number alone, without quotes; the field's unit is declared "
        "once, in its `unit:`",
        id="wrong-type"),
    pytest.param(
        lines(GOOD[0], {"bots": 10, "server": "paper"}),
        "data/bench/runs.jsonl:2:1: records[1]: missing field 'mspt' (MSPT)\n"
        '    {"bots": 10, "server": "paper"}\n'
        "    ^\n"
        '    hint: add "mspt": ..., or a "note" that says why the record has no figures',
        id="missing-field"),
    pytest.param(
        lines(GOOD[0], {"bots": 10, "server": "papper", "mspt": 20.64}),
        "data/bench/runs.jsonl:2:24: records[1].server: expected one of horizon, paper; "
        "got 'papper'\n"
        '    {"bots": 10, "server": "papper", "mspt": 20.64}\n'
        "                           ^\n"
        "    hint: did you mean 'paper'?",
        id="unknown-server"),
    pytest.param(
        lines({"bots": 10, "server": "fabric", "mspt": 20.18}),
        "data/bench/runs.jsonl:1:24: records[0].server: expected one of horizon, paper; "
        "got 'fabric'\n"
        '    {"bots": 10, "server": "fabric", "mspt": 20.18}\n'
        "                           ^\n"
        "    hint: declare 'fabric' under the field's `choices:` if it is new",
        id="new-server"),
    pytest.param(
        lines({"bots": 1, "server": "paper", "msp": 10.31, "mspt": 10.31}),
        "data/bench/runs.jsonl:1:32: records[0].msp: unknown field 'msp'\n"
        '    {"bots": 1, "server": "paper", "msp": 10.31, "mspt": 10.31}\n'
        "                                   ^\n"
        "    hint: did you mean 'mspt'?",
        id="unknown-field"),
    pytest.param(
        lines(GOOD[0]) + '{"bots": 1, "server": "paper", "mspt": 10.31,}\n',
        "data/bench/runs.jsonl:2:46: JSON syntax error: Expecting property name enclosed "
        "in double quotes\n"
        '    {"bots": 1, "server": "paper", "mspt": 10.31,}\n'
        "                                                 ^\n"
        '    hint: each record is one JSON object: {"name": value, ...}',
        id="json-syntax"),
    pytest.param(
        lines(GOOD[0], GOOD[1], dict(GOOD[0], mspt=14.0)),
        "data/bench/runs.jsonl:3:1: records[2]: a second record with bots=1, "
        "server=horizon (the first is at line 1)\n"
        '    {"bots": 1, "server": "horizon", "mspt": 14.0, "chunks": 6280}\n'
        "    ^\n"
        "    hint: keep one run per key, or add the field that tells them apart to `key:`",
        id="same-key-twice"),
    pytest.param(
        lines({"bots": 50, "server": "paper", "note": "crashed"}),
        "data/bench/runs.jsonl:1:41: records[0].note: unknown note 'crashed'\n"
        '    {"bots": 50, "server": "paper", "note": "crashed"}\n'
        "                                            ^\n"
        "    hint: known: watchdog",
        id="unknown-note"),
    pytest.param(
        lines({"bots": 1.5, "server": "paper", "mspt": 10.31}),
        "data/bench/runs.jsonl:1:10: records[0].bots: expected a whole number, got 1.5\n"
        '    {"bots": 1.5, "server": "paper", "mspt": 10.31}\n'
        "             ^\n"
        "    hint: write the number alone, without quotes; the field's unit is declared "
        "once, in its `unit:`",
        id="whole-with-decimals"),
    pytest.param(
        lines({"bots": 1, "server": "paper", "mspt": 10.31, "ok": "yes"}),
        "data/bench/runs.jsonl:1:53: records[0].ok: expected true or false, got 'yes'\n"
        '    {"bots": 1, "server": "paper", "mspt": 10.31, "ok": "yes"}\n'
        "                                                        ^",
        id="bool"),
    pytest.param(
        '{"bots": 1, "server": "paper", "bots": 2, "mspt": 1}\n',
        "data/bench/runs.jsonl:1:32: records[0].bots: key 'bots' appears twice\n"
        '    {"bots": 1, "server": "paper", "bots": 2, "mspt": 1}\n'
        "                                   ^\n"
        "    hint: keep one of them",
        id="key-twice"),
]


def record_with(value: str, key: str = "mspt") -> str:
    """One record whose `key` is written as `value` (raw JSON text)."""
    fields = {"bots": "1", "server": '"paper"', "mspt": "10.31", key: value}
    return "{" + ", ".join(f'"{k}": {v}' for k, v in fields.items()) + "}\n"


# Beyond the limits of docs/data-format.md ("Ranges and limits"): each a located error.
OUT_OF_RANGE = [
    pytest.param(record_with("1e300"), "1:40", "records[0].mspt: 1e+300 is too large to be "
                 "a measurement", id="1e300"),
    pytest.param(record_with("1" * 400), "1:40", "records[0].mspt: a number of 400 digits is "
                 "too large to be a measurement", id="400-digits"),
    pytest.param(record_with("1" * 5000), "1:40", "records[0].mspt: a number of 5000 digits "
                 "is too large to be a measurement", id="5000-digits"),
    pytest.param(record_with("9" * 400, "bots"), "1:10", "records[0].bots: a number of 400 "
                 "digits is too large to be a measurement", id="whole-400-digits"),
    pytest.param(record_with("1.0e-29"), "1:40", "records[0].mspt: 30 decimals is more than "
                 "a measurement can tell", id="1.0e-29"),
    pytest.param(record_with("0." + "1" * 13), "1:40", "records[0].mspt: 13 decimals is more "
                 "than a measurement can tell", id="13-decimals"),
    pytest.param(record_with("1e309"), "1:40", "records[0].mspt: expected a finite number, "
                 "got inf", id="1e309"),
    pytest.param(record_with('"\\u202e"', "server"), "1:23", "records[0].server: this text "
                 "holds U+202E (a direction override), which no page should show", id="bidi"),
    pytest.param(record_with('"\\u001b[2J"', "server"), "1:23", "records[0].server: this "
                 "text holds U+001B (a control character), which no page should show",
                 id="escape"),
    pytest.param(record_with('"pa\\u0000per"', "server"), "1:23", "records[0].server: this "
                 "text holds U+0000 (a control character), which no page should show",
                 id="nul"),
    pytest.param(record_with('"\\ud800"', "server"), "1:23", "records[0].server: this text "
                 "holds U+D800 (half of a character), which no page should show",
                 id="lone-surrogate"),
    pytest.param('{"bots": 1, "server\\u202e": "paper", "mspt": 1}\n', "1:13",
                 "records[0].server\\u202e: this key holds U+202E (a direction override), "
                 "which no page should show", id="bidi-key"),
    pytest.param(record_with("[" * 100_000 + "]" * 100_000), "1:103", "lists and objects "
                 "nested more than 64 levels", id="deep-list"),
    pytest.param(record_with('{"a": ' * 100 + "1" + "}" * 100), "1:418", "lists and objects "
                 "nested more than 64 levels", id="deep-object"),
]


@pytest.mark.parametrize(("records", "where", "message"), OUT_OF_RANGE)
def test_out_of_range(tmp_path: Path, records: str, where: str, message: str) -> None:
    found = problems_of(write_source(tmp_path, records)).splitlines()
    assert f"data/bench/runs.jsonl:{where}: {message}" in found, found


OPEN_DECLARATION = """\
datasets:
  - id: runs
    title: Runs
    records: RECORDS
    fields:
      - {name: bots, label: Bots, type: whole}
      - {name: server, label: Server, type: word}
      - {name: mspt, label: MSPT, unit: ms}
"""


@pytest.mark.parametrize("name", ["runs.jsonl", "runs.json"])
def test_out_of_range_ok(tmp_path: Path, name: str) -> None:
    """Just inside every limit: 10^15, 12 decimals, 40 digits read (and then refused by
    size only), every other character (tab and new line included, right-to-left words)."""
    records = [record_with("1000000000000000"), record_with("-0.000000000001"),
               record_with('"pa\\tper\\nשלום"', "server")]
    text = "".join(records) if name == "runs.jsonl" else "[" + ",".join(records) + "]"
    write_source(tmp_path, text, name=name,
                 declaration=OPEN_DECLARATION.replace("RECORDS", name))
    source, problems = load(tmp_path, strict=False)
    assert problems == [], [p.render() for p in problems]
    assert source is not None
    rows = source.data.datasets[0].rows
    assert [r.get("mspt") for r in rows] == [Number(1e15), Number(-1e-12, 12),
                                             Number(10.31, 2)]
    assert rows[2].get("server") == "pa\tper\nשלום"


def test_an_empty_records_file_is_an_error_where_a_number_is_asked(tmp_path: Path) -> None:
    source = write_source(tmp_path, "", content="It is {{ max(runs.mspt) }}.\n")
    with pytest.raises(BuildFailed) as failed:
        make_site(BuildConfig(source=source, out=tmp_path / "out", today=dt.date(2026, 11, 29),
                              compiled=TEMPLATES))
    assert failed.value.render().splitlines()[0] == (
        "content/en/index.md:4:14: runs has no records")


def test_an_empty_records_file_ok(tmp_path: Path) -> None:
    source = write_source(tmp_path, "\n", content="No number here.\n")
    make_site(BuildConfig(source=source, out=tmp_path / "out", today=dt.date(2026, 11, 29),
                          compiled=TEMPLATES))


@pytest.mark.parametrize(("records", "expected"), BAD_RECORDS)
def test_bad_record(tmp_path: Path, records: str, expected: str) -> None:
    assert problems_of(write_source(tmp_path, records)) == expected


def test_bad_record_ok(tmp_path: Path) -> None:
    """Nulls are absent values, a noted record may lack figures, decimals are kept."""
    source, problems = load(write_source(tmp_path, lines(*GOOD)), strict=False)
    assert problems == []
    assert source is not None
    rows = source.data.datasets[0].rows
    assert [r.note for r in rows] == [None, None, None, "watchdog"]
    assert rows[0].values == {"bots": Number(1.0), "server": "horizon",
                              "mspt": Number(13.7, 1), "chunks": Number(6280.0)}
    assert rows[1].get("chunks") is None and rows[1].get("ok") is True
    assert str(rows[2].where.of("mspt")) == "data/bench/runs.jsonl:3:43"


def test_white_space_between_tokens_keeps_columns_right(tmp_path: Path) -> None:
    text = '{"bots":\t1 ,  "server" : "paper",\t"mspt": 1, "ok":\t "yes" }\n'
    assert problems_of(write_source(tmp_path / "lines", text)) == (
        "data/bench/runs.jsonl:1:53: records[0].ok: expected true or false, got 'yes'\n"
        '    {"bots":\\t1 ,  "server" : "paper",\\t"mspt": 1, "ok":\\t "yes" }\n'
        "                                                           ^")
    text = '[\n\t{"bots": 1, "server": "paper", "mspt": 1,\n\t "ok":\t"yes"}\r\n]\n'
    root = write_source(tmp_path / "list", text, name="runs.json",
                        declaration=DECLARATION.replace("runs.jsonl", "runs.json"))
    assert problems_of(root) == (
        "data/bench/runs.json:3:9: records[0].ok: expected true or false, got 'yes'\n"
        '    \\t "ok":\\t"yes"}\n'
        "              ^")


def test_records_as_a_json_list(tmp_path: Path) -> None:
    text = json.dumps(GOOD[:2], indent=2).replace('"mspt": 10.31', '"mspt": "10.31"')
    root = write_source(tmp_path, text, name="runs.json",
                        declaration=DECLARATION.replace("runs.jsonl", "runs.json"))
    assert problems_of(root) == (
        "data/bench/runs.json:11:13: records[1].mspt: expected a number, got '10.31'\n"
        '        "mspt": "10.31",\n'
        "                ^\n"
        "    hint: write the number alone, without quotes; the field's unit is declared "
        "once, in its `unit:`")


def test_records_as_a_yaml_list(tmp_path: Path) -> None:
    text = "- {bots: 1, server: horizon, mspt: 13.70}\n- {bots: 1, server: papr, mspt: 1}\n"
    root = write_source(tmp_path, text, name="runs.yaml",
                        declaration=DECLARATION.replace("runs.jsonl", "runs.yaml"))
    assert problems_of(root) == (
        "data/bench/runs.yaml:2:21: records[1].server: expected one of horizon, paper; "
        "got 'papr'\n"
        "    - {bots: 1, server: papr, mspt: 1}\n"
        "                        ^\n"
        "    hint: did you mean 'paper'?")


def test_records_as_a_yaml_list_ok(tmp_path: Path) -> None:
    text = "- {bots: 1, server: horizon, mspt: 13.70}\n"
    root = write_source(tmp_path, text, name="runs.yaml",
                        declaration=DECLARATION.replace("runs.jsonl", "runs.yaml"))
    source, problems = load(root, strict=False)
    assert problems == [] and source is not None
    assert source.data.datasets[0].rows[0].get("mspt") == Number(13.7, 2)


def test_yaml_records_of_a_broken_declaration_are_no_second_error(tmp_path: Path) -> None:
    """A declaration with an error (a field type no dataset has) still names its records:
    the build said too that the records' YAML list was 'a data file that must be a
    mapping', sending its reader to a file with nothing wrong."""
    text = "- {bots: 1, server: horizon, mspt: 13.70}\n"
    root = write_source(tmp_path, text, name="runs.yaml", declaration=DECLARATION.replace(
        "runs.jsonl", "runs.yaml").replace("type: bool", "type: time"))
    assert problems_of(root) == (
        "data/bench/bench.yaml:21:37: datasets[0].fields[4].type: expected one of number, "
        "whole, word, text, date, bool; got 'time'\n"
        "          - {name: ok, label: OK, type: time, required: false}\n"
        "                                        ^")


def test_a_list_no_dataset_reads_is_not_data(tmp_path: Path) -> None:
    root = write_source(tmp_path, lines(*GOOD))
    (root / "data" / "notes.yaml").write_text("- one\n")
    assert problems_of(root) == (
        "data/notes.yaml:1:1: a data file must be a mapping of collections "
        "(machines:, studies:, ...)\n"
        "    - one\n"
        "    ^\n"
        "    hint: write its items under the collection they belong to (`machines:`, its "
        "items indented below it); a list of a dataset's records is named by its `records:`")


BAD_DECLARATIONS = [
    pytest.param(
        ("unit: ms, decimals: 2}", "unit: mss, decimals: 2}"),
        "data/bench/bench.yaml:19:41: datasets[0].fields[2].unit: no unit 'mss'\n"
        "    hint: did you mean 'ms'? A unit of its own is declared under the dataset's "
        "`units:` or site.units",
        id="unknown-unit"),
    pytest.param(
        ("key: [bots, server]", "key: [bots, servers]"),
        "data/bench/bench.yaml:5:10: datasets[0].key: the key names no field 'servers'\n"
        "    hint: did you mean 'server'?",
        id="key-names-no-field"),
    pytest.param(
        ("records: runs.jsonl", "records: ../../runs.jsonl"),
        "data/bench/bench.yaml:4:14: datasets[0].records: records must be a .jsonl, .json "
        "or .yaml file under data/, got '../../runs.jsonl'\n"
        "    hint: name a file beside this one, such as runs.jsonl",
        id="records-outside-data"),
    pytest.param(
        ("records: runs.jsonl", "records: run.jsonl"),
        "data/bench/bench.yaml:4:14: datasets[0].records: no file data/bench/run.jsonl\n"
        "    hint: write the records there, or correct `records:`",
        id="records-missing"),
    pytest.param(
        ("{name: bots, label: Bots, type: whole}",
         "{name: bots, label: Bots, type: whole, choices: [{value: a, label: A}]}"),
        "data/bench/bench.yaml:12:57: datasets[0].fields[0].choices: only a word field has "
        "choices\n"
        "    hint: set `type: word`",
        id="choices-on-a-number"),
]


@pytest.mark.parametrize(("edit", "expected"), BAD_DECLARATIONS)
def test_bad_declaration(tmp_path: Path, edit: tuple[str, str], expected: str) -> None:
    assert DECLARATION.count(edit[0]) == 1
    root = write_source(tmp_path, lines(*GOOD), declaration=DECLARATION.replace(*edit))
    assert problems_of(root) == expected


# --- the agreement rule ------------------------------------------------------------------

# (value, highest, tolerance, floor, agrees): the edges of "within 10 % of the highest, or
# within one chunk a second", from both sides.
EDGES = [
    ("90", "100", "0.10", "0", True),  # exactly 10 % below
    ("89.99", "100", "0.10", "0", False),  # just over 10 %
    ("89.99", "100", "0.10", "1", False),  # the floor does not save a big gap
    ("61.65", "61.65", "0.10", "1", True),  # the highest itself
    ("55.485", "61.65", "0.10", "0", True),  # 10 % of 61.65 is 6.165: exact, no float noise
    ("55.484", "61.65", "0.10", "0", False),
    ("4", "5", "0.10", "1", True),  # exactly one below: within the floor
    ("3.99", "5", "0.10", "1", False),  # 1.01 below: over both
    ("0.00", "0.02", "0.10", "1", True),  # almost nothing: the floor keeps noise out
    ("0.00", "0.02", "0.10", "0", False),
]


@pytest.mark.parametrize(("value", "highest", "tolerance", "floor", "expected"), EDGES)
def test_agreement_edges(value: str, highest: str, tolerance: str, floor: str,
                         expected: bool) -> None:
    assert agrees(Decimal(value), Decimal(highest), Decimal(tolerance),
                  Decimal(floor)) is expected


def row(index: int, by: int, who: str, sent: float | None, new: float | None) -> Row:
    values: dict[str, Number | str | bool] = {"bots": Number(float(by)), "server": who}
    for name, value in (("sent", sent), ("new", new)):
        if value is not None:
            values[name] = Number(value, 2)
    return Row(index=index, values=values, note=None if sent is not None else "watchdog")


@pytest.mark.parametrize(("paper", "expected"), [
    ((90.0, 5.0), [True, True]),  # 10 % below on one field, 1 below on the other
    ((89.99, 5.0), [True, False]),  # just over 10 % at 100 bots
    ((90.0, 3.99), [True, False]),  # just over the floor
    ((None, None), [True, True]),  # a stopped run is left out, not counted against
])
def test_agreement_by_group(paper: tuple[float | None, float | None],
                            expected: list[bool]) -> None:
    rows = [row(0, 1, "a", 9.94, 0.01), row(1, 1, "b", 9.81, 0.02),
            row(2, 100, "a", 100.0, 6.0), row(3, 100, "b", *paper)]
    checks = check_groups(rows, "bots", ["sent", "new"], Decimal("0.1"), Decimal(1))
    assert [c.agrees for c in checks] == expected
    assert [c.by for c in checks] == [1.0, 100.0]


def test_agreement_required_stops_the_build(tmp_path: Path) -> None:
    records = lines({"bots": 1, "server": "horizon", "mspt": 10.0},
                    {"bots": 1, "server": "paper", "mspt": 8.99})
    block = "{{< agreement runs by=bots fields=mspt tolerance=10% floor=1 require=true >}}\n"
    root = write_source(tmp_path, records, content=block)
    config = BuildConfig(source=root, out=tmp_path / "site", today=dt.date(2026, 11, 29),
                         compiled=TEMPLATES)
    with pytest.raises(BuildFailed) as failed:
        make_site(config)
    assert failed.value.render() == textwrap.dedent("""\
        content/en/index.md:4:1: agreement: runs does not agree at bots=1: mspt of bots=1, \
server=paper is 8.99, 1.01 below the highest (10.0); allowed: 10 % of it, or 1
            {{< agreement runs by=bots fields=mspt tolerance=10% floor=1 require=true >}}
            ^
            hint: data/bench/runs.jsonl at line 2: re-run, or explain it, before publishing
        content/fr/index.md:4:1: agreement: runs does not agree at bots=1: mspt of bots=1, \
server=paper is 8.99, 1.01 below the highest (10.0); allowed: 10 % of it, or 1
            {{< agreement runs by=bots fields=mspt tolerance=10% floor=1 require=true >}}
            ^
            hint: data/bench/runs.jsonl at line 2: re-run, or explain it, before publishing
        Aborted with 2 data errors.""")


def test_agreement_required_ok(tmp_path: Path) -> None:
    records = lines({"bots": 1, "server": "horizon", "mspt": 10.0},
                    {"bots": 1, "server": "paper", "mspt": 9.0})
    block = "{{< agreement runs by=bots fields=mspt tolerance=10% require=true >}}\n"
    root = write_source(tmp_path, records, content=block)
    built = make_site(BuildConfig(source=root, out=tmp_path / "site",
                                  today=dt.date(2026, 11, 29), compiled=TEMPLATES))
    html = built.files["index.html"].decode()
    assert '<td class="verdict-cell yes">yes</td>' in html
    assert "they agree when the gap is at most 10% of it." in html


def test_a_chart_takes_one_point_per_x_and_series(tmp_path: Path) -> None:
    block = "{{< chart runs x=bots y=mspt >}}\n"
    root = write_source(tmp_path, lines(*GOOD), content=block)
    config = BuildConfig(source=root, out=tmp_path / "site", today=dt.date(2026, 11, 29),
                         compiled=TEMPLATES)
    with pytest.raises(BuildFailed) as failed:
        make_site(config)
    assert failed.value.render() == textwrap.dedent("""\
        content/en/index.md:4:1: chart: two records of runs give bots=1.0
            {{< chart runs x=bots y=mspt >}}
            ^
            hint: a chart takes one point per x and series: add `series=`
        content/fr/index.md:4:1: chart: two records of runs give bots=1.0
            {{< chart runs x=bots y=mspt >}}
            ^
            hint: a chart takes one point per x and series: add `series=`
        Aborted with 2 data errors.""")


def test_a_chart_takes_one_point_per_x_and_series_ok(tmp_path: Path) -> None:
    block = "{{< chart runs x=bots y=mspt series=server >}}\n"
    root = write_source(tmp_path, lines(*GOOD), content=block)
    built = make_site(BuildConfig(source=root, out=tmp_path / "site",
                                  today=dt.date(2026, 11, 29), compiled=TEMPLATES))
    html = built.files["index.html"].decode()
    assert ("MSPT (ms): lowest 10.31\u00a0ms (Paper, where Bots is 1), highest "
            "47.83\u00a0ms (Horizon, where Bots is 50). Paper has no number where Bots is 50: "
            "stopped by its watchdog.</figcaption>") in html


def test_records_are_ordered_by_choices_then_numbers_missing_last() -> None:
    server = RecordField(name="server", label=Text((("*", "Server"),), neutral=True),
                         type="word", choices=tuple(
                             Choice(value=v, label=Text((("*", v),), neutral=True))
                             for v in ("paper", "horizon", "paper")))
    bots = RecordField(name="bots", label=Text((("*", "Bots"),), neutral=True), type="whole")
    rows = [Row(index=i, values=values) for i, values in enumerate([
        {"server": "horizon", "bots": Number(10.0)}, {"server": "paper", "bots": Number(50.0)},
        {"bots": Number(1.0)}, {"server": "paper", "bots": Number(1.0)},
        {"server": "other", "bots": Number(5.0)}])]
    # 'other' is no choice: it ranks with the first one, then by its words.
    assert [r.index for r in ordered(rows, [server, bots])] == [4, 3, 1, 0, 2]
    assert [r.index for r in ordered(rows, [bots])] == [2, 3, 4, 0, 1]


def block_problems(tmp_path: Path, block: str) -> list[str]:
    """The first lines of the build's problems for a page holding one block."""
    source = write_source(tmp_path, lines(*GOOD), content=block + "\n")
    try:
        make_site(BuildConfig(source=source, out=tmp_path / "out", today=dt.date(2026, 11, 29),
                              compiled=TEMPLATES))
    except BuildFailed as exc:
        return [p.render().splitlines()[0] for p in exc.problems
                if p.location.file == "content/en/index.md"]
    return []


CHART = "{{< chart runs x=bots y=mspt series=server kind=line %s >}}"
AGREEMENT = "{{< agreement runs by=bots fields=mspt across=server %s >}}"


@pytest.mark.parametrize(("block", "message"), [
    (CHART % "width=-5", "chart width=: expected whole pixels from 50 to 4000, got '-5'"),
    (CHART % "width=100000000 height=100000000",
     "chart width=: expected whole pixels from 50 to 4000, got '100000000'"),
    (CHART % "height=4001", "chart height=: expected whole pixels from 50 to 4000, got '4001'"),
    (CHART % "width=600.5", "chart width=: expected whole pixels from 50 to 4000, got '600.5'"),
    (CHART % "rule=NaN", "chart rule=: expected a number, got 'NaN'"),
    (CHART % "rule=inf", "chart rule=: expected a number, got 'inf'"),
    (CHART % "rule=1e309", "chart rule=: expected a number from -10^15 to 10^15, got '1e309'"),
    (CHART % ("rule=" + "9" * 5000), "chart rule=: expected a number, got '"
     + "9" * 40 + "...'"),
    (CHART % "rule=1e-30", "chart rule=: 30 decimals is more than a number can tell"),
    (CHART % "id=9lives", "chart id=: '9lives' cannot be an id"),
    (AGREEMENT % "tolerance=1e309%",
     "agreement tolerance=: expected a share from 0% to 100%, got '1e309%'"),
    (AGREEMENT % "tolerance=NaN%", "agreement tolerance=: expected a number, got 'NaN%'"),
    (AGREEMENT % "tolerance=-5%",
     "agreement tolerance=: expected a share from 0% to 100%, got '-5%'"),
    (AGREEMENT % "tolerance=5% floor=-1",
     "agreement floor=: expected a number from 0 to 10^15, got '-1'"),
])
def test_block_options_out_of_range(tmp_path: Path, block: str, message: str) -> None:
    assert block_problems(tmp_path, block) == [f"content/en/index.md:4:1: {message}"]


@pytest.mark.parametrize("block", [
    CHART % "width=4000 height=50 rule=-1000000000000000 id=a-chart",
    AGREEMENT % "tolerance=100% floor=0.000000000001",
    AGREEMENT % "tolerance=0%",
])
def test_block_options_out_of_range_ok(tmp_path: Path, block: str) -> None:
    assert block_problems(tmp_path, block) == []


def test_an_agreement_beside_a_table_of_its_records_is_captioned_apart(
        tmp_path: Path) -> None:
    """Two regions named alike are one landmark to a screen reader (axe's
    landmark-unique): the agreement's own caption is not the table's."""
    source = write_source(tmp_path, lines(*GOOD), content="{{< table runs >}}\n\n"
                          + AGREEMENT % "tolerance=10%" + "\n")
    built = make_site(BuildConfig(source=source, out=tmp_path / "out",
                                  today=dt.date(2026, 11, 29), compiled=TEMPLATES)).files
    for page, captions in (("index.html", ["Runs", "Agreement: Runs (MSPT)"]),
                           ("fr/index.html", ["Passages", "Concordance\u00a0: Passages (MSPT)"])):
        html = built[page].decode("utf-8")
        assert re.findall(r"<caption[^>]*>([^<]*)</caption>", html) == captions


# Two tables and two checks of one dataset on a page, none with a caption of its own.
TWO_OF_EACH = ("{{< table runs rows=bots,server columns=mspt >}}\n\n"
               "{{< table runs rows=bots,server columns=chunks >}}\n\n"
               + AGREEMENT % "tolerance=10%" + "\n\n"
               "{{< agreement runs by=bots fields=chunks across=server tolerance=10% "
               "id=chunks-agree >}}\n")


def region_names(html: str) -> list[str]:
    """The name of each region of a page: the text its aria-labelledby points at."""
    root = parse(html)
    texts = {n.attrs["id"]: n.text() for n in root.iter() if "id" in n.attrs}
    return [" ".join(texts[i] for i in n.attrs["aria-labelledby"].split())
            for n in root.iter() if n.attrs.get("role") == "region"
            or (n.tag == "section" and "aria-labelledby" in n.attrs)]


@pytest.fixture()
def two_of_each(tmp_path: Path) -> dict[str, bytes]:
    """The files of a site whose page shows TWO_OF_EACH."""
    source = write_source(tmp_path, lines(*GOOD), content=TWO_OF_EACH)
    return make_site(BuildConfig(source=source, out=tmp_path / "out",
                                 today=dt.date(2026, 11, 29), compiled=TEMPLATES)).files


def test_two_tables_of_one_dataset_are_regions_of_their_own_names(
        two_of_each: dict[str, bytes]) -> None:
    """Without a caption, a table or a check that shows some of a dataset's fields is
    named by them too: two regions of one name are one landmark to a screen reader."""
    assert region_names(two_of_each["index.html"].decode()) == [
        "Runs (MSPT)", "Runs (Chunks)", "Agreement: Runs (MSPT)", "Agreement: Runs (Chunks)"]
    assert region_names(two_of_each["fr/index.html"].decode()) == [
        "Passages (MSPT)", "Passages (Chunks)", "Concordance\u00a0: Passages (MSPT)",
        "Concordance\u00a0: Passages (Chunks)"]


@pytest.mark.slow  # a real browser: CI runs it
def test_two_tables_of_one_dataset_pass_axe(two_of_each: dict[str, bytes],
                                            tmp_path: Path) -> None:
    from . import browser

    site = tmp_path / "site"
    for path, data in two_of_each.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_bytes(data)
    with browser.chromium() as chromium, browser.serve(site) as base:
        for path in ("index.html", "fr/index.html"):
            page = chromium.new_page(viewport=browser.DESKTOP)
            page.goto(f"{base}{path}")
            assert browser.axe_violations(page) == [], path
            page.close()


def test_a_table_says_where_its_records_come_from(tmp_path: Path) -> None:
    """A dataset's machine, date, method and proof are said once above its table, in each
    language: they were read, checked and published in data.json, but no page showed
    where the numbers of a table come from."""
    declaration = DECLARATION.replace("    records: runs.jsonl\n", (
        "    records: runs.jsonl\n    machine: laptop\n    date: 2026-11-28\n"
        "    method: {en: 300 s a run, fr: 300 s par passage}\n"
        "    proof: {url: 'https://example.org/runs'}\n"))
    source = write_source(tmp_path, lines(*GOOD), declaration=declaration,
                          content="{{< table runs >}}\n")
    (source / "data" / "machines.yaml").write_text(
        "machines:\n  - id: laptop\n    name: {en: The laptop, fr: Le portable}\n")
    built = make_site(BuildConfig(source=source, out=tmp_path / "out",
                                  today=dt.date(2026, 11, 29), compiled=TEMPLATES)).files
    for page, words in (("index.html", ["Machine", "The laptop", "Date",
                                        "November\u00a028,\u00a02026", "Method", "300 s a run",
                                        "Proof", "https://example.org/runs"]),
                        ("fr/index.html", ["Machine", "Le portable", "Date",
                                           "28\u00a0novembre\u00a02026", "Méthode",
                                           "300 s par passage", "Preuve",
                                           "https://example.org/runs"])):
        origin = parse(built[page]).find("dl", class_="origin")
        assert [n.text() for n in origin.iter() if n.tag in ("dt", "dd")] == words
        assert origin.find("a").attrs["href"] == "https://example.org/runs"


def test_a_table_says_where_its_records_come_from_ok(tmp_path: Path) -> None:
    """A dataset that says nothing of its source has no empty list above its table."""
    source = write_source(tmp_path, lines(*GOOD), content="{{< table runs >}}\n")
    built = make_site(BuildConfig(source=source, out=tmp_path / "out",
                                  today=dt.date(2026, 11, 29), compiled=TEMPLATES)).files
    assert parse(built["index.html"]).find_all("dl", class_="origin") == []


WEEKS = """\
datasets:
  - id: weeks
    title: {en: Test runs, fr: Passages des tests}
    records: weeks.jsonl
    key: [day]
    fields:
      - {name: day, label: {en: Day, fr: Jour}, type: date}
      - {name: failed, label: {en: Failed, fr: En échec}, type: whole}
"""


def test_a_date_field_prints_as_each_language_writes_dates(tmp_path: Path) -> None:
    """Test runs over time: a `date` field is read from JSON's text or YAML's date, and
    printed as each language writes dates (a text field printed 2026-11-03 on the
    French page), in the table and on the chart."""
    records = lines({"day": "2026-11-03", "failed": 12}, {"day": "2026-11-10", "failed": 8})
    source = write_source(tmp_path, records, name="weeks.jsonl", declaration=WEEKS,
                          content="{{< table weeks >}}\n\n{{< chart weeks x=day y=failed "
                                  "kind=bar >}}\n\n{{ weeks[day=\"2026-11-10\"].failed }}\n")
    built = make_site(BuildConfig(source=source, out=tmp_path / "out",
                                  today=dt.date(2026, 11, 29), compiled=TEMPLATES)).files
    for page, days, short in (
            ("index.html", ["November\u00a03,\u00a02026", "November\u00a010,\u00a02026"],
             "November\u00a010"),
            ("fr/index.html", ["3\u00a0novembre\u00a02026", "10\u00a0novembre\u00a02026"],
             "10\u00a0novembre")):
        html = parse(built[page])
        table = html.find("table", class_="records")
        assert [r.find("th").text() for r in table.find_all("tr")[1:]] == days
        # On the chart's axis, the days of one year go without it, as a trend's do.
        assert short in html.find("svg").text() and days[1] not in html.find("svg").text()


def test_a_date_field_refuses_what_is_no_day(tmp_path: Path) -> None:
    records = lines({"day": "2026-11-31", "failed": 12}, {"day": "last week", "failed": 8})
    source = write_source(tmp_path, records, name="weeks.jsonl", declaration=WEEKS)
    assert problems_of(source) == (
        'data/bench/weeks.jsonl:1:9: records[0].day: expected a date, got \'2026-11-31\'\n'
        '    {"day": "2026-11-31", "failed": 12}\n'
        '            ^\n'
        '    hint: write the day as YYYY-MM-DD: 2026-11-03\n'
        'data/bench/weeks.jsonl:2:9: records[1].day: expected a date, got \'last week\'\n'
        '    {"day": "last week", "failed": 8}\n'
        '            ^\n'
        '    hint: write the day as YYYY-MM-DD: 2026-11-03')


def test_a_date_field_ok_in_yaml(tmp_path: Path) -> None:
    source = write_source(tmp_path, "- {day: 2026-11-03, failed: 12}\n", name="weeks.yaml",
                          declaration=WEEKS.replace("weeks.jsonl", "weeks.yaml"))
    loaded, problems = load(source, strict=False)
    assert problems == [] and loaded is not None
    assert loaded.data.datasets[0].rows[0].get("day") == "2026-11-03"


def test_a_mean_speed_up_prints_three_significant_digits(tmp_path: Path) -> None:
    """A research group's page: geomean of four solvers' ratios, one of them 0.984. The
    mean took the ratios' most decimals and printed 1.188 (1,188 in French) beside
    ratios of three digits; it prints its own three, as a quotient does."""
    horizon = (20.7, 19.68, 27.88, 28.04)  # against paper's 20.0 at each bot count
    records = lines(*({"bots": b, "server": s, "mspt": v}
                      for b, h in enumerate(horizon, 1)
                      for s, v in (("horizon", h), ("paper", 20.0))))
    source = write_source(tmp_path / "src", records, content=(
        "Horizon is {{ geomean(runs[server=horizon].mspt / runs[server=paper].mspt) }} "
        "times as slow.\n"))
    files = make_site(BuildConfig(source=source, out=tmp_path / "out",
                                  today=dt.date(2026, 11, 29), compiled=TEMPLATES)).files
    for page, printed in (("index.html", "1.19"), ("fr/index.html", "1,19")):
        assert f"Horizon is {printed} times as slow." in parse(files[page]).find("main").text()


def test_a_charts_table_says_why_a_record_has_no_point(tmp_path: Path) -> None:
    """Four solvers, one stopped with a note: the chart's table left its cell empty, so
    a reader could not tell a timeout from a value left out; it says the note, as the
    `table` block does."""
    source = write_source(tmp_path / "src", lines(*GOOD), content=(
        "{{< chart runs x=bots y=mspt series=server kind=bar >}}\n"))
    files = make_site(BuildConfig(source=source, out=tmp_path / "out",
                                  today=dt.date(2026, 11, 29), compiled=TEMPLATES)).files
    for page, note in (("index.html", "stopped by its watchdog"),
                       ("fr/index.html", "arrêté par son watchdog")):
        table = parse(files[page]).find("details", class_="chart-data")
        rows = [[c.text() for c in r.children if not isinstance(c, str)]
                for r in table.find_all("tr")]
        ms = "\u00a0ms" if page == "index.html" else "\u202fms"
        assert [r[0] for r in rows[1:]] == ["1", "50"]
        assert [r[1:] for r in rows[1:]] == [
            [("13.70" if page == "index.html" else "13,70") + ms,
             ("10.31" if page == "index.html" else "10,31") + ms],
            [("47.83" if page == "index.html" else "47,83") + ms, note]]
