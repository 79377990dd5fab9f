"""Templates as a site's source brings them: read like its other files, run in a sandbox,
and their mistakes told at their file and line.

A site's `templates/` overrides the engine's, and comes with the source, which a pull
request may change. So a template is found only among regular files (a FIFO, which would
wait forever, is passed over) that stay inside its folder (a link to `/etc/passwd` is an
error), runs in Jinja's
sandbox (no `cycler.__init__.__globals__.os`: Python's internals are out of reach) with
no way to a path, a module or an open file among the values it is given, and a template
that does not compile or fails while rendering is a located error, not an internal one.
What a template prints is its own markup, but no active content (active.py).
"""

from __future__ import annotations

import io
import types
from collections.abc import Callable, Sequence
from pathlib import Path, PurePath
from typing import Any

import jinja2
from jinja2.exceptions import SecurityError
from jinja2.loaders import split_template_path
from jinja2.runtime import Context
from jinja2.sandbox import SandboxedEnvironment

from progress_site.errors import Location, Problem
from progress_site.regular import read_regular

# The largest template a site may bring; the engine's largest is a few KB.
MAX_TEMPLATE = 1 << 20
# What a template may compute: a repeated text of a million characters is more than any
# page needs; a power of 1,000 is 10**1000, already past what a page prints.
MAX_REPEAT = 1_000_000
MAX_POWER = 1_000
# The methods of a text that make one of any length asked (`'{:>10000000000}'.format(1)`).
_PADDING = frozenset({"center", "ljust", "rjust", "zfill", "expandtabs", "format",
                      "format_map"})
# Values no template may reach, whose public methods act on the machine.
_UNREACHABLE = (PurePath, types.ModuleType, io.IOBase)


class Sandbox(SandboxedEnvironment):
    """Jinja's sandbox, and no attribute that is, or belongs to, a path, a module or a
    file (the chart cache's folder is a `Path`, whose `write_text` writes anywhere); no
    text or list repeated past MAX_REPEAT (`'x' * 10**10` would fill the memory), no
    power past MAX_POWER (`7 ** 10**9` never ends), nothing that pads text to a length
    asked (`center`, `rjust`, `format`) and no `lipsum`."""

    intercepted_binops = frozenset({"*", "**"})

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        # What pads or makes text of any length asked: lipsum(10**6) never ended,
        # 'x'|center(10**10) fills the memory. Our templates use none of them.
        del self.globals["lipsum"]
        for name in ("center", "indent", "format"):
            del self.filters[name]

    def wrap_str_format(self, value: Any) -> None:
        """No `str.format`, even Jinja's safe one: its widths pad to any length."""
        return None

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        if isinstance(obj, str) and attr in _PADDING:
            return False
        return (not isinstance(obj, _UNREACHABLE) and not isinstance(value, _UNREACHABLE)
                and super().is_safe_attribute(obj, attr, value))

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        if operator == "**" and isinstance(right, int) and abs(right) > MAX_POWER:
            raise SecurityError(f"a power of {right:,} is over the limit of {MAX_POWER:,}")
        if operator == "*" and _repeats(left, right) > MAX_REPEAT:
            raise SecurityError(f"a text or list repeated past {MAX_REPEAT:,} items")
        return super().call_binop(context, operator, left, right)


def _repeats(left: Any, right: Any) -> int:
    """How many items `left * right` makes when it repeats a text or a list; else 0."""
    for seq, times in ((left, right), (right, left)):
        if isinstance(seq, (str, list, tuple)) and isinstance(times, int):
            return len(seq) * times
    return 0


