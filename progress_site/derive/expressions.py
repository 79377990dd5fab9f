"""`{{ ... }}` in texts: a name, or a small expression computed from the data.

A statement is parsed by the grammar below (no `eval`), then computed at build time by
`evaluation`:

    statement  := sum ("|" FILTER)* [":" DIGITS]
    sum        := product (("+" | "-") product)*     a minus needs spaces: names hold '-'
    product    := unary (("*" | "/") unary)*
    unary      := "-" unary | NUMBER | "(" sum ")" | call | selection | NAME
    call       := FUNCTION "(" argument ("," argument)* ")"
    argument   := sum | "by" "=" FIELD
    selection  := DATASET "[" condition ("," condition)* "]" ["." FIELD] | DATASET "." FIELD
    condition  := FIELD ("=" | "!=" | "<" | "<=" | ">" | ">=") (NUMBER | WORD | "TEXT")

A NAME is a derived number (`comparisons.cpu-500.ratio`). A selection gives the field of
every record that matches; its numbers are keyed by the dataset's `key:` fields that the
conditions leave open, so `runs[server=a].mspt / runs[server=b].mspt` pairs the records
of the same bot count. Functions: min, max, mean, sum (each with an optional `by=FIELD`),
count, range, ratio (a / b), change (a / b - 1, in %), abs, round (to N decimals).
Filters: percent, signed, bare (no unit), abs, positive and negative (the build fails when
the number is not).

Numbers written in a statement keep to the data's limits (load/convert.py: at most
LARGEST, MAX_DECIMALS decimals), `:N` asks for at most MAX_DECIMALS decimals, a
statement is at most MAX_LENGTH characters long and holds at most MAX_OPERATORS of
`+ - * /`, and parentheses, minus signs and calls nest at most MAX_NESTING deep: each
is a located error, never an overflow or a parser that recurses without end. Operators
are read in loops (a left fold), and the tree they make is at most MAX_OPERATORS +
MAX_NESTING deep, which `evaluation` walks well within Python's stack.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from progress_site.errors import did_you_mean
from progress_site.model.limits import LARGEST, MAX_DECIMALS

TOKEN = re.compile(r"\s*(?:(?P<number>\d+(?:\.\d+)?)|(?P<name>[A-Za-z_][\w-]*(?:\.[\w-]+)*)"
                   r'|"(?P<text>[^"]*)"|(?P<op>!=|<=|>=|[-+*/()\[\],|:=<>.]))')
MAX_NESTING = 32  # far more than a sentence's number needs; keeps the parser's stack small
MAX_LENGTH = 1000  # characters; the example's longest statement has 130
MAX_OPERATORS = 100  # each one is a level of the tree that evaluation walks recursively
FUNCTIONS = ("min", "max", "mean", "median", "percentile", "geomean", "sum", "count",
             "range", "ratio", "change", "abs", "round")
FILTERS = ("percent", "signed", "bare", "abs", "positive", "negative")
COMPARE: Mapping[str, Callable[[Any, Any], bool]] = MappingProxyType({
    "=": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b})


class ExpressionError(Exception):
    """A statement that cannot be computed; `offset` is where in it the trouble is."""

    def __init__(self, message: str, hint: str = "", offset: int = 0) -> None:
        super().__init__(message)
        self.message, self.hint, self.offset = message, hint, offset


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # number, name, text, op, end
    text: str
    offset: int


@dataclass(frozen=True, slots=True)
class Node:
    """One node of a parsed statement: `kind` says how `parts` are read."""

    kind: str  # number, name, select, call, by, neg, binary, statement
    parts: tuple[Any, ...]
    offset: int

def tokenize(source: str) -> list[Token]:
    """The tokens of a statement, ending with an `end` token."""
    tokens, pos = [], 0
    while source[pos:].strip():
        match = TOKEN.match(source, pos)
        if match is None:
            start = len(source) - len(source[pos:].lstrip())
            raise ExpressionError(f"unexpected '{source[start]}'", "see docs/data-format.md "
                                  "for what a {{ ... }} may hold", start)
        kind = match.lastgroup or "op"
        tokens.append(Token(kind, match.group(kind), match.start(kind) - (kind == "text")))
        pos = match.end()
    return [*tokens, Token("end", "", len(source))]


class Parser:
    """A recursive-descent parser of one statement."""

    def __init__(self, source: str) -> None:
        self.tokens = tokenize(source)
        self.at = 0
        self.depth = 0  # how deep the parser is in parentheses, minus signs and calls
        self.operators = 0  # how many of + - * / it has read

    def deeper(self, offset: int) -> None:
        """One level deeper; refused past MAX_NESTING."""
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise ExpressionError(f"nested more than {MAX_NESTING} levels deep",
                                  "split the computation, or remove parentheses", offset)

    def operator(self) -> Token:
        """Take a `+ - * /`; refused past MAX_OPERATORS."""
        op = self.take()
        self.operators += 1
        if self.operators > MAX_OPERATORS:
            raise ExpressionError(f"more than {MAX_OPERATORS} operators (+ - * /)",
                                  "compute fewer numbers in one {{ ... }}: sum(), mean() "
                                  "and count() work over a whole dataset", op.offset)
        return op

    def peek(self, *texts: str) -> bool:
        token = self.tokens[self.at]
        return token.kind == "op" and token.text in texts

    def take(self, kind: str = "", text: str = "") -> Token:
        token = self.tokens[self.at]
        if (kind and token.kind != kind) or (text and token.text != text):
            wanted = f"'{text}'" if text else {"name": "a name", "number": "a number",
                                                "end": "the end"}[kind]
            got = f"'{token.text}'" if token.text else "the end"
            raise ExpressionError(f"expected {wanted}, got {got}", offset=token.offset)
        self.at += 1
        return token

    def statement(self) -> Node:
        start = self.tokens[0].offset
        body, filters, decimals = self.sum(), [], None
        while self.peek("|"):
            self.take()
            name = self.take("name")
            if name.text not in FILTERS:
                raise ExpressionError(f"unknown filter '{name.text}'", did_you_mean(
                    name.text, FILTERS, "known filters"), name.offset)
            filters.append(name.text)
        if self.peek(":"):
            self.take()
            token = self.tokens[self.at]
            if token.kind != "number" or "." in token.text:
                raise ExpressionError(f"expected a number of decimals after ':', got "
                                      f"'{token.text}'" if token.text else "expected a number "
                                      "of decimals after ':'", "write it like :1",
                                      token.offset)
            if len(token.text) > 2 or int(token.text) > MAX_DECIMALS:
                raise ExpressionError(f"at most {MAX_DECIMALS} decimals, got "
                                      f"{_short(token.text)}", "write it like :1",
                                      token.offset)
            decimals = int(self.take().text)
        self.take("end")
        return Node("statement", (body, tuple(filters), decimals), start)

    def sum(self) -> Node:
        self.deeper(self.tokens[self.at].offset)
        node = self.product()
        while self.peek("+", "-"):
            op = self.operator()
            node = Node("binary", (op.text, node, self.product()), op.offset)
        self.depth -= 1
        return node

    def product(self) -> Node:
        node = self.unary()
        while self.peek("*", "/"):
            op = self.operator()
            node = Node("binary", (op.text, node, self.unary()), op.offset)
        return node

    def unary(self) -> Node:
        token = self.tokens[self.at]
        if self.peek("-"):
            self.take()
            self.deeper(token.offset)
            inner = self.unary()
            self.depth -= 1
            return Node("neg", (inner,), token.offset)
        if self.peek("("):
            self.take()
            inner = self.sum()
            self.take("op", ")")
            return inner
        if token.kind == "number":
            self.take()
            return Node("number", (number(token), _decimals(token.text)), token.offset)
        if token.kind != "name":
            got = f"'{token.text}'" if token.text else "the end"
            raise ExpressionError(f"expected a number, a name or '(', got {got}",
                                  offset=token.offset)
        name = self.take("name")
        if self.peek("(") and name.text in FUNCTIONS:
            return self.call(name)
        if self.peek("("):
            raise ExpressionError(f"unknown function '{name.text}'", did_you_mean(
                name.text, FUNCTIONS, "known functions"), name.offset)
        if self.peek("["):
            return self.selection(name)
        return Node("name", (name.text,), name.offset)

    def call(self, name: Token) -> Node:
        self.take("op", "(")
        args = [self.argument()]
        while self.peek(","):
            self.take()
            args.append(self.argument())
        self.take("op", ")")
        return Node("call", (name.text, tuple(args)), name.offset)

    def argument(self) -> Node:
        token = self.tokens[self.at]
        if token.text == "by" and self.tokens[self.at + 1].text == "=":
            self.at += 2
            return Node("by", (self.take("name").text,), token.offset)
        return self.sum()

    def selection(self, dataset: Token) -> Node:
        self.take("op", "[")
        conditions = [self.condition()]
        while self.peek(","):
            self.take()
            conditions.append(self.condition())
        self.take("op", "]")
        field = None
        if self.peek("."):
            self.take()
            field = self.take("name").text
        return Node("select", (dataset.text, tuple(conditions), field), dataset.offset)

    def condition(self) -> tuple[str, str, Any, int]:
        name = self.take("name")
        if not self.peek(*COMPARE):
            self.take("op", "=")
        op = self.take().text
        value = self.tokens[self.at]
        if value.kind not in ("number", "name", "text"):
            raise ExpressionError(f"expected a value after '{name.text}{op}'", offset=value.offset)
        self.at += 1
        written = number(value) if value.kind == "number" else value.text
        return name.text, op, written, name.offset


def number(token: Token) -> float:
    """A number written in a statement, within the data's limits."""
    if len(token.text.split(".")[0]) > len(str(LARGEST)) or float(token.text) > LARGEST:
        raise ExpressionError(f"{_short(token.text)} is too large", "numbers in a statement "
                              f"are at most {LARGEST:.0e}", token.offset)
    if _decimals(token.text) > MAX_DECIMALS:
        raise ExpressionError(f"{_decimals(token.text)} decimals is more than a number can "
                              "tell", f"round it to {MAX_DECIMALS} decimals or fewer",
                              token.offset)
    return float(token.text)


