"""Numbers typed where a reference belongs: a number in a page's prose or a data text
that equals, as the page prints it, a figure or a derived number of the site.

"Never typed" is the tool's promise: a typed `2.46` beside the ratio it copies stays
`2.46` when the data changes. The site's printed numbers are indexed once
(printedindex.py, rounded as the page rounds them); texts are read through
markdown-it's tokens, so code spans, fences, links' addresses and references are not
prose. Years, dates, versions (`1.66.0`) and ids (`cpu-500`, `#7484`) are no numbers.
A match is a warning naming the reference to write, an error with --strict.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from babel.numbers import get_decimal_symbol, get_group_symbol
from markdown_it.token import Token

from progress_site.derive.site import Model
from progress_site.errors import Location, Problem, SourceLines
from progress_site.load.pages import Page
from progress_site.model.values import Text, Where
from progress_site.render import formatting
from progress_site.render.blocklines import Block
from progress_site.render.located import located
from progress_site.render.markdown import inline_tokens, page_tokens, prose_chunks
from progress_site.render.printedindex import Candidate, index

# A number as prose writes it, groups and decimals included (`1,000.5`, `1 000,5`); not
# inside a word, an id, a path, a version or a time (`cpu-500`, `#7484`, `v2`, `12:30`).
NUMBER = re.compile(r"(?<![\w#@/\\.,:\u2011-])\d+(?:[.,\u202f\u00a0]\d+)*(?![\w/\u2011-]|[.,:]\d)")
DIGIT = re.compile(r"\d")
# A percentage's sign or word after a number: `1.9%`, `1,9 %`, `12 percent`, `12 pour cent`.
PERCENT = re.compile(r"[ \u00a0\u202f]?(?:%|percent\b|pour[ \u00a0]cent\b)", re.IGNORECASE)
WORD = re.compile(r"[^\W\d_]+")


def normal(printed: str) -> str:
    """A number as printed or typed, its group separator one character (Babel prints a
    narrow no-break space in French; a writer types a no-break space)."""
    return printed.replace("\u00a0", "\u202f")


@dataclass(slots=True)
class Numbers:
    """The numbers the site prints, read in one language."""

    printed: Mapping[str, list[Candidate]]
    lang: str
    units: Mapping[str, tuple[Text, Text]]  # the site's own units: one, other
    spelled: dict[str, frozenset[str]] = field(default_factory=dict)
    # The language's number symbols and month names, read from Babel once a build (every
    # number a text holds asks for them).
    symbols: tuple[str, str, re.Pattern[str]] = field(init=False)
    months: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        self.symbols = symbols(self.lang)
        self.months = months(self.lang)

    def digits(self, token: str) -> str | None:
        """A typed number as `index` keys it (`1 000,5` in French is `1000.5`); None when
        its groups are not the language's (`2,48` in English)."""
        if token.isdigit():  # a whole number without groups reads alike in every language
            return token
        group, decimal, shape = self.symbols
        token = normal(token)
        if not shape.fullmatch(token):
            return None
        return token.replace(group, "").replace(decimal, ".")

    def typed_digits(self, text: str) -> list[str]:
        """The digits of every number a text holds as this language writes them (its
        prose or not: what `typed` may look up)."""
        found = (self.digits(m.group()) for m in NUMBER.finditer(text))
        return [d for d in found if d is not None]

    def unit_words(self, unit: str) -> frozenset[str]:
        """The words a unit is printed as after a number, in this language (and its id)."""
        if unit not in self.spelled:
            words = {unit.lower()}
            for amount in (1.0, 2.0):
                printed = formatting.with_unit(amount, 0, unit, self.lang, dict(self.units))
                words.update(w.lower() for w in WORD.findall(printed)[:1])
            self.spelled[unit] = frozenset(words)
        return self.spelled[unit]

    def name(self, digits: str, word: str, percent: bool) -> str | None:
        """The name that prints these digits, in the unit typed after them if any. A
        percentage is printed with its sign, so a copy of it says `%`: a bare `1.9` (a
        version, "2.0 against 1.9") is not the change `+1.9%`, and `1.9%` is no 1.9 ms."""
        for name, unit in self.printed.get(digits, ()):
            if (unit == "%") != percent:
                continue
            if unit in (None, "%") or not word or word in self.unit_words(unit):
                return name
        return None


