"""How a page becomes bytes: its body printed as is, its text encoded in slices."""

from __future__ import annotations

import jinja2
import pytest

from progress_site.render import Body, utf8


@pytest.mark.parametrize(("pieces", "size"), [
    ([], 4),
    (["", "abc"], 4),
    (["abcdefgh", "ij"], 4),
    (["μs é · 12\u202f345", "x"], 3),
    (["<p>ΑΒΓ</p>" * 5], 1),
])
def test_utf8_is_the_joined_text_encoded(pieces: list[str], size: int) -> None:
    assert utf8(iter(pieces), size) == "".join(pieces).encode("utf-8")


def test_body_is_printed_as_it_is_under_autoescape() -> None:
    env = jinja2.Environment(autoescape=True)
    html = env.from_string("<main>{{ body }}</main>{{ text }}").render(
        body=Body('<p class="x">a &amp; b</p>'), text="<p>")
    assert html == '<main><p class="x">a &amp; b</p></main>&lt;p&gt;'
    assert str(Body("<p>")) == "<p>"
