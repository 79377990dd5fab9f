"""Faults: a build killed at any moment, two builds at once, a folder that cannot be
written, a full disk. The published site is always whole: the old one or the new one.

The builds here are real processes (`python build.py`), killed with SIGKILL. Tests run as
root, where file permissions stop nothing: an unwritable output is made with a file where
a folder is expected, a file-size limit (RLIMIT_FSIZE), and, where this machine allows it,
a tiny tmpfs in a mount namespace of its own (full, then read-only).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import io
import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from progress_site.cli import main

from .conftest import HOSTILE_BASE, REPO, SOURCE_DATE_EPOCH, TEMPLATES, copy_hostile_base

KILLS = 6  # two at each moment: anywhere, while writing, just after the swap
AIMED_AGAIN = 12  # more kills aimed at the writing, until one lands there
ENV = {**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH}


def build_command(source: Path, out: Path) -> list[str]:
    return [sys.executable, str(REPO / "build.py"), "--source", str(source), "--out",
            str(out)]


def run_build(source: Path, out: Path, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(build_command(source, out), capture_output=True, text=True,
                          env=ENV, timeout=120, check=False, **kwargs)


def build_here(source: Path, out: Path | str, cwd: Path | None = None
               ) -> subprocess.CompletedProcess[str]:
    """The command line run in this process, from `cwd`: for the tests of what it refuses
    and where it writes, which a process of its own would only make slower."""
    stdout, stderr = io.StringIO(), io.StringIO()
    with (pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(stdout),
          contextlib.redirect_stderr(stderr)):
        patch.setenv("SOURCE_DATE_EPOCH", SOURCE_DATE_EPOCH)
        if cwd is not None:
            patch.chdir(cwd)
        code = main(["--source", str(source), "--out", str(out)], TEMPLATES)
    return subprocess.CompletedProcess([], code, stdout.getvalue(), stderr.getvalue())


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under a folder: {relative path: digest}."""
    return {p.relative_to(folder).as_posix(): hashlib.blake2b(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def leftovers(out: Path) -> list[str]:
    """Temporary folders of a build beside the output (`.site-new-*`, `.site-old-*`), and
    any lock file there (`.site.lock`: the lock is taken on the folder itself)."""
    return sorted(p.name for p in out.parent.iterdir()
                  if p.name.startswith((f".{out.name}-new-", f".{out.name}-old-"))
                  or p.name == f".{out.name}.lock")


def generated_site(root: Path, version: str, pages: int = 4, assets: int = 1000) -> Path:
    """A site big enough for a kill to land in the middle of publishing: pages to render,
    and a thousand asset files to write. Every file differs between versions, so that a
    mix of two builds cannot go unseen."""
    src = root / f"site-{version}"
    copy_hostile_base(src)
    site = src / "data" / "site.yaml"
    site.write_text(site.read_text().replace("title: Base", f"title: Base {version}"))
    words = f"Version {version}: *measured* and [linked](https://example.org/{version}). " * 8
    for lang in ("en", "fr"):
        (src / "content" / lang / "index.md").write_text(
            f"---\ntitle: Version {version}\n---\n{words}\n")
        for i in range(pages):
            body = "\n\n".join(f"## Part {j}\n\n{words}" for j in range(10))
            (src / "content" / lang / f"page-{i:03}.md").write_text(
                f"---\ntitle: Page {i} ({version})\n---\n{body}\n")
    folder = src / "templates" / "assets"
    folder.mkdir(parents=True)
    for i in range(assets):
        (folder / f"asset-{i:04}.txt").write_text(f"{version} {i} " * 200)
    return src


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("faults")
    return {v: generated_site(root, v) for v in "AB"}


@pytest.fixture(scope="module")
def expected(sites: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
             ) -> dict[str, dict[str, str]]:
    """What each version publishes when nothing goes wrong."""
    root = tmp_path_factory.mktemp("references")
    found = {v: reference(sites[v], root / v) for v in "AB"}
    assert found["A"].keys() == found["B"].keys()
    same = {name for name, digest in found["A"].items() if found["B"][name] == digest}
    assert len(same) <= 5 < len(found["A"]) // 2, f"nearly every file differs, not {same}"
    return found


def wait_for_publish(out: Path, proc: subprocess.Popen[bytes], timeout: float) -> bool:
    """Wait until the build starts writing a temporary folder of its own (not one that a
    killed build left); False if it never does."""
    before = set(leftovers(out))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        if any(name.startswith(f".{out.name}-new-") and name not in before
               for name in os.listdir(out.parent)):
            return True
        time.sleep(0.0005)
    return False


# A build that has done its imports and waits for a line on its input to start: the kill
# lands in the build itself, and the next build gets ready while this one runs.
WARM = "import sys\nfrom progress_site.cli import main\nsys.stdin.readline()\n" \
       "sys.exit(main(sys.argv[1:]))\n"


def warm_build(source: Path, out: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", WARM, "--source", str(source),
                             "--out", str(out)], cwd=REPO, env=ENV, stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def go(proc: subprocess.Popen[bytes]) -> float:
    """Start a warm build; the time it started."""
    assert proc.stdin is not None
    proc.stdin.write(b"go\n")
    proc.stdin.close()
    return time.monotonic()


def test_killed_builds_leave_a_whole_site(sites: dict[str, Path], tmp_path: Path,
                                          expected: dict[str, dict[str, str]]) -> None:
    """SIGKILL at random moments (seeded): a third anywhere in the build, a third while it
    writes the new site, a third just after the swap. After each, the site is exactly the
    old build or exactly the new one: the old one while the new one was being written
    (its half-written copy left beside it), the new one once the swap was seen."""
    out = tmp_path / "site"
    assert run_build(sites["A"], out).returncode == 0
    full, publishing = timed_build(warm_build(sites["B"], out), out)  # a whole replacement
    assert snapshot(out) == expected["B"]
    rng = random.Random(20261129)
    state, mid_publish, replaced, made = "B", 0, 0, 0
    mid_write = 0  # kills that left a half-written new site (of their own) beside the old
    ready = {v: warm_build(sites[v], out) for v in "AB"}
    try:
        for attempt in range(KILLS + AIMED_AGAIN):
            if attempt >= KILLS and mid_write:
                break
            # Past KILLS, only while no kill has landed mid-write yet: a busy machine sees
            # the writing late, and a short write may pass before a kill aimed at it.
            kind = attempt % 3 if attempt < KILLS else 1
            made = attempt + 1
            target = "B" if state == "A" else "A"
            proc = ready[target]
            ready[target] = warm_build(sites[target], out)
            inode, left = out.stat().st_ino, set(leftovers(out))
            started = go(proc)
            if kind == 0:  # anywhere: loading, rendering, writing, swapping
                time.sleep(max(0.0, started + rng.uniform(0, 1.2 * full) - time.monotonic()))
            elif kind == 1 and wait_for_publish(out, proc, timeout=30):
                # In the first half of the writing: a kill aimed at its whole length
                # landed after the swap when a busy machine delayed the signal.
                time.sleep(rng.uniform(0, publishing / 2))  # while the new site is written
            swapped = kind == 2 and wait_for_swap(out, inode, proc, timeout=30)
            if swapped:
                time.sleep(rng.uniform(0, 0.02))  # while the old site is removed
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            mid_publish += bool(leftovers(out))
            assert out.is_dir(), f"attempt {attempt}: the site is missing"
            now = snapshot(out)
            assert now in (expected["A"], expected["B"]), f"attempt {attempt}: a mix"
            new_state = "A" if now == expected["A"] else "B"
            assert not swapped or new_state == target, f"attempt {attempt}: swapped, yet old"
            mid_write += new_state == state and bool(set(leftovers(out)) - left)
            replaced += new_state != state
            state = new_state
    finally:
        for idle in ready.values():
            assert idle.stdin is not None
            idle.stdin.close()
            idle.kill()
            idle.wait()
    # The kills did land mid-way: while publishing, and both before and after the swap.
    assert mid_publish >= KILLS // 3, mid_publish
    assert mid_write >= 1, "no kill landed while the new site was being written"
    assert KILLS // 6 <= replaced < made, replaced
    # The next build finishes what the killed ones left: the new site, no leftovers.
    assert run_build(sites["B"], out).returncode == 0
    assert snapshot(out) == expected["B"]
    assert leftovers(out) == []


def wait_for_swap(out: Path, inode: int, proc: subprocess.Popen[bytes],
                  timeout: float) -> bool:
    """Wait until `out` is another folder (the swap); False if the build ends first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        if out.stat().st_ino != inode:
            return True
        time.sleep(0.0002)
    return False


def timed_build(proc: subprocess.Popen[bytes], out: Path) -> tuple[float, float]:
    """Run a warm build, timing it in all and from its first write on."""
    time.sleep(1)  # let it import
    started = go(proc)
    assert wait_for_publish(out, proc, timeout=60)
    writing = time.monotonic()
    assert proc.wait(timeout=60) == 0
    return time.monotonic() - started, time.monotonic() - writing


def reference(source: Path, out: Path) -> dict[str, str]:
    """What a build of `source` publishes, when nothing goes wrong (built in this process:
    the same bytes as any other)."""
    result = build_here(source, out)
    assert result.returncode == 0, result.stderr
    return snapshot(out)


def test_two_builds_at_once(sites: dict[str, Path], tmp_path: Path,
                            expected: dict[str, dict[str, str]]) -> None:
    out = tmp_path / "site"
    procs = [subprocess.Popen(build_command(sites[v], out), env=ENV, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for v in "AB"]
    results = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], results
    assert snapshot(out) in (expected["A"], expected["B"])
    assert leftovers(out) == []


def test_a_second_build_waits_for_the_first(tmp_path: Path) -> None:
    """While another build holds the output's lock (on the folder that holds it: no lock
    file), a build waits, then publishes."""
    out = tmp_path / "site"
    assert run_build(HOSTILE_BASE, out).returncode == 0
    before = snapshot(out)
    lock = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        # --force: the same build again would find nothing changed, and do nothing.
        proc = subprocess.Popen([*build_command(HOSTILE_BASE, out), "--force"], env=ENV, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(1.5)
        assert proc.poll() is None, "the build did not wait for the lock"
        assert snapshot(out) == before
        fcntl.flock(lock, fcntl.LOCK_UN)
    finally:
        os.close(lock)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert snapshot(out) == before  # the same source: the same bytes
    assert leftovers(out) == []


def failed(result: subprocess.CompletedProcess[str]) -> str:
    """The error of a build that must fail cleanly: exit 1, no traceback."""
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    return result.stderr


def test_a_file_where_the_output_folder_should_be(tmp_path: Path) -> None:
    blocker = tmp_path / "public"
    blocker.write_text("not a folder")
    err = failed(build_here(HOSTILE_BASE, blocker / "site"))
    assert err == (f"{blocker}: cannot write the site under this file: it is not a folder\n"
                   "    hint: choose another --out; nothing was changed\n")
    assert blocker.read_text() == "not a folder"


def test_an_output_that_is_a_file_is_not_replaced(tmp_path: Path) -> None:
    target = tmp_path / "notes.txt"
    target.write_text("precious")
    err = failed(build_here(HOSTILE_BASE, target))
    assert err.startswith(f"{target}: refusing to replace this output folder: it is not a "
                          "folder\n")
    assert target.read_text() == "precious"


def tree(folder: Path) -> dict[str, str]:
    """Every entry under a folder, links and folders too: {relative path: what it is}."""
    return {p.relative_to(folder).as_posix(): (f"link to {os.readlink(p)}" if p.is_symlink()
                                               else "folder" if p.is_dir() else
                                               hashlib.blake2b(p.read_bytes()).hexdigest())
            for p in sorted(folder.rglob("*"))}


@pytest.mark.parametrize(("out", "reason"), [
    (".", "it is the source folder"),
    ("..", "it holds the source folder"),
    ("data", "it is the source's data/ folder"),
    ("content/en", "it is inside the source's content/ folder"),
    ("templates/new", "it is inside the source's templates/ folder"),
    ("locales", "it is the source's locales/ folder"),
    ("pages", "it is the source's content/ folder"),  # a link to it
    ("../shared", "it holds the source's data/ folder"),  # where data/ links to
])
def test_an_output_that_would_replace_the_source_is_refused(out: str, reason: str,
                                                            tmp_path: Path) -> None:
    """The old output is deleted after the swap: `--out content/en` would cost the pages,
    `--out ..` the project. Refused before anything is written, the caches too."""
    src = tmp_path / "project"
    copy_hostile_base(src)
    (tmp_path / "shared").mkdir()
    (src / "data").rename(tmp_path / "shared" / "data")
    (src / "data").symlink_to(tmp_path / "shared" / "data")
    (src / "pages").symlink_to(src / "content")
    before = tree(tmp_path)
    result = build_here(src, out, cwd=src)
    assert (result.returncode, result.stdout) == (2, ""), result.stderr
    assert result.stderr == (f"error: --out {out}: refusing to publish there: {reason}; "
                             "give the site a folder of its own, such as SOURCE/site (the "
                             "default); nothing was written\n")
    assert tree(tmp_path) == before


@pytest.mark.parametrize("out", ["site", "public", "build/site"])
def test_an_output_of_its_own_inside_the_source_is_fine(out: str, tmp_path: Path) -> None:
    src = tmp_path / "project"
    copy_hostile_base(src)
    before = snapshot(src)
    result = build_here(src, out, cwd=src)
    assert result.returncode == 0, result.stderr
    assert (src / out / "index.html").is_file()
    # Nothing but the site: no cache, no lock file beside it.
    assert {k: v for k, v in snapshot(src).items() if not k.startswith(f"{out}/")} == before


@pytest.mark.parametrize("where", ["project", "cwd"])
def test_a_project_folder_is_never_replaced(where: str, tmp_path: Path) -> None:
    """Nor another project's folder, nor one that holds the current folder: publishing
    checks again, whatever the source."""
    other = tmp_path / "other"
    (other / "data").mkdir(parents=True)
    (other / "inner").mkdir()
    before = tree(other)
    result = build_here(HOSTILE_BASE, other, cwd=other / "inner" if where == "cwd" else None)
    reason = ("it holds a project's sources (.git or data/), not a built site"
              if where == "project" else "it holds the current folder")
    assert failed(result).startswith(f"{other}: refusing to replace this output folder: "
                                     f"{reason}\n")
    assert tree(other) == before


@pytest.mark.parametrize("what", ["home", "docs"])
def test_a_folder_that_holds_no_site_is_never_replaced(what: str, tmp_path: Path) -> None:
    """`--out ~` or `--out ../docs`: a folder of someone's files, neither a project nor a
    site a build published, is left exactly as it was; an empty one, or a site published
    before, is the build's to replace."""
    other = tmp_path / what
    (other / ".config").mkdir(parents=True)
    (other / ".config" / "settings").write_text("precious")
    (other / "index.html").write_text("<p>written by hand</p>")  # yet no data.json
    before = tree(other)
    assert failed(build_here(HOSTILE_BASE, other)).startswith(
        f"{other}: refusing to replace this output folder: it is not empty and holds no "
        "site a build published (index.html and data.json)\n")
    assert tree(other) == before
    empty = tmp_path / "empty"
    empty.mkdir()
    assert build_here(HOSTILE_BASE, empty).returncode == 0
    (empty / "stray.txt").write_text("left by hand")
    assert build_here(HOSTILE_BASE, empty).returncode == 0  # a site a build published: replaced
    assert not (empty / "stray.txt").exists()


def test_a_file_size_limit_stops_the_write(tmp_path: Path) -> None:
    """Writes that fail half-way (RLIMIT_FSIZE: EFBIG, as a full disk gives ENOSPC)."""
    out = tmp_path / "site"
    assert run_build(HOSTILE_BASE, out).returncode == 0
    (out / "index.html").write_text("edited by hand")  # the build has a site to write
    before = snapshot(out)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))

    err = failed(run_build(HOSTILE_BASE, out, preexec_fn=limit))
    assert re.fullmatch(re.escape(str(out)) + r"/[\w./-]+\.\w+: cannot write the site: File too "
                        r"large\n    hint: check the folder's permissions and free space; "
                        r"the previous site is untouched\n", err), err
    assert snapshot(out) == before
    assert leftovers(out) == []


