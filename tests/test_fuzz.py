"""Fuzzing: Hypothesis writes data files, the build reads them; it only ever fails with
BuildFailed (located problems), and the command line never prints a traceback.

Three kinds of input: records shaped by the schema (right and wrong types, known and
unknown keys, ids that do and do not match), the example's own files with random edits,
and any text at all. The content page uses every block, so that what loads is rendered.
Then one property each for run records (JSON lines of any values: huge and precise
numbers, deep nesting, escapes of control characters and halves of characters), `{{ ...
}}` statements, block options, and file names. Derandomized and bounded, so that CI sees
the same examples every run.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import tempfile
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from progress_site.errors import BuildFailed
from progress_site.load.site import load
from progress_site.model import schema
from progress_site.model.declare import fields, hints
from progress_site.model.values import Number, Text
from progress_site.pipeline import BuildConfig, finish, make_site, prepare

from .conftest import HOSTILE_BASE, REPO, SOURCE_DATE_EPOCH, TEMPLATES, TODAY, copy_hostile_base

# What references may name: the base site's own records below, and one that is missing.
NAMES = {"machines": ["a", "b"], "commits": ["a", "b"], "runs": ["a", "b"],
         "repositories": ["base", "b"], "units": ["ms", "%", "cores", "KB"]}
BASE_DATA = """\
machines: [{id: a, name: A}]
commits: [{id: a, label: A, pull: 1}]
runs: [{id: a, title: A, machine: a, date: 2026-01-01, commit: a}]
"""
# Blocks for every collection; those that need an id get 'a', when the data has one.
BLOCKS = "{{< headlines >}}\n\n{{< legend >}}\n\n{{< machines >}}\n\n{{< profiles >}}\n\n" \
         "{{< roadmaps >}}\n\n{{< run a >}}\n"
NAMED_BLOCKS = {"studies": "{{< versions a >}}\n\n{{< bars a >}}\n\n{{< comparisons a >}}\n",
                "budgets": "{{< budget a >}}\n", "roadmaps": "{{< roadmap a >}}\n",
                "measurements": "It is {{ measurements.a }}.\n"}
FUZZ = settings(max_examples=150, deadline=10_000, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

WORDS = st.sampled_from(["", "a", "b", "x y", "<b>", "{{ a }}", "[l](javascript:x)", "é",
                         "measured", "done", "cores", "https://example.org", "#a"])
TEXTS = st.one_of(WORDS, st.text(st.characters(exclude_categories=("Cc", "Cf", "Cs")),
                                  max_size=12))
JUNK = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), TEXTS,
                 st.floats(allow_nan=True, allow_infinity=True, width=32),
                 st.dates(dt.date(1900, 1, 1), dt.date(2200, 1, 1)),
                 st.lists(WORDS, max_size=2), st.dictionaries(WORDS, WORDS, max_size=2))


def mostly(right: st.SearchStrategy[Any], wrong: st.SearchStrategy[Any] = JUNK,
           odds: int = 15) -> st.SearchStrategy[Any]:
    """`right` nearly always; `wrong` about once in `odds` draws."""
    return st.integers(0, odds - 1).flatmap(lambda i: wrong if i == 0 else right)


def typed(tp: Any, depth: int, ref: str = "") -> st.SearchStrategy[Any]:
    """Values of the right type for a declared field (a reference names known ids)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        inner = next(a for a in args if a is not type(None))
        return st.one_of(st.none(), typed(inner, depth, ref))
    if origin is tuple:
        return st.lists(mostly(typed(args[0], depth - 1, ref)), max_size=3 if depth else 0)
    if origin is Literal:
        return st.sampled_from(args)
    if ref:
        return st.sampled_from(NAMES[ref])
    if tp is Text:
        return st.one_of(TEXTS, st.fixed_dictionaries({"en": TEXTS, "fr": TEXTS}),
                         st.fixed_dictionaries({}, optional={"en": TEXTS, "fr": TEXTS}))
    if tp is Number:
        return st.one_of(st.integers(-10**6, 10**6),
                         st.floats(-1e6, 1e6, allow_nan=False, width=32))
    if tp is int:
        return st.integers(-10, 10**6)
    if tp is bool:
        return st.booleans()
    if tp is dt.date:
        return st.dates(dt.date(2000, 1, 1), dt.date(2100, 1, 1))
    if tp is str:
        return st.one_of(st.sampled_from(["a", "b", "c"]), TEXTS)
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return record(tp, depth - 1)
    return JUNK


