"""A history file as CI writes it, read a column at a time: one pattern over the whole
text, then each column checked and converted at once (a map, a set, a sort check).

A plain file is what `import` and `record` write (docs/history-format.md): every line
one object of the known keys in their order (commit, date, machine, value, unit, then
maybe spread, n, samples, tool and status), no escape, no blank or indented line, no
key twice (the keys are the pattern's own words), dates in order, one unit, no (commit,
machine) twice. Such a file gives the very points the line-by-line reader would, and has
no problem to word. Any other file, or any doubt, is None here: `load/history.py` reads
it line by line and words each problem, so the messages keep one source.
"""

from __future__ import annotations

import datetime as dt
import math
import operator
import re
import sys
from collections.abc import Iterator, Sequence
from itertools import repeat
from typing import Any

from progress_site.load.history_line import Day, day_of
from progress_site.model.history import MAX_SAMPLES, NO_STATS, SeriesPoint, with_iqr
from progress_site.model.limits import MAX_DATA_TEXT
from progress_site.model.values import NOWHERE

# The two forms of a date `parse_date` reads, in ASCII digits: their texts sort as their
# days and times do.
_DATE = r'"([0-9]{4}-[0-9]{2}-[0-9]{2}(?:T[0-9]{2}:[0-9]{2}:[0-9]{2}Z)?)"'
# A text with no escape and no control character: JSON reads it as written. One holding a
# line separator (U+2028, valid in a JSON string) and empty texts are left to the line
# reader, which words them.
_TEXT = r'"([^"\\\x00-\x1f\x85\u2028\u2029]*)"'
# A word longer than a text of the data may be (MAX_DATA_TEXT) is the line reader's too.
_WORD = r'"([^"\\\x00-\x1f\x85\u2028\u2029]{1,' + str(MAX_DATA_TEXT) + '})"'
# A JSON number without a sign, as `float` reads it; a whole number short enough that
# JSON reads it as an int (model/limits.MAX_DIGITS), a count of readings from 1.
_READING = r"(?:0|[1-9][0-9]{0,19})(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"
_NUMBER = f"({_READING})"
_COUNT = r"([1-9][0-9]{0,17})"
# A tool's readings as `import` writes them: a list of such numbers, kept as one text
# (split into numbers once the whole file matched). An empty list is the line reader's.
_SAMPLES = f"\\[({_READING}(?:, {_READING})*)\\]"
_STATUS = '"(measured|watch)"'


# The keys every plain line holds, then those it may (the pattern's groups after the
# first five, in their order).
_ALWAYS = ("commit", "date", "machine", "value", "unit")
_OPTIONAL = ("spread", "n", "samples", "tool", "status")


def _field(key: str, value: str, first: bool = False) -> str:
    """`"key": value`, after a comma unless it is the line's first: the separators
    `record` and json.dumps write (a line spaced otherwise is the line reader's)."""
    return ("" if first else ", ") + f'"{key}": {value}'


PLAIN_LINE = re.compile(
    "^\\{" + _field("commit", _WORD, True) + _field("date", _DATE)
    + _field("machine", _WORD) + _field("value", _NUMBER) + _field("unit", _TEXT)
    + f"(?:{_field('spread', _NUMBER)})?(?:{_field('n', _COUNT)})?"
    + f"(?:{_field('samples', _SAMPLES)})?(?:{_field('tool', _WORD)})?"
    + f"(?:{_field('status', _STATUS)})?\\}}\\r?$", re.MULTILINE)


