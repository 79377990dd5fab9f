"""Templates translate as with Jinja's i18n extension installed up front (newstyle), though
templatetext.py adds the extension only to compile a template."""

from __future__ import annotations

import jinja2
import pytest

from progress_site.render import template_text as templatetext

CATALOG = {"Hello %(name)s": "Bonjour %(name)s", "100%% sure": "sûr à 100%%",
           "<b>bold</b>": "<b>gras</b>", "%(num)s figure": "%(num)s chiffre",
           "%(num)s figures": "%(num)s chiffres", "%(count)s figure": "%(count)s chiffre",
           "%(count)s figures": "%(count)s chiffres"}


def gettext(message: str) -> str:
    return CATALOG.get(message, message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return gettext(singular if n == 1 else plural)


TEMPLATES = [
    "{% trans %}Hello {{ name }}{% endtrans %}",
    "{% trans count=n %}{{ count }} figure{% pluralize %}{{ count }} figures{% endtrans %}",
    "{{ _('Hello %(name)s', name=name) }}",
    "{{ gettext('100%% sure') }} {{ _('<b>bold</b>') }}",
    "{{ ngettext('%(num)s figure', '%(num)s figures', n) }}",
    "{% trans %}100% sure{% endtrans %}",
    "{{ _('<b>bold</b>') }}{% autoescape false %}{{ _('<b>bold</b>') }}{% endautoescape %}"
    "{{ _('<b>bold</b>') }}",
]


def jinjas(autoescape: bool) -> jinja2.Environment:
    env = jinja2.Environment(autoescape=autoescape, extensions=["jinja2.ext.i18n"])
    env.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]
    return env


def ours(autoescape: bool) -> jinja2.Environment:
    env = jinja2.Environment(autoescape=autoescape)
    templatetext.install(env, gettext, ngettext)
    return env


@pytest.mark.parametrize("autoescape", [True, False])
@pytest.mark.parametrize("source", TEMPLATES)
@pytest.mark.parametrize("n", [1, 3])
def test_a_template_reads_as_with_jinjas_extension(source: str, autoescape: bool,
                                                   n: int) -> None:
    theirs, env = jinjas(autoescape), ours(autoescape)
    assert templatetext.IDENTIFIER not in env.extensions
    code = templatetext.compile_template(env, source, "t.html", None)
    assert templatetext.IDENTIFIER in env.extensions
    made = jinja2.Template.from_code(env, code, env.make_globals(None))
    values = {"name": "<Ada>", "n": n}
    assert made.render(values) == theirs.from_string(source).render(values)


def test_compiled_code_runs_in_an_environment_without_the_extension() -> None:
    # As a build whose templates all come from the cache: compiled once, elsewhere.
    compiler = ours(True)
    code = templatetext.compile_template(compiler, TEMPLATES[1], "t.html", None)
    env = ours(True)
    made = jinja2.Template.from_code(env, code, env.make_globals(None))
    assert made.render(n=3) == "3 chiffres"
    assert templatetext.IDENTIFIER not in env.extensions
