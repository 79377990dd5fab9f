"""Write figures into data/*.yaml: find the entry, refuse to overwrite, keep the rest as is.

The command line (`record.py`) decides what to write; this module knows where it goes
and how: the data files are read with ruamel.yaml and edited through `yamledit`, so a
file's comments, order and style stay byte for byte outside the edited entries.
"""

from __future__ import annotations

import datetime as dt
import difflib
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap

from progress_site.derive.model import derive
from progress_site.errors import Problem, UsageError
from progress_site.load.site import DATA_SUFFIXES, load, source_files
from progress_site.record.options import NOISE_LIMIT
from progress_site.record.yamledit import Raw, YamlFile
from progress_site.validate.rules import validate

TIME_UNITS = {"ns": Decimal("1e-9"), "us": Decimal("1e-6"), "µs": Decimal("1e-6"),
              "ms": Decimal("1e-3"), "s": Decimal(1)}
NUMBER_KEYS = ("value", "range", "samples", "ok", "of")


class Refused(UsageError):
    """Writing would overwrite a figure, or the user said no: nothing was written."""

    exit_code = 1


@dataclass(frozen=True)
class Suggestion:
    """The status the noise of a run suggests, and why."""

    status: str
    reason: str


def suggest(cv: float | None, limit: float = NOISE_LIMIT) -> Suggestion | None:
    """`watch` when the coefficient of variation is over `limit` percent; None if unknown."""
    if cv is None:
        return None
    percent = cv * 100
    if percent > limit:
        return Suggestion("watch", f"the runs vary by {percent:.1f} % (coefficient of "
                                   f"variation), over {limit:g} %")
    return Suggestion("measured", f"the runs vary by {percent:.1f} %, within {limit:g} %")


def parse_number(text: str, what: str) -> Raw:
    """A number as the user typed it (`12.50` keeps its decimals), never in e-notation."""
    try:
        value = Decimal(text.strip().replace("_", ""))
    except InvalidOperation:
        raise UsageError(f"{what}: expected a number, got {text!r}") from None
    if not value.is_finite():
        raise UsageError(f"{what}: expected a finite number, got {text!r}")
    return Raw(format(value, "f"))


def significant(value: Decimal, digits: int = 3) -> Decimal:
    """A tool's float with `digits` significant digits: 0.0114975 s -> 0.0115."""
    if value == 0:
        return Decimal(0)
    decimals = max(0, digits - 1 - value.adjusted())
    return value.quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP)


def scale_time(value: Decimal, unit: str | None, wanted: str | None) -> tuple[Decimal, str | None]:
    """A duration in `wanted`, or in the largest unit that keeps it at 1 or more."""
    if unit not in TIME_UNITS:
        if wanted not in (None, unit):
            raise UsageError(f"--unit {wanted}: the results are in {unit or 'no unit'}, "
                             "which converts to no other unit")
        return value, unit
    seconds = value * TIME_UNITS[unit]
    if wanted is None:
        wanted = next((u for u in ("s", "ms", "us") if abs(seconds) >= TIME_UNITS[u]), "ns")
    if wanted not in TIME_UNITS:
        raise UsageError(f"--unit {wanted}: a duration converts to ns, us, ms or s")
    return seconds / TIME_UNITS[wanted], wanted


def figure_map(value: Any, unit: str | None, status: str, provenance: dict[str, Any],
               flow: bool) -> CommentedMap:
    """A figure as the data writes it; `status: measured` is the default, left out."""
    fig = CommentedMap()
    fig["samples" if isinstance(value, list) else "value"] = value
    if unit:
        fig["unit"] = unit
    if status != "measured":
        fig["status"] = status
    for key in ("machine", "date", "commit", "run"):
        if provenance.get(key) is not None:
            fig[key] = provenance[key]
    if flow:
        fig.fa.set_flow_style()
    return fig


class Recorder:
    """The data files of one source folder, opened for editing."""

    def __init__(self, root: Path) -> None:
        if not (root / "data").is_dir():
            raise UsageError(f"{root}: no data/ folder here; pass --source with the folder "
                             "that holds data/")
        self.root = root
        self.files = {p: YamlFile(p, self.display(p))
                      for p in source_files(root / "data", root, DATA_SUFFIXES)}
        self.declared: set[str] = set()  # commits declared by this recording

    def display(self, path: Path) -> str:
        """A path as messages print it, relative to the source folder."""
        return path.relative_to(self.root).as_posix() if path.is_relative_to(self.root) \
            else str(path)

    def open(self, path: Path) -> YamlFile:
        """A file to write into, opened once (a new one when it does not exist yet)."""
        path = path if path.is_absolute() else self.root / path
        if path not in self.files:
            if path.suffix not in DATA_SUFFIXES or not path.is_relative_to(self.root / "data"):
                raise UsageError(f"--file {path}: expected a .yaml file under "
                                 f"{self.root / 'data'}")
            self.files[path] = YamlFile(path, self.display(path))
        return self.files[path]

    def holder(self, collection: str) -> YamlFile | None:
        """The first file (in sorted order) that has the collection."""
        return next((f for f in self.files.values() if collection in f.tree), None)

    def find(self, collection: str, ident: str) -> tuple[YamlFile, CommentedMap] | None:
        """The entry of a collection with this id, and its file."""
        for file in self.files.values():
            for entry in file.tree.get(collection) or ():
                if isinstance(entry, CommentedMap) and str(entry.get("id")) == ident:
                    return file, entry
        return None

    def where(self, file: YamlFile, entry: CommentedMap) -> str:
        """`data/x.yaml:12` for an entry."""
        return f"{file.display}:{entry.lc.line + 1}"

    def declare_commit(self, commit: str | None, fallback: YamlFile) -> str | None:
        """Add a commit that figures name to `commits:` if it is not there yet."""
        if commit is None or commit in self.declared or self.find("commits", commit):
            return None
        self.declared.add(commit)
        file = self.holder("commits") or fallback
        file.append("commits", CommentedMap([("id", commit)]))
        return f"declared commit {commit} under `commits:` in {file.display}"

    def diff(self) -> str:
        """What writing would change, as a unified diff."""
        out: list[str] = []
        for file in self.files.values():
            if file.changed:
                out += difflib.unified_diff(file.text.splitlines(True),
                                            file.result().splitlines(True),
                                            f"a/{file.display}", f"b/{file.display}")
        return "".join(out)

    def write(self) -> list[str]:
        """Write every edited file; the names of those written."""
        written = []
        for path, file in self.files.items():
            if file.changed:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(file.result(), encoding="utf-8", newline="")
                written.append(file.display)
        return written


def check(root: Path, today: dt.date) -> list[Problem]:
    """The errors a build of the written data would stop on (load, validate, derive)."""
    source, problems = load(root, strict=False)
    if source is not None and not any(not p.warning for p in problems):
        data, found = validate(source.data, today)
        problems += found
        if not any(not p.warning for p in problems):
            problems += derive(data, today)[1]
    return sorted((p for p in problems if not p.warning), key=Problem.sort_key)
