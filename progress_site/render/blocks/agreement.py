"""The `agreement` block: the "equal work" check of a benchmark, computed from its records.

    {{< agreement DATASET by=F fields=F,F tolerance=10% floor=1 across=F require=true >}}

In each group of records with the same `by` value, each field is compared with the
group's highest value. A value agrees when its gap to the highest is at most `tolerance`
of it, or at most `floor` (in the field's unit: it keeps tiny numbers from failing on
noise). The table has a row per group, a column group per `across` value (the key field
that `by` leaves open, by default), and a yes/no per row. With `require=true`, a group
that does not agree stops the build. Numbers are compared as they were written (as
decimals), so a value exactly at the edge agrees.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from markupsafe import Markup

from progress_site.model.dataset import Dataset, RecordField, Row, records_path
from progress_site.render import formatting
from progress_site.render.blocks.options import BlockError, Options
from progress_site.render.blocks.tables import Tables, ordered, plain, spell


@dataclass(frozen=True, slots=True)
class Verdict:
    """One field of one record in an agreement group."""

    value: Decimal
    highest: Decimal
    agrees: bool


@dataclass(frozen=True, slots=True)
class GroupCheck:
    """One `by` value: each record's verdicts, by field, and whether all agree."""

    by: Any
    members: tuple[tuple[Row, tuple[Verdict | None, ...]], ...]

    @property
    def agrees(self) -> bool:
        return all(v.agrees for _, verdicts in self.members for v in verdicts if v)


@dataclass(frozen=True, slots=True)
class AgreementCell:
    values: tuple[str, ...]
    agrees: tuple[bool, ...]
    note: Markup | None


@dataclass(frozen=True, slots=True)
class AgreementView:
    id: str
    caption: Markup
    by: str
    members: tuple[str, ...]  # column groups: the records' names within a group
    fields: tuple[str, ...]
    rows: tuple[tuple[str, tuple[AgreementCell, ...], bool], ...]
    rule: str
    verdict: str  # the header of the yes/no column


def agrees(value: Decimal, highest: Decimal, tolerance: Decimal, floor: Decimal) -> bool:
    """Within `tolerance` of the highest (a fraction of it), or within `floor` of it."""
    gap = highest - value
    return gap <= tolerance * highest or gap <= floor


def check_groups(rows: Sequence[Row], by: str, fields: Sequence[str], tolerance: Decimal,
                 floor: Decimal) -> list[GroupCheck]:
    """The agreement of every group of records sharing a `by` value, in the records' order."""
    groups: dict[Any, list[Row]] = {}
    for row in rows:
        groups.setdefault(plain(row.get(by)), []).append(row)
    out = []
    for key, members in groups.items():
        # Each record's numbers as written, made once (a Decimal from its repr each).
        values = [[None if r.get(f) is None else exact(r.get(f)) for f in fields]
                  for r in members]
        highest = [max((d for d in column if d is not None), default=Decimal(0))
                   for column in zip(*values, strict=True)]
        checked = tuple((r, tuple(
            None if value is None else Verdict(value, top, agrees(value, top, tolerance, floor))
            for value, top in zip(row_values, highest, strict=True)))
            for r, row_values in zip(members, values, strict=True))
        out.append(GroupCheck(key, checked))
    return out


def exact(value: Any) -> Decimal:
    """A number as it was written (61.65 stays 61.65, not 61.649999...)."""
    return Decimal(repr(float(value)))


