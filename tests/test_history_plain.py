"""A plain history file read a column at a time (load/history_plain.py) gives what the line
by line reader gives: the same points, positions and problems, for files that are plain
and for files built to look plain while not being so."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

import pytest

import progress_site.load.history as history
from progress_site.errors import Problem
from progress_site.load.history_plain import plain_points
from progress_site.model.history import MAX_SAMPLES, HistorySeries
from progress_site.record.history import line

LINE = {"commit": "c000", "date": "2026-11-01", "machine": "ci", "value": 10.5, "unit": "ms",
        "spread": 0.25, "n": 10, "tool": "hyperfine"}


def lines(count: int = 6, **changed: object) -> list[str]:
    """Plain lines, a commit and a day each, with `changed` keys on every line."""
    return [json.dumps({**LINE, "commit": f"c{i:03d}", "date": f"2026-11-{1 + i:02d}",
                        "value": 10.5 + i, **changed}, ensure_ascii=False) for i in range(count)]


def text(*rows: str) -> str:
    """A file of these lines."""
    return "\n".join(rows) + "\n"


def in_order(rows: list[str]) -> list[str]:
    """The lines with their keys in the format's order, as `record` and `import` write."""
    return [line(json.loads(x)) for x in rows]


BASE = lines()
PLAIN = {
    "as record writes": text(*BASE),
    "crlf": "\r\n".join(BASE) + "\r\n",
    "no last newline": "\n".join(BASE),
    "no optional key": text(*(json.dumps({k: v for k, v in json.loads(x).items()
                                          if k in ("commit", "date", "machine", "value",
                                                   "unit")}) for x in BASE)),
    "some lines without spread": text(BASE[0].replace(', "spread": 0.25', ""), *BASE[1:]),
    "some lines without tool": text(*BASE[:3], *lines(6, tool=None)[3:]).replace(
        ', "tool": null', ""),
    "no unit": text(*lines(unit="")),
    "times of day": text(*lines(date="2026-11-01T10:00:00Z")[:1],
                         *(x.replace('"2026-11-', '"2026-12-') for x in BASE[1:])),
    "a day then its midnight": text(BASE[0], BASE[1].replace("2026-11-02", "2026-11-01T00:00:00Z")),
    "integers": text(*(x.replace("10.5", "10").replace("0.25", "0") for x in BASE)),
    "exponents": text(*(re.sub('"value": [0-9.]+', '"value": 1.05E+1', x).replace(
        '"spread": 0.25', '"spread": 25e-2') for x in BASE)),
    "the same commit on two machines": text(BASE[0], BASE[0].replace('"ci"', '"pc"')),
    "byte order mark": "\ufeff" + text(*BASE),  # the file's, not the text's
    "non-ASCII words": text(*lines(machine="büro", tool="hyperfine ✓")),
    "status": text(*lines(status="watch")),
    "some lines with status": text(*BASE[:3], *lines(status="measured")[3:]),
    # as `import` writes a tool's readings: the quartiles come from them
    "samples": text(*in_order(lines(samples=[10.5, 9.25, 11, 10.5, 1.5e-3, 12]))),
    "some lines with samples": text(*BASE[:2], *in_order(lines(samples=[3.5, 2, 4, 3.5]))[2:]),
    "samples, value not their median": text(*in_order(lines(samples=[1.0, 2.0, 3.0, 4.0]))),
    "median samples": text(*in_order(lines(1, value=3.5, samples=[1, 2, 3, 4, 5, 9]))),
    "one sample": text(*in_order(lines(samples=[10.5]))),
}
NOT_PLAIN = {
    "compact": text(*(json.dumps(json.loads(x), separators=(",", ":")) for x in BASE)),
    "commit twice on two machines": text(BASE[0], BASE[1].replace('"ci"', '"pc"'),
                                         BASE[0].replace("2026-11-01", "2026-11-03")),
    "escape": text(BASE[0].replace("c000", "c\\u0030"), *BASE[1:]),
    "line separator in a text": text(BASE[0].replace("c000", "c\u2028000"), *BASE[1:]),
    "next line in a text": text(BASE[0].replace("c000", "c\x85000"), *BASE[1:]),
    "lone carriage return": BASE[0] + "\r" + text(*BASE[1:]),
    "two objects on a line": text(BASE[0] + ", " + BASE[1], *BASE[2:]),
    "trailing comma": text(BASE[0] + ",", *BASE[1:]),
    "a list of two": text("[" + BASE[0] + ", " + BASE[1] + "]", *BASE[2:]),
    "numbers across lines": text(BASE[0][:-1] + ', "n": 1,', ' 2}', *BASE[1:]),
    "key twice": text(BASE[0].replace('{"commit": "c000"', '{"commit": "c000", "commit": "x"'),
                      *BASE[1:]),
    "blank line": text(BASE[0], "", *BASE[1:]),
    "blank line of spaces": text(BASE[0], "   ", *BASE[1:]),
    "indented": text(" " + BASE[0], *BASE[1:]),
    "trailing spaces": text(BASE[0] + "  ", *BASE[1:]),
    "tab separators": text(BASE[0].replace(", ", ",\t"), *BASE[1:]),
    "dates out of order": text(BASE[1], BASE[0], *BASE[2:]),
    "midnight then its day": text(BASE[0].replace("2026-11-01", "2026-11-01T00:00:00Z"),
                                  BASE[1].replace("2026-11-02", "2026-11-01")),
    "no such day": text(BASE[0].replace("2026-11-01", "2026-02-30"), *BASE[1:]),
    "week date": text(BASE[0].replace("2026-11-01", "2026-W01-1"), *BASE[1:]),
    "commit twice": text(BASE[0], BASE[0].replace("2026-11-01", "2026-11-02")),
    "unit changes": text(BASE[0], *lines(unit="s")[1:]),
    "blank commit": text(BASE[0].replace('"c000"', '" "'), *BASE[1:]),
    "empty commit": text(BASE[0].replace('"c000"', '""'), *BASE[1:]),
    "blank machine": text(*lines(machine=" ")),
    "blank tool": text(BASE[0].replace("hyperfine", "  "), *BASE[1:]),
    "empty tool": text(BASE[0].replace("hyperfine", ""), *BASE[1:]),
    "blank unit": text(*lines(unit=" ")),
    "infinite value": text(BASE[0].replace("10.5", "1e400"), *BASE[1:]),
    "infinite spread": text(BASE[0].replace("0.25", "1E999"), *BASE[1:]),
    "negative value": text(BASE[0].replace("10.5", "-10.5"), *BASE[1:]),
    "negative zero": text(BASE[0].replace("10.5", "-0"), *BASE[1:]),
    "leading zero": text(BASE[0].replace("10.5", "010.5"), *BASE[1:]),
    "huge whole number": text(BASE[0].replace("10.5", "1" * 41), *BASE[1:]),
    "long whole number": text(BASE[0].replace("10.5", "1" * 25), *BASE[1:]),
    "no readings": text(BASE[0].replace('"n": 10', '"n": 0'), *BASE[1:]),
    "readings not whole": text(BASE[0].replace('"n": 10', '"n": 1.5'), *BASE[1:]),
    "value true": text(BASE[0].replace("10.5", "true"), *BASE[1:]),
    "value a text": text(BASE[0].replace("10.5", '"10.5"'), *BASE[1:]),
    "keys in another order": text(BASE[0].replace('"commit": "c000", "date": "2026-11-01"',
                                                  '"date": "2026-11-01", "commit": "c000"'),
                                  *BASE[1:]),
    "unknown key": text(*lines(colour="red")),
    "unknown status": text(*lines(status="fine")),
    "status before tool": text(BASE[0].replace('"tool"', '"status": "watch", "tool"'),
                               *BASE[1:]),
    "samples empty": text(*in_order(lines(samples=[]))),
    "samples after tool": text(BASE[0][:-1] + ', "samples": [1, 2]}', *BASE[1:]),
    "samples not numbers": text(*in_order(lines(samples=["1", 2]))),
    "samples negative": text(*in_order(lines(samples=[1, -2]))),
    "samples infinite": text(BASE[0].replace('"tool"', '"samples": [1, 1e999], "tool"'),
                             *BASE[1:]),
    "samples compact": text(BASE[0].replace('"tool"', '"samples": [1,2], "tool"'), *BASE[1:]),
    "samples over the limit": text(*in_order(lines(1, samples=[1] * (MAX_SAMPLES + 1)))),
    "stats": text(BASE[0][:-1] + ', "stats": {"mean": 10}}', *BASE[1:]),
    "missing key": text(BASE[0].replace(', "machine": "ci"', ""), *BASE[1:]),
    "not JSON": text(BASE[0][:-1], *BASE[1:]),
    "empty": "",
    "only blank lines": "\n\n",
}