def plain_points(text: str, lines: list[str], made: Sequence[SeriesPoint] | None = None
                 ) -> tuple[list[SeriesPoint], str, tuple[str, ...]] | None:
    """Every point of a plain file, its unit and its last line's keys (which the newest
    point's figure locates); None for any other file. `made`: the points the writer of
    the text made it from (`load.history.Written`), taken rather than read again once the
    text is judged plain."""
    found = PLAIN_LINE.findall(text)
    # Each match is one whole line (no character of one ends a line), so as many
    # matches as lines means every line matched.
    if not found or len(found) != len(lines):
        return None
    (commits, dates, machines, values, units, spreads, counts, samples, tools,
     statuses) = zip(*found, strict=True)
    unit = units[0]
    # The pattern's dates sort as text as they do in time (a day before its times), so
    # texts in order are days in order; any other order is the line reader's to judge.
    if (units.count(unit) != len(units) or not (unit == "" or unit.strip())
            or not all(map(operator.le, dates, dates[1:]))
            or not all(map(str.strip, commits)) or not all(map(str.strip, set(machines)))
            or not all(map(str.strip, set(tools) - {""}))
            or _repeated(commits, machines)):
        return None
    if made is not None:  # its dates as the text's are read (a day that is none, refused)
        return None if _days(dates) is None else _made(made, found, unit)
    days = _days(dates)
    numbers = list(map(float, values))
    spread = _column(spreads, float)
    readings = _readings(samples)
    if (days is None or readings is None or not _finite(numbers)
            or not _finite([x for x in spread if x])):
        return None
    # Each machine and tool text once in memory, not once a line; each point made from
    # its tuple of fields in one call (SeriesPoint._make is a Python call a point). No
    # stats: quartiles (`iqr`) only of a point with readings.
    fields = zip(
        commits, days, map(sys.intern, machines), numbers, spread, _column(counts, int),
        repeat(NO_STATS), readings,
        [sys.intern(t) if t else None for t in tools] if any(tools) else repeat(None),
        [s or "measured" for s in statuses] if any(statuses) else repeat("measured"),
        repeat(None), repeat(None), repeat(NOWHERE))
    points: list[SeriesPoint] = list(map(tuple.__new__, repeat(SeriesPoint), fields))
    if any(samples):
        points = [with_iqr(p) if p.samples else p for p in points]
    return points, unit, _keys(found[-1])


def _made(points: Sequence[SeriesPoint], found: list[tuple[str, ...]], unit: str
          ) -> tuple[list[SeriesPoint], str, tuple[str, ...]] | None:
    """A writer's points, refused as the numbers of their text would be (too many
    readings, or one not finite: the line reader words that)."""
    readings = [p.samples for p in points]
    if (len(points) != len(found) or max(map(len, readings)) > MAX_SAMPLES
            or not _finite([p.value for p in points])
            or not _finite([p.spread for p in points if p.spread])
            or not all(map(_finite, readings))):
        return None
    return list(points), unit, _keys(found[-1])


def _readings(texts: tuple[str, ...]) -> list[tuple[float, ...]] | Iterator[tuple[()]] | None:
    """Each line's samples (none where it writes none); None if a list is too long or a
    reading is not finite: the line reader words that."""
    if not any(texts):
        return repeat(())
    out = [tuple(map(float, t.split(", "))) if t else () for t in texts]
    if max(map(len, out)) > MAX_SAMPLES or not all(map(_finite, out)):
        return None
    return out


def _repeated(commits: tuple[str, ...], machines: tuple[str, ...]) -> bool:
    """Whether a (commit, machine) pair is written twice."""
    if len(set(machines)) == 1:  # most files: one machine, and its commits each once
        return len(set(commits)) != len(commits)
    return len(set(zip(commits, machines, strict=True))) != len(commits)


def _days(texts: tuple[str, ...]) -> list[Day] | None:
    """Each date text read (as `parse_date` reads it); None if one is no date."""
    try:
        if set(map(len, texts)) == {10}:
            return list(map(dt.date.fromisoformat, texts))
    except ValueError:
        return None
    days: dict[str, Day | None] = {}
    read = [day_of(t, days) for t in texts]
    return None if None in days.values() else read  # type: ignore[return-value]


def _column(texts: tuple[str, ...], read: Any) -> list[Any]:
    """An optional column read: None where a line leaves the key out."""
    if all(texts):
        return list(map(read, texts))
    if not any(texts):
        return [None] * len(texts)
    return [read(t) if t else None for t in texts]


def _finite(numbers: Sequence[float]) -> bool:
    """Every number finite (none is negative: the pattern writes no sign)."""
    return not numbers or max(numbers) < math.inf


def _keys(found: tuple[str, ...]) -> tuple[str, ...]:
    """The keys of a line, in its order, from its match: the pattern's words it holds."""
    return (*_ALWAYS, *(key for key, text in zip(_OPTIONAL, found[5:], strict=True) if text))
