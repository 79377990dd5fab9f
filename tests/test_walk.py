"""`model.walk.walk` meets every record of the data, in order, and no plain value."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from progress_site.load.site import load
from progress_site.model.values import Number, Text
from progress_site.model.walk import walk

from .conftest import REPO


def every_record(value: Any) -> Iterator[Any]:
    """Every record by looking at every field of everything (what walk prunes)."""
    if isinstance(value, tuple):
        for item in value:
            yield from every_record(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        if not isinstance(value, (Number, Text)):
            yield value
        for f in dataclasses.fields(value):
            if not f.metadata.get("internal"):
                yield from every_record(getattr(value, f.name))


def test_walk_meets_every_record_of_the_example_and_no_value() -> None:
    source, problems = load(REPO, strict=True)
    assert source is not None and problems == []
    walked = list(walk(source.data))
    assert [id(r) for r in walked] == [id(r) for r in every_record(source.data)]
    assert len(walked) > 100
    assert not any(isinstance(r, (Number, Text)) for r in walked)