class UnsafeTemplate(jinja2.TemplateError):
    """A template file that cannot be read as one: a link out of its folder, a FIFO."""

    def __init__(self, filename: str, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.filename = filename
        self.line = line


class SourceLoader(jinja2.FileSystemLoader):
    """Jinja's loader of template folders (the first that has a name wins), reading only
    regular files of at most MAX_TEMPLATE bytes that lie inside their folder (through
    `regular`, so a file swapped for a FIFO meanwhile is refused, not waited on)."""

    def get_source(self, environment: jinja2.Environment, template: str
                   ) -> tuple[str, str, Callable[[], bool]]:
        pieces = split_template_path(template)  # refuses `..`
        for folder in self.searchpath:
            path = Path(folder, *pieces)
            if not path.is_file():  # passed over as Jinja does: a FIFO is never opened
                continue
            if not path.resolve().is_relative_to(Path(folder).resolve()):
                raise UnsafeTemplate(str(path), "this template links to a place outside "
                                                "its folder")
            try:
                data = read_regular(path, MAX_TEMPLATE)
            except OSError as exc:
                raise UnsafeTemplate(str(path), f"this template cannot be read: {exc}"
                                     ) from None
            try:
                text = data.decode(self.encoding)
            except UnicodeDecodeError as exc:  # its line, not the codec's byte offset
                raise UnsafeTemplate(str(path), "this template is not valid UTF-8: save it "
                                     "as UTF-8", data.count(b"\n", 0, exc.start) + 1) from None
            return text, str(path), lambda: True
        raise jinja2.TemplateNotFound(template)


# What a template can end in besides Jinja's own errors: `{% extends %}` of itself or a
# macro calling itself (RecursionError), `range(10**9)` (the sandbox's OverflowError).
LIMITS = (jinja2.TemplateError, RecursionError, OverflowError)
# And what a site's own template may raise by computing: `{{ 1 / 0 }}`, `{{ 1 + 'a' }}`,
# a filter given what it cannot take. From the engine's templates, these are bugs.
FAILURES = (*LIMITS, ArithmeticError, TypeError, ValueError, LookupError)


def site_failure(exc: BaseException, env: jinja2.Environment) -> bool:
    """Whether a template's failure is the site's to fix (a located error): Jinja's errors
    and the limits, wherever they come from; a Python error only from a template of the
    site's own folder (the engine's is the last one searched), not the engine's."""
    if isinstance(exc, LIMITS):
        return True
    filename, _ = _where(exc)
    folders: Sequence[str] = getattr(env.loader, "searchpath", [])
    return filename is not None and any(Path(filename).is_relative_to(folder)
                                        for folder in folders[:-1])


def template_problem(exc: BaseException, env: jinja2.Environment) -> Problem:
    """A template that cannot be read, compiled or rendered, at its file and line (the
    line Jinja gives a syntax error, else the last template line the error went through)."""
    filename, line = _where(exc)
    folders: Sequence[str] = getattr(env.loader, "searchpath", [])
    display = _shown(filename, folders) if filename else "templates"
    if isinstance(exc, SecurityError):
        hint = "a template reads the values it is given and their public attributes only"
    else:
        hint = "correct the template, or delete it to use the engine's"
    message = (exc.message if isinstance(exc, jinja2.TemplateError) else str(exc)) or \
        type(exc).__name__
    return Problem(Location(display, line, 1 if line else 0), f"template error: {message}",
                   hint=hint)


def _where(exc: BaseException) -> tuple[str | None, int]:
    """The template file and line an error comes from."""
    if isinstance(exc, UnsafeTemplate):
        return exc.filename, exc.line
    if isinstance(exc, jinja2.TemplateSyntaxError):
        return exc.filename, exc.lineno
    found: tuple[str | None, int] = (None, 0)
    tb = exc.__traceback__
    while tb is not None:  # Jinja rewrites the frames of a template to its file and line
        name = tb.tb_frame.f_code.co_filename
        if name.endswith((".html", ".xml", ".txt")):
            found = (name, tb.tb_lineno)
        tb = tb.tb_next
    return found


def _shown(filename: str, folders: Sequence[str]) -> str:
    """A template's path as a message names it: `templates/page-x.html`."""
    for folder in folders:
        if Path(filename).is_relative_to(folder):
            return (Path("templates") / Path(filename).relative_to(folder)).as_posix()
    return filename
