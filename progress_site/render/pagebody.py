"""A page's body inside its template: printed by Jinja, or spliced in as bytes.

A large page's body is megabytes of HTML (10,000 figures: 5.5 MB, twice that in memory
once a French narrow space makes it two bytes a character). Printed through Jinja it is
copied three times (the pieces joined, MarkupSafe's Markup of it, the page joined) before
it is encoded. The engine's own templates print it once, as `{{ body }}`, and nothing
else: those render around a mark, and the encoded pieces are put where the mark is
(bench/hugo_peer.py). A site's own templates, which may read the body as they like, get
the body itself (`PageBody`).
"""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup

# What the engine's page template prints in place of the body: noncharacters, which no
# text of the data, the pages or the catalogs may hold (characters.py).
MARK = "\ufdd0body\ufdd0"


class PageBody:
    """A page's body as its template prints it: HTML through `__html__`, the protocol
    Jinja and MarkupSafe read. Printing it copies it once; a Markup made of the joined
    pieces would have copied a large page once more, beside its pieces."""

    __slots__ = ("html",)

    def __init__(self, html: str) -> None:
        self.html = html

    def __html__(self) -> str:
        return self.html

    def __str__(self) -> str:
        return Markup(self.html)  # a filter that reads it as text reads HTML, as before

    def __len__(self) -> int:
        return len(self.html)


class BodyMark:
    """What the engine's templates are given as the body: the mark, printed once."""

    __slots__ = ()

    def __html__(self) -> str:
        return MARK


def spliced(html: str, pieces: Sequence[str]) -> bytes | None:
    """The page as bytes: `html`, rendered around a `BodyMark`, with the body's pieces
    (joined by newlines, as `PageBody` is) encoded in the mark's place; None when the mark
    is not there exactly once."""
    head, found, tail = html.partition(MARK)
    if not found or MARK in tail:
        return None
    body = b"\n".join(piece.encode("utf-8") for piece in pieces)
    return b"".join((head.encode("utf-8"), body, tail.encode("utf-8")))
