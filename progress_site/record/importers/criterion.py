"""criterion.rs: `target/criterion/<name>/new/estimates.json`, with `benchmark.json` (its
name) and `sample.json` (its readings) beside it when present; times in nanoseconds.

The FILE may also be a folder (`target/criterion`): every `*/new/estimates.json` in it.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Any

from progress_site.record.importers.base import (
    Result,
    fail,
    not_negative,
    number,
    quoted,
    read_json,
    stats_of,
)
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


def read(path: Path, display: str) -> list[Result]:
    """One result per estimates.json: the file given, or each under the folder given."""
    if not path.is_dir():
        return [one(path, display)]
    found = sorted(path.rglob("new/estimates.json"))
    if not found:
        raise fail(display, "no */new/estimates.json under this folder",
                   "give target/criterion after `cargo bench`, or one estimates.json")
    return [one(file, f"{display}/{file.relative_to(path).as_posix()}") for file in found]


def one(path: Path, display: str) -> Result:
    """One benchmark: the point estimates, and the readings of sample.json per iteration."""
    doc = read_json(path, display, ESTIMATES)
    points = {key: estimate["point_estimate"] for key, estimate in doc.items()
              if isinstance(estimate, dict) and "point_estimate" in estimate}
    stats = stats_of(points, {"mean": "mean", "median": "median", "std_dev": "stddev",
                              "median_abs_dev": "mad", "slope": "slope"})
    name = bench_name(path, str(PurePosixPath(display).with_name("benchmark.json")))
    not_negative(display, name, {k: v for k, v in points.items() if k != "slope"})
    samples = per_iteration(path.with_name("sample.json"), display, name)
    return Result(name, "ns", stats, samples, len(samples) or 1, title=name)


def bench_name(estimates: Path, display: str) -> str:
    """The benchmark's id from benchmark.json (`group/function/value`), else its folder."""
    beside = estimates.with_name("benchmark.json")
    if beside.is_file():
        doc = read_json(beside, display)
        if isinstance(doc, dict) and isinstance(doc.get("full_id"), str):
            return str(doc["full_id"])
    folder = estimates.parent.parent
    return folder.name if estimates.parent.name == "new" else estimates.stem


def per_iteration(sample: Path, display: str, name: str) -> tuple[Any, ...]:
    """sample.json's times divided by their iteration counts: one reading per sample."""
    if not sample.is_file():
        return ()
    doc = read_json(sample, display.removesuffix("estimates.json") + "sample.json", SAMPLE)
    iters, times = doc["iters"], doc["times"]
    if len(iters) != len(times) or any(i <= 0 for i in iters):
        raise fail(display, f"benchmark {quoted(name)}: sample.json's iters and times do not pair",
                   "give the folder as `cargo bench` wrote it")
    not_negative(display, name, {"times": times})
    for t, i in zip(times, iters, strict=True):
        if t and not t / i:  # a float's division that underflows: no reading is 0 ns
            raise fail(display, f"benchmark {quoted(name)}: a reading of sample.json ({t:g} "
                       f"over {i:g} iterations) is too close to 0 to read",
                       "give the folder as `cargo bench` wrote it")
    return tuple(number(t / i) for t, i in zip(times, iters, strict=True))
