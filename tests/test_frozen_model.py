"""The model derive returns is complete: nothing after derive changes it, and each figure
is found by its one key."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, MutableMapping
from pathlib import Path
from typing import Any

import pytest

from progress_site.model.keys import FigureKey
from progress_site.pipeline import BuildConfig, Prepared, finish, make_site, prepare

from .conftest import REPO, TODAY


@pytest.fixture(scope="module")
def ready() -> Prepared:
    """The example, loaded, validated and derived."""
    return prepare(BuildConfig(source=REPO, out=REPO / "site", today=TODAY, strict=True))


def values(root: Any) -> Iterator[Any]:
    """Every record, tuple and mapping reachable from `root`, each once."""
    seen: set[int] = set()  # a walk of one object graph: identity is what it tracks
    stack = [root]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            yield item
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
        elif isinstance(item, tuple):
            stack.extend(item)
        elif isinstance(item, Mapping):
            yield item
            stack.extend(item.keys())
            stack.extend(item.values())


def test_nothing_in_the_derived_model_can_be_changed(ready: Prepared) -> None:
    found = list(values(ready.model))
    assert len(found) > 1000
    for item in found:
        if isinstance(item, Mapping):
            assert not isinstance(item, MutableMapping), type(item)
            with pytest.raises(TypeError):
                item["x"] = 1  # type: ignore[index]
            continue
        name = dataclasses.fields(item)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(item, name, getattr(item, name))


def test_one_derived_model_renders_the_same_site_twice(ready: Prepared) -> None:
    config = BuildConfig(source=REPO, out=REPO / "site", today=TODAY, strict=True)
    first = finish(config, ready).files
    assert finish(config, ready).files == first
    assert make_site(config).files == first


def test_every_figure_is_found_by_its_key(ready: Prepared) -> None:
    model = ready.model
    assert all(view.key == key for key, view in model.figures.items())
    after = model.view("comparisons", "cpu-per-packet-500", "after")
    assert after is model.view(FigureKey.parse("comparisons.cpu-per-packet-500.after"))
    assert model.namespace.entries[str(after.key)] == after.quantity
    over = [k for k, v in model.figures.items() if v.status == "over-limit"]
    for budget in model.budgets:
        for item in budget.items:
            assert model.figures[item.figure.key] is item.figure
            assert (item.figure.key in over) == (item.over and item.figure.figure.status
                                                  in ("measured", "watch"))


def test_equal_words_in_two_records_cite_each_its_own_numbers(example_copy: Path) -> None:
    """`{{ ratio }}` reads the ratio of the comparison it is written in, even when two
    comparisons write the very same words."""
    studies = example_copy / "data" / "studies.yaml"
    text = studies.read_text()
    note = "        note: {en: '{{ ratio }} times', fr: '{{ ratio }} fois'}\n"
    for old in ("        note:\n          en: servers that write once a tick (every 50 ms), "
                "as real ones do\n          fr: des serveurs qui écrivent une fois par tick "
                "(toutes les 50 ms), comme les vrais\n",
                "        before: {value: 19.03}\n        after: {value: 8.11}\n"):
        assert old in text
        text = text.replace(old, note if "note" in old else old + note)
    studies.write_text(text)
    built = make_site(BuildConfig(source=example_copy, out=example_copy / "site",
                                  today=TODAY)).files["index.html"].decode()
    assert "2.56 times" in built and "2.35 times" in built
