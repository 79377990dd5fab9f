"""`FigureKey`: one dotted name a figure, the same in texts, data.json, feeds and changes."""

from __future__ import annotations

import pytest

from progress_site.model.keys import FigureKey, published


@pytest.mark.parametrize(("text", "parts", "parent"), [
    ("measurements.startup", ("measurements", "startup"), "measurements"),
    ("comparisons.cpu.after", ("comparisons", "cpu", "after"), "comparisons.cpu"),
    ("budgets.b.cpu.share", ("budgets", "b", "cpu", "share"), "budgets.b.cpu"),
    ("headlines", ("headlines",), None),
])
def test_a_key_prints_as_it_parses(text: str, parts: tuple[str, ...], parent: str | None
                                   ) -> None:
    key = FigureKey.parse(text)
    assert key.parts == parts and str(key) == text
    assert (str(key.parent) if key.parent else None) == parent
    if key.parent is not None:
        assert key.parent.child(parts[-1]) == key


def test_a_key_is_made_of_ids_and_places() -> None:
    key = FigureKey.of("runs", "net", "stop").child("details").child(0)
    assert str(key) == "runs.net.stop.details.0"
    assert FigureKey.of("a", "b") == FigureKey.parse("a.b")
    assert len({FigureKey.of("a", "b"), FigureKey.parse("a.b")}) == 1


@pytest.mark.parametrize("text", ["", "a..b", ".a", "a."])
def test_a_key_has_no_empty_part(text: str) -> None:
    with pytest.raises(ValueError, match="no empty part"):
        FigureKey.parse(text)


@pytest.mark.parametrize(("path", "key"), [
    ("measurements/startup/figure", "measurements.startup"),
    ("measurements/startup", "measurements.startup"),
    ("studies/s/comparisons/cpu/before", "comparisons.cpu.before"),
    ("studies/s/comparisons/cpu", "comparisons.cpu"),
    ("profiles/light/claims/held/figure", "profiles.light.held"),
    ("profiles/light/claims/held/uses", "profiles.light.held.uses"),
    ("budgets/b/items/cpu/figure", "budgets.b.cpu"),
    ("runs/net/items/stop/figure", "runs.net.stop"),
    ("runs/net/items/stop/details/0/figure", "runs.net.stop.details.0"),
    ("roadmaps/r", "roadmaps.r"),
    ("headlines/h", "headlines.h"),
    ("studies/s", None),
    ("measurements/startup/figure/value", None),
    ("roadmaps/r/tasks/t", None),
])
def test_where_data_json_holds_each_key(path: str, key: str | None) -> None:
    found = published(tuple(path.split("/")))
    assert (str(found) if found else None) == key
