"""`{{ ... }}` statements: parsed without eval, computed from records, errors located."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from babel.support import NullTranslations

from progress_site.derive.evaluation import evaluate
from progress_site.derive.expressions import ExpressionError
from progress_site.derive.namespace import Namespace
from progress_site.derive.quantity import Quantity
from progress_site.derive.site import derive
from progress_site.errors import BuildFailed
from progress_site.load.site import load
from progress_site.model.schema import Site
from progress_site.model.values import Text
from progress_site.pipeline import BuildConfig, make_site
from progress_site.render.words import Words
from progress_site.validate.rules import validate

from .conftest import TEMPLATES
from .test_datasets import lines, write_source

TODAY = dt.date(2026, 11, 29)
RECORDS = lines(
    {"bots": 1, "server": "horizon", "mspt": 13.7, "chunks": 6280},
    {"bots": 1, "server": "paper", "mspt": 10.31, "chunks": 6049},
    {"bots": 50, "server": "horizon", "mspt": 47.83, "chunks": 6468},
    {"bots": 50, "server": "paper", "mspt": 46.86, "chunks": 6411},
    {"bots": 100, "server": "paper", "note": "watchdog"},
)
H1, P1 = "runs[bots=1, server=horizon].mspt", "runs[bots=1, server=paper].mspt"
MANY = "compute fewer numbers in one {{ ... }}: sum(), mean() and count() work over a " \
       "whole dataset"


@pytest.fixture(scope="module")
def ns(tmp_path_factory: pytest.TempPathFactory) -> Namespace:
    """The names and datasets of a small source: two servers at two bot counts."""
    source, problems = load(write_source(tmp_path_factory.mktemp("src"), RECORDS), False)
    assert source is not None and problems == []
    data, problems, _failed = validate(source.data, TODAY)
    model, found = derive(data, TODAY)
    assert problems + found == []
    return model.namespace


def q(low: float, high: float | None = None, decimals: int = 0, unit: str | None = None,
      kind: str = "value") -> Quantity:
    return Quantity(kind, low, high, decimals, unit)  # type: ignore[arg-type]


@pytest.mark.parametrize(("statement", "expected"), [
    (H1, q(13.7, decimals=2, unit="ms")),  # the field's decimals, not as written
    (f"{H1}:1", q(13.7, decimals=1, unit="ms")),
    (f"{H1} | bare:0", q(13.7)),
    ("runs[server=horizon, bots=1].mspt", q(13.7, decimals=2, unit="ms")),  # any order
    ('runs[bots=1, server="paper"].mspt', q(10.31, decimals=2, unit="ms")),
    ("runs[bots>=50, server=horizon].mspt", q(47.83, decimals=2, unit="ms")),  # one record
    (f"{H1} - {P1}", q(13.7 - 10.31, decimals=2, unit="ms")),
    (f"{H1} / {P1}", q(13.7 / 10.31, decimals=2)),  # 1.33: three digits
    (f"ratio({H1}, {P1})", q(13.7 / 10.31, decimals=2)),
    (f"change({H1}, {P1})", q((13.7 / 10.31 - 1) * 100, unit="%")),
    (f"{H1} / {P1} - 1 | percent", q((13.7 / 10.31 - 1) * 100, unit="%")),
    (f"change({P1}, {H1}) | signed", Quantity("value", (10.31 / 13.7 - 1) * 100, None, 0,
                                                "%", True)),
    (f"change({P1}, {H1}) | abs", q((1 - 10.31 / 13.7) * 100, unit="%")),
    ("2 * (3 + 4) - -1", q(15)),
    ("min(runs.mspt)", q(10.31, decimals=2, unit="ms")),
    ("max(runs[server=paper].mspt)", q(46.86, decimals=2, unit="ms")),
    ("mean(runs[bots=1].mspt)", q((13.7 + 10.31) / 2, decimals=2, unit="ms")),
    ("sum(runs[server=horizon].chunks)", q(6280 + 6468, unit="chunks")),
    ("range(runs.chunks)", q(6049, 6468, unit="chunks", kind="range")),
    ("range(runs[server=horizon].mspt - runs[server=paper].mspt) | positive",
     q(47.83 - 46.86, 13.7 - 10.31, 2, "ms", "range")),
    # Per bot count: the smallest over the servers, against Horizon's own.
    ("range(min(runs.mspt, by=bots) / runs[server=horizon].mspt):2",
     q(10.31 / 13.7, 46.86 / 47.83, 2, kind="range")),
    ("count(runs)", q(5)),
    ("count(runs[server=paper])", q(3)),
    ("count(runs[bots<50])", q(2)),
    # None left: a count of 0 (the tests that failed), each condition one that could match.
    ("count(runs[bots=100, server=horizon])", q(0)),
    ("count(runs[bots>50, bots<100])", q(0)),
    ("max(1, 2, runs[bots=1].chunks)", q(6280, unit="chunks")),
    (f"round({H1})", q(14, unit="ms")),  # printed as rounded: no decimal
    (f"round({H1} / {P1}, 1)", q(1.3, decimals=1)),
    ("round(2.25, 1) * 2", q(4.4, decimals=1)),
    ("sum(runs[bots=1].chunks, 1)", q(6280 + 6049 + 1, unit="chunks")),
    # The geometric mean of Horizon's ratio to Paper at each bot count: how benchmark
    # suites average speed-ups (a mean of ratios depends on which side is divided).
    ("geomean(runs[server=horizon].mspt / runs[server=paper].mspt)",
     q((13.7 / 10.31 * 47.83 / 46.86) ** 0.5, decimals=2)),
    ("geomean(runs[server=paper].mspt / runs[server=horizon].mspt)",
     q((10.31 / 13.7 * 46.86 / 47.83) ** 0.5, decimals=3)),
    ("range(geomean(runs.mspt, by=bots))",
     q((13.7 * 10.31) ** 0.5, (47.83 * 46.86) ** 0.5, 2, "ms", "range")),
    # Percentiles between the two nearest numbers in order, as numpy and spreadsheets.
    ("median(runs.mspt)", q((13.7 + 46.86) / 2, decimals=2, unit="ms")),
    ("percentile(runs.mspt, 50)", q((13.7 + 46.86) / 2, decimals=2, unit="ms")),
    ("percentile(runs.mspt, 90)", q(46.86 + (47.83 - 46.86) * 0.7, decimals=2, unit="ms")),
    ("percentile(runs.mspt, 99.9)", q(46.86 + (47.83 - 46.86) * 0.997, decimals=2,
                                      unit="ms")),
    ("range(percentile(runs.mspt, 100, by=bots))", q(13.7, 47.83, 2, "ms", "range")),
    ("range(median(runs.mspt, by=server))",
     q((10.31 + 46.86) / 2, (13.7 + 47.83) / 2, 2, "ms", "range")),
])
def test_statement(ns: Namespace, statement: str, expected: Quantity) -> None:
    got = evaluate(statement, ns)
    assert isinstance(got, Quantity)
    assert (got.kind, got.decimals, got.unit, got.signed) == (
        expected.kind, expected.decimals, expected.unit, expected.signed)
    assert got.low == pytest.approx(expected.low) and got.top == pytest.approx(expected.top)


@pytest.mark.parametrize(("statement", "message", "hint", "offset"), [
    ("runs[bots=3, server=paper].mspt", "no record of runs has bots=3",
     "bots is 1, 50, 100 there", 5),
    ("count(runs[bots=3, server=paper])", "no record of runs has bots=3",
     "bots is 1, 50, 100 there", 11),  # a mistyped value is no count of 0
    ("count(runs[bots=1, bots>100])", "no record of runs has bots>100 with the "
     "conditions before it", "bots is 1 there", 19),
    ("runs[bots=100, server=horizon].mspt",
     "no record of runs has server=horizon with the conditions before it",
     "server is paper there", 15),
    ("runs[server=paper].mspt", "this gives 2 numbers (bots=1; bots=50)",
     "select one record, or wrap it in min(), max(), mean() or range()", 0),
    ("runs[bots=100, server=paper].mspt",
     "the record bots=100, server=paper gives no mspt (stopped by its watchdog)", "", 0),
    ("runs[bots=1, server=papper].mspt", "no server 'papper' in runs",
     "did you mean 'paper'?", 13),
    ("runs[bots=1, server=paper].msp", "runs has no field 'msp'", "did you mean 'mspt'?", 0),
    ("runs[bots=one].mspt", "bots is a number, got 'one'", "", 5),
    ("runs[server=paper].server", "runs.server holds words, not numbers", "", 0),
    ("run[bots=1].mspt", "no dataset 'run'", "did you mean 'runs'?", 0),
    ("runs[server=horizon].mspt / runs[bots=1].mspt",
     "the two sides do not pair up: one gives a number per bots, the other per server",
     "select the same records on both sides", 26),
    (f"{H1} / ({P1} - {P1})", "division by zero",
     "a number it divides by is 0: check the figures it names", 34),
    ("runs[server=horizon].mspt / runs[server=paper, bots<50].mspt",
     "the two sides do not pair up: bots=50 is on one side only",
     "select the same records on both sides", 26),
    ("min(runs.mspt, by=server) + 1 | percent:1 | bare", "expected the end, got '|'", "", 42),
    ("min(runs[bots=1].mspt, by=bots)", "cannot group by 'bots' here: the numbers are keyed "
     "by server=horizon", "fields to group by: server", 0),
    (f"change({H1})", "change() takes two numbers: change(a, b)", "", 0),
    (f"range({H1}) * 2", "range() gives two numbers: use it outermost", "", 0),
    (f"change({P1}, {H1}) | positive",
     "the text expects a positive number, but the data gives -24.7445",
     "the data no longer says what the text says: reword it", 0),
    ("sqrt(2)", "unknown function 'sqrt'", "known functions: min, max, mean, median, "
     "percentile, geomean, sum, count, range, ratio, change, abs, round", 0),
    *[(f"percentile({args})", "percentile() takes numbers, then the percentile: "
       "percentile(runs.ms, 99)", "the last argument is a number above 0 and at most 100, "
       "such as 50, 95 or 99.9", 0)
      for args in ("runs.mspt", "runs.mspt, 0", "runs.mspt, 101", "runs.mspt, runs.mspt")],
    ("round(2, 1.5)", "round() takes a number and, after it, how many decimals: round(x) "
     "or round(x, 1)", "at most 12 decimals", 0),
    ("round(2, 13)", "round() takes a number and, after it, how many decimals: round(x) "
     "or round(x, 1)", "at most 12 decimals", 0),
    ("round(2, 1, 0)", "round() takes a number and, after it, how many decimals: round(x) "
     "or round(x, 1)", "at most 12 decimals", 0),
    ("2 | round", "unknown filter 'round'", "known filters: percent, signed, bare, abs, "
     "positive, negative", 4),
    ("2 +", "expected a number, a name or '(', got the end", "", 3),
    ("runs[bots=1", "expected ']', got the end", "", 11),
    ("2 ; 3", "unexpected ';'", "see docs/data-format.md for what a {{ ... }} may hold", 2),
    ("comparisons.x.ratio * 2", "no number named 'comparisons.x.ratio'",
     "names look like comparisons.ID.ratio, measurements.ID, budgets.B.ITEM.share "
     "(see docs/data-format.md)", 0),
    ("runs.mspt-1", "runs has no field 'mspt-1'", "to subtract, put spaces around '-'", 0),
    # Beyond the limits of docs/data-format.md ("Ranges and limits").
    ("1" * 400, "1111111111...(400 digits) is too large",
     "numbers in a statement are at most 1e+15", 0),
    ("2 * " + "1" * 900, "1111111111...(900 digits) is too large",
     "numbers in a statement are at most 1e+15", 4),
    ("0.1234567890123", "13 decimals is more than a number can tell",
     "round it to 12 decimals or fewer", 0),
    (f"{H1}:30", "at most 12 decimals, got 30", "write it like :1", 34),
    (f"{H1}:" + "9" * 60, "at most 12 decimals, got 9999999999...(60 digits)",
     "write it like :1", 34),
    ("runs[bots=" + "9" * 400 + "].mspt", "9999999999...(400 digits) is too large",
     "numbers in a statement are at most 1e+15", 10),
    ("(" * 33 + "1" + ")" * 33, "nested more than 32 levels deep",
     "split the computation, or remove parentheses", 32),
    ("(" * 400 + "1" + ")" * 400, "nested more than 32 levels deep",
     "split the computation, or remove parentheses", 32),
    ("- " * 400 + "1", "nested more than 32 levels deep",
     "split the computation, or remove parentheses", 62),
    ("max(" * 40 + "1" + ")" * 40, "nested more than 32 levels deep",
     "split the computation, or remove parentheses", 128),
    ("1" + " + 1" * 101, "more than 100 operators (+ - * /)", MANY, 402),
    ("2" + " * 2 / 2" * 60, "more than 100 operators (+ - * /)", MANY, 402),
    ("1" + " " * 1000, "the statement is 1001 characters long, more than 1000", MANY, 0),
    ("1 + " * 20000 + "1", "the statement is 80001 characters long, more than 1000",
     MANY, 0),
    ("max(runs.mspt, by=bot)", "cannot group by 'bot' here: the numbers are keyed by "
     "bots=1, server=horizon", "did you mean 'bots'?", 0),
    ("max(runs.mspt, by=load)", "cannot group by 'load' here: the numbers are keyed by "
     "bots=1, server=horizon", "fields to group by: bots, server", 0),
    (f"geomean(change({P1}, {H1}), 2)", "geomean() takes numbers above zero",
     "a geometric mean multiplies its numbers: average ratios or times with it, not "
     "changes in %", 0),
    ("1000000000000000 * 1000000000000000", "the result, 1e+30, is out of range",
     "results are at most 1e+15: check what is multiplied or divided", 0),
    (f"{H1} / 0.000000000001 / 0.000000000001", "the result, 1.37e+25, is out of range",
     "results are at most 1e+15: check what is multiplied or divided", 0),
])
def test_statement_refused(ns: Namespace, statement: str, message: str, hint: str,
                           offset: int) -> None:
    with pytest.raises(ExpressionError) as refused:
        evaluate(statement, ns)
    got = refused.value
    assert got.message == message
    assert got.hint == hint
    assert got.offset == offset


@pytest.mark.parametrize(("lang", "statement", "printed"), [
    ("en", f"change({H1}, {P1})", "33%"),
    ("fr", f"change({H1}, {P1})", "33\u00a0%"),
    ("en", "range(runs.chunks)", "6,049 to 6,468\u00a0chunks"),
    ("fr", "range(runs.chunks)", "6\u202f049 to 6\u202f468\u202fchunks"),  # no catalog here
    ("fr", f"{H1}", "13,70\u202fms"),
    ("en", "count(runs)", "5"),
])
def test_statement_printed(ns: Namespace, lang: str, statement: str, printed: str) -> None:
    site = Site(title=Text((("*", "T"),), True), tagline=Text((("*", "T"),), True))
    words = Words(lang, NullTranslations(), site, ns)
    entry = evaluate(statement, ns)
    assert isinstance(entry, Quantity)
    assert words.quantity(entry) == printed


@pytest.mark.parametrize(("lang", "statement", "printed"), [
    # A quotient keeps three significant digits, unless `:N` says otherwise.
    ("en", "246 / 100", "2.46"),
    ("fr", "246 / 100", "2,46"),
    ("en", "ratio(125, 10)", "12.5"),
    ("fr", "ratio(125, 10)", "12,5"),
    ("en", "197 / 100", "1.97"),
    ("en", "735 / 1000", "0.735"),
    ("fr", "735 / 1000", "0,735"),
    ("en", "2 / 3", "0.667"),
    ("en", "1000 / 3", "333"),
    ("fr", "4000 / 3", "1\u202f333"),
    ("en", "9996 / 1000", "10.0"),  # rounds up to a digit more: still three in all
    ("en", "246 / 100:1", "2.5"),
    ("fr", "246 / 100:1", "2,5"),
    ("en", "range(min(runs.mspt, by=bots) / runs[server=horizon].mspt)", "0.753 to 0.980"),
    ("fr", f"{H1} / {P1}", "1,33"),
    ("fr", "geomean(runs[server=horizon].mspt / runs[server=paper].mspt)", "1,16"),
])
def test_quotient_digits(ns: Namespace, lang: str, statement: str, printed: str) -> None:
    """Ratios print 2.46, 12.5, 0.735, not one decimal (2.5 where the data says 2.46)."""
    site = Site(title=Text((("*", "T"),), True), tagline=Text((("*", "T"),), True))
    words = Words(lang, NullTranslations(), site, ns)
    entry = evaluate(statement, ns)
    assert isinstance(entry, Quantity)
    assert words.quantity(entry) == printed


COUNTED = ("measurements:\n"
           "  - id: passed\n    title: P\n    figure: {ok: 998, of: 1000, status: estimate}\n"
           "  - id: none\n    title: N\n    figure: {ok: 0, of: 0, status: estimate}\n"
           "  - id: spread\n    title: S\n"
           "    figure: {range: [12, 17], unit: ms, status: estimate}\n")


@pytest.fixture(scope="module")
def counted(tmp_path_factory: pytest.TempPathFactory) -> Namespace:
    """The names of a source with counts (998 of 1,000; 0 of 0) and a range."""
    root = write_source(tmp_path_factory.mktemp("src"), RECORDS)
    (root / "data" / "m.yaml").write_text(COUNTED)
    source, problems = load(root, False)
    assert source is not None and problems == []
    data, problems, _failed = validate(source.data, TODAY)
    model, found = derive(data, TODAY)
    assert problems + found == []
    return model.namespace


@pytest.mark.parametrize(("lang", "statement", "printed"), [
    # A count prints whole; its parts are numbers (docs/data-format.md, "Naming").
    ("en", "measurements.passed", "998 of 1,000"),
    ("fr", "measurements.passed", "998 of 1\u202f000"),  # no catalog here
    ("en", "measurements.passed.value", "998"),
    ("fr", "measurements.passed.value", "998"),
    ("en", "measurements.passed.ok", "998"),
    ("en", "measurements.passed.of", "1,000"),
    ("fr", "measurements.passed.of", "1\u202f000"),
    ("en", "measurements.passed.share", "99.8%"),
    ("fr", "measurements.passed.share", "99,8\u00a0%"),
    ("en", "measurements.passed.share:0", "100%"),
    # In arithmetic a count is what passed.
    ("en", "measurements.passed * 2", "1,996"),
    ("fr", "measurements.passed * 2", "1\u202f996"),
    ("en", "measurements.passed.of - measurements.passed", "2"),
    ("en", "measurements.passed / measurements.passed.of | percent:1", "99.8%"),
    ("fr", "measurements.passed / measurements.passed.of | percent:1", "99,8\u00a0%"),
    ("en", "measurements.none.value", "0"),
])
def test_count_parts(counted: Namespace, lang: str, statement: str, printed: str) -> None:
    """`{ok: 998, of: 1000}`: whole as a count, `.ok`/`.value`/`.of` numbers, `.share`."""
    site = Site(title=Text((("*", "T"),), True), tagline=Text((("*", "T"),), True))
    words = Words(lang, NullTranslations(), site, counted)
    entry = evaluate(statement, counted)
    assert isinstance(entry, Quantity)
    assert words.quantity(entry) == printed


@pytest.mark.parametrize(("statement", "message", "hint", "offset"), [
    ("measurements.spread * 2", "'measurements.spread' is not one number",
     "only a single value or a count can be computed with; print a range on its own", 0),
    ("measurements.none.share", "no number named 'measurements.none.share'",
     "measurements.none counts 0 of 0: a share of nothing is no number", 0),
    ("measurements.passed.total", "no number named 'measurements.passed.total'",
     "a count's parts are measurements.passed.ok, .of, .value and .share", 0),
    ("2 * measurements.passed.shares", "no number named 'measurements.passed.shares'",
     "a count's parts are measurements.passed.ok, .of, .value and .share", 4),
    ("measurements.passed / measurements.none", "division by zero",
     "a number it divides by is 0: check the figures it names", 20),
])
def test_count_parts_refused(counted: Namespace, statement: str, message: str, hint: str,
                             offset: int) -> None:
    """A count's misuse: a range in arithmetic, a share of nothing, a part it lacks."""
    with pytest.raises(ExpressionError) as refused:
        evaluate(statement, counted)
    got = refused.value
    assert (got.message, got.hint, got.offset) == (message, hint, offset)


