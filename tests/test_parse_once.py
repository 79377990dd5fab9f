"""Parsing is remembered by content, so a watch rebuild re-parses only changed files."""

from __future__ import annotations

from progress_site.yamlsource import parse_once


def test_same_text_is_parsed_once_and_each_caller_gets_its_own_document() -> None:
    first, _ = parse_once("a: 1\n", "x.yaml")
    first.data = None  # what load.read_yaml does to a file that is not a mapping
    second, problems = parse_once("a: 1\n", "x.yaml")
    assert second.data == {"a": 1} and problems == []
    assert second is not first


def test_changed_text_is_parsed_again() -> None:
    assert parse_once("a: 1\n", "y.yaml")[0].data == {"a": 1}
    assert parse_once("a: 2\n", "y.yaml")[0].data == {"a": 2}


def test_problems_are_remembered_too() -> None:
    _, problems = parse_once("a: [1\n", "z.yaml")
    _, again = parse_once("a: [1\n", "z.yaml")
    assert problems == again and problems[0].message.startswith("YAML syntax error")
    again.clear()
    assert parse_once("a: [1\n", "z.yaml")[1] == problems
