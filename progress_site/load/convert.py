"""Check parsed YAML against the declared format and build the typed records."""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import functools
import math
import re
import types
import typing
from collections.abc import Iterator, Mapping
from typing import Any, Literal

from babel import Locale, UnknownLocaleError

from progress_site.errors import KeyPath, Location, Problem, closest, did_you_mean
from progress_site.load.yaml import Document
from progress_site.model.declare import fields, hints
from progress_site.model.limits import LARGEST, MAX_DECIMALS
from progress_site.model.values import Number, Text, Where

INVALID: Any = object()  # a value that could not be read; its problem is already recorded

LANGUAGE_NAMES = {"en": "English", "fr": "French", "de": "German", "es": "Spanish"}


def language_name(code: str) -> str:
    """A language code as a maintainer reads it."""
    return LANGUAGE_NAMES.get(code, code)


def known_language(code: str) -> bool:
    """A language code Babel knows; codes also name folders, so only letters and '_'."""
    if not re.fullmatch(r"[a-z]{2,3}(?:_[A-Za-z0-9]{2,8})*", code):
        return False
    try:
        Locale.parse(code)
    except (ValueError, UnknownLocaleError):
        return False
    return True


def describe(tp: Any) -> str:
    """A type as an error message names it."""
    if tp is Number or tp is float:
        return "a number"
    if tp is int:
        return "a whole number"
    if tp is bool:
        return "true or false"
    if tp is str:
        return "a text"
    if tp is dt.date:
        return "a date like 2026-11-08"
    if tp is Text:
        return "a text, or {en: ..., fr: ...}"
    if dataclasses.is_dataclass(tp):
        return "a mapping of keys"
    origin = typing.get_origin(tp)
    if origin is tuple:
        return "a list"
    if origin is Literal:
        return "one of " + ", ".join(map(str, typing.get_args(tp)))
    return str(tp)


def found(value: Any) -> str:
    """What the user wrote, as an error message quotes it."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return repr(text)
    if isinstance(value, int) and not isinstance(value, bool):
        return shown(value)  # `0xfff...` may be too long for repr
    return repr(value)


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

    def item(self, name: str, index: int) -> Location:
        """Where one item of a list field was written (`summarises[1]`)."""
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


def written_decimals(raw: str | None) -> int:
    """How many decimals a number's written form stands for: `6.40` two, `1.0e-29` thirty
    (an exponent counts); 0 for a form that is not a decimal number."""
    if raw is None:
        return 0
    try:
        exponent = decimal.Decimal(raw.strip().replace("_", "")).as_tuple().exponent
    except (decimal.InvalidOperation, ValueError):
        return 0
    return -exponent if isinstance(exponent, int) and exponent < 0 else 0


def shown(value: float) -> str:
    """A number as an error quotes it, shortened when it runs long (a whole number too
    long for Python to write out, from a hexadecimal `0xfff...`, by its count of digits)."""
    if isinstance(value, int) and abs(value) >= 10**24:
        digits = len(str(abs(value))) if value.bit_length() < 4000 else int(
            math.log10(abs(value))) + 1
        return f"{str(value)[:10]}...({digits} digits)" if value.bit_length() < 4000 \
            else f"a number of {digits} digits"
    text = repr(value)
    return text if len(text) <= 24 else f"{text[:10]}...({len(text)} digits)"


# Numbers as people type them in prose, which YAML reads as texts: `1,383`, `1.5-1.7`.
THOUSANDS = re.compile(r"[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?")
DASHED = re.compile(r"([+-]?\d+(?:\.\d+)?)\s*[-\u2013]\s*(\d+(?:\.\d+)?)")


def number_hint(value: Any) -> str:
    """How to fix a value that should have been a number."""
    if isinstance(value, str) and THOUSANDS.fullmatch(value.strip()):
        return ("write the number without a thousands separator: "
                f"{value.strip().replace(',', '')}")
    dashed = DASHED.fullmatch(value.strip()) if isinstance(value, str) else None
    if dashed:
        return f"a range is two numbers: write `range: [{dashed[1]}, {dashed[2]}]`"
    if isinstance(value, str):
        try:
            float(value.replace("_", ""))
        except ValueError:
            pass
        else:
            return "remove the quotes: a number in quotes is a text"
    return "write the number alone; the unit goes in `unit:`"


# The reader of each plain type, by its method name on Converter.
_READERS = {str: "text_value", int: "whole", bool: "boolean", dt.date: "date",
            Number: "number", Text: "text"}


@functools.cache
def plan(tp: Any) -> tuple[str, Any]:
    """How to read a declared type, worked out once per type (not once per value)."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return "optional", next(a for a in typing.get_args(tp) if a is not type(None))
    if origin is tuple:
        return "sequence", typing.get_args(tp)[0]
    if origin is Literal:
        return "choice", typing.get_args(tp)
    if tp in _READERS:
        return _READERS[tp], None
    return "record", tp


