"""Check parsed YAML against the declared format and build the typed records."""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import math
import re
from types import MappingProxyType
from typing import Any

from babel import Locale, UnknownLocaleError

from progress_site.characters import blank
from progress_site.errors import KeyPath, Problem, closest, did_you_mean
from progress_site.load.document import Document
from progress_site.load.places import Places
from progress_site.load.wording import (
    QUOTE_HINT,
    comma_split_words,
    describe,
    found,
    number_hint,
    quoted,
    shown,
    unmeasurable,
)
from progress_site.model.declare import declared, fields, hints
from progress_site.model.limits import LARGEST, MAX_UNKNOWN, too_long
from progress_site.model.values import Number, Text, Where

INVALID: Any = object()  # a value that could not be read; its problem is already recorded

# A language code as a maintainer reads it, in a message (the code itself otherwise).
LANGUAGE_NAMES = MappingProxyType({"en": "English", "fr": "French", "de": "German",
                                   "es": "Spanish"})


def known_language(code: str) -> bool:
    """A language code Babel knows; codes also name folders, so only letters and '_'."""
    if not re.fullmatch(r"[a-z]{2,3}(?:_[A-Za-z0-9]{2,8})*", code):
        return False
    try:
        Locale.parse(code)
    except (ValueError, UnknownLocaleError):
        return False
    return True


# The reader of each plain type, by its method name on Converter.
_READERS = MappingProxyType({str: "text_value", int: "whole", bool: "boolean",
                             dt.date: "date", Number: "number", Text: "text"})


@functools.cache
def plan(tp: Any) -> tuple[str, Any, bool]:
    """How to read a declared type (`declare.declared`): the reader, what it reads (an
    item type, the choices, a record class), and whether null is a value of it."""
    kind, arg, optional = declared(tp)
    if kind in ("value", "plain", "other"):
        kind, arg = (_READERS[arg], None) if arg in _READERS else ("record", arg)
    return kind, arg, optional


@functools.cache
def declared_fields(cls: type) -> dict[str, dataclasses.Field[Any]]:
    """A record class's fields a user writes, by name."""
    return {f.name: f for f in fields(cls)}


# How each field of a record class is read: its name; what to say when it is missing
# (None when it may be left out); whether `null` is a value of it (an optional type);
# the plan of the type read otherwise.
FieldPlan = tuple[str, str | None, bool, str, Any]


@functools.cache
def field_plans(cls: type) -> tuple[FieldPlan, ...]:
    """The plan of every field of a record class, worked out once: reading a record
    then hashes no type (a `Text | None` hashes its arguments every time)."""
    out = []
    for name, fld in declared_fields(cls).items():
        missing = None
        if fld.default is dataclasses.MISSING:
            doc = fld.metadata.get("doc")
            missing = f"missing key '{name}'" + (f" ({doc})" if doc else "")
        kind, arg, optional = plan(hints(cls)[name])
        out.append((name, missing, optional, kind, arg))
    return tuple(out)


