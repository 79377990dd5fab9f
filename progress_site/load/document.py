"""One parsed data file (YAML or JSON): its values, where each key and value was written,
how each number was written, and the problems located in it."""

from __future__ import annotations

from collections.abc import Callable, Sequence, Sized
from dataclasses import dataclass, field
from typing import Any, overload

from progress_site.errors import MAX_SHOWN, KeyPath, Location, Problem

Positions = dict[KeyPath, tuple[int, int]]


class Lines(Sequence[str]):
    """A text's lines, split only when a message first quotes one: most files have no
    problem, and their text is kept anyway (watch mode remembers parses by it)."""

    __slots__ = ("_lines", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._lines: list[str] | None = None

    def _split(self) -> list[str]:
        """The lines, split once."""
        if self._lines is None:
            self._lines = self._text.splitlines()
        return self._lines

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        return self._split()[index]

    def __len__(self) -> int:
        return len(self._split())


@dataclass(slots=True)
class Document:
    """One parsed file: its values, and where each key path was written."""

    display: str  # the path as errors print it, relative to the source folder
    lines: Sequence[str]
    data: Any = None
    values: Positions = field(default_factory=dict)
    keys: Positions = field(default_factory=dict)
    raw: dict[KeyPath, str] = field(default_factory=dict)  # how each number was written
    # The first line not read, when its reader stopped at MAX_SHOWN problems
    # (`read_no_further`); else 0.
    unread: int = 0
    # Set when `values` holds only where each mapping (or JSON line) starts and `keys`
    # nothing: it gives every position, which only a problem asks for.
    reread: Callable[[], tuple[Positions, Positions]] | None = field(
        default=None, compare=False, repr=False)

    def every_position(self) -> None:
        """Find every value's and key's position now, if only some were kept."""
        if self.reread is not None:
            (self.values, self.keys), self.reread = self.reread(), None

    def locate(self, path: KeyPath, *, key: bool = False, reread: bool = True) -> Location:
        """Location of a value (or of its key), falling back to the nearest parent; with
        `reread=False`, among the positions found so far."""
        table = self.keys if key else self.values
        if path not in table and self.reread is not None and reread:
            self.every_position()
            table = self.keys if key else self.values
        probe = path
        while probe and probe not in table:
            probe = probe[:-1]
        return Location(self.display, *table.get(probe, self.values.get((), (0, 0))))

    def line(self, number: int) -> str:
        """The source text of a 1-based line number."""
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""

    def problem(self, path: KeyPath, message: str, hint: str = "", *, key: bool = False,
                warning: bool = False) -> Problem:
        """A problem located at a key path of this document."""
        loc = self.locate(path, key=key)
        return Problem(loc, message, path, hint, self.line(loc.line), warning)

    def read_no_further(self, problems: Sized, at: int | KeyPath) -> bool:
        """Whether its reader stops before `at` (a line, or a key path's), the file's
        `problems` being MAX_SHOWN: reading on would only find problems no one is shown.
        Every reader of a file asks it before each record; `told` says where it stopped."""
        if len(problems) < MAX_SHOWN:
            return False
        self.unread = at if isinstance(at, int) else self.locate(at).line
        return True

    def told(self, problems: list[Problem]) -> list[Problem]:
        """The file's `problems` as they are told: every one; when its reader stopped
        (`unread`), those before that line (fewer than MAX_SHOWN: before the line of the
        first one past them), then one saying so."""
        if not self.unread:
            return problems
        line = self.unread
        kept = [p for p in sorted(problems, key=Problem.sort_key) if p.location.line < line]
        if len(kept) >= MAX_SHOWN:
            line = kept[MAX_SHOWN - 1].location.line
            kept = [p for p in kept if p.location.line < line]
        return [*kept, Problem(Location(self.display, line, 1), "stopped reading this file "
                               f"here, after {len(kept):,} problems", (), "fix those first, "
                               "then build again: the rest of the file is checked then",
                               self.line(line))]