# Languages come from a few lists, a code Babel does not know among them: random words
# would only ever test that one refusal.
OVERRIDES = {("Site", "languages"): st.sampled_from(
    [["en", "fr"], ["en"], ["fr", "en"], [], ["en", "en"], ["en", "xx"]])}


def record(cls: type, depth: int) -> st.SearchStrategy[dict[str, Any]]:
    """A mapping shaped like a record: its required keys (nearly always), any of the
    others, and now and then a key it does not know."""
    required, optional = {}, {}
    for f in fields(cls):
        value = OVERRIDES.get((cls.__name__, f.name))
        if value is None:
            value = mostly(typed(hints(cls)[f.name], depth, f.metadata.get("ref", "")))
        if f.default is dataclasses.MISSING:
            required[f.name] = value
        else:
            optional[f.name] = value
    unknown = st.dictionaries(st.sampled_from(["colour", "idd", "valeu"]), JUNK, max_size=1)
    return st.builds(lambda d, extra: {**d, **extra},
                     mostly(st.fixed_dictionaries(required, optional=optional),
                            st.fixed_dictionaries({}, optional={**required, **optional})),
                     mostly(st.just({}), unknown, odds=10))


COLLECTIONS = {f.name: typing.get_args(hints(schema.Data)[f.name])[0]
               for f in fields(schema.Data) if f.name != "site"}
SHAPED = st.fixed_dictionaries({}, optional={
    name: st.lists(record(cls, 4), min_size=1, max_size=2)
    for name, cls in COLLECTIONS.items()})
EXAMPLE_FILES = sorted((REPO / "data").glob("*.yaml"))


@st.composite
def edited_example(draw: st.DrawFn) -> tuple[str, str]:
    """One of the example's files, with a few random edits."""
    path = draw(st.sampled_from(EXAMPLE_FILES))
    text = path.read_text("utf-8")
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 8))
        text = text[:at] + draw(st.sampled_from(["", ":", "- ", "  ", "\n", "{", "]", "'",
                                                 "&a ", "*a", "!!python/object ", "0",
                                                 "x"])) + text[at + cut:]
    return f"data/{path.name}", text


# Content pages: front matter or not, Markdown's special characters, blocks, references.
MARKDOWN = st.lists(st.sampled_from([
    "---\n", "title: T\n", "template: page.html\n", "# ", "## H {#h}\n", "- ", "1. ", "> ",
    "```\n", "    ", "|a|b|\n|-|-|\n", "[", "]", "(", ")", "![", "<", ">", "*", "_", "`",
    "&#x202e;", "&amp;", "\n", "\n\n", "{{< machines >}}\n", "{{< bars a >}}\n",
    "{{< nope >}}\n", "{{ measurements.a }}", "{{ ", " }}", "{{< ", " >}}", "text ", "é",
    "https://example.org", "javascript:x", "\\", "{#", "}"]), max_size=40).map("".join)


def dump(data: Any) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


DOCUMENTS = st.one_of(
    SHAPED.map(lambda d: ("data/fuzz.yaml", dump(d))),
    SHAPED.map(lambda d: ("data/fuzz.yaml", dump(d))),
    record(schema.Site, 3).map(lambda d: ("data/site.yaml", dump({"site": d}))),
    edited_example(),
    st.text(max_size=200).map(lambda t: ("data/fuzz.yaml", t)),
    MARKDOWN.map(lambda t: ("content/fr/fuzz.md", t)),
)


