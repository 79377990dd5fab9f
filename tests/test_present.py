"""How Words prints a link: its address and words escaped, words made from its number."""

from __future__ import annotations

import pytest
from babel.support import NullTranslations
from markupsafe import Markup

from progress_site.derive.namespace import Namespace
from progress_site.model.declare import Link
from progress_site.model.schema import Repository, Site
from progress_site.model.values import Text
from progress_site.render.markdown import inline_html
from progress_site.render.words import Words


def text(words: str) -> Text:
    """The same words in every language."""
    return Text((("*", words),), neutral=True)


SITE = Site(title=text("T"), tagline=text("T"), repository="own",
            repositories=(Repository(id="own", name=text("Own"), url="https://x.org/own/"),
                          Repository(id="up", name=text("Up & co"), url="https://x.org/up")))
WORDS = Words("en", NullTranslations(), SITE, Namespace({}, {}))


@pytest.mark.parametrize(("link", "expected"), [
    (Link(url="https://x.org/a?b=1&c=\"2\"", text=text("*a* & 'b'")),
     '<a href="https://x.org/a?b=1&amp;c=&#34;2&#34;"><em>a</em> &amp; \'b\'</a>'),
    (Link(url="https://x.org/<x>"), '<a href="https://x.org/&lt;x&gt;">https://x.org/&lt;x&gt;</a>'),
    (Link(pull=12), '<a href="https://x.org/own/pull/12">pull request #12</a>'),
    (Link(issue=3, repository="up"),
     '<a href="https://x.org/up/issues/3">Up &amp; co issue #3</a>'),
])
def test_link(link: Link, expected: str) -> None:
    html = WORDS.link(link)
    assert isinstance(html, Markup)
    assert html == expected


@pytest.mark.parametrize("words", [
    "plain words", "*emphasis* & <b>", "a {{< b >}}", "[x](javascript:alert(1))",
])
def test_words_without_references_read_as_the_parser_prints_them(words: str) -> None:
    # inline() skips the parser's words for text that cites nothing: the same HTML.
    assert WORDS.inline(words) == inline_html(words, lambda expression: None)
