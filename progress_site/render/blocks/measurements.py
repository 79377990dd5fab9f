"""`measurements`: which form the block takes, a list of figures or a table of them."""

from __future__ import annotations

from collections.abc import Mapping

from progress_site.errors import did_you_mean
from progress_site.render.blocks.options import BlockError, only_known

FORMS = ("list", "table")  # the first is the default
OPTIONS = ("form",)


def form(options: Mapping[str, str]) -> str:
    """The form a `measurements` line asks for (`form=table`), checked."""
    only_known("measurements", options, OPTIONS)
    written = options.get("form", FORMS[0])
    if written not in FORMS:
        raise BlockError(f"measurements form=: expected one of {', '.join(FORMS)}, got "
                         f"'{written[:40]}'", did_you_mean(written, FORMS, "known forms"))
    return written
