"""Small value types that the data format is made of: texts in several languages, numbers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from progress_site.errors import Location, Problem


@dataclass(frozen=True, slots=True)
class Text:
    """Words in each language ({en: ..., fr: ...}), or one string for every language."""

    by_language: tuple[tuple[str, str], ...]
    neutral: bool = False
    # The key of the record whose names its `{{ references }}` may cite without their
    # prefix (`{{ ratio }}` in a comparison): given while deriving, for texts that cite.
    scope: str = ""

    def get(self, language: str, fallback: str = "en") -> str:
        """The text in `language`, else in the fallback language, else any (words that are
        empty count as none)."""
        pairs = self.by_language
        if self.neutral:
            return pairs[0][1]
        # A loop over the few pairs: every text printed in every language asks, and a
        # dict made of them for each would cost more than the look-up.
        found = fallen = ""
        for lang, words in pairs:
            if lang == language:
                found = words
            elif lang == fallback:
                fallen = words
        return found or fallen or (pairs[0][1] if pairs else "")


@dataclass(frozen=True, slots=True)
class Number:
    """A number as the data wrote it: the value and how many decimals were typed."""

    value: float
    decimals: int = 0

    @classmethod
    def of(cls, value: float, raw: str | None = None) -> Number:
        """A number, keeping the decimals of its written form (`6.40` keeps two)."""
        decimals = 0
        if raw is not None:
            text = raw.strip().lower().replace("_", "")
            if "e" not in text and "." in text:
                decimals = len(text.split(".", 1)[1])
        return cls(float(value), decimals)

    def __float__(self) -> float:
        return self.value


@dataclass(frozen=True, slots=True)
class Where:
    """Where a record was written: its own position and each of its fields'."""

    location: Location = field(default_factory=lambda: Location(""))
    path: tuple[str | int, ...] = ()
    fields: Mapping[str, Location] = field(default_factory=dict)

    def of(self, name: str) -> Location:
        """The location of one field, or of the record when the field is absent."""
        return self.fields.get(name, self.location)


NOWHERE = Where()


def text_problem(where: Where, name: str, text: str, offset: int, message: str,
                 hint: str = "", index: int | None = None) -> Problem:
    """A problem at a character of a field's text (an expression's), or of its item
    `index`, where it can be found; else at the field (a record made by the build)."""
    within = getattr(where.fields, "within", None)
    if within is None or name not in where.fields:
        return problem(where, name, message, hint)
    path = (*where.path, name) if index is None else (*where.path, name, index)
    return Problem(within(name, text, offset, index), message, path, hint)


def problem(where: Where, name: str, message: str, hint: str = "") -> Problem:
    """A problem at one field of a record (at the record, when the field is absent)."""
    loc = where.of(name)
    path = (*where.path, name) if name in where.fields else where.path
    return Problem(loc, message, path, hint)


def plain(value: Any) -> Any:
    """A JSON-ready form of a model value (for data.json and cache keys)."""
    if isinstance(value, Text):
        return dict(value.by_language) if not value.neutral else value.by_language[0][1]
    if isinstance(value, Number):
        return int(value.value) if value.value.is_integer() and not value.decimals else value.value
    return value
