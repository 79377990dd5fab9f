"""`progress-site new DIR`: a small, complete site to start from.

The skeleton is a folder of plain files beside this module (`site/`, package data): its
data, its pages in each language, a `.gitignore` and three GitHub workflows (Pages,
benchmarks, pull requests). Filled in when it is written: the site's languages, the
engine each workflow installs (this one's version, pinned), and the project's name and
repository (`--name`, `--repo`, asked for at a terminal). What is left of the
placeholders and sample figures, a build warns about (validate/placeholders.py).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

from progress_site import cache
from progress_site.characters import first_forbidden
from progress_site.errors import UsageError, visible_path
from progress_site.model.links import repository_problem
from progress_site.model.placeholders import PLACEHOLDER_TITLE, PLACEHOLDER_URL
from progress_site.scaffold.place import refuse_inside_site
from progress_site.scaffold.writer import NotWritten, Survey, entries, survey, write

SKELETON = Path(__file__).resolve().parent / "site"
LANGUAGES = ("en", "fr")  # the skeleton has pages in these
WORKFLOW = ".github/workflows/pages.yml"
# Every workflow the new site has: each installs the engine `new` was told to pin.
WORKFLOWS = (WORKFLOW, ".github/workflows/benchmarks.yml",
             ".github/workflows/pull-request.yml")
ENGINE_MARK = "@VERSION@"  # in the workflow: replaced by this engine's version
# A requirement as YAML reads it plain: no space, quote, '#', nor a leading indicator.
ENGINE_SPEC = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+=<>!~@/:,\[\]-]{0,299}")
# A wheel file the workflows install, named from the site's folder (where they run): a
# path of the same safe characters, which may start with `./`, `../` or `/` (pip reads a
# requirement that ends in `.whl` as a file).
WHEEL_SPEC = re.compile(r"(?:(?:\.\.?/)+|/)?[A-Za-z0-9_][A-Za-z0-9._+/-]{0,290}\.whl")
SITE_LANGUAGES = re.compile(r"^  languages: \[.*\]$", re.MULTILINE)


def new_options(p: argparse.ArgumentParser) -> None:
    """The options of `new`."""
    p.add_argument("folder", type=Path, metavar="DIR",
                   help="the folder of the new site (created if needed; it must be empty)")
    p.add_argument("--lang", type=languages, default=LANGUAGES, metavar="en,fr",
                   help="the site's languages, the default first (default: en,fr)")
    p.add_argument("--engine-spec", type=engine_spec, default=None, metavar="SPEC",
                   help="what the workflows pip install: a release (the default: "
                        "progress-site==THIS_VERSION), a git URL, such as "
                        "git+https://github.com/OWNER/progress-site@v0.1.0, or a wheel "
                        "file committed with the site, named from its folder "
                        "(./wheels/progress_site-0.1.0-py3-none-any.whl)")
    p.add_argument("--name", type=project_name, default=None,
                   help="the project's name (asked for at a terminal; else a placeholder "
                        "that a build warns about)")
    p.add_argument("--repo", type=repository, default=None, metavar="URL",
                   help="the project's repository, such as https://github.com/OWNER/NAME "
                        "(asked for at a terminal; else a placeholder that a build warns "
                        "about)")
    p.add_argument("--force", action="store_true",
                   help="write into a folder that is not empty: add the files it lacks, "
                        "list the ones that differ and leave them as they are")


def languages(text: str) -> tuple[str, ...]:
    """The --lang option, checked: languages the skeleton has pages in, each once."""
    chosen = tuple(code.strip() for code in text.split(",") if code.strip())
    unknown = [code for code in chosen if code not in LANGUAGES]
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(
            f"the new site's pages exist in {', '.join(LANGUAGES)}; got {text!r} "
            "(add another language to data/site.yaml later, with its content/ folder)")
    if len(set(chosen)) != len(chosen):
        raise argparse.ArgumentTypeError("a language is listed twice")
    return chosen


def project_name(text: str) -> str:
    """The --name option, checked: words on one line, written quoted into data/site.yaml."""
    name = text.strip()
    if first_forbidden(name):  # a direction override is short and on one line
        raise argparse.ArgumentTypeError(
            f"the project's name holds {first_forbidden(name)}, which no page should show; "
            "write it without, such as 'Meridian'")
    if not name or not name.isprintable() or len(name) > 100:
        raise argparse.ArgumentTypeError(
            "the project's name: up to 100 characters on one line, such as 'Meridian'")
    return name


def repository(text: str) -> str:
    """The --repo option, checked as the build checks a repository's address."""
    url = text.strip().removesuffix("/")
    why = repository_problem(url)
    if why or url == PLACEHOLDER_URL:
        raise argparse.ArgumentTypeError(
            f"the address {why or 'is the placeholder'}; give the repository's web "
            "address, such as https://github.com/OWNER/NAME")
    return url


def asked(given: str | None, prompt: str, check: Callable[[str], str]) -> str | None:
    """An option's value, or the answer typed at a terminal (checked, asked again when
    wrong); None when there is no terminal, or no answer (the placeholder stays)."""
    if given is not None or not sys.stdin.isatty():
        return given
    while True:
        try:
            answer = input(prompt).strip()
        except EOFError:
            return None
        if not answer:
            return None
        try:
            return check(answer)
        except argparse.ArgumentTypeError as exc:
            print(f"  {exc}", file=sys.stderr)