def test_prose_error_points_at_the_statement(tmp_path: Path) -> None:
    page = ("Intro.\n\nHorizon: {{ runs[bots=1, server=horizon].mspt }}, Paper: "
            "{{ runs[bots=1, server=papr].mspt }}.\n")
    root = write_source(tmp_path, RECORDS, content=page)
    with pytest.raises(BuildFailed) as failed:
        make_site(BuildConfig(source=root, out=tmp_path / "site", today=TODAY, compiled=TEMPLATES))
    assert failed.value.render().splitlines()[:5] == [
        "content/en/index.md:6:74: no server 'papr' in runs",
        "    Horizon: {{ runs[bots=1, server=horizon].mspt }}, Paper: "
        "{{ runs[bots=1, server=papr].mspt }}.",
        "    " + " " * 73 + "^",
        "    hint: did you mean 'paper'?",
        "content/fr/index.md:6:74: no server 'papr' in runs",
    ]


def test_prose_statement_ok(tmp_path: Path) -> None:
    page = "Horizon's tick is {{ change(runs[bots=1, server=horizon].mspt, " \
           "runs[bots=1, server=paper].mspt) | positive }} longer.\n"
    root = write_source(tmp_path, RECORDS, content=page)
    built = make_site(BuildConfig(source=root, out=tmp_path / "site", today=TODAY,
                                  compiled=TEMPLATES))
    assert "<p>Horizon's tick is 33% longer.</p>" in built.files["index.html"].decode()
    assert "Horizon's tick is 33\u00a0% longer." in built.files["fr/index.html"].decode()


