"""`fieldtypes.hints` gives what `typing.get_type_hints` gives, for every class."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import sys
import typing
from typing import Annotated, Any, ClassVar, Literal

import pytest

import progress_site
from progress_site import fieldtypes
from progress_site.fieldtypes import hints
from progress_site.values import Number, Text


def engine_classes() -> list[type]:
    """Every class with dataclass fields declared in the engine's modules."""
    for info in pkgutil.iter_modules(progress_site.__path__):
        importlib.import_module(f"progress_site.{info.name}")
    return [value for name, module in sorted(sys.modules.items())
            if name.startswith("progress_site.")
            for value in vars(module).values()
            if isinstance(value, type) and value.__module__ == name
            and dataclasses.is_dataclass(value)]


def typing_says(cls: type) -> dict[str, Any] | str:
    """What typing.get_type_hints gives for a class, or the error it raises, as text."""
    try:
        return typing.get_type_hints(cls)
    except Exception as error:
        return f"{type(error).__name__}: {error}"


def hints_says(cls: type) -> dict[str, Any] | str:
    """What `hints` gives for a class, or the error it raises, as text."""
    try:
        return hints(cls)
    except Exception as error:
        return f"{type(error).__name__}: {error}"


def test_the_engine_has_many_record_classes() -> None:
    assert len(engine_classes()) > 60


@pytest.mark.parametrize("cls", engine_classes(), ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_every_engine_class_as_typing_resolves_it(cls: type) -> None:
    assert hints_says(cls) == typing_says(cls)


class Plain:
    text: Text | None
    numbers: tuple[Number, ...]
    choice: Literal["a", "b"] | None
    table: dict[str, int]


class Nothing:
    nothing: None  # typing gives NoneType


class Noted:
    size: Annotated[int, "in bytes"]  # typing strips the note


class Shared:
    count: ClassVar[int] = 0


class Nested:
    later: tuple[Later, ...]
    quoted: list[Later]


class Later:
    name: str


class Base:
    name: str


class Derived(Base):
    size: int


class Shadowed:
    # A class attribute named like a type: typing looks the module's names up first.
    Text: str = "not a type"
    words: Text


class ShadowedByAType:
    Text = int  # still, `Text` means the module's Text
    words: Text


class ShadowedBuiltin:
    int: str = "words"  # no module name `int`: the class's attribute is what it means
    size: int


class Unknown:
    name: Missing  # type: ignore[name-defined]  # noqa: F821


class Broken:
    __annotations__ = {"name": "str |"}


class NotAType:
    __annotations__ = {"name": "3"}


ODD = [Plain, Nothing, Noted, Shared, Nested, Derived, Shadowed, ShadowedByAType,
       ShadowedBuiltin, Unknown, Broken, NotAType]


@pytest.mark.parametrize("cls", ODD, ids=lambda c: c.__name__)
def test_odd_classes_as_typing_resolves_them(cls: type) -> None:
    assert hints_says(cls) == typing_says(cls)


def test_the_schema_is_resolved_without_typing() -> None:
    records = [c for c in engine_classes()
               if c.__module__.endswith(("schema", "declare", "values", "load", "derive"))]
    assert len(records) > 40
    assert [c for c in records if fieldtypes._plain_hints(c) is None] == []


def test_plain_types_are_resolved_without_typing(monkeypatch: pytest.MonkeyPatch) -> None:
    class Fresh:
        text: Text | None
        numbers: tuple[Number, ...]

    def refuse(cls: type) -> Any:
        raise AssertionError("typing.get_type_hints was called")

    monkeypatch.setattr(typing, "get_type_hints", refuse)
    assert hints(Fresh) == {"text": Text | None, "numbers": tuple[Number, ...]}


def test_each_distinct_text_is_compiled_once() -> None:
    class First:
        rare: tuple[Text, Number] | None

    class Second:
        rare: tuple[Text, Number] | None

    before = fieldtypes._compiled.cache_info().misses
    hints(First)
    hints(Second)
    assert fieldtypes._compiled.cache_info().misses == before + 1
