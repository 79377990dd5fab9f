"""Translated text in templates: `{% trans %}`, `_()`, `gettext()` and `ngettext()`.

Jinja's i18n extension does two things: its tags are read when a template is compiled,
and it installs the callables compiled templates call. A build whose templates all come
compiled from the cache (bytecode.py) needs only the second, so the environments get the
callables from here, made as the extension makes them in its "newstyle" (the template's
variables are %-formatted into the translation, escaped), and the extension itself, with
its module (~2 ms to import), is added to an environment only when it compiles a template.
"""

from __future__ import annotations

from collections.abc import Callable
from types import CodeType
from typing import Any

import jinja2
from jinja2.nodes import EvalContext
from markupsafe import Markup

EXTENSION = "jinja2.ext.i18n"
IDENTIFIER = "jinja2.ext.InternationalizationExtension"  # its key in env.extensions


def install(env: jinja2.Environment, gettext: Callable[[str], str],
            ngettext: Callable[[str, str, int], str]) -> None:
    """What `install_gettext_callables(gettext, ngettext, newstyle=True)` installs, for
    plain callables (called directly, not through the template's context). `_` is the
    same function as `gettext`, where Jinja's looks `gettext` up again at each call: a
    page calls `_()` a few hundred times, and the templates never rebind `gettext`."""
    env.newstyle_gettext = True  # type: ignore[attr-defined]  # read by the extension
    translated = new_gettext(gettext)
    env.globals.update(gettext=translated, ngettext=new_ngettext(ngettext), _=translated)


def compile_template(env: jinja2.Environment, source: str, name: str,
                     filename: str | None) -> CodeType:
    """`env.compile`, with the i18n extension's tags known to the compiler."""
    if IDENTIFIER not in env.extensions:
        env.add_extension(EXTENSION)  # keeps the installed callables and newstyle
    code: CodeType = env.compile(source, name, filename)
    return code


def new_gettext(func: Callable[[str], str]) -> Callable[..., str]:
    """`gettext(message, **variables)`: the translation, variables %-formatted in; a
    message without variables is formatted once (its text never changes in a build)."""
    done: dict[tuple[str, bool], str] = {}

    @jinja2.pass_eval_context
    def gettext(eval_ctx: EvalContext, message: str, /, **variables: Any) -> str:
        if variables:
            return formatted(func(message), eval_ctx.autoescape, variables)
        key = (message, eval_ctx.autoescape)
        text = done.get(key)
        if text is None:
            text = done[key] = formatted(func(message), eval_ctx.autoescape, {})
        return text

    return gettext


def new_ngettext(func: Callable[[str, str, int], str]) -> Callable[..., str]:
    """`ngettext(singular, plural, num, **variables)`, `num` among the variables."""

    @jinja2.pass_eval_context
    def ngettext(eval_ctx: EvalContext, singular: str, plural: str, num: int, /,
                 **variables: Any) -> str:
        variables.setdefault("num", num)
        return formatted(func(singular, plural, num), eval_ctx.autoescape, variables)

    return ngettext


def formatted(text: str, autoescape: bool, variables: dict[str, Any]) -> str:
    """A translation with its variables, as Jinja's newstyle gettext makes it: always a
    %-format, even without variables (`%%` reads the same with or without them), and
    escaped where the template autoescapes (Markup escapes the variables, once)."""
    result: str = (Markup(text) if autoescape else text) % variables
    return result
