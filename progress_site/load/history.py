"""data/history/KEY.jsonl: one benchmark's points, read with the position of every value.

The format is docs/history-format.md: one file a series, one JSON object a line, one line
a (commit, machine) pair, in date order. The file goes through the one regular-file
reader and the one JSON-lines reader every record file uses; each value is checked here,
every problem located at its line and column, all of them at once.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import repeat
from pathlib import Path

from progress_site.errors import Location, Problem
from progress_site.load.document import Document
from progress_site.load.files import BY_PARTS, inside, linked_below, source_files, unreadable_name
from progress_site.load.history_line import Day, LineReader, in_order, plain_point
from progress_site.load.history_plain import plain_points
from progress_site.load.jsonfiles import BROKEN, locate_line, located_later, parse_json_lines
from progress_site.load.text import decode, lines_of, read_text
from progress_site.model.history import HistorySeries, SeriesPoint
from progress_site.model.values import NOWHERE, Where

FOLDER = ("data", "history")
SUFFIX = ".jsonl"
NAME = re.compile(r"measurements\.([A-Za-z0-9][A-Za-z0-9_.-]*)\.jsonl")
# A series' page is published in `benchmarks/ID/`, beside the dashboard's own page: a
# series of this id asked for a folder where that file is ("cannot write the site: File
# exists", at the output, with a hint about the disk).
TAKEN = "index.html"


def history_paths(root: Path, edited: Mapping[Path, str]) -> list[Path]:
    """Every history file: those on disk and those an edit would write."""
    folder = root.joinpath(*FOLDER)
    extra = [p for p in edited if p.suffix == SUFFIX and p.parent == folder]
    return sorted({*source_files(folder, (SUFFIX,)), *extra}, key=BY_PARTS)


def load_history(root: Path, edited: Mapping[Path, str] | None = None
                 ) -> tuple[tuple[HistorySeries, ...], list[Problem]]:
    """Every series under data/history/, and every problem of their files."""
    edited = edited or {}
    found: list[HistorySeries] = []
    problems: list[Problem] = []
    # Whether the folder may lead out of the source, asked once for its files: a site of
    # 10,000 series asked the system about data/ and data/history/ for each of them.
    folder = root.joinpath(*FOLDER)
    safe = None if linked_below(folder, root) else folder
    cased: dict[str, HistorySeries] = {}  # each series by its key in one case
    for path in history_paths(root, edited):
        series, more = read_series(path, root, edited.get(path), safe, folder)
        problems += more
        if series is None:
            continue
        first = cased.setdefault(series.key.casefold(), series)
        if first is series:
            found.append(series)
        else:
            problems.append(case_twin(series, first))
    return tuple(found), problems


def case_twin(series: HistorySeries, first: HistorySeries) -> Problem:
    """A series whose id differs from another's in case alone: their pages are one
    folder on macOS and Windows (a checkout there holds one of the two files), so one
    page was published over the other."""
    ident, other = (s.key.removeprefix("measurements.") for s in (series, first))
    return Problem(Location(series.file), f"this series' id '{ident}' differs from "
                   f"'{other}' ({first.file}) in case alone: their pages, benchmarks/"
                   f"{ident}/ and benchmarks/{other}/, are one folder on macOS and Windows",
                   hint="rename the file and its measurement's id (say, measurements."
                        f"{ident.lower()}-2.jsonl), or merge the two series into one file")


def read_series(path: Path, root: Path, edited: str | None, safe: Path | None,
                folder: Path) -> tuple[HistorySeries | None, list[Problem]]:
    """One history file as a series (None when nothing of it can be used). `safe`: a
    folder no part of which leads out of the source (`linked_below`): a file right in it
    can only lead out by being a link itself. `folder`: data/history/ under `root`."""
    # The folder's path compared once a file, its name joined rather than worked out
    # again: an import's check reads 20,000 files, each path taken apart several times.
    in_folder = path.parent == folder
    display = f"{'/'.join(FOLDER)}/{path.name}" if in_folder else \
        path.relative_to(root).as_posix()
    checked = not in_folder or safe is None or path.is_symlink()
    problems = unreadable_name(display) or (inside(path, root, display) if checked else [])
    if problems:
        return None, problems
    name = NAME.fullmatch(path.name)
    if name is None or not in_folder:
        return None, [Problem(Location(display), "a history file is named after its figure's "
                              "key", hint="name it data/history/measurements.ID.jsonl, ID "
                              "being a measurement's id (letters, digits, '-', '_', '.')")]
    if name.group(1) == TAKEN:
        return None, [Problem(Location(display), f"a series named '{TAKEN}' would have its "
                              f"page at benchmarks/{TAKEN}/, where the dashboard's own page "
                              "is", hint="rename the file and its measurement's id (say, "
                              "measurements.index-page.jsonl)")]
    text, problems = read_text(path, display) if edited is None else decode(
        edited.encode("utf-8", "surrogatepass"), display)
    if text is None:
        return None, problems
    lines = lines_of(text)
    plain = plain_points(text, lines)
    if plain is not None:
        return _plain_series(name.group(1), display, lines, *plain), problems
    doc, problems = parse_json_lines(text, display, located=False)
    reader = _Lines(doc)
    points = reader.points()
    problems += reader.problems
    if doc.unread:  # the file is refused: none of it is used
        return None, doc.told(problems)
    # Only positions may still be asked of the file (a point's machine, when unknown):
    # its lines stay, the records read from them go.
    doc.data = None
    if not points:
        # A file whose lines were all refused has said why, each at its line.
        if not any(not p.warning for p in problems):
            problems.append(Problem(Location(display), "this history file has no point",
                                    hint="add one JSON object a line, or remove the file"))
        return None, problems
    return HistorySeries(f"measurements.{name.group(1)}", reader.reader.unit or "", tuple(points),
                         file=display, place=reader.place), problems


def _plain_series(ident: str, display: str, lines: list[str], points: list[SeriesPoint],
                  unit: str, keys: tuple[str, ...]) -> HistorySeries:
    """The series of a plain file (`load/history_plain.py`): a record a line, from the
    first column, each point's line found as the line reader finds it."""
    count = len(lines)
    starts = zip(range(1, count + 1), repeat(1))
    records = zip(repeat("records"), range(count))
    doc = located_later(Document(display, lines, None, dict(zip(records, starts, strict=True))))
    reader = _Lines(doc)
    reader.indexes = range(len(points))
    last = len(points) - 1
    points[last] = points[last]._replace(where=reader.where(last, keys))
    return HistorySeries(f"measurements.{ident}", unit, tuple(points), file=display,
                         place=reader.place)


