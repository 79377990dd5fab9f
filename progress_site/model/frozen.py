"""Frozen record classes, declared as dataclasses but cheaper to create at import.

`dataclasses.dataclass` writes each method of a class as source text and compiles it:
six compiles for a frozen class with equality, and a signature for its docstring, about
0.8 ms a class, so the schema's 33 record classes cost every build 25 ms before it read
a byte of data. `record` (keyword fields) and `frozen` (fields in order) make only
`__init__`, the one method that differs from class to class, and compile it once per
shape of class (which fields are keywords, made by factories...), not once per class:
each class gets that code with its own field names put in. Every class shares the
same `__eq__`, `__hash__`, `__repr__` and frozen `__setattr__`/`__delattr__`; they
read the compared fields through one `operator.attrgetter` a class, and return or
raise what the generated ones do (tests/test_frozen.py compares the two).

The fields are found here too (`_fields_of`), not by `dataclasses.dataclass`, whose
checks for inherited fields, ClassVar and InitVar cost another 0.1 ms a class: records
derive from nothing and have none of those (both refused). What reads fields is
dataclasses' own (`fields`, `replace`, `asdict`): it reads `__dataclass_fields__`, made
of `dataclasses.field` objects marked as plain fields, as a dataclass's are.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect  # dataclasses imports it: no cost
import itertools
import types
import typing
from collections.abc import Callable
from operator import attrgetter
from typing import Any, ClassVar, TypeVar, dataclass_transform

T = TypeVar("T")
_FACTORY = object()  # the default of a field whose default is made by a factory
_NOT_FIELDS = ("ClassVar", "InitVar", "typing.ClassVar", "dataclasses.InitVar", "KW_ONLY")


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


# From this many fields on, `__init__` fills the instance's dict in one call: quicker to
# compile (one line, not one a field) and to run; below it, one call a field runs faster.
FILL_FROM = 5


def _init_of(cls: type[Any], fields: tuple[dataclasses.Field[Any], ...]) -> Any:
    """The `__init__` a frozen dataclass would have (without annotations): the compiled
    `__init__` of the class's shape, its placeholders renamed to the fields' names."""
    names = tuple(f.name for f in fields)
    if not all(f.init for f in fields):
        bad = next(f.name for f in fields if not f.init)
        raise TypeError(f"{cls.__name__}.{bad}: every field of a record is in __init__")
    if "__record_self__" in names:  # the name `__init__` gives the instance
        raise TypeError(f"{cls.__name__}: a field may not be named __record_self__")
    made = tuple(f.default_factory is not dataclasses.MISSING for f in fields)
    # Filling the dict skips what setting each attribute would do (a slot, a property):
    # only where there is nothing to skip.
    fill = (len(fields) >= FILL_FROM and not any(made)
            and not any(hasattr(type(vars(cls).get(n)), "__set__") for n in names))
    template = _template(tuple(f.kw_only for f in fields), made,
                         hasattr(cls, "__post_init__"), fill)
    rename = {f"_{i}": name for i, name in enumerate(names)}
    code = template.replace(
        co_varnames=tuple(rename.get(n, n) for n in template.co_varnames),
        co_consts=tuple(rename.get(c, c) if isinstance(c, str) else c
                        for c in template.co_consts),
        co_qualname=f"{cls.__qualname__}.__init__")
    namespace: dict[str, Any] = {"__record_set__": object.__setattr__, "__record_zip__": zip,
                                 "__record_factory__": _FACTORY, "__record_names__": names}
    namespace.update((f"__make_{i}", f.default_factory) for i, f in enumerate(fields)
                     if made[i])
    defaults = {f.name: _FACTORY if made[i] else f.default for i, f in enumerate(fields)
                if made[i] or f.default is not dataclasses.MISSING}
    init = types.FunctionType(code, namespace, "__init__", tuple(
        defaults[f.name] for f in fields if not f.kw_only and f.name in defaults) or None)
    init.__kwdefaults__ = {f.name: defaults[f.name] for f in fields
                           if f.kw_only and f.name in defaults} or None
    init.__qualname__ = f"{cls.__qualname__}.__init__"  # as TypeErrors name it
    init.__module__ = cls.__module__
    return init


@functools.cache
def _template(kw_only: tuple[bool, ...], made: tuple[bool, ...], post_init: bool,
              fill: bool) -> types.CodeType:
    """The code of an `__init__` for records of one shape, its fields named `_0`, `_1`...

    Compiling an `__init__` costs 0.1 ms; the schema's records come in a few shapes, so
    each shape is compiled once, and each class gets a renamed copy (`code.replace`),
    the same code as if compiled for its own names."""
    ordered = [f"_{i}" for i, kw in enumerate(kw_only) if not kw]
    keyword = [f"_{i}" for i, kw in enumerate(kw_only) if kw]
    params = ["__record_self__", *ordered, *(["*", *keyword] if keyword else [])]
    if fill:
        values = "".join(f"_{i}, " for i in range(len(kw_only)))
        lines = [f" __record_self__.__dict__.update(__record_zip__(__record_names__, "
                 f"({values})))"]
    else:
        lines = [f" __record_set__(__record_self__, '_{i}', "
                 + (f"__make_{i}() if _{i} is __record_factory__ else _{i})" if made[i] else
                    f"_{i})")
                 for i in range(len(kw_only))]
    if post_init:
        lines.append(" __record_self__.__post_init__()")
    namespace: dict[str, Any] = {}
    exec(f"def __init__({', '.join(params)}):\n" + ("\n".join(lines) or " pass"), namespace)
    code: types.CodeType = namespace["__init__"].__code__
    return code


def _fields_of(cls: type[Any], kw_only: bool) -> tuple[dataclasses.Field[Any], ...]:
    """The fields of a record, as `dataclasses.dataclass` would find them: one per
    annotation of the class itself, its default (or `field(...)`) from the class body."""
    fields = []
    for name, annotation in inspect.get_annotations(cls).items():
        if refused := _not_a_field(annotation):
            raise TypeError(f"{cls.__name__}.{name}: a record has no {refused}")
        value = cls.__dict__.get(name, dataclasses.MISSING)
        made: dataclasses.Field[Any] = (value if isinstance(value, dataclasses.Field)
                                        else dataclasses.field(default=value))
        made.name, made.type = name, annotation
        made._field_type = dataclasses._FIELD  # type: ignore[attr-defined]  # fields() reads it
        if made.kw_only is dataclasses.MISSING:
            made.kw_only = kw_only
        if made.default is not dataclasses.MISSING and made.default.__class__.__hash__ is None:
            raise ValueError(f"{cls.__name__}.{name}: mutable default {type(made.default)} "
                             "is not allowed: use default_factory")
        if isinstance(value, dataclasses.Field):
            # What a dataclass leaves as the class attribute: the default, if any.
            if made.default is dataclasses.MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, made.default)
        fields.append(made)
    positional = [f for f in fields if not f.kw_only]
    for before, after in itertools.pairwise(positional):
        if _has_default(before) and not _has_default(after):
            raise TypeError(f"{cls.__name__}: non-default argument '{after.name}' follows "
                            "default argument")
    return tuple(fields)


def _not_a_field(annotation: Any) -> str:
    """What a dataclass makes no field of, as an error names it (ClassVar, InitVar,
    KW_ONLY); '' for a field. An annotation is its text, or the object itself in a module
    without `from __future__ import annotations` (the schema's)."""
    if isinstance(annotation, str):
        return annotation if annotation.startswith(_NOT_FIELDS) else ""
    if annotation is ClassVar or typing.get_origin(annotation) is ClassVar:
        return "ClassVar"
    if annotation is dataclasses.InitVar or isinstance(annotation, dataclasses.InitVar):
        return "InitVar"
    return "KW_ONLY" if annotation is dataclasses.KW_ONLY else ""


def _has_default(f: dataclasses.Field[Any]) -> bool:
    """Whether a field may be left out of `__init__`'s arguments."""
    return f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING


def _make(cls: type[T], kw_only: bool) -> type[T]:
    """The class as a frozen dataclass whose methods are the shared ones above."""
    if cls.__bases__ != (object,):
        raise TypeError(f"{cls.__name__}: a record derives from no other class")
    # A docstring of our own: without one, the dataclass builds one from the signature.
    if not cls.__doc__:
        cls.__doc__ = f"{cls.__name__}({', '.join(inspect.get_annotations(cls))})"
    own = set(vars(cls))
    fields = _fields_of(cls, kw_only)
    keyed = [f.name for f in fields if f.compare]
    shared = {
        "__dataclass_fields__": {f.name: f for f in fields},
        "__match_args__": tuple(f.name for f in fields if not f.kw_only),
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