def page(text: str) -> str:
    """A content page with every block the data can fill."""
    try:
        data = yaml.safe_load(text)
    except (yaml.YAMLError, ValueError, RecursionError):  # ValueError: 2026-02-30
        data = None
    named = [block for name, block in NAMED_BLOCKS.items() if isinstance(data, dict)
             and isinstance(data.get(name), list)
             and any(isinstance(r, dict) and r.get("id") == "a" for r in data[name])]
    return "---\ntitle: T\n---\n" + BLOCKS + "\n".join(named)


@pytest.fixture(scope="module")
def source() -> Iterator[Path]:
    """A small site whose pages use every block; each example adds or replaces one file."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        copy_hostile_base(src)
        (src / "data" / "base.yaml").write_text(BASE_DATA)
        yield src


def build_one(src: Path, name: str, text: str) -> None:
    """Load, validate, derive and render one document; only BuildFailed may come out."""
    original = HOSTILE_BASE / name
    target = src / name
    target.write_text(text, encoding="utf-8")
    for lang in ("en", "fr"):
        (src / "content" / lang / "index.md").write_text(page(text), encoding="utf-8")
    try:
        make_site(BuildConfig(source=src, out=src / "site", today=TODAY, strict=False,
                              compiled=TEMPLATES))
    except BuildFailed as exc:  # located: every problem names its file
        assert [p for p in exc.problems if not p.warning]
        assert all(p.location.file for p in exc.problems), exc.render()
    finally:
        if original.exists():
            shutil.copy(original, target)
        else:
            target.unlink()


@FUZZ
@given(document=DOCUMENTS)
def test_the_build_fails_only_with_located_problems(source: Path,
                                                    document: tuple[str, str]) -> None:
    build_one(source, *document)


@settings(FUZZ, max_examples=6)
@given(document=DOCUMENTS)
def test_the_command_line_never_prints_a_traceback(source: Path,
                                                   document: tuple[str, str]) -> None:
    name, text = document
    target = source / name
    target.write_text(text, encoding="utf-8")
    for lang in ("en", "fr"):
        (source / "content" / lang / "index.md").write_text(page(text), encoding="utf-8")
    try:
        done = subprocess.run([sys.executable, str(REPO / "build.py"), "--source",
                               str(source), "--out", str(source / "site")],
                              capture_output=True, text=True, timeout=60, check=False,
                              env={**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH})
    finally:
        original = HOSTILE_BASE / name
        if original.exists():
            shutil.copy(original, target)
        else:
            target.unlink()
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr


@st.composite
def unreadable(draw: st.DrawFn) -> tuple[str, str | bytes]:
    """A data file that cannot be read whole: the base's machines, commits and runs with a
    tab, a quote left open, a record without its id, or saved in another encoding; or a
    file of prose, or a list of records."""
    how = draw(st.sampled_from(["tab", "quote", "no-id", "cp1252", "utf-16", "prose",
                                "list"]))
    if how == "prose":
        return "data/fuzz.yaml", draw(st.sampled_from(["Notes", "A list of things"])) \
            + draw(st.text("abc é.\n", max_size=40))
    if how == "list":
        return "data/fuzz.yaml", dump(draw(st.lists(record(schema.Machine, 2), min_size=1,
                                                    max_size=2)))
    lines = BASE_DATA.splitlines(keepends=True)
    at = draw(st.integers(0, len(lines) - 1))
    text = {"tab": "".join([*lines[:at], "\t" + lines[at], *lines[at + 1:]]),
            "quote": BASE_DATA.replace("title: A", 'title: "A'),
            "no-id": BASE_DATA.replace("{id: a, name: A}", "{name: A}")}.get(
                how, BASE_DATA.replace("name: A", "name: Café"))
    return "data/base.yaml", text.encode(how) if how in ("cp1252", "utf-16") else text


# A page whose error is sure: a build whose data loads tells it, whatever else fails (a
# file that could not be read whole included, unless it is the one with `site:`).
SURE_PAGE = "---\ntitle: S\n---\nSee {{ nowhere-at-all }}.\n"
BROKEN_DATA = st.one_of(SHAPED.map(lambda d: ("data/fuzz.yaml", dump(d))), edited_example(),
                        unreadable())


@FUZZ
@given(document=BROKEN_DATA, markdown=MARKDOWN)
def test_broken_data_and_pages_are_told_together(
        source: Path, document: tuple[str, str | bytes], markdown: str) -> None:
    """Data and pages broken together: the build fails with located problems only, and
    the pages are checked past the data's errors (unless the data did not load whole)."""
    name, text = document
    pages: dict[Path, str | bytes] = {
        source / "content" / "en" / "fuzz.md": "---\ntitle: F\n---\n" + markdown,
        source / "content" / "en" / "sure.md": SURE_PAGE, source / name: text}
    pages |= {source / "content" / lang / "index.md": page(text if isinstance(text, str)
                                                           else "") for lang in ("en", "fr")}
    for path, words in pages.items():
        path.write_bytes(words.encode("utf-8") if isinstance(words, str) else words)
    try:
        loaded, _ = load(source, False)
        with pytest.raises(BuildFailed) as failed:
            make_site(BuildConfig(source=source, out=source / "site", today=TODAY,
                                  strict=False, compiled=TEMPLATES))
        assert all(p.location.file for p in failed.value.problems), failed.value.render()
        told = [p.message for p in failed.value.problems
                if p.location.file == "content/en/sure.md"]
        if loaded is not None and loaded.checkable:
            assert told == ["no number named 'nowhere-at-all'"], failed.value.render()
    finally:
        for path in pages:
            original = HOSTILE_BASE / path.relative_to(source)
            if original.exists():
                shutil.copy(original, path)
            elif path.name == "base.yaml":
                path.write_text(BASE_DATA)
            else:
                path.unlink(missing_ok=True)


