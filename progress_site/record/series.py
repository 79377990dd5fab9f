"""One history file being edited (`data/history/measurements.ID.jsonl`): its lines as
read, the points to add or rewrite, and its text as it would be written; every line not
edited stays byte for byte, so the diff of an import is its added or changed lines."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from progress_site.errors import visible_path
from progress_site.load.history import Written
from progress_site.model.history import REQUIRED
from progress_site.record.history import Point, line, parse, series_point
from progress_site.record.recorder import Refused
from progress_site.record.yamledit import EditError
from progress_site.regular import read_regular

FOLDER = ("data", "history")


def series_path(root: Path, ident: str) -> Path:
    """Where the history of `measurements.ID` lives (its key is a safe file name)."""
    return root.joinpath(*FOLDER, series_name(ident))


def series_name(ident: str) -> str:
    """The name of the history file of `measurements.ID`."""
    return f"measurements.{ident}.jsonl"


def key(point: Point) -> tuple[str, str]:
    """What tells a series' points apart: their commit and machine."""
    return str(point["commit"]), str(point["machine"])


def date_of(point: Point) -> dt.date:
    """A point's day (a datetime counts by its day, as the reader orders them)."""
    return dt.date.fromisoformat(str(point["date"])[:10])


class SeriesFile:
    """The history of one series, opened for editing."""

    def __init__(self, path: Path, display: str, absent: bool = False) -> None:
        self.path = path
        self.display = display
        found = None if absent else self.read()  # absent: not in its folder's listing
        self.existed = found is not None  # whether writing it replaces a file
        self.text = found or ""
        self.lines = self.text.splitlines(keepends=True)
        # Each line's point as it would be written (None on a blank line), then the points
        # added after the last line; `edited`: the lines whose point is rewritten.
        self.points: list[Point | None] = [self.point(n, t) for n, t in enumerate(self.lines)]
        self.edited: set[int] = set()
        # Where each (commit, machine) is, and the first and last lines holding a point:
        # looked up for each point added, they were found by a walk of every point, and
        # importing a history of 5,000 commits took 23 s (100,000, hours).
        self.where: dict[tuple[str, str], int] = {}
        for n, p in enumerate(self.points):
            if p is not None:
                self.where.setdefault(key(p), n)
        held = [n for n, p in enumerate(self.points) if p is not None]
        self.ends = (held[0], held[-1]) if held else None

    def read(self) -> str | None:
        """The file's text, None for a series without one yet."""
        try:
            return read_regular(self.path).decode("utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            raise EditError(f"{self.display}: cannot read it: {exc}; fix or remove it, "
                            "then import again") from exc

    def point(self, number: int, text: str) -> Point | None:
        """A line's point (None for a blank line); one that is not a point is refused."""
        if not text.strip():
            return None
        try:
            found = parse(text.strip())
            missing = [k for k in REQUIRED
                       if k not in found]
            if missing:
                raise KeyError(f"no `{missing[0]}`")
            date_of(found)
        except (ValueError, KeyError, TypeError, RecursionError) as exc:
            raise Refused(f"{self.display}:{number + 1}: not a point of a history "
                          f"({visible_path(str(exc))}); fix the line (docs/history-format.md)"
                          ", then import again") from exc
        return found

    def at(self, index: int) -> Point:
        """The point at a line index, as it would be written."""
        found = self.points[index]
        assert found is not None  # an index of `where` or `ends`: a line with a point
        return found

    def unit(self) -> str | None:
        """The unit every line of the file has (its first line's)."""
        added = len(self.points) > len(self.lines)
        first = self.ends[0] if self.ends else len(self.lines) if added else None
        return None if first is None else str(self.at(first)["unit"])

    def find(self, point: Point) -> tuple[int, Point] | None:
        """The point of the file at a point's (commit, machine), if it has one."""
        index = self.where.get(key(point))
        return None if index is None else (index, self.at(index))

    def newest(self) -> tuple[int, Point] | None:
        """The last point, which the next one may not predate."""
        last = len(self.points) - 1 if len(self.points) > len(self.lines) else \
            self.ends[1] if self.ends else None
        return None if last is None else (last, self.at(last))

    def neighbours(self, index: int) -> tuple[Point | None, Point | None]:
        """The points before and after the one at a line index, in the file's order."""
        points = self.points
        before = (points[n] for n in range(index - 1, -1, -1) if points[n] is not None)
        after = (points[n] for n in range(index + 1, len(points)) if points[n] is not None)
        return next(before, None), next(after, None)

    def put(self, index: int | None, point: Point) -> None:
        """Rewrite the point at a line index, or add one after the last."""
        if index is None:
            self.points.append(point)
            index = len(self.points) - 1
        else:
            self.points[index] = point
        if index < len(self.lines):
            self.edited.add(index)
        self.where.setdefault(key(point), index)

    def count(self) -> int:
        """How many points the file would hold."""
        return sum(p is not None for p in self.points)

    @property
    def changed(self) -> bool:
        """Whether anything is to be written."""
        return bool(self.edited) or len(self.points) > len(self.lines)

    def result(self) -> str:
        """The file's text with its edits: changed lines in place, new ones at the end."""
        ending = "\r\n" if self.text.endswith("\r\n") else "\n"
        out = []
        for n, text in enumerate(self.lines):
            if n in self.edited:
                text = line(self.at(n)) + (text[len(text.rstrip("\r\n")):] or ending)
            out.append(text)
        if out and not out[-1].endswith("\n"):
            out[-1] += ending
        added = [self.at(n) for n in range(len(self.lines), len(self.points))]
        out += [line(p) + ending for p in added]
        if self.lines:
            return "".join(out)
        # A file of the writer's points alone: the check takes them with the text.
        return Written("".join(out), map(series_point, added))
