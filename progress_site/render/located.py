"""Problems of a page's body placed at their line and column (one index of its lines,
`Page.lines`), and the references of its prose that name no number."""

from __future__ import annotations

from progress_site.derive.evaluation import evaluate
from progress_site.derive.expressions import ExpressionError
from progress_site.derive.namespace import REFERENCE
from progress_site.derive.site import Model
from progress_site.errors import MAX_LINE, Location, Problem
from progress_site.load.pages import Page
from progress_site.render.markdown import prose_chunks


def located(page: Page, at: int, message: str, hint: str, warning: bool = False
            ) -> Problem:
    """A problem at an offset of a page's body, with its line, column and source."""
    number, line_start, line_end = page.lines.line(at)
    where = Location(page.display, page.body_line + number, at - line_start + 1)
    # Only the part of the line that an error prints (Problem keeps no more).
    low = max(at - MAX_LINE - 1, line_start)
    high = min(line_end, at + MAX_LINE + 2)
    return Problem(where, message, hint=hint, source_line=page.body[low:high],
                   source_from=low - line_start, warning=warning)


def prose_references(text: str, page: Page, model: Model, start: int = 0
                     ) -> list[Problem]:
    """The `{{ references }}` of a Markdown chunk (at offset `start` of the page's body)
    that name no number, each located in the page."""
    found = []
    # The same reference is judged once: its hint ("did you mean") compares it with every
    # name of the site, and a page may repeat one broken reference thousands of times.
    judged: dict[str, ExpressionError | None] = {}
    for match in REFERENCE.finditer(text):
        source = match.group(1)
        if source not in judged:
            judged[source] = broken(source, model)
        why = judged[source]
        if why is not None:
            found.append(located(page, start + match.start(1) + why.offset, why.message,
                                 why.hint))
    return found


def broken(source: str, model: Model) -> ExpressionError | None:
    """Why a reference names no number (where in it, what, a hint); None when it names one."""
    try:
        evaluate(source, model.namespace)
    except ExpressionError as exc:
        return exc
    return None


def page_references(model: Model, pages: tuple[Page, ...]) -> list[Problem]:
    """The references of the pages' prose that name no number, as rendering finds them,
    without rendering (`record` checks a change with them)."""
    return [problem for page in pages for start, part in prose_chunks(page)
            if isinstance(part, str) for problem in prose_references(part, page, model, start)]
