"""Where each field of a record was written, found only when a message asks."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from progress_site.errors import KeyPath, Location
from progress_site.load.document import Document


class Places(Mapping[str, Location]):
    """Where each key of a mapping has its value, looked up only when asked for.

    A record remembers where each of its fields was written, for errors found later;
    few records ever need one, and a Location made for every field of every record is
    memory a large site holds for nothing (see bench/scale.py)."""

    __slots__ = ("_doc", "_names", "_path")

    def __init__(self, doc: Document, path: KeyPath, names: Mapping[str, Any]) -> None:
        self._doc = doc
        self._path = path
        self._names = names  # the mapping as written: its keys are the fields given

    def __getitem__(self, name: str) -> Location:
        if name not in self._names:
            raise KeyError(name)
        return self._doc.locate((*self._path, name))

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def item(self, name: str, index: int | str) -> Location:
        """Where one item of a list field (`summarises[1]`), or one language of a text
        (`footer.fr`), was written."""
        return self._doc.locate((*self._path, name, index))

    def within(self, name: str, text: str, offset: int, index: int | None = None
               ) -> Location:
        """Where the character at `offset` of a field's text (or of one item of it) is,
        when the text stands as written on its line (plain or quoted, without escapes);
        else the field's place."""
        at = self[name] if index is None else self.item(name, index)
        line = self._doc.line(at.line)
        start = at.column - 1 + (line[at.column - 1:at.column] in ("'", '"'))
        if line[start:start + len(text)] != text:
            return at  # a block scalar, a folded or escaped text: its start will do
        return Location(at.file, at.line, start + offset + 1)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)