Read = tuple[tuple[HistorySeries, ...], list[Problem]]


def load_both(root: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Read, Read]:
    """The files under `root` read as the build reads them, then by the line reader."""
    plain = history.load_history(root)
    with monkeypatch.context() as patched:
        patched.setattr(history, "plain_points", lambda text, lines: None)
        each = history.load_history(root)
    return plain, each


@pytest.mark.parametrize("name", [*PLAIN, *NOT_PLAIN])
def test_read_as_the_line_reader_reads_it(name: str, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The same series (points, each point's position) and the same problems, worded and
    placed alike, whichever reader read the file."""
    written = {**PLAIN, **NOT_PLAIN}[name]
    folder = tmp_path / "data" / "history"
    folder.mkdir(parents=True)
    (folder / "measurements.x.jsonl").write_bytes(written.encode("utf-8"))
    (series, problems), (each, their_problems) = load_both(tmp_path, monkeypatch)
    assert problems == their_problems
    assert series == each
    for one, other in zip(series, each, strict=True):
        assert [one.place(i) for i in range(len(one.points))] == [
            other.place(i) for i in range(len(other.points))]
        assert [one.place(i).of("machine") for i in range(len(one.points))] == [
            other.place(i).of("machine") for i in range(len(other.points))]


@pytest.mark.parametrize("name", PLAIN)
def test_plain_files_are_read_a_column_at_a_time(name: str) -> None:
    """What record and import write, and its near kin, take the column reader."""
    written = PLAIN[name].removeprefix("\ufeff")
    assert plain_points(written, written.splitlines()) is not None


def test_what_record_writes_is_plain() -> None:
    """A point as `record` and `import` write it (values as Decimals, a small one in
    exponent form) is read a column at a time."""
    written = text(*(line({**json.loads(x), "value": Decimal(v), "spread": Decimal("1E-7")})
                     for x, v in zip(BASE, ("10.5", "0.00001", "12", "1E+3", "0.25", "7.125"),
                                     strict=True)))
    found = plain_points(written, written.splitlines())
    assert found is not None
    assert [p.value for p in found[0]] == [10.5, 0.00001, 12.0, 1000.0, 0.25, 7.125]


@pytest.mark.parametrize("name", NOT_PLAIN)
def test_other_files_are_left_to_the_line_reader(name: str) -> None:
    """Any doubt (a file that is not plain, or plain but wrong) is the line reader's."""
    written = NOT_PLAIN[name]
    assert plain_points(written, written.splitlines()) is None