# -- run records, statements, block options, file names ---------------------------------

LIMITS = settings(FUZZ, max_examples=150, deadline=None)
DATASET = """\
datasets:
  - id: runs
    title: Runs
    records: runs.jsonl
    key: [n]
    machine: a
    date: 2026-01-01
    notes: [{name: down, label: Down}]
    fields:
      - {name: n, label: N, type: whole}
      - {name: v, label: V, type: number, unit: ms}
      - {name: w, label: W, type: whole, required: false}
      - {name: s, label: S, type: word, required: false}
      - {name: b, label: B, type: bool, required: false}
"""
# A page over the dataset: a table, a chart (listed, not drawn), an agreement, numbers.
DATASET_PAGE = ("---\ntitle: T\n---\n{{< table runs rows=n columns=v,w,s,b >}}\n\n"
                "{{< chart runs x=n y=v >}}\n\n"
                "{{< agreement runs by=n fields=v across=s tolerance=10% >}}\n\n"
                "It is {{ max(runs.v) }}, {{ range(runs.w) }} and {{ count(runs) }}.\n")
EDGES = st.sampled_from([
    "1e300", "-1e300", "1e309", "1.0e-29", "0.1e-400", "1" * 400, "9" * 5000, "-0", "0.0",
    "1000000000000000", "1000000000000001", "0.000000000001", "0.0000000000001",
    "123456789.123456789", "NaN", "Infinity", "-Infinity", "1E+2", "true", "null",
    '"\\u202e"', '"\\u001b[2J"', '"\\u0000"', '"\\ud800"', '"\\udfff\\ud800"',
    '"a\\tb\\nc"', '"\\u200b"', '"é"', '"down"', '""', "[]", "{}",
    "[" * 70 + "]" * 70, "[" * 3000 + "]" * 3000, '{"a":' * 70 + "1" + "}" * 70])
