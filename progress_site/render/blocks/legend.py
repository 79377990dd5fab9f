"""`legend`: the statuses a page shows, read from its badges once the rest is rendered.

A legend sits above most of what it explains, so `PageRenderer.body` renders it last,
given the statuses of every badge of the page's other blocks (`used_in`); `all=true`
lists every status, as a page about the statuses themselves would.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from progress_site.render.blocks.options import FALSE, TRUE, BlockError, only_known

# The statuses the legend explains, in its order (render/words.py has their words).
STATUSES = ("measured", "watch", "over-limit", "estimate", "not-judgeable", "shown",
            "not-shown", "done", "in-progress", "planned")
# A badge as the `badge` macro of templates/macros.html writes it: the one place badges
# are made, so what it wrote is what the page shows.
BADGE = re.compile(r'<span class="badge badge-([a-z-]+)">')
OPTIONS = ("all",)


def used_in(pieces: Iterable[str]) -> frozenset[str]:
    """The statuses of the badges in these pieces of HTML."""
    return frozenset(m.group(1) for html in pieces for m in BADGE.finditer(html))


def shown(options: Mapping[str, str], used: frozenset[str]) -> tuple[str, ...]:
    """The statuses a legend lists: those used, or all of them with `all=true`."""
    only_known("legend", options, OPTIONS)
    written = options.get("all", "false")
    if written.lower() not in TRUE + FALSE:
        raise BlockError(f"legend all=: expected true or false, got '{written[:40]}'",
                         "write all=true to list every status")
    return STATUSES if written.lower() in TRUE else tuple(s for s in STATUSES if s in used)
