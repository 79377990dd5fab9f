"""A site that still holds what `progress-site new` wrote for its user to replace: a
warning, an error with --strict, so that no placeholder is published (model/placeholders.py)."""

from __future__ import annotations

from dataclasses import replace

from progress_site.errors import Problem
from progress_site.model.placeholders import (
    PLACEHOLDER_TITLE,
    PLACEHOLDER_URL,
    SAMPLE_COMMITS,
    SAMPLE_TASKS,
)
from progress_site.model.roadmap import Task
from progress_site.model.schema import Data
from progress_site.model.values import problem


def check_placeholders(data: Data, strict: bool) -> list[Problem]:
    """The placeholder title and repository, and the sample commits, where written."""
    found = []
    site = data.site
    if PLACEHOLDER_TITLE in (words for _, words in site.title.by_language):
        found.append(problem(site.where, "title", f"'{PLACEHOLDER_TITLE}' is the title "
                             "`progress-site new` wrote", "write your project's name"))
    for repo in site.repositories:
        if repo.url == PLACEHOLDER_URL:
            found.append(problem(repo.where, "url", f"{PLACEHOLDER_URL} is the placeholder "
                                 "`progress-site new` wrote: its links lead nowhere",
                                 "write your repository's address"))
    samples = [c for c in data.commits if c.id in SAMPLE_COMMITS]
    if samples:
        found.append(problem(samples[0].where, "id", "the sample commits of `progress-site "
                             f"new` ({', '.join(c.id for c in samples)}) are still here: "
                             "the figures that cite them are not measured",
                             "replace the sample measurements, study, roadmap and commits "
                             "with your own (`progress-site record`)"))
    tasks = [] if samples else sample_tasks(data)
    if tasks:
        found.append(problem(tasks[0].where, "id", "the sample tasks of `progress-site new` "
                             f"({', '.join(t.id for t in tasks)}) are still here: a task "
                             "marked done with the sample's proof and date is not yours",
                             "replace the sample roadmap with your own tasks, or delete it"))
    return [replace(p, warning=not strict) for p in found]


def sample_tasks(data: Data) -> list[Task]:
    """The tasks of the skeleton's sample roadmap still in the data (by id and titles: a
    task of the user's own may share an id, and an English title)."""
    tasks = [t for r in data.roadmaps for t in (*r.tasks, *(t for g in r.groups
                                                               for t in g.tasks))]
    return [t for t in tasks if (t.id, t.title.get("en"), t.title.get("fr")) in SAMPLE_TASKS]