JSON_VALUES = st.one_of(
    EDGES, st.integers().map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.text(max_size=8).map(lambda t: json.dumps(t, ensure_ascii=False)),
    st.text(max_size=8).map(json.dumps),
    st.lists(st.sampled_from(["1", '"x"', "[]"]), max_size=3).map(
        lambda v: "[" + ",".join(v) + "]"))
RECORD = st.dictionaries(st.sampled_from(["n", "v", "w", "s", "b", "note", "x", "s\\u202e"]),
                         JSON_VALUES, max_size=6).map(
    lambda d: "{" + ", ".join(f'"{k}": {v}' for k, v in d.items()) + "}")
RECORDS_TEXT = st.lists(st.one_of(RECORD, RECORD, RECORD, EDGES, st.just("")), max_size=5
                        ).map(lambda lines: "\n".join(lines))


def build_or_located(src: Path) -> None:
    """A build of `src` that succeeds, or fails with located problems only."""
    try:
        config = BuildConfig(source=src, out=src / "site", today=TODAY, strict=False,
                             compiled=TEMPLATES)
        finish(config, prepare(config), last_drawings={})  # charts listed, not drawn
    except BuildFailed as exc:
        assert [p for p in exc.problems if not p.warning]
        assert all(p.location.file for p in exc.problems), exc.render()


