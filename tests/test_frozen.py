"""`frozen.record` behaves as the frozen, keyword-only dataclass it replaces."""

from __future__ import annotations

import dataclasses
import datetime as dt
import pickle
from typing import Any, ClassVar

import pytest

from progress_site import schema
from progress_site.frozen import frozen, record
from progress_site.values import NOWHERE, Text, Where


@record
class Fast:
    name: str
    size: int = 3
    tags: tuple[str, ...] = ()
    hidden: str = dataclasses.field(default="h", repr=False)
    where: Where = dataclasses.field(default=NOWHERE, compare=False, repr=False)


@dataclasses.dataclass(frozen=True, kw_only=True)
class Slow:
    name: str
    size: int = 3
    tags: tuple[str, ...] = ()
    hidden: str = dataclasses.field(default="h", repr=False)
    where: Where = dataclasses.field(default=NOWHERE, compare=False, repr=False)


@record
class One:
    name: str


@dataclasses.dataclass(frozen=True, kw_only=True)
class OneSlow:
    name: str


@frozen
class Pos:
    name: str
    items: dict[str, int] = dataclasses.field(default_factory=dict)
    size: int = 0


@dataclasses.dataclass(frozen=True)
class PosSlow:
    name: str
    items: dict[str, int] = dataclasses.field(default_factory=dict)
    size: int = 0


def twin(obj: Any) -> Any:
    """The same values in the stdlib dataclass."""
    cls = {Fast: Slow, One: OneSlow, Pos: PosSlow}[type(obj)]
    return cls(**{f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)})


SAMPLES: list[Any] = [
    Fast(name="a"), Fast(name="a", size=4), Fast(name="a", tags=("x", "y")),
    Fast(name="a", hidden="other"), Fast(name="a", where=Where(path=("k",))), One(name="a"),
    One(name="it's"), Pos("a"), Pos("a", {"x": 1}, 2),
]


@pytest.mark.parametrize("a", SAMPLES)
@pytest.mark.parametrize("b", SAMPLES)
def test_equality_and_hash_as_dataclass(a: Any, b: Any) -> None:
    assert (a == b) == (twin(a) == twin(b))
    assert (a != b) == (twin(a) != twin(b))
    if isinstance(a, Pos):  # a dict field: unhashable, both ways
        with pytest.raises(TypeError, match="unhashable type: 'dict'"):
            hash(a)
        with pytest.raises(TypeError, match="unhashable type: 'dict'"):
            hash(twin(a))
    else:
        assert hash(a) == hash(twin(a))


@pytest.mark.parametrize("a", SAMPLES)
def test_repr_as_dataclass(a: Any) -> None:
    name = type(a).__name__
    assert repr(a).replace(name, type(twin(a)).__name__, 1) == repr(twin(a))


def test_other_classes_are_not_equal() -> None:
    others: list[object] = [Slow(name="a"), ("a", 3, (), "h")]
    assert all(Fast(name="a") != other for other in others)
    assert Fast(name="a").__eq__(object()) is NotImplemented


def test_frozen_as_dataclass() -> None:
    objs: list[Any] = [Fast(name="a"), Slow(name="a")]
    for obj in objs:
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'name'"):
            obj.name = "b"
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'name'"):
            del obj.name


def test_init_errors_as_dataclass() -> None:
    classes: list[Any] = [Fast, Slow]
    for cls in classes:
        with pytest.raises(TypeError, match=r"__init__\(\) missing 1 required keyword-only "
                                            r"argument: 'name'"):
            cls()
        with pytest.raises(TypeError, match="takes 1 positional argument but 2 were given"):
            cls("a")
        with pytest.raises(TypeError, match="unexpected keyword argument 'nme'"):
            cls(name="a", nme="b")


def test_fields_replace_and_pickle() -> None:
    obj = Fast(name="a", tags=("t",))
    assert [f.name for f in dataclasses.fields(obj)] == ["name", "size", "tags", "hidden", "where"]
    assert dataclasses.replace(obj, size=9) == Fast(name="a", size=9, tags=("t",))
    assert dataclasses.asdict(obj)["tags"] == ("t",)
    assert pickle.loads(pickle.dumps(obj)) == obj
    assert Fast.__match_args__ == ()


def test_schema_records_print_as_dataclasses() -> None:
    figure = schema.Figure(value=None, unit="ms", date=dt.date(2026, 1, 2),
                           note=Text((("en", "x"),)))
    assert repr(figure) == ("Figure(value=None, range=None, samples=None, ok=None, of=None, "
                            "unit='ms', text=None, status='measured', reason=None, "
                            "machine=None, date=datetime.date(2026, 1, 2), commit=None, "
                            f"run=None, method=None, proof=None, note={figure.note!r})")
    assert hash(figure) == hash(tuple(getattr(figure, f.name) for f in dataclasses.fields(figure)
                                      if f.compare))


def test_positional_fields_factories_and_post_init() -> None:
    first, second = Pos("a"), Pos("a")
    assert first.items == {} and first.items is not second.items  # a new one each time
    assert Pos("a", size=3) == Pos(name="a", items={}, size=3)
    with pytest.raises(TypeError, match=r"Pos.__init__\(\) takes from 2 to 4 positional"):
        Pos("a", {}, 1, 2)  # type: ignore[call-arg]
    seen: list[str] = []

    @frozen
    class Checked:
        name: str

        def __post_init__(self) -> None:
            seen.append(self.name)

    Checked("x")
    assert seen == ["x"]


def test_methods_a_class_writes_stay() -> None:
    @frozen
    class Own:
        name: str

        def __repr__(self) -> str:
            return "mine"

    assert repr(Own("a")) == "mine"


def test_what_a_record_cannot_be_is_refused_when_declared() -> None:
    with pytest.raises(TypeError, match="derives from no other class"):
        @record
        class Derived(Exception):
            name: str

    with pytest.raises(TypeError, match="a record has no ClassVar"):
        @record
        class Shared:
            count: ClassVar[int] = 0

    with pytest.raises(ValueError, match="mutable default"):
        @record
        class Mutable:
            tags: list[str] = []  # noqa: RUF012

    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
        @frozen
        class Ordered:
            a: int = 0
            b: int
