"""A roadmap: tasks, grouped, each with its steps, and the proofs that one is done.

A task marked done needs a proof and a validation date (validate/rules.py); a roadmap
counted shows how many are validated, which is derived, never typed (derive/views.py).
"""

# No `from __future__ import annotations`: field types as objects (see schema.py).

import datetime as dt
from dataclasses import dataclass
from typing import Literal

from progress_site.model.declare import Link, f, where
from progress_site.model.values import Text, Where

TaskStatus = Literal["done", "in-progress", "planned"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Step:
    title: Text = f("the step")
    status: TaskStatus = f("done, in-progress or planned")
    proofs: tuple[Link, ...] = f("public proof that it is done", ())
    validated: dt.date | None = f("when it was validated (required when done)", None)
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Task:
    id: str = f("name used in references")
    title: Text = f("the task")
    status: TaskStatus = f("done, in-progress or planned")
    description: Text | None = f("what it is", None)
    proofs: tuple[Link, ...] = f("public proof (required when done)", ())
    validated: dt.date | None = f("when it was validated (required when done)", None)
    steps: tuple[Step, ...] = f("its steps, in order", ())
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class TaskGroup:
    title: Text = f("the group's title")
    intro: Text | None = f("a line under the title", None)
    tasks: tuple[Task, ...] = f("its tasks")
    where: Where = where()


@dataclass(frozen=True, slots=True, kw_only=True)
class Roadmap:
    id: str = f("name used in links (`#ID`)")
    title: Text = f("the roadmap's title")
    intro: Text | None = f("a line under the title", None)
    counted: bool = f("show 'N of M validated' above it", False)
    groups: tuple[TaskGroup, ...] = f("groups of your own; without them, grouped by status", ())
    tasks: tuple[Task, ...] = f("tasks grouped by status (when there are no groups)", ())
    where: Where = where()
