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
from jinja2.runtime import Context
from markupsafe import Markup

EXTENSION = "jinja2.ext.i18n"
IDENTIFIER = "jinja2.ext.InternationalizationExtension"  # its key in env.extensions


def install(env: jinja2.Environment, gettext: Callable[[str], str],
            ngettext: Callable[[str, str, int], str]) -> None:
    """What `install_gettext_callables(gettext, ngettext, newstyle=True)` installs."""
    env.newstyle_gettext = True  # type: ignore[attr-defined]  # read by the extension
    env.globals.update(gettext=new_gettext(gettext), ngettext=new_ngettext(ngettext),
                       _=gettext_alias)


def compile_template(env: jinja2.Environment, source: str, name: str,
                     filename: str | None) -> CodeType:
    """`env.compile`, with the i18n extension's tags known to the compiler."""
    if IDENTIFIER not in env.extensions:
        env.add_extension(EXTENSION)  # keeps the installed callables and newstyle
    code: CodeType = env.compile(source, name, filename)
    return code


@jinja2.pass_context
def gettext_alias(context: Context, *args: Any, **kwargs: Any) -> Any:
    """`_()`: the `gettext` the template sees."""
    return context.call(context.resolve("gettext"), *args, **kwargs)


def new_gettext(func: Callable[[str], str]) -> Callable[..., str]:
    """`gettext(message, **variables)`: the translation, variables %-formatted in."""

    @jinja2.pass_context
    def gettext(context: Context, message: str, /, **variables: Any) -> str:
        text = context.call(func, message)
        if context.eval_ctx.autoescape:
            text = Markup(text)
        # Always a format string, even without variables, as Jinja's: a `%%` in a
        # message reads the same whether or not it has variables.
        formatted: str = text % variables  # Markup stays Markup: escaped once
        return formatted

    return gettext


def new_ngettext(func: Callable[[str, str, int], str]) -> Callable[..., str]:
    """`ngettext(singular, plural, num, **variables)`, `num` among the variables."""

    @jinja2.pass_context
    def ngettext(context: Context, singular: str, plural: str, num: int, /,
                 **variables: Any) -> str:
        variables.setdefault("num", num)
        text = context.call(func, singular, plural, num)
        if context.eval_ctx.autoescape:
            text = Markup(text)
        formatted: str = text % variables
        return formatted

    return ngettext