class Converter:
    """Converts one document's values, collecting every problem instead of stopping."""

    def __init__(self, doc: Document, languages: tuple[str, ...], strict: bool) -> None:
        self.doc = doc
        self.languages = languages
        self.strict = strict
        self.problems: list[Problem] = []

    def error(self, path: KeyPath, message: str, hint: str = "", *, key: bool = False) -> Any:
        """Record a problem and return INVALID, so callers can `return self.error(...)`."""
        self.problems.append(self.doc.problem(path, message, hint, key=key))
        return INVALID

    def convert(self, tp: Any, value: Any, path: KeyPath) -> Any:
        """A value of type `tp`, or INVALID with a problem recorded."""
        kind, arg, optional = plan(tp)
        if optional and value is None:
            return None
        return self.read(kind, arg, value, path)

    def read(self, kind: str, arg: Any, value: Any, path: KeyPath) -> Any:
        """A value of a type planned as (`kind`, `arg`), not optional."""
        if kind == "sequence":
            return self.sequence(arg, value, path)
        if kind == "choice":
            return self.choice(arg, value, path)
        if kind == "record":
            return self.record(arg, value, path)
        return getattr(self, kind)(value, path)

    def expected(self, tp: Any, value: Any, path: KeyPath, hint: str = "") -> Any:
        """The usual 'expected X, got Y' problem."""
        return self.error(path, f"expected {describe(tp)}, got {found(value)}", hint)

    def sequence(self, item: Any, value: Any, path: KeyPath) -> Any:
        """A list, each item converted; bad items are dropped after being reported."""
        if not isinstance(value, list):
            return self.expected(tuple[item, ...], value, path, "start each item with '- '")
        items = []
        for i, v in enumerate(value):
            if self.doc.unread or self.doc.read_no_further(self.problems, (*path, i)):
                return INVALID
            items.append(self.convert(item, v, (*path, i)))
        if any(i is INVALID for i in items):
            return INVALID
        return tuple(items)

    def choice(self, options: tuple[Any, ...], value: Any, path: KeyPath) -> Any:
        """One of a fixed set of words."""
        if value in options:
            return value
        hint = did_you_mean(str(value), map(str, options), otherwise="")
        if value == "over-limit":
            hint = "'over the limit' is derived: give the figure a `limit:` and the build marks it"
        if options == ("times",):  # a headline's stated number: a ratio, or bare
            hint = ("a stated number prints bare, or as 2.5× with `unit: times`: leave "
                    "`unit:` out and say what it counts in `label:`, or show a figure with "
                    "its unit (`figure: measurements.ID`)")
        return self.error(path, f"expected one of {', '.join(map(str, options))}; "
                                f"got {found(value)}", hint)

    def text_value(self, value: Any, path: KeyPath) -> Any:
        """A plain string; a bare number (a commit like 1234567) keeps its written form.
        An id is never empty: it names its record (a figure's key is made of ids)."""
        if value == "" and path[-1:] == ("id",):
            return self.error(path, "an id cannot be empty", "write a word: letters, "
                              "digits, '-', '_' and '.'")
        if isinstance(value, str):
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return self.doc.raw.get(path, str(value))
        return self.expected(str, value, path, "" if isinstance(value, (list, dict)) or
                             value is None else QUOTE_HINT)

    def whole(self, value: Any, path: KeyPath) -> Any:
        """A whole number (not true/false)."""
        if isinstance(value, int) and not isinstance(value, bool):
            if abs(value) > LARGEST:
                return self.error(path, f"{shown(value)} is too large", "check the number of "
                                                                        "digits")
            return value
        return self.expected(int, value, path, "write the number alone, without quotes")

    def boolean(self, value: Any, path: KeyPath) -> Any:
        """true or false."""
        return value if isinstance(value, bool) else self.expected(bool, value, path)

    def date(self, value: Any, path: KeyPath) -> Any:
        """A calendar date (YAML reads 2026-11-08 as one)."""
        if isinstance(value, dt.datetime):
            return self.expected(dt.date, value, path, "write the date alone, without a time")
        if isinstance(value, dt.date):
            return value
        return self.expected(dt.date, value, path, "write it as YYYY-MM-DD, without quotes")

    def number(self, value: Any, path: KeyPath) -> Any:
        """A finite number; the decimals typed are kept for display."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return self.expected(Number, value, path, number_hint(value))
        if isinstance(value, float) and not math.isfinite(value):
            return self.error(path, f"expected a finite number, got {found(value)}",
                              "a figure that could not be measured has status: not-judgeable")
        raw = self.doc.raw.get(path)
        wrong = unmeasurable(value, raw)
        return Number.of(value, raw) if wrong is None else self.error(path, *wrong)

    def text(self, value: Any, path: KeyPath) -> Any:
        """Words for every language: one string, or a mapping of language to string."""
        if isinstance(value, str):
            return self.sized(Text((("*", value),), neutral=True), path)
        if not isinstance(value, dict):
            return self.expected(Text, value, path, "" if isinstance(value, list) or value is None
                                 else QUOTE_HINT)
        bad = False
        for lang, words in value.items():
            # A language the site does not publish (now): its words wait; but not one a
            # slip away from a language this text lacks (`fra:` for `fr:`), whose words
            # would be dropped.
            close = closest(lang, self.languages) if lang not in self.languages else None
            if lang not in self.languages and known_language(lang) and (
                    close is None or close in value):
                continue
            if lang not in self.languages:
                hint = did_you_mean(lang, self.languages, otherwise="the site's languages "
                                    "are " + ", ".join(self.languages))
                split = comma_split_words(value, lang)
                if split is not None:
                    hint = (f"YAML read '{lang}' as a key: a comma ends the words inside "
                            f"`{{...}}`; put them in quotes: {split[0]}: {quoted(split[1])}")
                bad = self.error((*path, lang), f"unknown language '{lang}'", hint, key=True)
            elif not isinstance(words, str):
                bad = self.expected(str, words, (*path, lang))
        if bad is INVALID:
            return INVALID
        # A language the text has no words in: a warning, an error in --strict.
        for lang in self.languages:
            if lang not in value:
                self.problems.append(self.doc.problem(
                    path, f"no {LANGUAGE_NAMES.get(lang, lang)} text ({lang}:)",
                    f"add `{lang}: ...` beside `{next(iter(value), 'en')}:`",
                    warning=not self.strict))
        return self.sized(Text(tuple((lang, value[lang]) for lang in self.languages
                                     if lang in value)), path)

    def sized(self, text: Text, path: KeyPath) -> Any:
        """`text`, or INVALID when words of it are longer than MAX_DATA_TEXT: Markdown
        renders each of them, and a page (content/) is the place of a long text."""
        long = [(lang, wrong) for lang, words in text.by_language
                if (wrong := too_long(words)) is not None]
        for lang, wrong in long:
            self.error(path if text.neutral else (*path, lang), *wrong)
        return INVALID if long else text

    def blank_words(self, text: Text, path: KeyPath) -> bool:
        """Whether a required text shows no word in a language (blanks and invisible
        characters alone), told at it: a title of none heads nothing a reader can see."""
        # Words left empty in one language fall back to another's (Text.get): blanks do not.
        blanks = [(lang, words) for lang, words in text.by_language if blank(words)]
        every = len(blanks) == len(text.by_language)
        empty = [(lang, words) for lang, words in blanks if words or every]
        for lang, words in empty:
            self.error(path if text.neutral else (*path, lang), f"{words!r} shows no word, "
                       "and this text is required", "write it in a few words")
        return bool(empty)

    def split_number(self, value: dict[str, Any], key: str, path: KeyPath) -> str:
        """`1,383` as written, when `key` is the `383` that a comma in `{value: 1,383}`
        split off a number as a key of its own; '' otherwise."""
        keys = list(value)
        at = keys.index(key)
        parts = [key]
        while at > 0 and re.fullmatch(r"\d{3}", keys[at]) and value[keys[at]] is None:
            at -= 1
            parts.insert(0, keys[at])
        number = self.doc.raw.get((*path, keys[at]))
        if number is None or len(parts) < 2 or not re.fullmatch(r"[+-]?\d{1,3}", number):
            return ""
        return ",".join([number, *parts[1:]])

    def record(self, cls: type, value: Any, path: KeyPath) -> Any:
        """A record: known keys only, required keys present, every field converted."""
        if not isinstance(value, dict):
            return self.expected(cls, value, path)
        declared = declared_fields(cls)
        unknown = [key for key in value if key not in declared]
        ok = not unknown
        for key in unknown[:MAX_UNKNOWN]:
            hint = did_you_mean(key, declared, "known keys")
            number = self.split_number(value, key, path)
            if number:
                hint = (f"YAML read '{number}' as two entries (a comma separates the "
                        "keys of `{...}`): write the number without a thousands "
                        f"separator: {number.replace(',', '')}")
            self.error((*path, key), f"unknown key '{key}'", hint, key=True)
        if len(unknown) > MAX_UNKNOWN:
            self.error(path, f"and {len(unknown) - MAX_UNKNOWN:,} more unknown keys",
                       "known keys: " + ", ".join(declared))
        args: dict[str, Any] = {}
        for name, missing, optional, kind, arg in field_plans(cls):
            if name not in value:
                if missing is not None:
                    self.error(path, missing, f"add `{name}:`")
                    ok = False
                continue
            given = value[name]
            if given is None and optional:
                args[name] = None
                continue
            read = self.read(kind, arg, given, (*path, name))
            if kind == "text" and missing is not None and read is not INVALID and \
                    self.blank_words(read, (*path, name)):
                read = INVALID
            args[name] = read
            ok = ok and read is not INVALID
        if not ok:
            return INVALID
        if "where" in hints(cls):  # a record that remembers where it was written
            args["where"] = Where(self.doc.locate(path), path, Places(self.doc, path, value))
        return cls(**args)