def test_a_statement_of_the_data_prints_in_every_language_an_error_every_time(
        ns: Namespace, tmp_path: Path) -> None:
    """A reference in a data text is computed for the pages of every language; a
    statement that cannot be computed fails each time it is asked (nothing remembers
    a failure as a value)."""
    root = write_source(tmp_path, RECORDS, content="{{< measurements >}}\n")
    (root / "data" / "m.yaml").write_text(
        "measurements:\n  - id: m\n    title: M\n    figure: {value: 1, status: estimate,"
        " note: '{{ count(runs) + 1000 }} runs'}\n")
    built = make_site(BuildConfig(source=root, out=tmp_path / "site", today=TODAY,
                                  compiled=TEMPLATES))
    assert "1,005 runs" in built.files["index.html"].decode()
    assert "1\u202f005 runs" in built.files["fr/index.html"].decode()
    for _ in range(2):
        with pytest.raises(ExpressionError):
            evaluate("2 +", ns)


@pytest.mark.parametrize(("statement", "printed"), [
    ("(" * 31 + "1" + ")" * 31, "1"),
    ("- " * 31 + "1", "-1"),
    ("1000000000000000", "1,000,000,000,000,000"),
    ("999999999999999.999999999999", "1,000,000,000,000,000.000000000000"),
    ("0.000000000001:12", "0.000000000001"),
    ("-1000000000000000:12", "-1,000,000,000,000,000.000000000000"),
    ("1000000 * 1000000000", "1,000,000,000,000,000"),
    ("1" + " " * 999, "1"),  # the longest statement
    # The most operators, as deep as a statement nests: a tree of the greatest depth.
    ("(" * 31 + "1" + " + 1" * 100 + ")" * 31, "101"),
    ("- " * 31 + "2" + " * 2 / 2" * 50, "-2.00"),  # a quotient: three digits
])
def test_statement_limits_ok(ns: Namespace, statement: str, printed: str) -> None:
    """Just inside each limit of the statements: computed and printed."""
    site = Site(title=Text((("*", "T"),), True), tagline=Text((("*", "T"),), True))
    entry = evaluate(statement, ns)
    assert isinstance(entry, Quantity)
    assert Words("en", NullTranslations(), site, ns).quantity(entry) == printed
