"""What the templates of one language are given: the Jinja environment with the model and
its words, the filters a page calls for every figure, `lookup` (what a block names) and
the helpers of the table, agreement and chart blocks."""

from __future__ import annotations

from gettext import NullTranslations
from types import MappingProxyType
from typing import Any

import jinja2

from progress_site.charts.cache import ChartCache
from progress_site.derive.site import Model
from progress_site.render.blocks.agreement import Agreements
from progress_site.render.blocks.charts import Charts
from progress_site.render.blocks.legend import shown
from progress_site.render.blocks.measurements import form
from progress_site.render.blocks.options import BlockError
from progress_site.render.blocks.tables import Tables
from progress_site.render.dashboard import Dashboard
from progress_site.render.inputs import input_link
from progress_site.render.memo import Memo, Provenance, shared
from progress_site.render.nobreak import whole_dates_markup
from progress_site.render.templates import CompiledTemplates, new_environment
from progress_site.render.words import STATUS_WORDS, Words


def make_environment(loader: jinja2.BaseLoader, compiled: CompiledTemplates | None,
                     translations: NullTranslations, words: Words, model: Model
                     ) -> jinja2.Environment:
    """The Jinja environment of one language (templates.py), with the model and its words."""
    env = new_environment(loader, compiled, translations)
    env.globals.update(model=model, w=words, lang=words.lang, site=model.data.site,
                       statuses=STATUS_WORDS, lookup=Lookup(model))
    # Filters, not globals, where a large page calls them for every figure: Jinja calls
    # a filter directly, a global through a much slower generic call.
    env.filters.update(q=words.quantity, t=words.text, date=words.date,
                       short_date=words.short_date, status=words.status, link=words.link,
                       view=model.view, provenance=Provenance.of,
                       records_provenance=Provenance.of_records, shared=shared,
                       memo=Memo(), input_link=input_link, whole_dates=whole_dates_markup)
    return env


# What a block may name: the collection, the attribute holding the record (for derived
# views), and the singular used in messages.
COLLECTIONS = MappingProxyType({
    "studies": ("study", "study"),
    "budgets": ("budget", "budget"),
    "roadmaps": ("roadmap", "roadmap"),
    "headlines": ("headline", "headline"),
    "machines": ("", "machine"),
    "commits": ("", "commit"),
    "runs": ("", "run"),
    "datasets": ("", "dataset"),
    "profiles": ("", "profile"),
    "measurements": ("", "measurement"),
})


class Lookup:
    """What a block names (`{{< bars optimisation >}}`), or a located error."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.index: dict[str, dict[str, Any]] = {}  # kind -> id -> item, made on first use

    def __call__(self, kind: str, key: str) -> Any:
        if kind not in COLLECTIONS:
            raise BlockError(f"unknown collection '{kind}'")
        inner, singular = COLLECTIONS[kind]
        if kind not in self.index:
            self.index[kind] = {(getattr(i, inner) if inner else i).id: i
                                for i in reversed(self.collection(kind))}
        found = self.index[kind].get(key)
        if found is not None:
            return found
        known = ", ".join(sorted(self.index[kind]))
        raise BlockError(f"no {singular} '{key}' in the data (known: {known or 'none'})",
                         told=bool({kind, f"{kind}.{key}"} & self.model.namespace.told))

    def each(self, kind: str, keys: list[str]) -> list[Any]:
        """Several items of one collection, in the order named."""
        return [self(kind, key) for key in keys]

    def collection(self, kind: str) -> tuple[Any, ...]:
        """A collection by name: derived views where there are some, else the data's."""
        derived = getattr(self.model, kind, None)
        if derived is not None:
            return tuple(derived)
        return tuple(getattr(self.model.data, kind, ()))


def block_helpers(words: Words, model: Model, charts: ChartCache) -> dict[str, Any]:
    """The helpers of one language's table, agreement and chart blocks, as the block
    templates call them; `charts` is the build's, shared by the languages."""
    tables = Tables(words, model.namespace.datasets, "datasets" in model.namespace.told)
    return {"tables": tables, "agreements": Agreements(tables),
            "charts": Charts(model, tables, charts), "dashboard": Dashboard(words, model),
            "legend_statuses": shown, "measurements_form": form}
