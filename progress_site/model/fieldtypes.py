"""The declared field types of record classes, resolved once and shared.

Reading data needs each record field's type (convert), and so do the walks over the
records (validate). `typing.get_type_hints` gives them, but it compiles every annotation
string anew, for every class: 430 compiles, about 7 ms, on every build's first data file.
`hints` gives exactly what `typing.get_type_hints` gives, the way it does (the same
names, looked up in the same order), but compiles each distinct annotation text once:
the engine writes `Text | None` a hundred times (and the schema's modules write their
types as objects, not text: nothing to compile). Whatever it does not handle in the
same way (an inherited class, a string inside a type, `Annotated`, ...) is handed to
`typing.get_type_hints` itself, so the types are never looser than the stdlib's.
"""

from __future__ import annotations

import functools
import inspect  # dataclasses imports it: no cost
import sys
import types
import typing
from typing import Any, Literal


@functools.cache
def hints(cls: type) -> dict[str, Any]:
    """The resolved field types of a class, as `typing.get_type_hints(cls)` gives them
    (computed once per class; callers must not change the dict)."""
    resolved = _plain_hints(cls)
    return typing.get_type_hints(cls) if resolved is None else resolved


def _plain_hints(cls: type) -> dict[str, Any] | None:
    """The types of a class deriving from nothing, when each is a plain type; else None."""
    if cls.__mro__ != (cls, object):
        return None  # annotations of base classes too: typing knows how they combine
    module = sys.modules.get(cls.__module__)
    # As typing.get_type_hints does for a class: the module's names are looked up before
    # the class's own (a field named like a type does not hide the type).
    module_names = getattr(module, "__dict__", {})
    class_names = dict(vars(cls))
    out = {}
    for name, annotation in inspect.get_annotations(cls).items():
        try:
            value = (eval(_compiled(annotation), class_names, module_names)
                     if isinstance(annotation, str) else annotation)
        except Exception:  # typing raises it again, in its own words
            return None
        if not _plain(value):
            return None
        out[name] = value
    return out


@functools.cache
def _compiled(annotation: str) -> types.CodeType:
    """An annotation's text compiled, once per distinct text."""
    return compile(annotation, "<annotation>", "eval")


def _plain(tp: Any) -> bool:
    """Whether typing.get_type_hints would give this value back unchanged: a class, a
    `Literal`, or a union or generic class (`tuple[...]`, `dict[...]`) of those, with no
    string, None, `Annotated` or `ClassVar` left inside."""
    origin = typing.get_origin(tp)
    if origin is None:
        return isinstance(tp, type)
    if origin is Literal:
        return True
    if not isinstance(origin, type) and origin is not typing.Union:
        return False  # Annotated, ClassVar, Final, Required...: typing changes or refuses
    return all(arg is Ellipsis or _plain(arg) for arg in typing.get_args(tp))
