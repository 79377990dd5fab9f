"""`progress-site record ...`: add results without retyping the data.

Each command gathers every figure to write, refuses to overwrite one without
`--replace`, shows the evidence status the run's noise suggests and asks to confirm it,
checks the data as edited as a build would (`recorder.check`), and writes only a change
the build accepts: a refused one leaves every file as it was (pending.py, the end every
command shares). Errors become exit codes in `cli.main`, like the build's.
"""

from __future__ import annotations

import argparse
import datetime as dt
import re
import statistics
from decimal import Decimal
from typing import Any

from ruamel.yaml.comments import CommentedMap

from progress_site.errors import visible, visible_path
from progress_site.record import appending as history_points
from progress_site.record.datafiles import DataFiles
from progress_site.record.history import printed
from progress_site.record.importers.base import cv_of
from progress_site.record.moving import old_points
from progress_site.record.pending import Pending, finish
from progress_site.record.recorder import (
    NUMBER_KEYS,
    Raw,
    Refused,
    Suggestion,
    keep_unit,
    parse_number,
    suggest,
)
from progress_site.record.yamledit import YamlFile, flow, is_flow


def slug(text: str) -> str:
    """An id from a benchmark's name: `BM_Sum/1024` -> `bm-sum-1024`."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def provenance(args: argparse.Namespace, today: dt.date, **found: Any) -> dict[str, Any]:
    """Machine, date, commit and run: the options first, then what the tool recorded."""
    return {"machine": args.machine or found.get("machine"),
            "date": args.date or found.get("date") or today,
            "commit": args.commit or found.get("commit"), "run": args.run}


def require_evidence(status: str, prov: dict[str, Any]) -> None:
    """A measured figure names its machine and its commit or run; say so before writing."""
    if status in ("measured", "watch"):
        missing = ["--machine"] if prov["machine"] is None else []
        if prov["commit"] is None and prov["run"] is None:
            missing.append("--commit (or --run)")
        if missing:
            raise Refused(f"a measured figure needs {' and '.join(missing)}; or pass "
                          "--status estimate")


def figure_map(value: Any, unit: str | None, status: str, prov: dict[str, Any],
               one_line: bool) -> CommentedMap:
    """A figure as the data writes it; `status: measured` is the default, left out."""
    fig = CommentedMap()
    if isinstance(value, dict):  # a distribution, written as the command gave it
        fig["distribution"] = flow(CommentedMap(value))
    else:
        fig["samples" if isinstance(value, list) else "value"] = value
    if unit:
        fig["unit"] = unit
    if status != "measured":
        fig["status"] = status
    for key in ("machine", "date", "commit", "run"):
        if prov.get(key) is not None:
            fig[key] = prov[key]
    return flow(fig) if one_line else fig


def sibling_flow(rec: DataFiles) -> bool:
    """Whether the data writes measurement figures in flow style (`{value: ...}`)."""
    found = rec.holder("measurements")
    entries = found.tree.get("measurements") if found else None
    return is_flow(entries[-1].get("figure")) if entries else False


def measurement(rec: DataFiles, args: argparse.Namespace, value: Any, prov: dict[str, Any],
                suggestion: Suggestion | None) -> Pending:
    """One measurement to add, or to update when --replace allows it."""
    ident, unit = args.id, args.unit
    status = args.status or (suggestion.status if suggestion else "measured")
    found = rec.find("measurements", ident)
    if found is not None and not args.replace:
        raise Refused(f"measurement '{visible_path(ident)}' is already recorded "
                      f"({rec.where(*found)}); "
                      "pass --replace to overwrite its figure")
    if found is not None:
        keep_unit(f"measurement '{visible_path(ident)}'", rec.where(*found),
                  recorded_unit(found[1]), unit, args.unit is not None)
    file = found[0] if found else rec.measurements_file(args.file)
    one_line = sibling_flow(rec)

    def write(final: str) -> None:
        if found is not None:  # in the style the figure had
            file.set(found[1], "figure", figure_map(value, unit, final, prov,
                                                    is_flow(found[1].get("figure"))))
        else:
            fig = figure_map(value, unit, final, prov, one_line)
            file.append("measurements", CommentedMap([("id", ident),
                                                      ("title", args.title or ident),
                                                      ("figure", fig)]))
        rec.declare_commit(prov["commit"], file)

    require_evidence(status, prov)
    # A distribution's parts each with the unit, but its count (n), which has none.
    shown = (", ".join(f"{k}={v}" + (f" {unit}" if unit and k != "n" else "")
                       for k, v in value.items()) if isinstance(value, dict)
             else (", ".join(value) if isinstance(value, list) else value) + f" {unit or ''}")
    return Pending(f"measurements.{ident}", shown.strip(), status, suggestion, write)


def recorded_unit(entry: CommentedMap) -> str | None:
    """The unit of a measurement's figure as the data has it, if any."""
    figure = entry.get("figure")
    unit = figure.get("unit") if isinstance(figure, CommentedMap) else None
    return str(unit) if unit is not None else None