def _short(text: str) -> str:
    """A long number as a message quotes it."""
    return text if len(text) <= 24 else f"{text[:10]}...({len(text)} digits)"


def parse(source: str) -> Node:
    """The parse tree of a statement."""
    if len(source) > MAX_LENGTH:
        raise ExpressionError(f"the statement is {len(source)} characters long, more than "
                              f"{MAX_LENGTH}", "compute fewer numbers in one {{ ... }}: "
                              "sum(), mean() and count() work over a whole dataset")
    return Parser(source).statement()

def nodes(tree: Node) -> Iterator[tuple[Node, str]]:
    """Every node of a parse tree in the order written, with its parent's kind."""
    stack = [(tree, "")]
    while stack:
        node, parent = stack.pop()
        yield node, parent
        stack.extend((p, node.kind) for p in reversed(_children(node)) if isinstance(p, Node))


def names(tree: Node) -> list[tuple[str, int]]:
    """Every name a parsed statement cites, with its offset, in the order written (a
    formula's inputs: derive orders formulas by them)."""
    return [(node.parts[0], node.offset) for node, _ in nodes(tree) if node.kind == "name"]


def heads(tree: Node) -> set[str]:
    """What may be a dataset a statement reads: a selection's (`four-way[bots=1]`), a
    field's (`four-way.cpu`: a dotted name's first part), a function's argument
    (`count(four-way)`). A plain name alone is a number's, never a dataset's."""
    return {node.parts[0].partition(".")[0] for node, parent in nodes(tree)
            if node.kind == "select" or (node.kind == "name" and (
                parent == "call" or "." in node.parts[0]))}


def _children(node: Node) -> tuple[Any, ...]:
    """The parts of a node that may be nodes themselves."""
    if node.kind == "call":
        return tuple(node.parts[1])
    if node.kind == "binary":
        return tuple(node.parts[1:])
    if node.kind in ("neg", "statement"):
        return tuple(node.parts[:1])
    return ()


def _decimals(text: str) -> int:
    return len(text.split(".", 1)[1]) if "." in text else 0