@functools.cache
def declared_fields(cls: type) -> tuple[dict[str, dataclasses.Field[Any]], bool]:
    """A record class's fields by name, and whether it remembers where it was written."""
    return {f.name: f for f in fields(cls)}, any(
        f.name == "where" for f in dataclasses.fields(cls))


# How each field of a record class is read: its name; what to say when it is missing
# (None when it may be left out); whether `null` is a value of it (an optional type);
# the plan of the type read otherwise.
FieldPlan = tuple[str, str | None, bool, str, Any]


@functools.cache
def field_plans(cls: type) -> tuple[FieldPlan, ...]:
    """The plan of every field of a record class, worked out once: reading a record
    then hashes no type (a `Text | None` hashes its arguments every time)."""
    out = []
    for name, fld in declared_fields(cls)[0].items():
        missing = None
        if fld.default is dataclasses.MISSING:
            doc = fld.metadata.get("doc")
            missing = f"missing key '{name}'" + (f" ({doc})" if doc else "")
        kind, arg = plan(hints(cls)[name])
        optional = kind == "optional"
        if optional:
            kind, arg = plan(arg)
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
        kind, arg = plan(tp)
        if kind == "optional":
            return None if value is None else self.convert(arg, value, path)
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
        items = [self.convert(item, v, (*path, i)) for i, v in enumerate(value)]
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
        return self.error(path, f"expected one of {', '.join(map(str, options))}; "
                                f"got {found(value)}", hint)

    def text_value(self, value: Any, path: KeyPath) -> Any:
        """A plain string; a bare number (a commit like 1234567) keeps its written form."""
        if isinstance(value, str):
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return self.doc.raw.get(path, str(value))
        return self.expected(str, value, path)

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
        if abs(value) > LARGEST:
            return self.error(path, f"{shown(value)} is too large to be a measurement",
                              "check the number of digits")
        raw = self.doc.raw.get(path)
        decimals = written_decimals(raw)
        if decimals > MAX_DECIMALS:
            return self.error(path, f"{decimals} decimals is more than a measurement can tell",
                              f"round it to {MAX_DECIMALS} decimals or fewer")
        return Number.of(value, raw)

    def text(self, value: Any, path: KeyPath) -> Any:
        """Words for every language: one string, or a mapping of language to string."""
        if isinstance(value, str):
            return Text((("*", value),), neutral=True)
        if not isinstance(value, dict):
            return self.expected(Text, value, path)
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
                bad = self.error((*path, lang), f"unknown language '{lang}'", hint, key=True)
            elif not isinstance(words, str):
                bad = self.expected(str, words, (*path, lang))
        if bad is INVALID:
            return INVALID
        for lang in self.languages:
            if lang not in value:
                self.missing_language(path, lang, value)
        return Text(tuple((lang, value[lang]) for lang in self.languages if lang in value))

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

    def missing_language(self, path: KeyPath, lang: str, value: dict[str, str]) -> None:
        """A text with no words in one language: an error in --strict, else a warning."""
        name = language_name(lang)
        problem = self.doc.problem(path, f"no {name} text ({lang}:)",
                                   f"add `{lang}: ...` beside `{next(iter(value), 'en')}:`",
                                   warning=not self.strict)
        self.problems.append(problem)

    def record(self, cls: type, value: Any, path: KeyPath) -> Any:
        """A record: known keys only, required keys present, every field converted."""
        if not isinstance(value, dict):
            return self.expected(cls, value, path)
        declared, located_class = declared_fields(cls)
        ok = True
        for key in value:
            if key not in declared:
                hint = did_you_mean(key, declared, "known keys")
                number = self.split_number(value, key, path)
                if number:
                    hint = (f"YAML read '{number}' as two entries (a comma separates the "
                            "keys of `{...}`): write the number without a thousands "
                            f"separator: {number.replace(',', '')}")
                self.error((*path, key), f"unknown key '{key}'", hint, key=True)
                ok = False
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
            args[name] = read
            ok = ok and read is not INVALID
        if not ok:
            return INVALID
        if located_class:
            args["where"] = Where(self.doc.locate(path), path, Places(self.doc, path, value))
        return cls(**args)
