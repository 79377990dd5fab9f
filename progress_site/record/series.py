"""One history file being edited (`data/history/measurements.ID.jsonl`): its lines as
read, the points to add or rewrite, and its text as it would be written; every line not
edited stays byte for byte, so the diff of an import is its added or changed lines."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from progress_site.errors import visible_path
from progress_site.model.history import REQUIRED
from progress_site.record.history import Point, line, parse
from progress_site.record.recorder import Refused
from progress_site.record.yamledit import EditError
from progress_site.regular import read_regular

FOLDER = ("data", "history")


def series_path(root: Path, ident: str) -> Path:
    """Where the history of `measurements.ID` lives (its key is a safe file name)."""
    return root.joinpath(*FOLDER, f"measurements.{ident}.jsonl")


def date_of(point: Point) -> dt.date:
    """A point's day (a datetime counts by its day, as the reader orders them)."""
    return dt.date.fromisoformat(str(point["date"])[:10])


class SeriesFile:
    """The history of one series, opened for editing."""

    def __init__(self, path: Path, display: str) -> None:
        self.path = path
        self.display = display
        self.text = self.read()
        self.lines = self.text.splitlines(keepends=True)
        self.points: list[Point | None] = [self.point(n, t) for n, t in enumerate(self.lines)]
        self.edited: dict[int, Point] = {}
        self.added: list[Point] = []

    def read(self) -> str:
        """The file's text, '' for a series without one yet."""
        try:
            return read_regular(self.path).decode("utf-8")
        except FileNotFoundError:
            return ""
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

    def current(self) -> list[tuple[int, Point]]:
        """Every point as it would be written, with its line index (added ones last)."""
        now = [(n, self.edited.get(n, p)) for n, p in enumerate(self.points) if p is not None]
        return now + [(len(self.lines) + i, p) for i, p in enumerate(self.added)]

    def unit(self) -> str | None:
        """The unit every line of the file has (its first line's)."""
        points = self.current()
        return str(points[0][1]["unit"]) if points else None

    def find(self, commit: str, machine: str) -> tuple[int, Point] | None:
        """The point of a (commit, machine) pair, if the file has it."""
        return next(((n, p) for n, p in self.current()
                     if str(p["commit"]) == commit and str(p["machine"]) == machine), None)

    def newest(self) -> tuple[int, Point] | None:
        """The last point, which the next one may not predate."""
        points = self.current()
        return points[-1] if points else None

    def put(self, index: int | None, point: Point) -> None:
        """Rewrite the point at a line index, or add one after the last."""
        if index is None:
            self.added.append(point)
        elif index >= len(self.lines):
            self.added[index - len(self.lines)] = point
        else:
            self.edited[index] = point

    def count(self) -> int:
        """How many points the file would hold."""
        return len(self.current())

    @property
    def changed(self) -> bool:
        """Whether anything is to be written."""
        return bool(self.edited or self.added)

    def result(self) -> str:
        """The file's text with its edits: changed lines in place, new ones at the end."""
        ending = "\r\n" if self.text.endswith("\r\n") else "\n"
        out = []
        for n, text in enumerate(self.lines):
            if n in self.edited:
                text = line(self.edited[n]) + (text[len(text.rstrip("\r\n")):] or ending)
            out.append(text)
        if out and not out[-1].endswith("\n"):
            out[-1] += ending
        out += [line(p) + ending for p in self.added]
        return "".join(out)