def symbols(lang: str) -> tuple[str, str, re.Pattern[str]]:
    """A language's group and decimal symbols (Babel's), and the shape of a number
    written with them: `1,000.5`, `1000.5`, `1 000,5`."""
    group = normal(get_group_symbol(locale=lang))
    decimal = get_decimal_symbol(locale=lang)
    g, d = re.escape(group), re.escape(decimal)
    return group, decimal, re.compile(rf"\d{{1,3}}(?:{g}\d{{3}})*(?:{d}\d+)?|\d+(?:{d}\d+)?")


def months(lang: str) -> frozenset[str]:
    """The names of the months in a language, as Babel spells them (a number beside one
    is a day of a date)."""
    names = formatting.locale(lang).months["format"]
    return frozenset(m.lower().rstrip(".") for width in ("wide", "abbreviated")
                     for m in names[width].values())


def no_number(text: str, match: re.Match[str], numbers: Numbers) -> bool:
    """A match that is a year, a day of a date, a version (two decimal points), or a
    small or round whole number."""
    token = match.group()
    decimals = token.count(numbers.symbols[1])
    if decimals > 1 or re.fullmatch(r"(19|20)\d\d", token):
        return True
    # Loads, settings and counts are small or round whole numbers (10 bots, 500 players,
    # 4 threads) that some figure prints too; a measured number rarely is.
    digits = sum(ch.isdigit() for ch in token)
    if not decimals and (digits < 3 or token.endswith("0")):
        return True
    before = WORD.findall(text[:match.start()][-20:])
    after = WORD.match(text[match.end():].lstrip())
    return bool((before and before[-1].lower() in numbers.months)
                or (after and after.group().lower().rstrip(".") in numbers.months))


def typed(text: str, numbers: Numbers) -> Iterator[tuple[int, str, str]]:
    """(offset, number, name) for each number of a prose text that the site prints: in
    the same unit, when the text names one after it (`3.5 chunks` is not `3.5 cores`)."""
    for match in NUMBER.finditer(text):
        digits = numbers.digits(match.group())
        if digits is None or digits not in numbers.printed or no_number(
                text, match, numbers):
            continue
        rest = text[match.end():]
        after = WORD.match(rest.lstrip())
        word = after.group().lower() if after else ""
        name = numbers.name(digits, word, PERCENT.match(rest) is not None)
        if name is not None:
            yield match.start(), match.group(), name


def prose(tokens: tuple[Token, ...]) -> Iterator[Token]:
    """The tokens of words a reader reads as prose: text, not code, not a reference."""
    for token in tokens:
        if token.type == "inline":
            yield from (c for c in token.children or () if c.type == "text")


def warning(placed_at: Problem, number: str, name: str, strict: bool) -> Problem:
    """The problem of one typed number, at the place and source line of `placed_at` (a
    problem with no message yet)."""
    return dataclasses.replace(
        placed_at, message=f"the number {number} is typed, and the site prints it from {name}",
        hint=f"write {{{{ {name} }}}}: a typed number stays as it is when the data changes",
        warning=not strict)


def check_page(page: Page, numbers: Numbers, strict: bool) -> list[Problem]:
    """The typed numbers of a content page's prose, each at its line and column."""
    out = []
    for start, part in prose_chunks(page):
        if isinstance(part, Block):
            continue
        lines = [0, *(i + 1 for i, ch in enumerate(part) if ch == "\n"), len(part) + 1]
        for token in page_tokens(part, page):
            if token.type != "inline" or token.map is None:
                continue
            # Where the block's lines are in the body: a list item's or a quote's text has
            # lost its marks and indent, and an entity its spelling (`&amp;`), so a text
            # is looked for there, not from the chunk's first line.
            first, last = token.map[0], min(token.map[1], len(lines) - 1)
            span = (start + lines[first], start + lines[last] - 1)
            for at, number, name in typed_in_span(page.body, span, token, numbers):
                where = located(page, at, "", "")
                out.append(warning(where, number, name, strict))
    return out


