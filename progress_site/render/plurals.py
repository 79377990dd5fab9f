"""The plural category of a number in a language, from the language's CLDR plural rules.

The rules come with the language's facts (localecache.py). Babel's babel.plural reads
the same rules, but importing it imports Babel whole (~4 ms of a build that otherwise
prints from the facts alone). The grammar is UTS #35's as babel.plural reads it: samples
after `@` ignored, the tags tried in alphabetical order, `other` when none holds.
tests/test_plurals.py compares the two on every locale Babel has.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from decimal import Decimal

# n i v w f t c e: the number, its integer digits, the count of its visible fraction
# digits with and without trailing zeros, those digits with and without them, and the
# compact exponent (c = e = 0: compact numbers are not printed here).
Operands = tuple[Decimal | int, int, int, int, int, int, int, int]
Test = Callable[[Operands], bool]
Category = Callable[[Decimal | int | float], str]

TAGS = ("few", "many", "one", "other", "two", "zero")  # sorted: the order they are tried
_OPERANDS = "nivwftce"
_TOKEN = re.compile(r"\s*(?:(\d+)|(and|or|is|within|in|not|mod|[nivwftce])\b|(!=|[%,=])"
                    r"|(\.\.\.?|\u2026))")


def category(rules: Mapping[str, str]) -> Category:
    """The function from a number (as printed: 1.0 is not 1) to its category;
    ValueError for rules that do not parse. The same rules give the same function: a
    language's are read when its cache entry is checked, then used."""
    return _category(tuple(sorted(rules.items())))


@functools.lru_cache(maxsize=64)
def _category(rules: tuple[tuple[str, str], ...]) -> Category:
    unknown = sorted({tag for tag, _ in rules} - set(TAGS))
    if unknown:
        raise ValueError(f"unknown plural tags {unknown}: CLDR's are {', '.join(TAGS)}")
    tests = [(tag, parse(rule, tag)) for tag, rule in rules]
    found = [(tag, test) for tag, test in tests if test is not None]

    def of(number: Decimal | int | float) -> str:
        ops = operands(number)
        return next((tag for tag, test in found if test(ops)), "other")

    return of


def operands(number: Decimal | int | float) -> Operands:
    """UTS #35's operands of a number, as babel.plural.extract_operands reads them."""
    if isinstance(number, float):  # as Babel reads one: by its shortest repr
        number = int(number) if number.is_integer() else Decimal(repr(number))
    if not isinstance(number, Decimal):
        return abs(number), abs(number), 0, 0, 0, 0, 0, 0
    n = abs(number)
    i = int(n)
    exponent = n.as_tuple().exponent
    assert isinstance(exponent, int), "a printed number is finite"
    digits = n.as_tuple().digits[exponent:] if exponent < 0 else ()
    shown = "".join(map(str, digits))
    short = shown.rstrip("0")
    return n, i, len(shown), len(short), int(shown or 0), int(short or 0), 0, 0


def tokens(rule: str) -> list[str]:
    """A rule's words, numbers and symbols (samples dropped), last first."""
    text, pos, found = rule.split("@")[0].strip(), 0, []
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:
            raise ValueError(f"unexpected {text[pos:].lstrip()[:1]!r} in plural rule {rule!r}")
        found.append(match.group(match.lastindex or 0))
        pos = match.end()
    return found[::-1]


def parse(rule: str, tag: str = "") -> Test | None:
    """The test a rule makes of a number's operands; None for an empty rule."""
    stack = tokens(rule)
    if not stack:
        return None
    test = _Parser(stack, rule).condition()
    if stack:
        raise ValueError(f"unexpected {stack[-1]!r} in the {tag or 'plural'} rule {rule!r}")
    return test


class _Parser:
    """condition = and_condition ('or' and_condition)*; and_condition = relation ('and'
    relation)*; relation = expr 'is' 'not'? value | expr 'not'? ('in' | 'within')
    range_list | expr ('=' | '!=') range_list; expr = operand (('mod' | '%') value)?"""

    def __init__(self, stack: list[str], rule: str) -> None:
        self.stack, self.rule = stack, rule

    def take(self, *options: str) -> str | None:
        if self.stack and self.stack[-1] in options:
            return self.stack.pop()
        return None

    def fail(self, wanted: str) -> ValueError:
        got = repr(self.stack[-1]) if self.stack else "the end"
        return ValueError(f"expected {wanted} but got {got} in plural rule {self.rule!r}")

    def condition(self) -> Test:
        tests = [self.and_condition()]
        while self.take("or"):
            tests.append(self.and_condition())
        return tests[0] if len(tests) == 1 else lambda ops: any(t(ops) for t in tests)

    def and_condition(self) -> Test:
        tests = [self.relation()]
        while self.take("and"):
            tests.append(self.relation())
        return tests[0] if len(tests) == 1 else lambda ops: all(t(ops) for t in tests)

    def relation(self) -> Test:
        expr = self.expr()
        if self.take("is"):
            negated, value = bool(self.take("not")), self.value()
            return lambda ops: (expr(ops) == value) != negated
        negated = bool(self.take("not"))
        method = self.take("within", "in")
        if method is None:
            if negated:
                raise self.fail("'in' or 'within'")
            symbol = self.take("=", "!=")
            if symbol is None:
                raise self.fail("'is', 'in', 'within', '=' or '!='")
            method, negated = "in", symbol == "!="
        ranges = self.range_list()
        if method == "within":
            return lambda ops: any(lo <= expr(ops) <= hi for lo, hi in ranges) != negated

        def within_integers(ops: Operands) -> bool:
            x = expr(ops)
            return (x == int(x) and any(lo <= x <= hi for lo, hi in ranges)) != negated

        return within_integers

    def range_list(self) -> list[tuple[int, int]]:
        ranges = [self.range_or_value()]
        while self.take(","):
            ranges.append(self.range_or_value())
        return ranges

    def range_or_value(self) -> tuple[int, int]:
        low = self.value()
        return (low, self.value()) if self.take("..", "...", "\u2026") else (low, low)

    def expr(self) -> Callable[[Operands], Decimal | int]:
        name = self.take(*_OPERANDS)
        if name is None:
            raise self.fail("an operand (n, i, v, w, f, t, c or e)")
        index = _OPERANDS.index(name)
        if self.take("mod", "%"):
            divisor = self.value()
            return lambda ops: ops[index] % divisor
        return lambda ops: ops[index]

    def value(self) -> int:
        if self.stack and self.stack[-1].isdigit():
            return int(self.stack.pop())
        raise self.fail("a number")