@pytest.fixture(scope="module")
def dataset_site() -> Iterator[Path]:
    """The base site with a dataset (reset by each example: `reset`)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        copy_hostile_base(src)
        (src / "data" / "base.yaml").write_text(BASE_DATA)
        yield src


def reset(src: Path, page: str = "") -> None:
    """The dataset's declaration and good records, and `page` (else one over the dataset)
    in both languages."""
    (src / "data" / "runs.yaml").write_text(DATASET)
    (src / "data" / "runs.jsonl").write_text(GOOD_RECORDS)
    (src / "data" / "runs.json").unlink(missing_ok=True)
    for lang in ("en", "fr"):
        (src / "content" / lang / "index.md").write_text(page or DATASET_PAGE, "utf-8")


@LIMITS
@given(text=RECORDS_TEXT)
def test_run_records_give_a_build_or_located_problems(dataset_site: Path, text: str) -> None:
    reset(dataset_site)
    (dataset_site / "data" / "runs.jsonl").write_text(text, "utf-8", "surrogatepass")
    build_or_located(dataset_site)


@LIMITS
@given(records=st.lists(RECORD, max_size=4))
def test_run_records_as_a_list_give_a_build_or_located_problems(
        dataset_site: Path, records: list[str]) -> None:
    reset(dataset_site)
    (dataset_site / "data" / "runs.yaml").write_text(
        DATASET.replace("runs.jsonl", "runs.json"))
    (dataset_site / "data" / "runs.json").write_text("[" + ",\n".join(records) + "]")
    build_or_located(dataset_site)


GOOD_RECORDS = "".join(json.dumps(r) + "\n" for r in [
    {"n": 1, "v": 2.5, "w": 3, "s": "a", "b": True},
    {"n": 2, "v": 1000000000000000, "w": 0, "s": "b"},
    {"n": 3, "note": "down"}])
STATEMENT = st.lists(st.sampled_from([
    "runs.v", "runs.w", "runs.n", "runs[n=1].v", "runs[n=2, s=b].v", "runs[s=a]", "runs",
    "max(", "min(", "mean(", "sum(", "count(", "range(", "ratio(", "change(", "abs(",
    "by=n", ",", ")", "(", "[", "]", "-", " - ", " + ", " * ", " / ", "|percent", "|bare",
    "|signed", "|positive", ":1", ":12", ":30", ":" + "9" * 50, "0", "1", "0.5",
    "1000000000000000", "1" * 400, "0.0000000000001", "(" * 40, ")" * 40, "- " * 40,
    "measurements.a", "x", '"t"', "=", "<", ".", "é", "\u202e", "{", "}"]), max_size=14
).map("".join)


@LIMITS
@given(statement=STATEMENT)
def test_statements_give_a_build_or_located_problems(dataset_site: Path, statement: str
                                                     ) -> None:
    reset(dataset_site, f"---\ntitle: T\n---\nIt is {{{{ {statement} }}}}.\n")
    build_or_located(dataset_site)


OPTION_VALUES = st.one_of(
    st.sampled_from(["-5", "0", "1", "49", "50", "560", "4000", "4001", "100000000", "1e9",
                     "NaN", "nan%", "inf", "-inf", "1e309", "1e309%", "10%", "100%", "200%",
                     "-5%", "0.5", "600.5", "1e-30", "9" * 5000, "", "abc", "true", "no",
                     "n", "v", "w", "s", "b", "v,w", "line", "bar", "x-1", "9lives",
                     "<b>", '"quoted words"', "\u202e"]),
    st.decimals(allow_nan=True, allow_infinity=True).map(str),
    st.integers().map(str))
OPTIONS = {
    "chart": ["x", "y", "series", "kind", "rule", "title", "id", "zero", "width", "height",
              "nope"],
    "table": ["rows", "columns", "sort", "group", "caption", "nope"],
    "agreement": ["by", "fields", "tolerance", "floor", "across", "require", "caption",
                  "verdict", "id", "nope"],
}


@st.composite
def block_line(draw: st.DrawFn) -> str:
    """A block over the dataset with a few options, each of any value."""
    block = draw(st.sampled_from(sorted(OPTIONS)))
    names = draw(st.lists(st.sampled_from(OPTIONS[block]), max_size=5, unique=True))
    options = " ".join(f"{n}={draw(OPTION_VALUES)}" for n in names)
    base = {"chart": "x=n y=v", "table": "", "agreement": "by=n fields=v across=s "
            "tolerance=10%"}[block]
    return f"{{{{< {block} runs {base} {options} >}}}}"


@LIMITS
@given(line=block_line())
def test_block_options_give_a_build_or_located_problems(dataset_site: Path, line: str
                                                        ) -> None:
    reset(dataset_site, f"---\ntitle: T\n---\n{line}\n")
    build_or_located(dataset_site)


# What a file system takes in a name: no '/', no NUL, at most 255 bytes.
FILE_NAMES = st.one_of(
    st.sampled_from(["index", "fr", "en", "assets", "feed.xml", "404", "404.html",
                     "data.json", "javascript:alert(1);0", "a b", ".hidden", "-x", "x.md",
                     "\u202egnp", "\x1b[2J", "line\nbreak", "é", "CON", "a" * 200,
                     "%2e%2e", "..", "...", "~", "#a", "?a", "<b>", "\"q\"", "'"]),
    st.text(st.characters(exclude_characters="/\x00"), min_size=1, max_size=12)
).filter(lambda n: len(n.encode("utf-8", "surrogatepass")) <= 240 and n not in (".", ".."))


@LIMITS
@given(name=FILE_NAMES, folder=st.sampled_from(["content/en", "content/fr", "data"]))
def test_file_names_give_a_build_or_located_problems(dataset_site: Path, name: str,
                                                     folder: str) -> None:
    reset(dataset_site)
    suffix = ".yaml" if folder == "data" else ".md"
    text = "machines: [{id: c, name: C}]\n" if folder == "data" else "---\ntitle: T\n---\nx\n"
    try:
        path = dataset_site / folder / (name + suffix)
        path.write_text(text, "utf-8")
    except (OSError, UnicodeEncodeError):  # a name this file system does not take
        return
    try:
        build_or_located(dataset_site)
    finally:
        path.unlink()
