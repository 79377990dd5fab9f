"""A derived figure's inputs, linked where the page shows them.

The source of a derived figure lists the figures its formula reads, each linked to the
element that shows it (`#measurement-ID`, a comparison's section, a budget, a run item).
Which blocks a page holds is the page's choice, so a link is kept only when the page
has its target: the others become plain words, and no link on a page leads nowhere.
"""

from __future__ import annotations

import re

from markupsafe import Markup

from progress_site.model.keys import FigureKey
from progress_site.render.ids import element_ids

# An input's link as `templates/macros.html` writes it (the engine's own markup).
INPUT = 'class="input"'
INPUT_LINK = re.compile(r'<a class="input" href="#([^"]*)">(.*?)</a>', re.S)


def anchor(key: FigureKey) -> str:
    """The id of the element of the built-in blocks that shows a figure."""
    kind, *ids = key.parts
    if kind == "measurements":
        return f"measurement-{ids[0]}"
    if kind == "comparisons":
        return ids[0]
    if kind == "budgets":
        return f"budget-{ids[0]}"
    if kind == "runs":
        return f"run-{ids[0]}-{ids[1]}"
    return f"profile-{ids[0]}" if kind == "profiles" else "top"


def unlinked(html: str) -> str:
    """The page with each input's link that leads to no element of it made plain words."""
    if INPUT not in html:
        return html
    ids = set(element_ids(html))
    return INPUT_LINK.sub(lambda m: m.group(0) if m.group(1) in ids
                          else f'<span class="input">{m.group(2)}</span>', html)


def input_link(key: FigureKey) -> Markup:
    """An input's link, by its key (the `input_link` filter)."""
    return Markup('<a class="input" href="#{}">{}</a>').format(anchor(key), str(key))