def run_measurement(args: argparse.Namespace, today: dt.date) -> int:
    """`record measurement ID --value N ...`."""
    given = [args.value, args.samples, args.distribution]
    if sum(g is not None for g in given) != 1:
        raise Refused("give the figure as --value N, as --samples A,B,C, or as "
                      "--distribution p50=N,p95=N,n=N")
    rec = DataFiles(args.source.resolve())
    cv = args.cv / 100 if args.cv is not None else None
    value: Any
    if args.distribution is not None:
        if args.history or rec.has_history(args.id):
            raise Refused("a history point takes --value or --samples; import the tool's "
                          "file to keep its spread (`import FORMAT FILE`)")
        value = distribution_parts(args.distribution)
        if cv is None and "sd" in value and "mean" in value:
            cv = cv_of(float(value["sd"]), float(value["mean"]))
    elif args.samples is not None:
        value = [parse_number(s.strip(), "--samples") for s in args.samples.split(",")]
        if cv is None and len(value) > 1:
            floats = [float(v) for v in value]
            cv = cv_of(statistics.stdev(floats), statistics.fmean(floats))
    else:
        value = parse_number(args.value, "--value")
    if args.history or rec.has_history(args.id):
        return finish(rec, args, [history_point(rec, args, value, cv, today)], today)
    pending = measurement(rec, args, value, provenance(args, today),
                          suggest(cv, args.noise_limit))
    return finish(rec, args, [pending], today)


def distribution_parts(text: str) -> dict[str, Raw]:
    """`p50=16,p95=65,n=10` as the parts of a distribution, numbers as typed; which parts
    exist and whether they agree is the build's to say (its check runs before writing)."""
    parts: dict[str, Raw] = {}
    for item in text.split(","):
        name, sep, number = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise Refused(f"--distribution: expected PART=NUMBER, got {visible(item)!r}")
        if name in parts:
            raise Refused(f"--distribution: {visible(name)} is given twice")
        parts[name] = parse_number(number.strip(), f"--distribution {visible(name)}")
    return parts


def history_point(rec: DataFiles, args: argparse.Namespace, value: Any, cv: float | None,
                  today: dt.date) -> Pending:
    """`record measurement ID --history`: a point of the series (appending.py)."""
    readings = tuple(Decimal(v) for v in value) if isinstance(value, list) else ()
    middle = statistics.median(readings) if readings else Decimal(value)
    found = rec.find("measurements", args.id)
    unit = args.unit or rec.history(args.id).unit() or (recorded_unit(found[1]) if found
                                                        else None)
    suggestion = None if args.status else suggest(cv, args.noise_limit)
    status = args.status or (suggestion.status if suggestion else "measured")
    prov = provenance(args, today)
    history_points.require_point(status, prov)
    prov["date"] = history_points.when(rec, args, prov["commit"], None, today)
    moved = old_points(rec, args.id)
    new = history_points.point(history_points.Reading(middle, unit, readings), unit, prov,
                               None, status)

    def write(final: str) -> None:
        history_points.add_all(rec, args.id, [*moved, new], args.replace)
        history_points.yaml_entry(rec, args, args.id, args.title, unit)

    return Pending(f"measurements.{args.id}", printed(new), status, suggestion, write)


