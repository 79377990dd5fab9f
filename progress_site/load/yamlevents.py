"""The quick way to read YAML: build values straight from libyaml's events, in one pass.

Composing nodes first (yamlnodes) walks the file three times in Python and keeps a node,
two marks and a path for every value; plain data needs none of it. This reader builds
each value as its event arrives, checks the depth on the way (so nothing deep ever
reaches a recursive composer), and reads each distinct scalar once. Whatever it does not
read exactly as the composed path does (anchors, aliases, tags, `<<`, odd or repeated
keys, deep nesting, syntax errors) makes it give up: the careful path then reads the
whole file again and reports it, so both paths give the same values and problems.
"""

from __future__ import annotations

from typing import Any

import yaml

from progress_site.errors import KeyPath, Problem
from progress_site.load.yamldoc import MAX_DEPTH, MAX_NODES, YAML_TAG, Document, keep_raw
from progress_site.load.yamlread import Loader, ScalarReader

# The tags of plain scalars this reader builds; any other hands over to yamlnodes.
_TAGS = frozenset(YAML_TAG + name for name in
                  ("str", "int", "float", "bool", "null", "timestamp"))
_STR = YAML_TAG + "str"
_SCALAR, _MAP, _SEQ = yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent
_MAP_END, _SEQ_END = yaml.MappingEndEvent, yaml.SequenceEndEvent


class HandOver(Exception):
    """The file holds something only the composed path reads exactly."""


def read_events(text: str, doc: Document) -> list[Problem] | None:
    """Fill `doc` from the events of `text`; None when the composed path must read it."""
    loader = Loader(text)
    try:
        return _EventReader(loader, doc).document()
    except (HandOver, yaml.YAMLError):
        return None
    finally:
        loader.dispose()


class _EventReader(ScalarReader):
    """Values and positions from a stream of parser events."""

    def __init__(self, loader: Any, doc: Document) -> None:
        super().__init__(doc)
        self.next = loader.get_event
        self.resolve = loader.resolve
        self.count = 0
        # (written text, plain?) -> its value, for scalars read without a problem: keys
        # and words repeat thousands of times, and their values cannot change.
        self.known: dict[tuple[str, bool], Any] = {}

    def document(self) -> list[Problem]:
        """The one document of the stream (or none), read to the end of the stream."""
        self.next()  # the stream's start
        event = self.next()
        if isinstance(event, yaml.DocumentStartEvent):
            self.doc.data = self.value(self.next(), (), 0)
            self.next()  # the document's end
            event = self.next()
        if not isinstance(event, yaml.StreamEndEvent):
            raise HandOver  # a second document: an error the composer words
        return self.problems

    def value(self, event: Any, path: KeyPath, depth: int) -> Any:
        """The value an event starts, with its position (and its children's) recorded."""
        self.count += 1
        if event.anchor is not None or self.count >= MAX_NODES:
            raise HandOver
        start = event.start_mark
        self.doc.values[path] = (start.line + 1, start.column + 1)
        kind = type(event)
        if kind is _SCALAR:
            value = self.scalar(event, path)
            keep_raw(self.doc, path, value, event.value)
            return value
        if depth == MAX_DEPTH or event.tag is not None or kind not in (_MAP, _SEQ):
            raise HandOver  # too deep, tagged, or an alias
        if kind is _SEQ:
            items: list[Any] = []
            event = self.next()
            while type(event) is not _SEQ_END:
                items.append(self.value(event, (*path, len(items)), depth + 1))
                event = self.next()
            return items
        return self.mapping(path, depth + 1)

    def mapping(self, path: KeyPath, depth: int) -> dict[str, Any]:
        """A mapping whose keys are words, each written once."""
        out: dict[str, Any] = {}
        event: Any = self.next()
        while type(event) is not _MAP_END:
            if type(event) is not _SCALAR or event.anchor is not None:
                raise HandOver
            key = self.scalar(event, path)
            if not isinstance(key, (str, int)) or isinstance(key, bool) or str(key) in out:
                raise HandOver
            child = (*path, str(key))
            start: Any = event.start_mark
            self.doc.keys[child] = (start.line + 1, start.column + 1)
            out[str(key)] = self.value(self.next(), child, depth)
            event = self.next()
        return out

    def scalar(self, event: Any, path: KeyPath) -> Any:
        """A scalar's value, read once per distinct written form and style."""
        if event.tag is not None:
            raise HandOver
        plain = event.implicit[0]
        written = event.value
        try:
            return self.known[written, plain]
        except KeyError:
            pass
        tag = self.resolve(yaml.ScalarNode, written, event.implicit) if plain else _STR
        if tag not in _TAGS:
            raise HandOver  # `<<`, `=`: rare, and the composed path words them
        node = yaml.ScalarNode(tag, written, event.start_mark, event.end_mark, event.style)
        before = len(self.problems)
        value = self.read(node, path)
        if len(self.problems) == before:
            self.known[written, plain] = value
        return value
