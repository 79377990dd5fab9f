"""User-facing problems: where they are, what is wrong, how to fix it."""

from __future__ import annotations

import bisect
import functools
import io
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from progress_site.characters import is_forbidden
from progress_site.regular import open_regular

KeyPath = tuple[str | int, ...]

# Input is printed back in errors: keep each piece short, whatever the file holds.
MAX_KEY = 60
MAX_MESSAGE = 400
MAX_LINE = 200
# Problems printed a file: past them, a file of broken lines prints only noise (and its
# readers stop there, `Document.read_no_further`).
MAX_SHOWN = 100


def visible(text: str) -> str:
    """Text safe to print to a terminal: control and invisible characters spelled out
    (an escape sequence or a direction override in the input must not act on the screen),
    and no workflow command for the CI that reads the output (`inert`)."""
    if not text.isprintable():
        # Each spelled out as Python writes it in a string (repr): `\n`, `\x1b`, `\u202e`.
        text = "".join(repr(ch)[1:-1] if unicodedata.category(ch) in _HIDDEN
                       or is_forbidden(ch) else ch for ch in text)
    return inert(text)


def inert(text: str) -> str:
    """`text` that GitHub Actions cannot read as a workflow command: its runner acts on
    a line that starts with `::` once blanks are stripped (`::error::`, `::add-mask::`,
    `::stop-commands::`) and on `##[` anywhere in a line (the older form), so a `:` and
    a `#` of these are spelled out (`\\x3a:error::`, `#\\x23[error]`). Input may start a
    printed line (a source line under its error), so any text that opens with `::` is."""
    if "##[" in text:
        text = text.replace("##[", "#\\x23[")
    stripped = text.lstrip()
    if stripped.startswith("::"):
        blanks = len(text) - len(stripped)
        text = text[:blanks] + "\\x3a" + text[blanks + 1:]
    return text


# Controls, formatting (zero-width, direction), line separators, lone surrogates; and
# the noncharacters the model forbids (U+FFFE), which a terminal shows as nothing readable.
_HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})



def visible_path(name: str) -> str:
    """Anything from input as printed on a terminal (a path, a name, an id), spelled out
    as `repr` would (a byte that is not UTF-8 as `\\xff`). Every command's output goes
    through this one function, so a piece of input cannot start a line of its own, colour
    the terminal or read backwards."""
    if name.isascii() and "\\" not in name:  # no byte kept by os.fsdecode, nothing to
        return visible(name)  # double: an import names 20,000 such files
    shown = []
    for ch in name:
        if ch == "\\":
            shown.append("\\\\")
        elif "\udc80" <= ch <= "\udcff":  # a byte that is not UTF-8, as os.fsdecode keeps it
            shown.append(f"\\x{ord(ch) - 0xdc00:02x}")
        else:
            shown.append(ch)
    return visible("".join(shown))


def shorten(text: str, limit: int) -> str:
    """At most `limit` characters: the start and the end, joined by an ellipsis."""
    if len(text) <= limit:
        return text
    half = (limit - 1) // 2
    return text[:half] + "…" + text[len(text) - half:]


