"""criterion.rs: `target/criterion/<name>/new/estimates.json`, with `benchmark.json` (its
name) and `sample.json` (its readings) beside it when present; times in nanoseconds.

The FILE may also be a folder (`target/criterion`): every `*/new/estimates.json` in it.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from types import MappingProxyType
from typing import Any

from progress_site.errors import KeyPath
from progress_site.record.importers.base import (
    ImportFailed,
    Result,
    fail,
    not_negative,
    number,
    quoted,
    stats_of,
)
from progress_site.record.importers.places import Place
from progress_site.record.importers.reading import read_located, within
from progress_site.record.importers.shape import Each, Format, Obj

HINT = "give target/criterion/NAME/new/estimates.json as `cargo bench` wrote it"
# What criterion writes (its estimates.json and sample.json), as far as it is read.
ESTIMATE = Obj("an estimate", {"point_estimate": ("number", True)})
ESTIMATES = Format(Obj("the file", {key: (ESTIMATE, key == "mean") for key in (
    "mean", "median", "std_dev", "median_abs_dev", "slope")}),
    "not criterion estimates.json: no `mean` estimate", HINT)
SAMPLE = Format(Obj("the file", {"iters": (Each("a count of iterations", "number"), True),
                                 "times": (Each("a time", "number"), True)}),
                "not criterion sample.json: no `iters` and `times` lists",
                "give the folder as `cargo bench` wrote it")
# Each estimate kept, under our name.
OURS = MappingProxyType({"mean": "mean", "median": "median", "std_dev": "stddev",
                         "median_abs_dev": "mad", "slope": "slope"})


def read(path: Path, display: str) -> list[Result]:
    """One result per estimates.json: the file given, or each under the folder given."""
    if not path.is_dir():
        return [one(path, display)]
    found = sorted(path.rglob("new/estimates.json"))
    if not found:
        raise fail(display, "no */new/estimates.json under this folder",
                   "give target/criterion after `cargo bench`, or one estimates.json")
    return [one(within(file, path, shown), shown) for file in found
            for shown in [f"{display}/{file.relative_to(path).as_posix()}"]]


def one(path: Path, display: str) -> Result:
    """One benchmark: the point estimates, and the readings of sample.json per iteration."""
    doc, tool_file = read_located(path, display, ESTIMATES)
    points = {key: estimate["point_estimate"] for key, estimate in doc.items()
              if isinstance(estimate, dict) and "point_estimate" in estimate}
    stats = stats_of(points, OURS)
    name, named = bench_name(path, str(PurePosixPath(display).with_name("benchmark.json")))
    places = {"": (tool_file, ()), **named,
              **{ours: (tool_file, (theirs, "point_estimate")) for theirs, ours in OURS.items()}}
    not_negative(display, name, {k: v for k, v in points.items() if k != "slope"},
                 places=places)
    samples, sample_places = per_iteration(path.with_name("sample.json"), display, name)
    return Result(name, "ns", stats, samples, len(samples) or 1, title=name,
                  places={**places, **sample_places})


def bench_name(estimates: Path, display: str) -> tuple[str, dict[str, Place]]:
    """The benchmark's id from benchmark.json (`group/function/value`; its place, as the
    title's), else its folder."""
    beside = estimates.with_name("benchmark.json")
    if beside.is_file() or beside.is_symlink():
        shown = str(PurePosixPath(display).with_name("benchmark.json"))
        doc, tool_file = read_located(within(beside, beside.parent, shown), display)
        if isinstance(doc, dict) and isinstance(doc.get("full_id"), str):
            return str(doc["full_id"]), {"title": (tool_file, ("full_id",))}
    folder = estimates.parent.parent
    return folder.name if estimates.parent.name == "new" else estimates.stem, {}


def per_iteration(sample: Path, display: str, name: str
                  ) -> tuple[tuple[Any, ...], dict[str, Place]]:
    """sample.json's times divided by their iteration counts: one reading per sample (and
    where those times are)."""
    if not sample.is_file() and not sample.is_symlink():
        return (), {}
    shown = str(PurePosixPath(display).with_name("sample.json"))
    doc, tool_file = read_located(within(sample, sample.parent, shown), shown, SAMPLE)
    iters, times = doc["iters"], doc["times"]
    places: dict[str, Place] = {"samples": (tool_file, ("times",)), "": (tool_file, ())}
    wrong: KeyPath | None = next((("iters", i) for i, count in enumerate(iters)
                                  if count <= 0), None)
    why = f"an iteration count of {iters[wrong[1]]:g}" if wrong else ""
    if wrong is None and len(iters) != len(times):
        # The first time without its count, or the first count without its time.
        wrong = ("times", len(iters)) if len(times) > len(iters) else ("iters", len(times))
        why = f"{len(iters):,} iteration counts, {len(times):,} times"
    if wrong is not None:
        raise ImportFailed(tool_file.problems(
            wrong, f"benchmark {quoted(name)}: sample.json's iters and times do not pair "
            f"({why})", "give the folder as `cargo bench` wrote it"))
    not_negative(display, name, {"samples": times}, places=places)
    for k, (t, i) in enumerate(zip(times, iters, strict=True)):
        if t and not t / i:  # a float's division that underflows: no reading is 0 ns
            raise ImportFailed(tool_file.problems(
                ("times", k), f"benchmark {quoted(name)}: a reading of sample.json ({t:g} "
                f"over {i:g} iterations) is too close to 0 to read",
                "give the folder as `cargo bench` wrote it"))
    return tuple(number(t / i) for t, i in zip(times, iters, strict=True)), places