def typed_in_span(body: str, span: tuple[int, int], token: Token, numbers: Numbers
                  ) -> Iterator[tuple[int, str, str]]:
    """(offset in `body`, number, name) for each typed number of an inline token's prose,
    whose source is `body[span[0]:span[1]]`: its text found there as written, else the
    number itself, after the one before it."""
    cursor, end = span
    for child in prose((token,)):
        found = body.find(child.content, cursor, end)
        for offset, number, name in typed(child.content, numbers):
            at = found + offset if found >= 0 else written(body, number, cursor, end)
            yield at, number, name
            cursor = max(cursor, at + len(number))
        if found >= 0:
            cursor = max(cursor, found + len(child.content))


def written(body: str, number: str, start: int, end: int) -> int:
    """Where a number is written in `body[start:end]`, not inside a longer one (`2.56`
    in `12.56`); `start` when it is not there as typed."""
    pattern = rf"(?<![\w.,\u202f\u00a0]){re.escape(number)}(?![\w]|[.,]\d)"
    match = re.compile(pattern).search(body, start, end)
    return match.start() if match else start


def at_number(lines: SourceLines, where: Location, number: str) -> tuple[Location, str]:
    """The place of a number in a data text: found on the text's line or the few after
    it (a text's value may start on the next line); the text's place otherwise."""
    for line in range(where.line, where.line + 4):
        text = lines.line(where.file, line)
        column = text.find(number, where.column - 1 if line == where.line else 0)
        if column >= 0:
            return Location(where.file, line, column + 1), text
    return where, lines.line(where.file, where.line)


# A data text in one language that holds numbers: its words, where it was written, its
# field's name, the language, and the digits of its numbers (`Numbers.digits`).
Holding = tuple[str, Where, str, str, list[str]]


def holding_numbers(model: Model, languages: Mapping[str, Numbers]) -> list[Holding]:
    """The data's texts that hold a number, in each language the site prints, in order."""
    out = []
    default = model.data.site.languages[0]
    for text, holder, written_in in model.texts:
        for lang, numbers in languages.items():
            words = text.get(lang, default)
            if DIGIT.search(words):
                found = numbers.typed_digits(words)
                if found:
                    out.append((words, holder, written_in, lang, found))
    return out


def check_data(held: list[Holding], languages: Mapping[str, Numbers], root: Path,
               strict: bool) -> list[Problem]:
    """The typed numbers of the data's texts that hold one, each in its language."""
    out, seen = [], set()
    lines = SourceLines(root)
    for words, holder, written_in, lang, found in held:
        numbers = languages[lang]
        # Parsed only when a number of its words is one the site prints.
        if not any(d in numbers.printed for d in found) or not any(typed(words, numbers)):
            continue
        for token in prose(inline_tokens(words)):
            for _, number, name in typed(token.content, numbers):
                where, line = at_number(lines, holder.of(written_in), number)
                if (where, number) not in seen:
                    seen.add((where, number))
                    out.append(warning(Problem(where, "", source_line=line), number, name,
                                       strict))
    return out


def typed_numbers(model: Model, pages: tuple[Page, ...], root: Path, strict: bool
                  ) -> list[Problem]:
    """Every number typed in the pages and the data that the site prints from a name."""
    site = model.data.site
    own = {u.id: (u.one, u.other) for u in site.units} | {
        u.id: (u.one, u.other) for d in model.namespace.datasets.values() for u in d.units}
    printed: dict[str, list[Candidate]] = {}  # filled below, once the typed ones are known
    languages = {lang: Numbers(printed, lang, own) for lang in site.languages}
    # The numbers typed first: only the site's numbers that may print one of them are
    # formatted into the index (a large site types few, and prints thousands).
    held = holding_numbers(model, languages)
    wanted = {d for *_, found in held for d in found}
    for page in pages:
        if page.language in languages and DIGIT.search(page.body):
            wanted.update(languages[page.language].typed_digits(page.body))
    if not wanted:
        return []
    printed.update(index(model, wanted))
    out = check_data(held, languages, root, strict)
    for page in pages:
        if page.language in languages and DIGIT.search(page.body):
            out += check_page(page, languages[page.language], strict)
    return out
