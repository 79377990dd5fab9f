"""Duplicate ids: no two elements of a page carry the same id.

A link to `page#id` (a feed entry, the roadmap menu, another page) lands on the first
element with that id, a second one is out of reach, and the page is not valid HTML. The
ids come from the page's headings (`{#id}` or their words), from its blocks (the ids of
the records they show) and from its template; each is traced back to the line that gave
it, so that a collision names both places.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from progress_site.derive.namespace import REFERENCE
from progress_site.derive.site import Model
from progress_site.errors import Location, Problem
from progress_site.load.pages import Page
from progress_site.model.walk import walk
from progress_site.render.blocklines import Block
from progress_site.render.markdown import EXPLICIT_ID, prose_chunks, slugify

# An id attribute after a blank, not `data-id="`. Attribute values are escaped, and so
# is every text, so `id="` inside a text or a value reads `id=&#34;`, never this. The
# pattern starts with its literal, which the regex engine scans a page for much faster
# than for a set of blanks; the blank before it is checked after (`element_ids`).
ID_ATTRIBUTE = re.compile(r'id="([^"]*)"')
BLANKS = frozenset(" \t\n\r\f")
ATX_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")

# The blocks whose element ids an `id=` option names (blocks/charts.py, tables.py,
# agreement.py): two of one dataset on a page need one of their own.
NAMED_BY_OPTION = frozenset({"chart", "table", "agreement"})
# A piece of a page's body and its HTML, in page order (PageRenderer.body).
Piece = tuple[str | Block, str]
# A piece of a page's body and the ids of its HTML's elements, in order.
Traced = tuple[str | Block, list[str]]


@dataclass(frozen=True, slots=True)
class Origin:
    """What gave an element its id: a heading, a block or the template."""

    location: Location  # no line: the template's
    what: str  # "heading", "block 'roadmaps' (the roadmap 'x' of data/roadmaps.yaml:5)"
    source_line: str
    heading: bool = False
    block: str = ""  # the block's name, when a block gave the id

    def there(self) -> str:
        """How a message names it from the other place."""
        if not self.location.line:
            return f"the {self.what}"
        where = f"{self.location.file}:{self.location.line}"
        kind, _, rest = self.what.partition(" (")
        return f"the {kind} at {where}" + (f" ({rest}" if rest else "")


def element_ids(html: str) -> list[str]:
    """The ids of the elements of some HTML, in order, repeats kept."""
    return [found.group(1) for found in ID_ATTRIBUTE.finditer(html)
            if found.start() and html[found.start() - 1] in BLANKS]


def duplicate_ids(page: Page, pieces: Sequence[Traced], whole: str, model: Model,
                  body: tuple[int, int] | None = None) -> list[Problem]:
    """Every id given twice on the page (`whole` is its HTML, template included; `pieces`
    the body's, with their ids; `body`, where the body stands in `whole` when it is
    there), as a problem at one of the two places, naming the other."""
    # Each id with the piece that gave it (None: the template); what the pieces are is
    # only worked out for a collision, as it reads the data (see bench/scale.py).
    first: dict[str, int | None] = {}
    # The ids each two places share, in order: one problem a pair of places (a block
    # that collides with another gives its `-title` id twice too).
    shared: dict[tuple[int | None, int | None], list[str]] = {}
    given: Counter[str] = Counter()
    for index, (_, ids) in enumerate(pieces):
        for id_ in ids:
            given[id_] += 1
            if id_ in first:
                shared.setdefault((first[id_], index), []).append(id_)
            else:
                first[id_] = index
    # What the template gives: the ids of the whole page that the body did not.
    for id_ in (Counter(page_ids(whole, pieces, body)) - given).elements():
        if id_ in first:
            shared.setdefault((first[id_], None), []).append(id_)
        else:
            first[id_] = None
    return [collision(ids, origin(page, pieces, one, ids[0], model),
                      origin(page, pieces, other, ids[0], model))
            for (one, other), ids in shared.items()]


def page_ids(whole: str, pieces: Sequence[Traced], body: tuple[int, int] | None
             ) -> list[str]:
    """The ids of the whole page, in order: only the template's part is read again when
    the body's place is known (the body's ids are its pieces')."""
    if body is None:
        return element_ids(whole)
    start, end = body
    return [*element_ids(whole[:start]), *(i for _, ids in pieces for i in ids),
            *element_ids(whole[end:])]


