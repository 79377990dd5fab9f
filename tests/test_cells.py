"""memo renders a macro once per distinct argument; a provenance is only what it holds."""

from __future__ import annotations

import dataclasses
import datetime as dt

import jinja2
import pytest

from progress_site.model.figure import Figure
from progress_site.model.values import Text
from progress_site.render.memo import Memo, Provenance

DAY = dt.date(2026, 11, 8)


def environment(memo: Memo, calls: list[str]) -> jinja2.Environment:
    """Templates in memory, with a `count` global that records each macro run."""
    env = jinja2.Environment(
        loader=jinja2.DictLoader({
            "macros.html": '{% macro badge(status) %}{{ count(status) }}<b>{{ status }}</b>'
                           '{% endmacro %}',
            "page.html": '{% from "macros.html" import badge %}'
                         '{% for s in statuses %}{{ badge|memo(s) }}{% endfor %}',
        }),
        autoescape=True, undefined=jinja2.StrictUndefined)
    env.globals["count"] = lambda s: calls.append(s) or ""
    env.filters["memo"] = memo
    return env


def test_memo_runs_a_macro_once_per_argument() -> None:
    calls: list[str] = []
    env = environment(Memo(), calls)
    html = env.get_template("page.html").render(statuses=["done", "planned", "done", "<x>"])
    assert html == "<b>done</b><b>planned</b><b>done</b><b>&lt;x&gt;</b>"
    assert calls == ["done", "planned", "<x>"]


def test_memo_of_another_macro_is_rendered_apart() -> None:
    memo = Memo()
    first = memo(lambda s: f"a{s}", "x")
    assert memo(lambda s: f"b{s}", "x") == "bx"
    assert first == "ax"


def test_provenance_holds_only_where_a_figure_comes_from() -> None:
    fig = Figure(machine="box", date=DAY, commit="aaaaaaa", note=Text((("en", "n"),)))
    prov = Provenance.of(fig)
    assert (prov.machine, prov.date, prov.commit, prov.run, prov.method, prov.proof) == (
        "box", DAY, "aaaaaaa", None, None, None)
    assert not hasattr(prov, "note")
    with pytest.raises(dataclasses.FrozenInstanceError):
        prov.machine = "other"  # type: ignore[misc]
    assert repr(prov).startswith("Provenance(machine='box', date=datetime.date(")


def test_provenances_alike_are_equal_ok() -> None:
    one = Provenance.of(Figure(machine="box", date=DAY, commit="aaaaaaa"))
    two = Provenance.of(Figure(machine="box", date=DAY, commit="aaaaaaa"))
    assert one == two
    assert hash(one) == hash(two)


def test_same_method_words_in_two_scopes_are_not_the_same_provenance() -> None:
    # A text's references are read in the scope where it was written: equal words
    # written in two records may print differently, so they are not shared.
    method = Text((("en", "{{ x }}"),), scope="comparisons.a")
    twin = Text((("en", "{{ x }}"),), scope="comparisons.b")
    same = Text((("en", "{{ x }}"),), scope="comparisons.a")
    assert Provenance.of(Figure(method=method)) == Provenance.of(Figure(method=same))
    assert Provenance.of(Figure(method=method)) != Provenance.of(Figure(method=twin))


def test_figures_from_other_sources_have_their_own_provenance() -> None:
    provenance = Provenance.of
    first = provenance(Figure(machine="box", date=DAY, commit="aaaaaaa"))
    others = [provenance(Figure(machine="box", date=DAY, commit="bbbbbbb")),
              provenance(Figure(machine="box", date=DAY + dt.timedelta(days=1),
                                commit="aaaaaaa")),
              provenance(Figure(method=Text((("en", "{{ x }}"),), scope="comparisons.a"))),
              provenance(Figure(method=Text((("en", "{{ x }}"),), scope="comparisons.b")))]
    assert [p.commit for p in others[:2]] == ["bbbbbbb", "aaaaaaa"]
    assert len({first, *others}) == 5