# Run inside `unshare --mount`: a private tmpfs that vanishes with the namespace.
TMPFS_SCRIPT = textwrap.dedent("""
    import hashlib, json, os, subprocess, sys
    from pathlib import Path

    build, base, mount = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)],
                   check=True)
    out = mount / "site"

    def run():
        done = subprocess.run([sys.executable, build, "--source", base, "--out", str(out)],
                              capture_output=True, text=True)
        return {"code": done.returncode, "err": done.stderr}

    def snap():
        return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted(out.rglob("*")) if p.is_file()}

    def extra():
        return sorted(p.name for p in mount.iterdir() if p.name.startswith(".site-"))

    report = {"first": run()}
    (out / "index.html").write_text("edited by hand")  # the build has a site to write
    report["before"] = snap()
    with open(mount / "filler", "wb", buffering=0) as fh:  # fill the disk to the last page
        try:
            while True:
                fh.write(b"x" * 4096)
        except OSError:
            pass
    report["full"] = run()
    report["after_full"] = snap()
    report["extra_full"] = extra()
    os.remove(mount / "filler")
    subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
    report["readonly"] = run()
    report["after_readonly"] = snap()
    print(json.dumps(report))
""")


def test_a_full_disk_and_a_read_only_disk(tmp_path: Path) -> None:
    mount = tmp_path / "mnt"
    mount.mkdir()
    probe = subprocess.run(["unshare", "--mount", "--propagation", "private", "true"],
                           capture_output=True, check=False)
    if probe.returncode != 0 or not shutil.which("mount"):
        pytest.skip("no mount namespace here (unshare --mount refused)")
    done = subprocess.run(["unshare", "--mount", "--propagation", "private", sys.executable,
                           "-c", TMPFS_SCRIPT, str(REPO / "build.py"), str(HOSTILE_BASE),
                           str(mount)],
                          capture_output=True, text=True, env=ENV, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["first"]["code"] == 0, report["first"]
    assert report["before"], "the first build published a site"
    for case, reason in (("full", "No space left on device"),
                         ("readonly", "Read-only file system")):
        assert report[case]["code"] == 1, report[case]
        err = report[case]["err"]
        assert "Traceback" not in err
        assert f": cannot write the site: {reason}\n" in err, err
        assert err.endswith("    hint: check the folder's permissions and free space; the "
                            "previous site is untouched\n")
        assert report[f"after_{case}"] == report["before"], f"{case}: the site changed"
    assert report["extra_full"] == [], "a full disk leaves no half-written copy"