def origin(page: Page, pieces: Sequence[Traced], index: int | None, id_: str, model: Model
           ) -> Origin:
    """What gave an id: the piece of the body at `index` (None: the page's template)."""
    if index is None:
        return Origin(Location(page.display), f"template {page.meta.template}", "")
    part = pieces[index][0]
    if isinstance(part, Block):
        return Origin(Location(page.display, part.line, 1), block_words(part, id_, model),
                      source_of(page, part.line), block=part.name)
    # The pieces are the page's parts in order (PageRenderer.body): where it starts.
    start = next(at for n, (at, _) in enumerate(prose_chunks(page)) if n == index)
    line = page.body_line + page.lines.line(start)[0] + heading_offset(part, id_)
    return Origin(Location(page.display, line, 1), "heading", source_of(page, line),
                  heading=True)


def heading_offset(chunk: str, id_: str) -> int:
    """The line, counted from 0 in a Markdown chunk, of the heading that has this id."""
    lines = chunk.split("\n")
    for offset, text in enumerate(lines):
        match = ATX_HEADING.match(text)
        if match is None:
            continue
        explicit = EXPLICIT_ID.search(match.group(1))
        words = slugify(REFERENCE.sub("", match.group(1)))
        if (explicit.group(1) if explicit else words) == id_:
            return offset
    return next((i for i, text in enumerate(lines) if text.strip()), 0)


def source_of(page: Page, line: int) -> str:
    """One line of the page's file, as errors print it."""
    lines = page.body.split("\n")
    offset = line - page.body_line
    return lines[offset] if 0 <= offset < len(lines) else ""


def block_words(block: Block, id_: str, model: Model) -> str:
    """A block as a message names it, with the record whose id it shows when one is."""
    words = f"block '{block.name}'"
    record = record_of(block, id_, model)
    if record is None:
        return words
    kind = type(record).__name__.lower()
    at = record.where.location
    return f"{words} (the {kind} '{record.id}' of {at.file}:{at.line})"


def record_of(block: Block, id_: str, model: Model) -> Any:
    """The record of the data whose id an element id is (`horizon-team`) or ends with
    (`task-fewer-writes`): the longest such, of the kind the block is named after when
    one is (`roadmap` for `roadmaps`); None when none is. Looked for on a collision."""
    def rank(record: Any) -> tuple[bool, int]:
        return block.name.startswith(type(record).__name__.lower()), len(record.id)

    found = [r for r in walk(model.data) if isinstance(getattr(r, "id", None), str)
             and (id_ == r.id or id_.endswith("-" + r.id))]
    return max(found, key=rank, default=None)


def collision(ids: list[str], first: Origin, second: Origin) -> Problem:
    """The problem of one id given twice, naming the other place: at the heading when one
    is (an author picks its id), else at the later line of the page."""
    def rank(origin: Origin) -> tuple[bool, bool]:
        return origin.heading, origin.location.line > 0

    here, other = (first, second) if rank(first) > rank(second) else (second, first)
    if here.heading:
        hint = "give the heading an id of its own: `## Its words {#another-id}`"
    elif here.block in NAMED_BY_OPTION and here.block == other.block:
        hint = (f"give one of the two {here.block} blocks an id of its own: "
                f"`id=another-id`")
    elif other.location.line == 0:
        hint = "rename the record: the page's template gives this id"
    else:
        hint = "rename one of the two records, or show them on different pages"
    more = f" (and {len(ids) - 1} more: {', '.join(ids[1:])})" if len(ids) > 1 else ""
    return Problem(here.location, f"id '{ids[0]}'{more} is used twice on this page: by this "
                                  f"{here.what} and by {other.there()}", hint=hint,
                   source_line=here.source_line)
