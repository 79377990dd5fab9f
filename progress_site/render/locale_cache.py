"""Each language's locale facts kept on disk, so that a new process need not ask Babel.

Reading the facts from Babel loads the language's CLDR data and imports Babel's dates,
numbers, units and lists modules (localefacts.py says what that costs); a build that
finds them here does neither. One entry per language, `locales/LANG.json` in the
source's cache folder: the facts, and the key they were made under, which holds Babel's
version, Python's and the code that extracts them. An entry made under another key, or
that cannot be read or checked, counts as missing: the facts are read from Babel again
and the entry replaced. A cache can make a build faster, never make it fail. JSON, never
pickle: a planted entry is data at worst, and checked field by field.

A language's facts are the same whichever source's folder holds them, so the process
keeps those it has read in one memo (`facts`), which every build in it shares (watch
mode's rebuilds, tests): a language no build has loaded, as when a test calls
formatting.py directly, is read from Babel. The folder makes formatting faster, never
different.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from progress_site.cache import fingerprint, library_version, store
from progress_site.render.locale_facts import LocaleFacts, extract
from progress_site.render.plurals import category

T = TypeVar("T")

# Raise to drop every entry written before a change the code hash cannot see.
FORMAT = 1
# The modules that decide what an entry holds; their code is part of every key.
# Language codes name entries; load.known_language lets no other through, but a code
# that is not a plain name is simply not stored.
_PLAIN_CODE = re.compile(r"[A-Za-z0-9_]+")
# Literal text, `%%` and `%(field)s`: what `format % fields` can apply without an error.
_DATE_FORMAT = re.compile(r"(?:[^%]|%%|%\([A-Za-z]+\)s)*")

# The facts this process has, by language, and the entries it has read or written.
_KNOWN: dict[str, LocaleFacts] = {}
_SEEN: set[Path] = set()


def facts(lang: str) -> LocaleFacts:
    """A language's facts: those a build loaded, else read from Babel (and kept)."""
    found = _KNOWN.get(lang)
    if found is None:
        found = _KNOWN[lang] = extract(lang)
    return found


def load(cache_dir: Path | None, languages: Iterable[str]) -> None:
    """Have each language's facts at hand, read from its entry under `cache_dir`, or
    from Babel and then stored there for the next process; each entry once a process."""
    if cache_dir is None:
        return
    for lang in languages:
        path = entry_path(cache_dir, lang)
        if path is not None and not stored(cache_dir, lang):
            write_entry(path, lang, facts(lang))
            _SEEN.add(path)


def stored(cache_dir: Path, lang: str) -> bool:
    """Whether the language's facts are stored in `cache_dir` (its entry read once a
    process): a build stored them, so Babel knew the language, and the key says it is
    the same Babel."""
    path = entry_path(cache_dir, lang)
    if path is None:
        return False
    if path not in _SEEN:
        found = read_entry(path, lang)
        if found is None:
            return False
        _SEEN.add(path)
        _KNOWN.setdefault(lang, found)
    return lang in _KNOWN


def entry_path(cache_dir: Path, lang: str) -> Path | None:
    """Where a language's entry lives; None for a code that cannot name a file."""
    return cache_dir / "locales" / f"{lang}.json" if _PLAIN_CODE.fullmatch(lang) else None


@functools.cache
def extractor_fingerprint() -> bytes:
    """What an entry depends on besides the language: this code, Babel's data, Python."""
    return fingerprint(FORMAT, library_version("babel"))


def entry_key(lang: str) -> str:
    """The key of a language's entry: the language and what extracted its facts."""
    return hashlib.blake2b(extractor_fingerprint() + lang.encode()).hexdigest()


def read_entry(path: Path, lang: str) -> LocaleFacts | None:
    """The stored facts, if the entry is whole and made under today's key; else None."""
    try:
        stored = json.loads(path.read_bytes())
        if stored["key"] != entry_key(lang):
            return None
        return from_json(stored["facts"])
    except Exception:  # missing, truncated, foreign: each means "ask Babel"
        return None