class Agreements:
    """The agreement blocks of one language."""

    def __init__(self, tables: Tables) -> None:
        self.tables, self.w = tables, tables.w

    def block(self, args: Sequence[str], options: dict[str, str]) -> AgreementView:
        """The `agreement` block: the check, its table, and its rule in words."""
        ds = self.tables.dataset(args, "agreement")
        opts = Options("agreement", options, ds, ("by", "fields", "tolerance", "floor",
                                                  "across", "require", "caption", "verdict",
                                                  "id"))
        by = opts.field("by")
        fields = opts.field_list("fields", numeric=True)
        tolerance = opts.number("tolerance")
        if tolerance is None:
            raise BlockError("agreement: give `tolerance=`, such as tolerance=10%")
        floor = opts.number("floor", Decimal(0)) or Decimal(0)
        open_key = [k for k in ds.key if k != by.name]
        across = opts.field("across", open_key[0] if len(open_key) == 1 else None)
        checks = check_groups(ordered(ds.rows, (by, across)), by.name,
                              [f.name for f in fields], tolerance, floor)
        if opts.flag("require", False):
            self.require(ds, by, fields, checks, tolerance, floor)
        members = list(dict.fromkeys(plain(r.get(across.name))
                                     for r in ordered(ds.rows, (across,))))
        rows = []
        for check in checks:
            found = {plain(r.get(across.name)): (r, v) for r, v in check.members}
            cells = tuple(self.agreement_cell(ds, fields, found.get(m)) for m in members)
            rows.append((self.tables.value(by, check.members[0][0].get(by.name)), cells,
                         check.agrees))
        # Not the dataset's title alone: a table of the same records takes that caption,
        # and two regions of one name are one landmark to a screen reader.
        numeric = [f for f in ds.fields if f.type in ("number", "whole")
                   and f.name not in (by.name, across.name)]
        caption = Markup(self.w.inline(opts.text("caption"))) if opts.text("caption") else (
            Markup.escape(self.w.gettext("Agreement: %(title)s"))
            % {"title": self.tables.named(ds, fields, numeric)})
        return AgreementView(
            opts.text("id", f"agreement-{ds.id}"), caption, self.tables.header(by),
            tuple(self.tables.value(across, m) for m in members),
            tuple(self.tables.header(f) for f in fields), tuple(rows),
            self.rule(fields, tolerance, floor),
            self.w.plain_text(opts.text("verdict", self.w._("Within the rule"))))

    def agreement_cell(self, ds: Dataset, fields: Sequence[RecordField],
                       found: tuple[Row, tuple[Verdict | None, ...]] | None) -> AgreementCell:
        """One record's values in a group, and which of them agree."""
        if found is None:
            return AgreementCell((), (), None)
        row, verdicts = found
        if all(v is None for v in verdicts):
            return AgreementCell((), (), self.tables.note(ds, row))
        return AgreementCell(tuple(self.tables.value(f, row.get(f.name)) for f in fields),
                             tuple(v is None or v.agrees for v in verdicts), None)

    def rule(self, fields: Sequence[RecordField], tolerance: Decimal, floor: Decimal) -> str:
        """The rule of an agreement, in words."""
        names = formatting.word_list([f.label.get(self.w.lang) for f in fields], self.w.lang)
        share = formatting.percent(float(tolerance), _decimals(tolerance * 100), self.w.lang)
        if not floor:
            return self.w._("In each row, each value of %(fields)s is compared with the "
                            "highest in the row: they agree when the gap is at most "
                            "%(share)s of it.", fields=names, share=share)
        units = {f.unit for f in fields}
        unit = units.pop() if len(units) == 1 else None
        amount = formatting.with_unit(float(floor), _decimals(floor), unit, self.w.lang,
                                      self.w.units)
        return self.w._("In each row, each value of %(fields)s is compared with the highest "
                        "in the row: they agree when the gap is at most %(share)s of it, or "
                        "at most %(floor)s.", fields=names, share=share, floor=amount)

    def require(self, ds: Dataset, by: RecordField, fields: Sequence[RecordField],
                checks: list[GroupCheck], tolerance: Decimal, floor: Decimal) -> None:
        """Stop the build at the first group that does not agree."""
        for check in checks:
            for row, verdicts in check.members:
                for fld, v in zip(fields, verdicts, strict=True):
                    if v is not None and not v.agrees:
                        who = ", ".join(f"{k}={spell(row.get(k))}" for k in ds.key)
                        raise BlockError(
                            f"agreement: {ds.id} does not agree at {by.name}="
                            f"{spell(check.by)}: {fld.name} of {who} is {v.value}, "
                            f"{v.highest - v.value} below the highest ({v.highest}); "
                            f"allowed: {(tolerance * 100).normalize():f} % of it, or {floor}",
                            f"{records_path(ds)} at line {row.where.location.line}: re-run, or "
                            "explain it, before publishing")


def _decimals(value: Decimal) -> int:
    """The decimals a number needs to be printed as it was given (1.5 -> 1, 10 -> 0)."""
    exponent = value.normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0