class _Lines:
    """Reads a history file's records into points, in order, collecting every problem."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.reader = LineReader(doc)
        self.problems = self.reader.problems
        self.indexes: Sequence[int] = []  # each point's record

    def points(self) -> list[SeriesPoint]:
        """Every line that reads as a point; the order and duplicates checked. Reading
        stops (`doc.unread`) at MAX_SHOWN problems."""
        out: list[SeriesPoint] = []
        indexes: list[int] = []
        self.indexes = indexes
        last = -1  # the newest point's line: its figure needs every field's position
        newest = in_order(dt.date.min)
        seen: dict[tuple[str, str], int] = {}
        days: dict[str, Day | None] = {}  # each date text read once a file
        reader, places = self.reader, self.doc.values
        for index, record in enumerate(self.doc.data):
            if record is BROKEN:
                continue
            line = places[("records", index)][0]
            if self.doc.read_no_further(self.problems, line):  # before where parsing stopped
                break
            # Only the machine of an older point is ever reported (an unknown one), and
            # seldom: its position is found then (`place`). The newest point's every
            # position is found once the file is read.
            point = plain_point(record, reader.unit, days, NOWHERE)
            if point is None:
                point = reader.point(index, record, NOWHERE)
                if point is None:
                    continue
            elif reader.unit is None:
                reader.unit = record["unit"]
            pair = (point.commit, point.machine)
            if pair in seen:
                reader.error(index, "commit", f"commit '{point.commit}' on machine "
                             f"'{point.machine}' is already at line {seen[pair]}",
                             "one line per (commit, machine): add the new samples to that line")
                continue
            seen[pair] = line
            when = in_order(point.date)
            if out and when < newest:
                reader.error(index, "date", f"date {point.date.isoformat()} is before the "
                             f"previous line's ({out[-1].date.isoformat()})",
                             "lines are appended in date order: move this line up")
                continue
            out.append(point)
            indexes.append(index)
            last, newest = index, when
        if out:
            out[-1] = out[-1]._replace(where=self.where(last, self.doc.data[last]))
        return out

    def place(self, point: int) -> Where:
        """Where the line of the series' `point`-th point is; its machine found only if
        a problem asks."""
        return self.where(self.indexes[point], ("machine",))

    def where(self, index: int, keys: Iterable[str]) -> Where:
        """The line's position and each of its values' (`keys`: the line's, found when
        first asked)."""
        return Where(self.doc.locate(("records", index)), (), _Fields(self.doc, index, keys))


class _Fields(Mapping[str, Location]):
    """Where each value of a line (`keys`) is: the line is scanned only when a problem
    asks (a site of 20,000 one-line series scanned each line once a build)."""

    def __init__(self, doc: Document, index: int, keys: Iterable[str]) -> None:
        self.doc = doc
        self.index = index
        self.keys_ = tuple(keys)
        self.scanned = False

    def __getitem__(self, key: str) -> Location:
        if key not in self.keys_:
            raise KeyError(key)
        if not self.scanned:
            locate_line(self.doc, self.index)
            self.scanned = True
        return self.doc.locate(("records", self.index, key))

    def __contains__(self, key: object) -> bool:
        return key in self.keys_

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys_)

    def __len__(self) -> int:
        return len(self.keys_)
