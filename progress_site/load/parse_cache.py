"""Parses remembered in this process, by content: watch mode's rebuild parses again only
the files a save changed. Nothing is kept on disk: parsing the data again in a new
process costs no time a user feels (bench/caches.py), and an entry read back from a file
would be one more input to trust.
"""

from __future__ import annotations

import dataclasses
import functools

from progress_site.errors import Problem
from progress_site.load.comments import cut_texts
from progress_site.load.document import Document
from progress_site.load.yaml import parse


@functools.lru_cache(maxsize=256)
def _remembered(text: str, display: str) -> tuple[Document, tuple[Problem, ...]]:
    """A parse of this text in this process."""
    doc, problems = parse(text, display)
    return doc, tuple(problems or cut_texts(text, doc))


def parse_once(text: str, display: str) -> tuple[Document, list[Problem]]:
    """`parse`, remembered by content. Callers get their own Document, whose tables they
    only read."""
    doc, problems = _remembered(text, display)
    return dataclasses.replace(doc), list(problems)
