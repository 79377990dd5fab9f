"""The templates' `striptags` filter prints what Jinja's own does, for any value."""

from __future__ import annotations

import jinja2
import pytest
from markupsafe import Markup

from progress_site.render.pages import striptags

CASES = [
    "Meridian", "  two   words\n", "", "<b>bold</b> text", "a &amp; b", "&lt;b&gt;",
    "<em>x</em>&nbsp;y", "1 < 2", "café  ·  naïve", "<!-- note -->seen", 12, 1.5, None,
    Markup("<i>Horizon</i> &amp; co"), Markup("plain  words"),
]


@pytest.mark.parametrize("value", CASES)
def test_striptags_agrees_with_jinja(value: object) -> None:
    jinjas = jinja2.Environment().filters["striptags"]
    assert striptags(value) == jinjas(value)


def test_a_template_uses_it_and_escapes_what_it_gives() -> None:
    env = jinja2.Environment(autoescape=True)
    env.filters["striptags"] = striptags
    out = env.from_string("{{ v|striptags }}").render(v="<b>a</b> &lt;x&gt;")
    assert out == "a &lt;x&gt;"