def run_comparison(args: argparse.Namespace, today: dt.date) -> int:
    """`record comparison STUDY/COMPARISON --before X --after Y`."""
    study_id, _, comp_id = args.target.partition("/")
    if not comp_id or (args.before is None and args.after is None):
        raise Refused("name it STUDY/COMPARISON and give --before, --after or both")
    rec = DataFiles(args.source.resolve())
    study = rec.find("studies", study_id)
    if study is None:
        raise Refused(f"no study '{visible_path(study_id)}' under studies: in "
                      f"{visible_path(str(rec.root / 'data'))}")
    file, entry = study
    comp = next((c for c in entry.get("comparisons") or () if str(c.get("id")) == comp_id),
                None)
    if comp is None:
        raise Refused(f"study '{visible_path(study_id)}' has no comparison "
                      f"'{visible_path(comp_id)}' "
                      f"({rec.where(file, entry)})")
    suggestion = suggest(args.cv / 100 if args.cv is not None else None, args.noise_limit)
    pending = []
    for side in ("before", "after"):
        text = getattr(args, side)
        if text is not None:
            # `p50=16,p95=65,n=10`: what a tool reported, as a distribution.
            value = (distribution_parts(text) if "=" in text
                     else parse_number(text, f"--{side}"))
            pending.append(comparison_side(args, file, comp, f"{study_id}/{comp_id}",
                                           side, value, suggestion))
    return finish(rec, args, pending, today)


def sided(old: CommentedMap, number: tuple[str, Any], status: str) -> list[tuple[str, Any]]:
    """A side's keys after a recording, in their written order: the new number where the
    old one was (first when there was none), the status where it was (gone once
    measured, added last otherwise), and no `reason:` once the side is judgeable (it
    said why there was no number)."""
    keys: list[tuple[str, Any]] = [] if any(k in old for k in NUMBER_KEYS) else [number]
    for k, v in old.items():
        if k in NUMBER_KEYS:
            keys += [number] if number not in keys else []  # `ok:` and `of:` are one number
        elif k == "status":
            keys += [("status", status)] if status != "measured" else []
        elif k != "reason" or status == "not-judgeable":
            keys.append((k, v))
    if status != "measured" and "status" not in old:
        keys.append(("status", status))
    return keys


def comparison_side(args: argparse.Namespace, file: YamlFile, comp: CommentedMap,
                    name: str, side: str, value: Raw | dict[str, Raw],
                    suggestion: Suggestion | None) -> Pending:
    """One side of a comparison: its number replaced, its other keys kept."""
    old = comp.get(side)
    old = old if isinstance(old, CommentedMap) else CommentedMap()
    given = [k for k in NUMBER_KEYS if k in old]
    if given and not args.replace:
        raise Refused(f"comparison {visible_path(name)} already has a {side} figure "
                      f"({file.display}:{comp.lc.line + 1}); pass --replace to overwrite it")
    status = args.status or (suggestion.status if suggestion else str(old.get("status",
                                                                          "measured")))

    def write(final: str) -> None:
        number = (("distribution", flow(CommentedMap(value))) if isinstance(value, dict)
                  else ("value", value))
        fig = CommentedMap(sided(old, number, final))
        file.set(comp, side, flow(fig) if old.fa.flow_style() or not old else fig)

    shown = (", ".join(f"{k}={v}" for k, v in value.items()) if isinstance(value, dict)
             else str(value))
    return Pending(f"comparisons.{name.split('/')[1]}.{side}", shown, status, suggestion,
                   write)
