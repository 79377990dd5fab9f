"""Data files parsed and converted, remembered by their text for the builds of one source
in a process (`Remembered`, on the build's `BuildConfig`): a build reads a file's records
from the parse it checked, and watch mode's rebuild parses and converts again only the
files a save changed (bench/caches.py, "in this process"). Nothing is kept on disk:
parsing the data again in a new process costs no time a user feels, and an entry read
back from a file would be one more input to trust.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any

from progress_site.errors import KeyPath, Problem
from progress_site.load.comments import cut_texts
from progress_site.load.document import Document
from progress_site.load.yaml import parse

# Bounded: a long watch session's saves each leave a text behind.
KEPT = 256


def parsed(text: str, display: str) -> tuple[Document, tuple[Problem, ...]]:
    """A file's text parsed, with its problems (the comments' too)."""
    doc, problems = parse(text, display)
    return doc, tuple(problems or cut_texts(text, doc))


# A data file's records from its parse (`site.convert_document`).
Convert = Callable[[Document, tuple[str, ...], bool, list[KeyPath]], Any]


class Remembered:
    """The parses and conversions of a source's data files, by text (see the module)."""

    def __init__(self, convert: Convert) -> None:
        parse = functools.lru_cache(maxsize=KEPT)(parsed)

        @functools.lru_cache(maxsize=KEPT)
        def converted(text: str, display: str, languages: tuple[str, ...],
                      strict: bool) -> Any:
            """`convert` of the text's parse: its records are frozen, a function of the
            text alone."""
            doc, problems = parse(text, display)
            return convert(dataclasses.replace(doc), languages, strict,
                           [p.key_path for p in problems if not p.warning])

        self._parsed = parse
        self.converted = converted

    def parse(self, text: str, display: str) -> tuple[Document, list[Problem]]:
        """`parsed`, remembered. Callers get their own Document, whose tables they only
        read."""
        doc, problems = self._parsed(text, display)
        return dataclasses.replace(doc), list(problems)
