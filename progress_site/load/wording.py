"""How a message names what was expected and quotes what was written, and how to fix a
number that YAML read as a text (`1,383`, `1.5-1.7`, `"12"`)."""

from __future__ import annotations

import datetime as dt
import decimal
import math
import re
from types import MappingProxyType
from typing import Any

from progress_site.load.yaml_scalars import STR_TAG, plain_tag
from progress_site.model.declare import declared
from progress_site.model.limits import LARGEST, MAX_DECIMALS
from progress_site.model.values import Number, Text

# How a message names each value a field may hold.
WORDS = MappingProxyType({
    Number: "a number", float: "a number", int: "a whole number", bool: "true or false",
    str: "a text", dt.date: "a date like 2026-11-08", Text: "a text, or {en: ..., fr: ...}"})


def describe(tp: Any) -> str:
    """A type as an error message names it."""
    kind, arg, _ = declared(tp)
    if kind == "sequence":
        return "a list"
    if kind == "choice":
        return "one of " + ", ".join(map(str, arg))
    if kind == "record":
        return "a mapping of keys"
    return WORDS.get(arg, str(arg))


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
    if isinstance(value, dt.datetime):  # YAML reads `2026-01-01 10:00:00` as one
        return f"a date and time ({value.isoformat(sep=' ')})"
    if isinstance(value, dt.date):
        return f"a date ({value.isoformat()})"
    return repr(value)


# Where words were expected and YAML read a date, a number or true/false.
QUOTE_HINT = "write it in quotes to keep it as words: '...'"


def comma_split_words(value: dict[str, Any], key: str) -> tuple[str, str] | None:
    """The language and its whole words when `key` is words that a comma split off the
    words before it (`{en: Tests by category, run by run, fr: ...}` reads `run by run`
    as a key with no value); None otherwise. Each piece gives the words whole."""
    keys = list(value)

    def piece(at: int) -> bool:
        return value[keys[at]] is None and not re.fullmatch(r"[a-z]{2,3}", str(keys[at]))

    at = keys.index(key)
    if not piece(at):
        return None
    while at > 0 and piece(at):
        at -= 1
    if piece(at) or not isinstance(value[keys[at]], str):
        return None
    end = at + 1
    while end < len(keys) and piece(end):
        end += 1
    return str(keys[at]), ", ".join([value[keys[at]], *map(str, keys[at + 1:end])])


def quoted(words: str) -> str:
    """Words in the quotes YAML keeps them in: double, else single where they hold one."""
    if '"' not in words and "\\" not in words:
        return f'"{words}"'
    return "'" + words.replace("'", "''") + "'"


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


def unmeasurable(value: float, raw: str | None) -> tuple[str, str] | None:
    """Why a finite number, written `raw`, is no measurement (the message and its hint):
    too large, or with more decimals than a measurement can tell; None when it is one."""
    if abs(value) > LARGEST:
        return f"{shown(value)} is too large to be a measurement", "check the number of digits"
    decimals = written_decimals(raw)
    if decimals > MAX_DECIMALS:
        return (f"{decimals} decimals is more than a measurement can tell",
                f"round it to {MAX_DECIMALS} decimals or fewer")
    return None


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
            return exponent_hint(value.strip()) or ("remove the quotes: a number in "
                                                    "quotes is a text")
    return "write the number alone; the unit goes in `unit:`"


EXPONENT = re.compile(r"([+-]?[0-9_]*)(\.[0-9_]*)?[eE]([+-]?)([0-9]+)")


def exponent_hint(text: str) -> str:
    """How to write `1e-3`, which YAML 1.1 reads as a text even unquoted: its numbers
    with an exponent need a dot and a sign (`1.0e-3`); '' for any other text."""
    found = EXPONENT.fullmatch(text)
    if found is None or plain_tag(text) != STR_TAG:
        return ""
    mantissa, fraction, sign, digits = found.groups()
    written = f"{mantissa or '0'}{fraction or '.0'}e{sign or '+'}{digits}"
    if plain_tag(written) == STR_TAG:
        return ""
    return (f"YAML reads {text} as a text, not a number: write {written} (YAML 1.1 "
            "needs a dot and the exponent's sign)")