def engine_spec(text: str) -> str:
    """The --engine-spec option, checked: one pip requirement, written as it is into the
    workflows' YAML, so nothing there may end the value, start a comment or quote."""
    if not ENGINE_SPEC.fullmatch(text) and not WHEEL_SPEC.fullmatch(text):
        raise argparse.ArgumentTypeError(
            "a pip requirement such as progress-site==0.1.0 or "
            "git+https://github.com/OWNER/progress-site@v0.1.0: letters, digits and "
            "._-+=<>!~@/:,[] only, starting with a letter or a digit; or a wheel file, "
            "such as ./wheels/progress_site-0.1.0-py3-none-any.whl")
    return text


def wheel_note(folder: Path, spec: str | None) -> str | None:
    """What to do for a wheel the workflows install, which a runner finds only in the
    site's repository: None when it is not a wheel, or is already inside the site."""
    if spec is None or not WHEEL_SPEC.fullmatch(spec):
        return None
    wheel = Path(spec) if spec.startswith("/") else folder / spec
    try:
        inside = wheel.resolve().is_relative_to(folder.resolve()) and wheel.is_file()
    except OSError:
        inside = False
    if inside:
        return f"The workflows install {visible_path(spec)}: commit it with the site."
    return (f"The workflows install {visible_path(spec)}, which is not a file in the "
            "new site: copy the wheel into it (such as wheels/NAME.whl, named as the "
            "workflows' PROGRESS_SITE line names it, relative to the site) and commit it; "
            "a CI runner has only the site's repository.")


def engine_requirement() -> str:
    """What the workflow installs: this engine, pinned to the version running now."""
    found = cache.library_version("progress-site")
    if not found:  # a checkout that was never installed
        raise UsageError("progress-site is not installed, so the workflow cannot pin "
                         "its version: `python3 -m pip install .` first")
    return f"progress-site=={found}"


def skeleton(chosen: tuple[str, ...], engine: str | None = None, project: str | None = None,
             repo: str | None = None) -> dict[str, bytes]:
    """Every file of the new site, by its path there, for the languages chosen; its
    workflows install `engine` (default: this engine's version, pinned); the `project`'s
    name and its `repo` replace the placeholders (quoted: YAML reads them as written)."""
    files: dict[str, bytes] = {}
    for path in sorted(SKELETON.rglob("*")):
        name = path.relative_to(SKELETON).as_posix()
        parts = name.split("/")
        if not path.is_file() or "__pycache__" in parts:
            continue
        if parts[0] == "content" and parts[1] not in chosen:
            continue
        files[name] = path.read_bytes()
    site = SITE_LANGUAGES.sub(f"  languages: [{', '.join(chosen)}]",
                              files["data/site.yaml"].decode("utf-8"), count=1)
    if project is not None:
        site = site.replace(f": {PLACEHOLDER_TITLE}\n",
                            f": {json.dumps(project, ensure_ascii=False)}\n")
    if repo is not None:
        site = site.replace(f"url: {PLACEHOLDER_URL}\n", f"url: {json.dumps(repo)}\n")
    files["data/site.yaml"] = site.encode("utf-8")
    for name in WORKFLOWS:
        files[name] = files[name].decode("utf-8").replace(
            f"progress-site=={ENGINE_MARK}", engine or engine_requirement()).encode("utf-8")
    return files


def write_site(folder: Path, chosen: tuple[str, ...], force: bool,
               engine: str | None = None, name: str | None = None,
               repo: str | None = None) -> Survey:
    """Write the skeleton into `folder`; a file already there is never replaced, and
    nothing is written outside the folder nor through a link (scaffold/writer.py)."""
    # Made before any write: a failure leaves the folder as it was.
    files = skeleton(chosen, engine, name, repo)
    refuse_inside_site(folder)
    # A fresh clone of an empty repository holds only .git: that is still an empty site.
    if not force and os.path.lexists(folder) and any(n != ".git" for n in entries(folder)):
        raise UsageError(f"{visible_path(str(folder))}: the folder is not empty; choose a "
                         "new one, or pass --force to add the files it lacks (a file that "
                         "differs is listed and left as it is)")
    found = survey(folder, files)  # without --force: only links, in a folder found empty
    if found.problems:
        raise NotWritten(list(found.problems.values()))
    write(folder, found.new, files)
    return found


def run_new(args: argparse.Namespace) -> int:
    """`progress-site new DIR`: write the skeleton, say what was written and what next."""
    folder: Path = args.folder
    name = asked(args.name, "The project's name: ", project_name)
    repo = asked(args.repo, "Its repository (https://github.com/OWNER/NAME): ", repository)
    done = write_site(folder, args.lang, args.force, args.engine_spec, name, repo)
    count = len(done.new)
    shown = visible_path(str(folder))
    listed = "".join(f"\n  {name}" for name in done.new)
    print(f"Wrote {count} {'file' if count == 1 else 'files'} into {shown}"
          + (f":{listed}" if listed else "."))
    if done.kept:
        print("Left as they were (they differ from the new site's; compare them by hand):")
        print("\n".join(f"  {name}" for name in done.kept))
    note = wheel_note(folder, args.engine_spec)
    if note is not None:
        print(note)
    # A name the terminal cannot show as typed cannot be pasted back either.
    # `cd -x` is an option to the shell: `cd ./-x` is the folder.
    typed = f"./{folder}" if str(folder).startswith("-") else str(folder)
    where = shlex.quote(typed) if shown == str(folder) else "the new folder"
    print(f"Next: cd {where} && progress-site, then open site/index.html; replace the "
          "sample figures (data/) with yours: until then the build warns, and --strict "
          "(as the workflows build) refuses to publish them.")
    return 0