def format_key_path(path: KeyPath) -> str:
    """Spell a key path as a reader writes it: `comparisons[3].after.value`."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            part = shorten(visible(part), MAX_KEY)
            out += f".{part}" if out else part
    return out


def excerpt(line: str, column: int) -> tuple[str, int]:
    """A source line as printed (spelled out, cut around `column`) and the caret's offset."""
    # Each character prints as one or more, so MAX_LINE of them on each side of the column
    # are all that can show (one more tells that the line goes on): a very long line costs
    # each of its errors no more than a short one.
    at = max(column - 1, 0)
    low = max(at - MAX_LINE - 1, 0)
    line = line[low:at + MAX_LINE + 1]
    caret = len(visible(line[: at - low]))
    shown = visible(line)
    if len(shown) <= MAX_LINE:
        return shown, caret
    start = min(max(caret - MAX_LINE // 2, 0), len(shown) - MAX_LINE)
    cut = shown[start:start + MAX_LINE]
    prefix = "…" if start else ""
    suffix = "…" if start + MAX_LINE < len(shown) else ""
    return prefix + cut + suffix, caret - start + len(prefix)


@dataclass(frozen=True, slots=True)
class Location:
    """A place in a source file; line and column count from 1, 0 when unknown."""

    file: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if not self.line:
            return visible_path(self.file)
        return f"{visible_path(self.file)}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the input, located, with a hint on how to fix it."""

    location: Location
    message: str
    key_path: KeyPath = ()
    hint: str = ""
    source_line: str = ""
    warning: bool = False
    # Where `source_line` starts in its line (0: at its start). A problem keeps only the
    # part of a long line that it prints, as the many errors of one long line would each
    # hold all of it.
    source_from: int = 0

    def __post_init__(self) -> None:
        at = max(self.location.column - 1 - self.source_from, 0)
        # excerpt() prints no more than this around `at` (a line's last character is kept,
        # so that a column past its end prints as before).
        low = min(max(at - MAX_LINE - 1, 0), max(len(self.source_line) - 1, 0))
        if low or len(self.source_line) > at + MAX_LINE + 2:
            object.__setattr__(self, "source_line", self.source_line[low:at + MAX_LINE + 2])
            object.__setattr__(self, "source_from", self.source_from + low)

    def render(self) -> str:
        """The problem as printed: location, key path, message, source line, caret, hint."""
        head = f"{self.location}: "
        if self.warning:
            head += "warning: "
        if self.key_path:
            head += f"{format_key_path(self.key_path)}: "
        lines = [head + shorten(visible(self.message), MAX_MESSAGE)]
        if self.source_line:
            shown, caret = excerpt(self.source_line.rstrip("\n"),
                                   self.location.column - self.source_from)
            lines.append("    " + shown)
            if self.location.column:
                lines.append("    " + " " * caret + "^")
        if self.hint:
            lines.append(f"    hint: {shorten(visible(self.hint), MAX_MESSAGE)}")
        return "\n".join(lines)

    def sort_key(self) -> tuple[str, int, int, str]:
        """Order problems by file, then position, so output is stable."""
        loc = self.location
        return (loc.file, loc.line, loc.column, self.message)


class BuildFailed(Exception):
    """The input has errors: nothing was written. Carries every problem found."""

    exit_code = 1

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems, key=Problem.sort_key)
        super().__init__(self.render())

    def render(self) -> str:
        """Every problem (the first MAX_SHOWN of a file, the rest counted), then one
        closing line, as MkDocs does."""
        errors = [p for p in self.problems if not p.warning]
        return "\n".join(rendered(self.problems)) + "\n" + aborted(errors)


def rendered(problems: list[Problem]) -> list[str]:
    """Each problem as printed, the first MAX_SHOWN of each file, then a line for each
    file that counts the rest."""
    shown: dict[str, int] = {}
    lines = []
    for problem in problems:
        count = shown[problem.location.file] = shown.get(problem.location.file, 0) + 1
        if count <= MAX_SHOWN:
            lines.append(problem.render())
    return lines + [f"{visible_path(name)}: and {count - MAX_SHOWN:,} more problems in this "
                    "file (fix those above first)"
                    for name, count in shown.items() if count > MAX_SHOWN]


def kind(problem: Problem) -> str:
    """What a problem is an error of, as the closing line names it, by its file's folder."""
    top = problem.location.file.split("/", 1)[0]
    return {"templates": "template", "locales": "catalog"}.get(top, "data")


def aborted(errors: list[Problem]) -> str:
    """The closing line: `Aborted with 2 data errors.`, `Aborted with 1 catalog error.`,
    `Aborted with 3 errors (2 data, 1 template).`"""
    kinds = Counter(map(kind, errors))
    noun = "error" if len(errors) == 1 else "errors"
    if len(kinds) == 1:
        return f"Aborted with {len(errors):,} {next(iter(kinds))} {noun}."
    counts = ", ".join(f"{kinds[k]:,} {k}" for k in sorted(kinds))
    return f"Aborted with {len(errors):,} {noun} ({counts})."


class UsageError(Exception):
    """A command-line mistake (a missing folder, a bad option value)."""

    exit_code = 2


class SourceLines:
    """Lines of files under a folder, each file read once for all the problems placed
    in it: read again for each problem, 50,000 unknown blocks in one page took minutes."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: dict[str, list[str]] = {}

    def line(self, file: str, line: int) -> str:
        """The text of one line of `file` (relative to the folder, 1-based), or ''."""
        if file not in self.files:
            try:
                with open_regular(self.root / file) as raw, \
                        io.TextIOWrapper(raw, "utf-8", "replace") as fh:
                    self.files[file] = [text.rstrip("\n") for text in fh]
            except OSError:
                self.files[file] = []
        lines = self.files[file]
        return lines[line - 1] if 0 < line <= len(lines) else ""


CUTOFF = 0.6  # difflib's: how alike two words must be for one to be suggested
PAST_PREFIX = 0.5  # how alike two dotted names must be past the parts they share


def closest(word: str, known: Iterable[str]) -> str | None:
    """The known word most like `word` (difflib's, at 0.6 or closer), for a "did you
    mean" hint; None when none is close. A `Names` answers as difflib does, faster."""
    if isinstance(known, Names):
        return known.closest(word)
    import difflib  # here: only a build with a problem needs it

    close = difflib.get_close_matches(word, list(known), 1, CUTOFF)
    return close[0] if close else None


def alike_past_prefix(word: str, found: str) -> bool:
    """Whether two dotted names are alike past the parts they share: the prefix
    `measurements.` made `measurements.memory` close to `measurements.compile-ours`."""
    shared = 0
    for mine, theirs in zip(word.split("."), found.split("."), strict=False):
        if mine != theirs:
            break
        shared += len(mine) + 1
    if shared == 0:
        return True
    import difflib

    # Below difflib's cutoff: a short name lost in a long one (`cpu-500` in
    # `cpu-per-packet-500`, 0.56) is still a likely slip; `memory` and `compile-ours`
    # (0.44) are not.
    return difflib.SequenceMatcher(None, word[shared:], found[shared:]).ratio() >= PAST_PREFIX


class Names:
    """Known words indexed for many "did you mean" questions (a site's thousands of
    names, asked once per bad reference): each answer is difflib's `get_close_matches`
    answer, found among the few words that can reach it rather than among all.

    The tables are made at the first question, not with the words: a build without a
    problem asks none."""

    def __init__(self, words: Iterable[str]) -> None:
        self.words = tuple(words)
        # A bad name is asked about again (where a page cites it, then where it prints).
        self._answers: dict[str, str | None] = {}

    def __iter__(self) -> Iterator[str]:
        return iter(self.words)

    @functools.cached_property
    def _sorted(self) -> tuple[str, ...]:
        """The words in order: a word's neighbours share its start, a good first guess."""
        return tuple(sorted(set(self.words)))

    @functools.cached_property
    def _by_length(self) -> dict[int, dict[int, list[str]]]:
        """The words of each length, by the set of their letters (`letter_set`): names
        alike share one, and are passed over together."""
        lengths: dict[int, dict[int, list[str]]] = {}
        for w in self._sorted:
            lengths.setdefault(len(w), {}).setdefault(letter_set(w), []).append(w)
        return lengths

    def closest(self, word: str) -> str | None:
        """difflib's closest word: the highest ratio at CUTOFF or above (ties: the
        greatest word)."""
        if word not in self._answers:
            self._answers[word] = self._closest(word)
        return self._answers[word]

    def _closest(self, word: str) -> str | None:
        """`closest`, worked out: a ratio is at most 2 * shared letters / both lengths,
        so only the words whose lengths and letters could reach the best found so far
        (first among the word's neighbours in order) are compared whole."""
        import difflib

        matcher = difflib.SequenceMatcher()
        matcher.set_seq2(word)  # as get_close_matches does: the same ratios

        def scored(candidate: str) -> tuple[float, str]:
            matcher.set_seq1(candidate)
            return matcher.ratio(), candidate

        at = bisect.bisect_left(self._sorted, word)
        best = max((scored(w) for w in self._sorted[max(at - 3, 0):at + 3]),
                   default=(0.0, ""))
        letters, size, mask = Counter(word), len(word), letter_set(word)
        for length, groups in self._by_length.items():
            total = length + size
            if 2.0 * min(length, size) / total < max(best[0], CUTOFF):
                continue
            for has, candidates in groups.items():
                # A letter one word has and the other lacks is a letter left unmatched.
                unmatched = (has & ~mask).bit_count() + (mask & ~has).bit_count()
                if (total - unmatched) / total < max(best[0], CUTOFF):
                    continue
                for candidate in candidates:
                    shared = sum((Counter(candidate) & letters).values())
                    if 2.0 * shared / total >= max(best[0], CUTOFF):
                        best = max(best, scored(candidate))
        return best[1] if best[0] >= CUTOFF else None


def letter_set(word: str) -> int:
    """The letters of a word as bits (letters that share a bit are taken as one, which
    only ever counts fewer letters apart: a bound, never a false one)."""
    bits = 0
    for ch in set(word):
        bits |= 1 << (ord(ch) & 63)
    return bits


def did_you_mean(word: str, known: Iterable[str], listing: str = "known",
                 otherwise: str | None = None) -> str:
    """The one "did you mean 'X'?" hint, for the known word closest to `word`; else
    `otherwise`, or the known words listed after `listing` ("known keys: a, b").
    `known` may be a `Names`, for a build that asks about many words."""
    if not isinstance(known, Names):
        known = list(known)
    close = closest(word, known)
    if close and not alike_past_prefix(word, close):
        close = None
    if close:
        return f"did you mean '{close}'?"
    return otherwise if otherwise is not None else f"{listing}: " + ", ".join(known)
