"""Where a result's values were written in its tool's JSON, so that what is wrong past
the shape (a number no page can print, a negative time, readings that do not pair) is
told at the value at fault, as a mistake of structure is.

A result keeps, for each of its values, the file and the key path it came from
(`Places`); the text is walked again only when a problem asks (`shape.located`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from progress_site.errors import KeyPath, Problem
from progress_site.record.importers.shape import located


@dataclass(frozen=True, eq=False)
class ToolFile:
    """A tool's JSON file as read: its name in messages, its text, where its JSON begins
    (a data.js's past its assignment)."""

    display: str
    text: str
    start: int = 0

    def problems(self, path: KeyPath, message: str, hint: str) -> list[Problem]:
        """A problem at the value `path` names, with its line shown."""
        return located([(path, message)], self.text, self.start, self.display, hint)


Place = tuple[ToolFile, KeyPath]  # a value's file, and its key path there
# A result's values by what the checks name them: a statistic by our name ("mean"), the
# readings ("samples", each an index below; or "samples[3]" when they lie apart), "runs",
# "title", "machine", "commit", "facts", and "" for the benchmark itself.
Places = Mapping[str, Place]
NOWHERE: Places = MappingProxyType({})


def place_of(places: Places, key: str, index: int | None = None) -> Place | None:
    """Where a value of a result was written: its own place, else the benchmark's."""
    if index is not None and f"{key}[{index}]" in places:
        return places[f"{key}[{index}]"]
    if key in places:
        tool_file, path = places[key]
        return tool_file, path if index is None else (*path, index)
    return places.get("")


class Under(Mapping[str, Place]):
    """The places of one object's values, made only when a message asks: `keys` (a table
    the format shares) maps our name of each value to the tool's key in the object at
    `path`; `""` is the object; `more` holds places elsewhere (the entry's commit).
    One of these a result costs a few references: a dict of every place, made for each
    result of a large file and read for none, cost more than its numbers' checks."""

    __slots__ = ("_file", "_keys", "_more", "_path")

    def __init__(self, tool_file: ToolFile, path: KeyPath, keys: Mapping[str, str],
                 more: Places = NOWHERE) -> None:
        self._file, self._path, self._keys, self._more = tool_file, path, keys, more

    def __getitem__(self, key: str) -> Place:
        if key in self._more:
            return self._more[key]
        if key == "":
            return self._file, self._path
        return self._file, (*self._path, self._keys[key])

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys(["", *self._keys, *self._more]))

    def __len__(self) -> int:
        return sum(1 for _ in self)
