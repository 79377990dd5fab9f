"""`frozen.record` behaves as the frozen, keyword-only dataclass it replaces."""

from __future__ import annotations

import dataclasses
import datetime as dt
import inspect
import pickle
from typing import Any, ClassVar

import pytest

from progress_site.model import frozen as frozen_module
from progress_site.model import schema
from progress_site.model.frozen import frozen, record
from progress_site.model.values import NOWHERE, Text, Where


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

    with pytest.raises(TypeError, match="may not be named __record_self__"):
        @record
        class Clash:
            __record_self__: int


@frozen
class Mixed:
    a: int
    b: list[int] = dataclasses.field(default_factory=list, kw_only=True)
    c: int = 0
    d: str = dataclasses.field(default="x", kw_only=True)
    e: dict[str, int] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class MixedSlow:
    a: int
    b: list[int] = dataclasses.field(default_factory=list, kw_only=True)
    c: int = 0
    d: str = dataclasses.field(default="x", kw_only=True)
    e: dict[str, int] = dataclasses.field(default_factory=dict)


def parameters(cls: type) -> list[tuple[str, Any, Any]]:
    """The parameters of a class's `__init__`: name, kind and default ("factory" for a
    default made by a factory: each side marks it with a sentinel of its own)."""
    factory = (frozen_module._FACTORY, dataclasses._HAS_DEFAULT_FACTORY)  # type: ignore[attr-defined]
    return [(p.name, p.kind, "factory" if p.default in factory else p.default)
            for p in inspect.signature(cls).parameters.values()]


@pytest.mark.parametrize(("fast", "slow"), [(Fast, Slow), (One, OneSlow), (Pos, PosSlow),
                                            (Mixed, MixedSlow)])
def test_init_takes_what_the_dataclass_takes(fast: type, slow: type) -> None:
    assert parameters(fast) == parameters(slow)


CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((1,), {}), ((1, 2), {}), ((1, 2, {"k": 3}), {"b": [4], "d": "y"}), ((), {"a": 1, "e": {}}),
    ((), {}), ((1, 2, 3, 4), {}), ((1,), {"f": 2}), ((1,), {"a": 2}),
]


@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_mixed_shapes_as_dataclass(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    def outcome(cls: type) -> Any:
        try:
            made = cls(*args, **kwargs)
        except TypeError as error:
            return str(error).replace(cls.__name__, "C")
        return dataclasses.asdict(made)

    assert outcome(Mixed) == outcome(MixedSlow)
    if not isinstance(outcome(Mixed), str) and "b" not in kwargs:
        assert Mixed(*args, **kwargs).b is not Mixed(*args, **kwargs).b  # made each time


def test_records_of_one_shape_share_compiled_code_under_their_own_names() -> None:
    @record
    class First:
        alpha: int
        beta: str = "b"

    @record
    class Second:
        gamma: int
        delta: str = "d"

    assert First.__init__.__code__.co_code == Second.__init__.__code__.co_code
    assert vars(First(alpha=1)) == {"alpha": 1, "beta": "b"}
    assert vars(Second(gamma=2, delta="x")) == {"gamma": 2, "delta": "x"}
    assert Second.__init__.__code__.co_qualname.endswith("Second.__init__")
    with pytest.raises(TypeError, match=r"Second.__init__\(\) missing 1 required keyword-only "
                                        "argument: 'gamma'"):
        Second()
    shapes = {c.__init__.__code__.co_code for c in vars(schema).values()
              if isinstance(c, type) and c.__module__ == schema.__name__}
    assert len(shapes) < 20  # 30-odd record classes, fewer shapes
    # A large record fills its dict in one call; a small one sets each field.
    assert "__dict__" in schema.Figure.__init__.__code__.co_names
    assert "__dict__" not in schema.Side.__init__.__code__.co_names


def test_a_record_with_slots_is_filled_through_them() -> None:
    # Records of FILL_FROM fields or more fill the instance's dict in one call: a class
    # with slots has none, and gets the `__init__` that sets each field.
    @frozen
    class Slotted:
        __slots__ = ("a", "b", "c", "d", "e")
        a: int
        b: int
        c: int
        d: int
        e: int

    made = Slotted(1, 2, 3, 4, 5)
    assert (made.a, made.e) == (1, 5) and not hasattr(made, "__dict__")
    assert len(dataclasses.fields(Slotted)) >= frozen_module.FILL_FROM


@pytest.mark.parametrize(("annotation", "shown"), [
    ("ClassVar[int] = 0", "ClassVar"), ("ClassVar = 0", "ClassVar"),
    ("dataclasses.InitVar[int]", "InitVar"), ("dataclasses.KW_ONLY", "KW_ONLY")])
def test_what_is_no_field_is_refused_without_the_future_import(annotation: str,
                                                               shown: str) -> None:
    # Written in a module without `from __future__ import annotations` (as the schema
    # is), an annotation is the object itself, not its text.
    body = compile(f"class Plain:\n    name: str\n    other: {annotation}\n", "<plain>", "exec",
                   dont_inherit=True)
    namespace: dict[str, Any] = {"ClassVar": ClassVar, "dataclasses": dataclasses}
    exec(body, namespace)
    with pytest.raises(TypeError) as refused:
        record(namespace["Plain"])
    assert str(refused.value) == f"Plain.other: a record has no {shown}"


def test_fields_without_the_future_import_ok() -> None:
    body = compile("class Plain:\n    name: str\n    size: int = 0\n", "<plain>", "exec",
                   dont_inherit=True)
    namespace: dict[str, Any] = {}
    exec(body, namespace)
    made = record(namespace["Plain"])
    assert made(name="a") == made(name="a", size=0)
    assert [f.type for f in dataclasses.fields(made)] == [str, int]
    assert schema.Figure.__dataclass_fields__["value"].type == (schema.Number | None)