def write_entry(path: Path, lang: str, known: LocaleFacts) -> None:
    """Store a language's facts atomically; a folder that cannot be written is no error."""
    data = {"key": entry_key(lang), "facts": as_json(known)}
    store(path, json.dumps(data, sort_keys=True).encode())  # ASCII: any text is safe


def as_json(known: LocaleFacts) -> dict[str, Any]:
    """The facts as JSON data (their tuples become lists)."""
    return {name: getattr(known, name) for name in FIELDS}


# How each field is read back, checked: a foreign entry may hold anything.

def text(value: Any) -> str:
    """A string."""
    if not isinstance(value, str):
        raise ValueError(f"not a string: {value!r}")
    return value


def optional(read: Callable[[Any], T]) -> Callable[[Any], T | None]:
    """What `read` reads, or None for a null."""
    return lambda value: None if value is None else read(value)


def pair(read: Callable[[Any], T]) -> Callable[[Any], tuple[T, T]]:
    """A list of two items, each read by `read`."""
    def read_pair(value: Any) -> tuple[T, T]:
        if not isinstance(value, list) or len(value) != 2:
            raise ValueError(f"not a pair: {value!r}")
        return read(value[0]), read(value[1])
    return read_pair


def mapping(read: Callable[[Any], T]) -> Callable[[Any], dict[str, T]]:
    """An object, its values read by `read`."""
    def read_mapping(value: Any) -> dict[str, T]:
        if not isinstance(value, dict):
            raise ValueError(f"not an object: {value!r}")
        return {text(key): read(item) for key, item in value.items()}
    return read_mapping


def filled(count: int) -> Callable[[Any], str]:
    """A `str.format` pattern that takes `count` values (`{0} ms`, `{0}, and {1}`)."""
    def read_filled(value: Any) -> str:
        text(value).format(*["0"] * count)  # raises if it wants other values
        return str(value)
    return read_filled


def date_format(value: Any) -> str:
    """A date %-format as Babel makes them: `%(MMMM)s %(d)s, %(y)s`."""
    if not _DATE_FORMAT.fullmatch(text(value)):
        raise ValueError(f"not a date format: {value!r}")
    return str(value)


def plural_rules(value: Any) -> dict[str, str]:
    """CLDR plural rules by category, that plurals.py can read."""
    rules = mapping(text)(value)
    category(rules)  # raises ValueError for what it cannot read
    return rules


def list_patterns(value: Any) -> dict[str, str]:
    """The patterns formatting.word_list joins items with: at least start, middle, end."""
    patterns = mapping(filled(2))(value)
    if not {"start", "middle", "end"} <= patterns.keys():
        raise ValueError(f"not list patterns: {value!r}")
    return patterns


def twelve(value: Any) -> tuple[str, ...]:
    """The names of the twelve months."""
    if not isinstance(value, list) or len(value) != 12:
        raise ValueError(f"not twelve names: {value!r}")
    return tuple(text(item) for item in value)


FIELDS: dict[str, Callable[[Any], Any]] = {
    "group": text,
    "decimal": text,
    "percent": optional(pair(pair(pair(text)))),
    "long_date": optional(date_format),
    "short_date": optional(date_format),
    "months": mapping(twelve),
    "plural": plural_rules,
    "units": mapping(optional(mapping(filled(1)))),
    "unit_space": text,
    "list_patterns": list_patterns,
    "name": text,
}


def from_json(data: Any) -> LocaleFacts:
    """Facts read back from JSON data; ValueError if they are not facts."""
    if not isinstance(data, dict) or data.keys() != FIELDS.keys():
        raise ValueError("not a language's facts")
    return LocaleFacts(**{name: read(data[name]) for name, read in FIELDS.items()})
