"""Frozen record classes, declared as dataclasses but cheaper to create at import.

`dataclasses.dataclass` writes each method of a class as source text and compiles it:
six compiles for a frozen class with equality, and a signature for its docstring, about
0.8 ms a class, so the schema's 33 record classes cost every build 25 ms before it read
a byte of data. `record` (keyword fields) and `frozen` (fields in order) keep the
dataclass machinery for what reads the fields (`fields`, `replace`) and compile only
`__init__`, the one method that differs from class to class. Every class shares the
same `__eq__`, `__hash__`, `__repr__` and frozen `__setattr__`/`__delattr__`; they
read the compared fields through one `operator.attrgetter` a class, and return or
raise what the generated ones do (tests/test_frozen.py compares the two). Records are
never subclassed; `__dataclass_params__` says init, repr, eq and frozen are off (the
dataclass did not write them), and nothing reads it.
"""

from __future__ import annotations

import dataclasses
import inspect  # dataclasses imports it: no cost
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")
_FACTORY = object()  # the default of a field whose default is made by a factory


def _key_of(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The compared fields of a record as a tuple (what dataclass equality compares)."""
    if len(names) > 1:
        return attrgetter(*names)  # a tuple already, made in C
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _eq(self: Any, other: Any) -> Any:
    """Equal when of the very same class and equal in every compared field."""
    if other.__class__ is self.__class__:
        key = self.__record_key__
        return key(self) == key(other)
    return NotImplemented


def _hash(self: Any) -> int:
    """The hash of the compared fields' tuple, as a frozen dataclass hashes."""
    return hash(self.__record_key__(self))


def _repr(self: Any) -> str:
    """`Name(field=value, ...)` over the shown fields, as a dataclass prints."""
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__record_shown__)
    return f"{self.__class__.__qualname__}({shown})"


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    """Refused, as on a frozen dataclass (`__init__` sets fields through object's)."""
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: Any, name: str) -> None:
    """Refused, as on a frozen dataclass."""
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _init_of(cls: type[Any], fields: tuple[dataclasses.Field[Any], ...]) -> Any:
    """The `__init__` a frozen dataclass would have (without annotations)."""
    ordered: list[str] = []
    keyword: list[str] = []
    lines = []
    namespace: dict[str, Any] = {"__record_set__": object.__setattr__,
                                 "__record_factory__": _FACTORY}
    for f in fields:
        if not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: every field of a record is in __init__")
        param, value = f.name, f.name
        if f.default is not dataclasses.MISSING:
            namespace[f"__default_{f.name}"] = f.default
            param = f"{f.name}=__default_{f.name}"
        elif f.default_factory is not dataclasses.MISSING:
            namespace[f"__make_{f.name}"] = f.default_factory
            param = f"{f.name}=__record_factory__"
            value = f"__make_{f.name}() if {f.name} is __record_factory__ else {f.name}"
        (keyword if f.kw_only else ordered).append(param)
        lines.append(f" __record_set__(__record_self__, {f.name!r}, {value})")
    if hasattr(cls, "__post_init__"):
        lines.append(" __record_self__.__post_init__()")
    params = ["__record_self__", *ordered, *(["*", *keyword] if keyword else [])]
    exec(f"def __init__({', '.join(params)}):\n" + ("\n".join(lines) or " pass"), namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"  # as TypeErrors name it
    init.__module__ = cls.__module__
    return init


def _make(cls: type[T], kw_only: bool) -> type[T]:
    """The class as a frozen dataclass whose methods are the shared ones above."""
    # A docstring of our own: without one, the dataclass builds one from the signature.
    if not cls.__doc__:
        cls.__doc__ = f"{cls.__name__}({', '.join(inspect.get_annotations(cls))})"
    own = set(vars(cls))
    cls = dataclasses.dataclass(init=False, repr=False, eq=False, kw_only=kw_only)(cls)
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    keyed = [f.name for f in fields if f.compare]
    shared = {
        "__init__": _init_of(cls, fields),
        "__record_key__": staticmethod(_key_of(keyed)),
        "__record_shown__": tuple(f.name for f in fields if f.repr),
        "__eq__": _eq, "__hash__": _hash, "__repr__": _repr,
        "__setattr__": _frozen_setattr, "__delattr__": _frozen_delattr,
    }
    for name, value in shared.items():
        if name not in own:  # methods the class writes itself stay, as with a dataclass
            setattr(cls, name, value)
    return cls


@dataclass_transform(frozen_default=True, kw_only_default=True,
                     field_specifiers=(dataclasses.field,))
def record(cls: type[T]) -> type[T]:
    """A frozen dataclass with keyword-only fields: `@dataclass(frozen=True, kw_only=True)`."""
    return _make(cls, kw_only=True)


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def frozen(cls: type[T]) -> type[T]:
    """A frozen dataclass: `@dataclass(frozen=True)`."""
    return _make(cls, kw_only=False)
