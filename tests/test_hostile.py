"""Hostile input: each case is refused with a located error, or escaped and shown harmlessly.

The corpus is under tests/hostile/:

- `base/` is the smallest valid site; `refused/NAME.yaml` is added to it as
  `data/hostile.yaml` (`refused/NAME.md` as `content/en/hostile.md`), and the build must
  fail with exactly `refused/NAME.txt`
  (after an intended change: `UPDATE_HOSTILE=1 python -m pytest tests/test_hostile.py`,
  then review `git diff tests/hostile`);
- `texts.txt` (one payload a line) goes into every text of the example site's data and
  `page.md` at the end of every page: that site must build, and Chromium must run none
  of it (`window.__pwned` stays undefined).

Inputs too big or too odd to commit (50 MB, binary, symbolic links, raw direction
overrides) are made by the tests.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from progress_site import characters
from progress_site.charts.cache import ChartCache
from progress_site.cli import main
from progress_site.errors import MAX_LINE, Location, Problem, excerpt
from progress_site.load.files import linked_below
from progress_site.load.pages import Page
from progress_site.load.site import load
from progress_site.load.yaml import parse
from progress_site.load.yaml_refusals import MAX_DEPTH
from progress_site.model import schema
from progress_site.model.declare import fields, hints
from progress_site.model.links import check_url
from progress_site.model.values import Text
from progress_site.pipeline import BuildConfig, prepare
from progress_site.publish.swap import PublishFailed, publish
from progress_site.render.pages import render

from . import browser
from .conftest import REPO, SOURCE_DATE_EPOCH, TEMPLATES, TODAY, copy_example
from .dom import Node
from .dom import parse as parse_html
from .test_cases import deadline
from .test_cases import snapshot as published_files

HOSTILE = Path(__file__).parent / "hostile"
REFUSED = sorted(p.name for p in (HOSTILE / "refused").iterdir() if p.suffix in (".yaml", ".md"))
TARGETS = {".yaml": "data/hostile.yaml", ".md": "content/en/hostile.md"}
CANARY = "<script>window.__pwned=1</script>"


# -- running a build ------------------------------------------------------------------

@dataclasses.dataclass
class Result:
    code: int
    out: str
    err: str


def build(source: Path, out: Path, *args: str) -> Result:
    """The command line, in this process (fast); its exit status and what it printed."""
    stdout, stderr = io.StringIO(), io.StringIO()
    env = {"SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH}
    with patched_env(env), contextlib.redirect_stdout(stdout), \
            contextlib.redirect_stderr(stderr):
        code = main(["--source", str(source), "--out", str(out), *args], TEMPLATES)
    return Result(code, stdout.getvalue(), stderr.getvalue())


def within(seconds: float, *argv: str | Path) -> Result:
    """The command line in this process, as `build`, for a test of a file that a read
    would wait on: a wait longer than `seconds` fails the test (Hung), and the test
    process goes on (the build reads its sources in this thread)."""
    stdout, stderr = io.StringIO(), io.StringIO()
    with patched_env({"SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH}), \
            contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr), \
            deadline(seconds):
        try:
            code = main([str(a) for a in argv], TEMPLATES)
        except SystemExit as exc:  # argparse's refusals
            code = exc.code if isinstance(exc.code, int) else 2
    return Result(code, stdout.getvalue(), stderr.getvalue())


def build_process(source: Path, out: Path, *args: str, timeout: float = 60) -> Result:
    """The command line in its own process: a crash of the parser cannot take pytest."""
    done = subprocess.run([sys.executable, str(REPO / "build.py"), "--source", str(source),
                           "--out", str(out), *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ,
                                                "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH})
    return Result(done.returncode, done.stdout, done.stderr)


@contextlib.contextmanager
def patched_env(values: dict[str, str]) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def refused(result: Result, out: Path) -> str:
    """The errors of a build that must have failed cleanly, nothing published."""
    assert result.code == 1, result.err
    assert "Traceback" not in result.err and "internal error" not in result.err
    assert result.err.endswith("The previous site was left as it was.\n")
    assert not out.exists()
    return result.err


@pytest.fixture()
def base(tmp_path: Path) -> Path:
    """A fresh copy of tests/hostile/base, the smallest valid site."""
    shutil.copytree(HOSTILE / "base", tmp_path / "src")
    return tmp_path / "src"


# -- the corpus of refused files ------------------------------------------------------

def test_base_builds(base: Path, tmp_path: Path) -> None:
    result = build(base, tmp_path / "out", "--strict")
    assert result.code == 0, result.err
    assert result.err == ""


@pytest.mark.parametrize("name", REFUSED)
def test_refused(name: str, base: Path, tmp_path: Path) -> None:
    source = HOSTILE / "refused" / name
    shutil.copy(source, base / TARGETS[source.suffix])
    # A bound on a hang, not a speed: how fast a refusal is belongs in bench/.
    err = refused(within(60, "--source", base, "--out", tmp_path / "out"), tmp_path / "out")
    expected = source.with_suffix(".txt")
    if os.environ.get("UPDATE_HOSTILE"):
        expected.write_text(err)
    assert err == expected.read_text()


def test_safe_addresses_are_kept_and_escaped(base: Path, tmp_path: Path) -> None:
    (base / "data" / "hostile.yaml").write_text("""\
roadmaps:
  - id: links
    title: Links
    tasks:
      - id: schemes-ok
        title: The addresses a proof may have
        status: in-progress
        proofs:
          - {text: https, url: "https://example.org/a?b=c#d"}
          - {text: mail, url: "mailto:someone@example.org"}
          - {text: fragment, url: "#links"}
          - {text: relative, url: "report/index.html"}
          - {text: quotes, url: "https://example.org/\\"><script>window.__pwned=1</script>"}
""")
    (base / "content" / "en" / "index.md").write_text("---\ntitle: Base\n---\n"
                                                      "{{< roadmaps >}}\n")
    assert build(base, tmp_path / "out").code == 0
    page = parse_html((tmp_path / "out" / "index.html").read_bytes())
    hrefs = [a.attrs["href"] for a in page.find(class_="proof").find_all("a")]
    assert hrefs == ["https://example.org/a?b=c#d", "mailto:someone@example.org", "#links",
                     "report/index.html",
                     'https://example.org/"><script>window.__pwned=1</script>']
    assert "<script" not in (tmp_path / "out" / "index.html").read_text()


@pytest.mark.parametrize(("url", "reason"), [
    ("javascript:alert(1)", "'javascript:' addresses are not allowed"),
    ("  JAVASCRIPT:alert(1)", "'JAVASCRIPT:' addresses are not allowed"),
    ("&#x6a;avascript&colon;alert(1)", "'javascript:' addresses are not allowed"),
    ("%6a%61vascript:alert(1)", "'javascript:' addresses are not allowed"),
    ("java\tscript:alert(1)", "the address holds invisible or control characters"),
    ("java\u00adscript:alert(1)", "the address holds invisible or control characters"),
    ("\u202ehttps://example.org", "the address holds invisible or control characters"),
    ("data:image/svg+xml,<svg onload=alert(1)>", "'data:' addresses are not allowed"),
    ("vbscript:msgbox", "'vbscript:' addresses are not allowed"),
    ("https://example.org/a b", ""),
    ("//example.org/x", ""),
    ("mailto:a@example.org", ""),
    ("../report/index.html#top", ""),
])
def test_check_url(url: str, reason: str) -> None:
    assert check_url(url) == reason


# -- refused inputs made at test time -------------------------------------------------

def write(path: Path, content: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")


def big_file(src: Path) -> None:
    item = b"  - {id: m, name: M}\n"
    head = b"machines:\n"
    count, rest = divmod(50 * 1024 * 1024 - len(head), len(item))
    (src / "data" / "big.yaml").write_bytes(head + item * count + b"#" * (rest - 1) + b"\n")


def links_outside(src: Path) -> None:
    outside = src.parent / "outside"
    write(outside / "secret.yaml", "machines: [{id: secret, name: Secret}]\n")
    write(outside / "page.md", "---\ntitle: Secret\n---\nsecret\n")
    (src / "data" / "secret.yaml").symlink_to(outside / "secret.yaml")
    (src / "data" / "passwd.yaml").symlink_to("/etc/passwd")
    (src / "content" / "en" / "secret.md").symlink_to(outside / "page.md")
    # Folders that link outside are not followed at all (a warning names them):
    (src / "data" / "more").symlink_to(outside, target_is_directory=True)


def bidi_in_files(src: Path) -> None:
    # "Trojan Source": the file says 1.5, a reader of the page would see 5.1.
    write(src / "data" / "bidi.yaml", "machines:\n  - id: m\n    name: 'Speed: \u202e1.5'\n")
    write(src / "content" / "en" / "bidi.md", "---\ntitle: B\n---\nIt is \u20671.5\u2069.\n")


GENERATED: dict[str, tuple[Callable[[Path], None], str]] = {
    "a 50 MB file": (big_file, """\
data/big.yaml: file is 50 MiB, over the 32 MiB limit
    hint: split it into several files under the same folder
Aborted with 1 data error.
"""),
    "binary files": (lambda src: (
        write(src / "data" / "image.yaml", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),
        write(src / "content" / "fr" / "image.md", bytes(range(256)))), """\
content/fr/image.md: this is a binary file, not text
    hint: remove it from the folder
data/image.yaml: this is a binary file, not text
    hint: remove it from the folder
Aborted with 2 data errors.
"""),
    "files that are not UTF-8": (lambda src: (
        write(src / "data" / "latin1.yaml", "machines:\n  - {id: m, name: Café}\n"
              .encode("latin-1")),
        write(src / "data" / "utf16.yaml", "machines: []\n".encode("utf-16")),
        write(src / "content" / "en" / "cp1252.md", "---\ntitle: “Quoted”\n---\n"
              .encode("cp1252"))), """\
content/en/cp1252.md:2:8: the file is not valid UTF-8
    title: \ufffdQuoted\ufffd
           ^
    hint: save it as UTF-8
data/latin1.yaml:2:22: the file is not valid UTF-8
      - {id: m, name: Caf\ufffd}
                         ^
    hint: save it as UTF-8. Until it reads, what texts \
cite of the machines it may hold is not checked, and an id no other file declares is \
told once.
data/utf16.yaml: the file is UTF-16, not UTF-8
    hint: save it as UTF-8
Aborted with 3 data errors.
"""),
    "symbolic links out of the source folder": (links_outside, """\
content/en/secret.md: this file links to a place outside the source folder
    hint: copy the file into the folder instead of linking to it
data/more: warning: this folder is a symbolic link, which the build does not follow: no \
file in it is read
    hint: move the files into the folder itself, or delete the link
data/passwd.yaml: this file links to a place outside the source folder
    hint: copy the file into the folder instead of linking to it
data/secret.yaml: this file links to a place outside the source folder
    hint: copy the file into the folder instead of linking to it
Aborted with 3 data errors.
"""),
    "direction overrides written in the files": (bidi_in_files, """\
content/en/bidi.md:4:7: invisible control character U+2067 (right-to-left isolate): \
it makes the text read otherwise than it is written
    It is \\u20671.5\\u2069.
          ^
    hint: delete it; right-to-left words need no control characters
content/en/bidi.md:4:11: invisible control character U+2069 (pop directional isolate): \
it makes the text read otherwise than it is written
    It is \\u20671.5\\u2069.
                   ^
    hint: delete it; right-to-left words need no control characters
data/bidi.yaml:3:19: invisible control character U+202E (right-to-left override): it \
makes the text read otherwise than it is written
        name: 'Speed: \\u202e1.5'
                      ^
    hint: delete it; right-to-left words need no control characters. Until it reads, what texts \
cite of the machines it may hold is not checked, and an id no other file declares is \
told once.
Aborted with 3 data errors.
"""),
    "a whole number of 5,000 digits": (lambda src: write(
        src / "data" / "digits.yaml",
        "measurements:\n  - id: d\n    title: D\n    figure: {ok: 1, of: " + "9" * 5000
        + ", status: estimate}\n"), """\
data/digits.yaml:4:25: measurements[0].figure.of: a whole number of 5,000 characters is \
too long to read
        figure: {ok: 1, of: """ + "9" * (MAX_LINE - 24) + """…
                            ^
    hint: check the number of digits
Aborted with 1 data error.
"""),
}


@pytest.mark.parametrize("name", GENERATED)
def test_refused_generated(name: str, base: Path, tmp_path: Path) -> None:
    make, expected = GENERATED[name]
    make(base)
    err = refused(build(base, tmp_path / "out"), tmp_path / "out")
    assert err == expected + "The previous site was left as it was.\n"


def test_links_inside_the_source_are_followed(base: Path, tmp_path: Path) -> None:
    (base / "data" / "shared").mkdir()
    write(base / "data" / "shared" / "machines.yaml", "machines: [{id: m, name: Mine}]\n")
    (base / "data" / "machines.yaml").symlink_to(base / "data" / "shared" / "machines.yaml")
    result = build(base, tmp_path / "out")
    assert result.code == 1  # read twice, once through the link: a second machine 'm'
    assert "id 'm' is used twice" in result.err


@pytest.mark.parametrize("strict", [False, True])
def test_a_linked_folder_is_named_and_not_followed(base: Path, tmp_path: Path,
                                                   strict: bool) -> None:
    """A folder that a link puts among the data or the pages, inside the source or out of
    it, is not read: a warning says so (an error under --strict) rather than silence."""
    outside = tmp_path / "outside"
    write(outside / "secret.yaml", "machines: [{id: secret, name: Secret}]\n")
    write(base / "shared" / "page.md", "---\ntitle: Shared\n---\nshared\n")
    (base / "data" / "more").symlink_to(outside, target_is_directory=True)
    (base / "content" / "en" / "shared").symlink_to(base / "shared", target_is_directory=True)
    (base / "data" / ".hidden").symlink_to(outside, target_is_directory=True)  # not read
    result = build(base, tmp_path / "out", *(("--strict",) if strict else ()))
    problems = """\
content/en/shared: {}this folder is a symbolic link, which the build does not follow: no \
file in it is read
    hint: move the files into the folder itself, or delete the link
data/more: {}this folder is a symbolic link, which the build does not follow: no file in \
it is read
    hint: move the files into the folder itself, or delete the link
""".format(*(("",) * 2 if strict else ("warning: ",) * 2))
    if strict:
        assert refused(result, tmp_path / "out") == problems + (
            "Aborted with 2 data errors.\nThe previous site was left as it was.\n")
    else:
        assert result.code == 0  # the warnings in the order found: data first
        assert sorted(result.err.splitlines()) == sorted(problems.splitlines())
        assert b"Secret" not in (tmp_path / "out" / "data.json").read_bytes()


def test_only_links_below_the_root_are_resolved(tmp_path: Path) -> None:
    real = tmp_path / "real"
    write(real / "data" / "plain.yaml", "{}\n")
    (real / "data" / "link.yaml").symlink_to(real / "data" / "plain.yaml")
    (real / "linked").symlink_to(real / "data", target_is_directory=True)
    (tmp_path / "root").symlink_to(real, target_is_directory=True)  # the root's own link
    cases = {
        real / "data" / "plain.yaml": False,
        real / "data" / "link.yaml": True,
        real / "linked" / "plain.yaml": True,
        real / "data" / ".." / "data" / "plain.yaml": True,
        tmp_path / "elsewhere.yaml": True,
    }
    assert {path: linked_below(path, real) for path in cases} == cases
    assert linked_below(tmp_path / "root" / "data" / "plain.yaml", tmp_path / "root") is False


def test_special_files_are_refused_without_waiting(base: Path, tmp_path: Path) -> None:
    """A FIFO, a socket, a device or a link to nothing among the sources is a located
    error; none is opened for reading, so nothing waits (a hang fails on the timeout)."""
    os.mkfifo(base / "data" / "fifo.yaml")  # reading it would wait forever
    os.mkfifo(base / "content" / "en" / "fifo.md")
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(base / "data" / "socket.yaml"))
    (base / "data" / "zero.yaml").symlink_to("/dev/zero")  # endless
    (base / "data" / "loop.yaml").symlink_to(base / "data" / "loop.yaml")
    (base / "data" / "dangling.yaml").symlink_to(base / "nowhere.yaml")
    err = refused(within(30, "--source", base, "--out", tmp_path / "out"), tmp_path / "out")
    assert err == """\
content/en/fifo.md: this is a FIFO (named pipe), not a regular file: the build reads \
nothing else
    hint: remove it from the folder
data/dangling.yaml: this file is a link that leads to no file
    hint: delete the link, or copy the file it meant into the folder
data/fifo.yaml: this is a FIFO (named pipe), not a regular file: the build reads nothing \
else
    hint: remove it from the folder
data/loop.yaml: this file is a link that leads to no file
    hint: delete the link, or copy the file it meant into the folder
data/socket.yaml: this is a socket, not a regular file: the build reads nothing else
    hint: remove it from the folder
data/zero.yaml: this file links to a place outside the source folder
    hint: copy the file into the folder instead of linking to it
Aborted with 6 data errors.
The previous site was left as it was.
"""


def test_fifos_in_the_caches_templates_and_catalogs_are_not_waited_on(
        base: Path, tmp_path: Path) -> None:
    """Every cache entry (here a social card) a FIFO, and a site's template and catalog
    too: the build reads none of them (an entry it cannot read is a miss) and publishes
    the same site."""
    cache = tmp_path / "cache"
    first = build_process(base, tmp_path / "first", "--cache-dir", str(cache),
                          "--base-url", "https://example.org/", timeout=60)
    assert (first.code, first.err) == (0, "")
    entries = [p for p in cache.rglob("*") if p.is_file()]
    assert entries
    for entry in entries:
        entry.unlink()
        os.mkfifo(entry)
    (base / "templates").mkdir()
    os.mkfifo(base / "templates" / "page.html")
    (base / "locales" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    os.mkfifo(base / "locales" / "fr" / "LC_MESSAGES" / "messages.po")
    again = build_process(base, tmp_path / "again", "--cache-dir", str(cache),
                          "--base-url", "https://example.org/", timeout=60)
    assert (again.code, again.err) == (0, "")
    assert published_files(tmp_path / "again") == published_files(tmp_path / "first")


def test_record_refuses_a_fifo_among_the_data_files(base: Path) -> None:
    """`record` opens every data file to edit: a FIFO there is not waited on, and the
    check of the change refuses it as a build does, with nothing written."""
    os.mkfifo(base / "data" / "fifo.yaml")
    done = within(30, "record", "measurement", "m", "--value", "1", "--unit", "ms",
                  "--title", "M", "--status", "estimate", "--source", base, "--yes")
    assert done.code == 1, done.err
    assert "data/fifo.yaml: this is a FIFO (named pipe), not a regular file: the build " \
           "reads nothing else" in done.err, done.err
    assert "nothing written" in done.err
    # Asked to write into it, it stops there.
    done = within(30, "record", "measurement", "m", "--value", "1", "--unit", "ms",
                  "--title", "M", "--status", "estimate", "--file", "data/fifo.yaml",
                  "--source", base, "--yes")
    assert (done.code, done.out) == (1, ""), done.err
    assert "data/fifo.yaml: cannot read it: it is a FIFO (named pipe), not a regular " \
           "file; remove it" in done.err


def test_import_refuses_a_fifo_as_the_tools_output(base: Path, tmp_path: Path) -> None:
    """`import hyperfine FIFO`: refused at once, not waited on."""
    os.mkfifo(tmp_path / "out.json")
    done = within(30, "import", "hyperfine", tmp_path / "out.json", "--source", base,
                  "--id", "h", "--machine", "m", "--commit", "abc1234", "--yes")
    assert (done.code, done.out) == (1, ""), done.err
    assert "out.json: cannot read the file: it is a FIFO (named pipe), not a regular " \
           "file" in done.err, done.err


def test_a_fifo_of_records_is_refused(base: Path, tmp_path: Path) -> None:
    """A dataset whose records file is a FIFO: an error at the file, not a wait."""
    write(base / "data" / "runs.yaml", "datasets:\n  - id: runs\n    title: Runs\n"
          "    records: runs.jsonl\n    fields: [{name: n, label: N, type: whole}]\n")
    os.mkfifo(base / "data" / "runs.jsonl")
    err = refused(within(30, "--source", base, "--out", tmp_path / "out"), tmp_path / "out")
    assert err.startswith("data/runs.jsonl: this is a FIFO (named pipe), not a regular "
                          "file: the build reads nothing else\n    hint: remove it from "
                          "the folder\n"), err


def test_a_fifo_as_the_old_sites_data_json(base: Path, tmp_path: Path) -> None:
    """The old site's data.json a FIFO: no summary of changes and a warning, not a
    wait; the new site is published all the same."""
    out = tmp_path / "out"
    assert build(base, out).code == 0
    (out / "data.json").unlink()
    os.mkfifo(out / "data.json")
    result = within(30, "--source", base, "--out", out)
    assert result.code == 0, result.err
    assert result.err == (f"{out}/data.json: warning: no summary of what changed since "
                          "the previous site: this file is a FIFO (named pipe), not a "
                          "regular file\n    hint: the new site is published all the "
                          "same, and the next build compares with it\n")
    assert (out / "data.json").is_file()


def test_a_fifo_as_the_data_json_of_changes(base: Path, tmp_path: Path) -> None:
    """`--changes OLD_SITE` whose data.json is a FIFO: a usage error, not a wait."""
    old = tmp_path / "old"
    old.mkdir()
    os.mkfifo(old / "data.json")
    result = within(30, "--source", base, "--out", tmp_path / "out", "--changes", old)
    assert (result.code, result.out) == (2, "")
    assert result.err.endswith(f"{old}: cannot read its data.json: it is a FIFO (named "
                               "pipe), not a regular file\n"), result.err


# -- characters no page can hold -----------------------------------------------------

EVERY_CHARACTER = "".join(map(chr, range(0x110000)))
# The set docs/security.md lists: C0 controls but tab and newline, DEL, C1 controls,
# direction controls, surrogates, noncharacters.
REFUSED_CHARACTERS = {c for c in range(0x110000)
                      if (c < 0x20 and c not in (0x09, 0x0a)) or 0x7f <= c <= 0x9f
                      or 0x202a <= c <= 0x202e or 0x2066 <= c <= 0x2069
                      or 0xd800 <= c <= 0xdfff or 0xfdd0 <= c <= 0xfdef
                      or c & 0xfffe == 0xfffe}


def test_the_refused_characters_are_the_documented_ones() -> None:
    assert characters.offsets(EVERY_CHARACTER) == sorted(REFUSED_CHARACTERS)
    assert all(characters.first_forbidden(f"a{chr(c)}b") for c in REFUSED_CHARACTERS)
    assert characters.first_forbidden("a\tb\nc: ça, 中文, ✓, \U0001f600, \ufffd") == ""


def test_every_refused_character_is_seen_in_a_files_bytes() -> None:
    """The bytes of a file are looked at first: no refused character may slip by."""
    for code in sorted(REFUSED_CHARACTERS - set(range(0xd800, 0xe000))):
        assert characters.maybe_in(f"a\r\nb{chr(code)}c\r\n".encode()), hex(code)
    # And it is quick to say no: the example's files need no closer look.
    files = [*(REPO / "data").rglob("*.y*ml"), *(REPO / "content").rglob("*.md")]
    assert files and not any(characters.maybe_in(f.read_bytes()) for f in files)
    assert characters.offsets("a\r\nb\rc", line_ends=True) == [4]


def test_a_refused_character_in_the_text_pyyaml_reads() -> None:
    """Should one reach PyYAML, its reader's refusal is located at the character."""
    _doc, problems = parse("a: 1\nb: \"é\x1b\"\n", "data/x.yaml")
    assert [p.render() for p in problems] == ["""\
data/x.yaml:2:6: this file holds U+001B (a control character), which no page can hold
    b: "é\\x1b"
         ^
    hint: delete it (an editor's 'show invisibles' reveals U+001B)"""]


def test_hidden_folders_are_not_read(base: Path, tmp_path: Path) -> None:
    """Hidden folders and files under data/ and content/ belong to other tools (a site
    made by `new` inside data/ brings its .github/): never read, however broken."""
    write(base / "data" / ".github" / "x.yaml", "on: [push\n  jobs: {{{\n")
    write(base / "data" / ".hidden.yaml", "not: [valid\n")
    write(base / "content" / "en" / ".cache" / "page.md", "no front matter\n")
    result = build(base, tmp_path / "out", "--strict")
    assert (result.code, result.err) == (0, "")


def test_hidden_folders_ok(base: Path, tmp_path: Path) -> None:
    """The same broken file in a folder that is not hidden is read, and refused."""
    write(base / "data" / "github" / "x.yaml", "on: [push\n  jobs: {{{\n")
    err = refused(build(base, tmp_path / "out"), tmp_path / "out")
    assert err.startswith("data/github/x.yaml:1:5: YAML syntax error: this '[' is not "
                          "closed"), err  # at the bracket left open


@pytest.mark.parametrize(("name", "text", "where"), [pytest.param(*case, id=case[0]) for case in [
    # Where the refusal stands on the line depends on PyYAML: 6.0.4's scanner stops
    # reading ahead at a nesting limit of its own, before the 65th level's event.
    ("flow", "machines: " + "[" * 100_000 + "]" * 100_000 + "\n", "data/deep.yaml:1:"),
    ("mappings", "machines: " + "{a: " * 100_000 + "1" + "}" * 100_000 + "\n",
     "data/deep.yaml:1:263: "),
    ("blocks", "".join(" " * i + "k:\n" for i in range(2000)), "data/deep.yaml:65:65: "),
    ("sequences", "- " * 100_000 + "x\n", "data/deep.yaml:1:129: "),
]])
def test_deep_nesting(name: str, text: str, where: str, base: Path, tmp_path: Path) -> None:
    """Deep nesting crashed the C parser (segmentation fault) and took minutes in libyaml."""
    write(base / "data" / "deep.yaml", text)
    err = refused(build_process(base, tmp_path / "out"), tmp_path / "out")  # its timeout: a hang
    first = err.splitlines()[0]
    message = f"lists and mappings nested more than {MAX_DEPTH} levels deep"
    assert first.startswith(where) and first.endswith(": " + message)
    assert re.fullmatch(r"data/deep\.yaml:\d+:\d+: .*", first)
    assert all(len(line) <= MAX_LINE + 10 for line in err.splitlines())


def test_nesting_limits_ok() -> None:
    deepest = "x: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"
    assert parse(deepest, "ok.yaml")[1] == []
    aliases = "a: &a [1, 2, 3]\nb: &b [*a, *a, *a]\nc: {<<: {k: *b}, j: *b}\n"
    doc, problems = parse(aliases, "ok.yaml")
    assert problems == []
    assert doc.data["c"] == {"k": [[1, 2, 3]] * 3, "j": [[1, 2, 3]] * 3}


def test_extremely_long_lines_are_cut_in_errors(base: Path, tmp_path: Path) -> None:
    line = "machines: [{id: m, name: '" + "x" * 10_000_000 + "', colour: red}]\n"
    write(base / "data" / "long.yaml", line)
    err = refused(build(base, tmp_path / "out"), tmp_path / "out")
    lines = err.splitlines()
    # The name, past a data text's limit (MAX_DATA_TEXT), is told first, its line cut too.
    assert lines[0].startswith("data/long.yaml:1:26: machines[0].name: 10,000,000 characters")
    at = lines.index("data/long.yaml:1:10000030: machines[0].colour: unknown key 'colour'")
    assert lines[at + 1] == "    …" + "x" * (MAX_LINE - 16) + "', colour: red}]"
    assert lines[at + 2] == "    " + " " * (1 + MAX_LINE - 16 + 3) + "^"
    assert len(err) < 2000


@pytest.mark.parametrize(("name", "text"), [
    ("data/many.yaml", "machines: [{id: m, name: M, "
     + ", ".join(f"k{i}: 1" for i in range(20_000)) + "}]\n"),
    ("data/history/measurements.many.jsonl",
     json.dumps({f"k{i}": i for i in range(20_000)}) + "\n"),
])
def test_a_record_of_many_unknown_keys_is_told_in_a_few_errors(
        name: str, text: str, base: Path, tmp_path: Path) -> None:
    """A record or history line of 20,000 unknown keys: ten are told, the rest counted
    (each key's error spelt out its whole line: minutes, and megabytes of terminal)."""
    write(base / name, text)
    err = refused(build(base, tmp_path / "out"), tmp_path / "out")
    told = {line.rsplit(": ", 1)[1] for line in err.splitlines() if "unknown key" in line}
    assert told == {f"unknown key 'k{i}'" for i in range(10)} | {
        "and 19,990 more unknown keys"}, err
    assert len(err) < 10_000


def test_a_file_of_many_broken_lines_is_read_up_to_its_first_problems(
        base: Path, tmp_path: Path) -> None:
    """2,000 broken history lines are 12,000 problems: the reader stops at the line that
    would make more than a hundred and says so there; the rest of the file is not read
    (500,000 such lines took 13.5 s to count every problem, and now a second)."""
    write(base / "data/history/measurements.many.jsonl", '{"x": 1}\n' * 2000)
    err = refused(build(base, tmp_path / "out"), tmp_path / "out")
    lines = [line for line in err.splitlines() if not line.startswith(" ")]
    assert len(lines) == 16 * 6 + 3
    assert lines[0] == "data/history/measurements.many.jsonl:1:1: missing key 'commit'"
    assert lines[-3:] == [
        "data/history/measurements.many.jsonl:17:1: stopped reading this file here, after "
        "96 problems", "Aborted with 97 data errors.", "The previous site was left as it was."]
    assert "hint: fix those first, then build again: the rest of the file is checked then" in err


def test_the_line_where_reading_stopped_is_the_line_shown(base: Path, tmp_path: Path
                                                         ) -> None:
    """The line that says where reading stopped quotes that line, not the next one."""
    write(base / "data/history/measurements.many.jsonl",
          "".join(f'{{"x": {n}}}\n' for n in range(1, 2001)))
    err = refused(build(base, tmp_path / "out"), tmp_path / "out")
    assert ("data/history/measurements.many.jsonl:17:1: stopped reading this file here, "
            'after 96 problems\n    {"x": 17}\n    ^\n') in err


@pytest.mark.parametrize(("name", "text", "count"), [
    ("data/history/measurements.syntax.jsonl", "{x\n" * 2000, 99),
    ("data/history/measurements.mixed.jsonl", '{x\n{"x": 1}\n' * 1000, 99),
    ("data/bench/runs.jsonl", '{"n": 1, "n": 2}\n' * 2000, 99),
    ("data/bench/runs.jsonl", '{"n": "x"}\n' * 2000, 99),
    ("data/bench/runs.yaml", "- {n: x}\n" * 2000, 99),
    ("data/hostile.yaml", "machines:\n" + "  - {x: 1}\n" * 2000, 99),
], ids=["json-syntax", "history-mixed", "json-twice", "json-type", "yaml-list", "yaml"])
def test_every_kind_of_record_file_is_read_up_to_its_first_problems(
        base: Path, tmp_path: Path, name: str, text: str, count: int) -> None:
    """Lines that are not JSON, a dataset's records of the wrong type (JSON lines, a YAML
    list) and a collection's records: each file stops at its first hundred problems."""
    if "bench" in name:
        write(base / "data/bench/bench.yaml", "datasets:\n  - {id: runs, title: Runs, "
              f"records: {Path(name).name}, fields: [{{name: n, label: N, type: whole}}]}}\n")
    write(base / name, text)
    err = refused(build(base, tmp_path / "out"), tmp_path / "out")
    lines = [line for line in err.splitlines() if not line.startswith(" ")]
    assert lines[-3].startswith(name + ":")
    assert lines[-3].endswith(f": stopped reading this file here, after {count} problems")
    assert lines[-2] == f"Aborted with {count + 1} data errors."


def test_terminal_escapes_in_keys_are_spelled_out(base: Path, tmp_path: Path) -> None:
    write(base / "data" / "keys.yaml",
          'machines:\n  - {id: m, name: M, "\\e]0;pwned\\a\\e[2J": 1}\n')
    err = refused(build(base, tmp_path / "out"), tmp_path / "out")
    assert "\x1b" not in err and "\x07" not in err
    assert err.splitlines()[:4] == [
        "data/keys.yaml:2:22: machines[0]: this text holds U+001B (a control character), "
        "which no page should show",
        '      - {id: m, name: M, "\\e]0;pwned\\a\\e[2J": 1}',
        "                         ^",
        "    hint: remove the escape (\\e, \\x.., \\u....) from the text"]
    assert ("data/keys.yaml:2:22: machines[0].\\x1b]0;pwned\\x07\\x1b[2J: "
            "unknown key '\\x1b]0;pwned\\x07\\x1b[2J'") in err


# -- inputs that once slipped through: each now gets a located error -------------------

def xfail(reason: str) -> Any:
    return pytest.mark.xfail(strict=True, reason=reason)


SITE = "site:\n  title: Base\n  tagline: Base\n  languages: [en]\n"
BUGS = [
    pytest.param(
        {"data/site.yaml": SITE + "  repository: r\n  repositories:\n"
         "    - {id: r, name: R, url: 'javascript:window.__pwned=1//'}\n",
         "data/hostile.yaml": "roadmaps: [{id: r, title: R, tasks: [{id: t, title: T, "
         "status: in-progress, proofs: [{pull: 3}]}]}]\n"},
        "data/site.yaml:7:29: site.repositories[0].url: ",
        id="repository url"),
    pytest.param(
        {"content/en/index.md": "---\ntitle: T\ntemplate: nope.html\n---\nx\n"},
        "content/en/index.md:3:11: ",
        id="unknown template"),
    pytest.param(
        {"data/hostile.yaml": "measurements: [{id: m, title: M, figure: {ok: 1, "
         "of: 100000000000000000000000000000000000000, status: estimate}}]\n"},
        "data/hostile.yaml:1:54: measurements[0].figure.of: ",
        id="huge count"),
    pytest.param(
        {"data/hostile.yaml": "measurements: [{id: m, title: M, figure: {value: "
         + "1" * 400 + ", status: estimate}}]\n"},
        "data/hostile.yaml:1:50: measurements[0].figure.value: ",
        id="huge whole value"),
    pytest.param(
        {"data/hostile.yaml": "measurements: [{id: m, title: M, figure: {value: 1."
         + "1" * 400 + ", status: estimate}}]\n"},
        "data/hostile.yaml:1:50: measurements[0].figure.value: ",
        id="too many decimals"),
    pytest.param(
        {"data/hostile.yaml": "commits: [{id: abc1234, pull: -160}]\n"},
        "data/hostile.yaml:1:31: commits[0].pull: ",
        id="negative pull request"),
    pytest.param(
        {"data/hostile.yaml": "budgets: [{id: b, title: B, items: [{id: i, title: I, "
         "figure: {value: 2, status: estimate}, limit: {value: 0}}]}]\n"},
        "data/hostile.yaml:1:108: budgets[0].items[0].limit.value: ",
        id="zero limit"),
    pytest.param(
        {"data/site.yaml": SITE + "  stale_after_days: -5\n"},
        "data/site.yaml:5:21: site.stale_after_days: ",
        id="negative days"),
    pytest.param(
        {"data/hostile.yaml": "machines: [{id: \"pc\\u200b\", name: PC}, "
         "{id: \"a b\", name: AB}]\n"},
        "data/hostile.yaml:1:17: machines[0].id: ",
        id="ids that are not words"),
    pytest.param(
        {"data/hostile.yaml": "machines: [{id: m, name: M, "
         "facts: ['[x](javascript:alert(1))']}]\n"},
        "data/hostile.yaml:1:",
        id="unsafe link in a list of texts"),
    pytest.param(
        {"data/site.yaml": "site:\n  title: T\n  tagline: T\n  languages: [en, zz]\n"},
        "data/site.yaml:4:",
        id="unknown language"),
]


def test_no_file_is_written_outside_the_site(tmp_path: Path) -> None:
    """Pages' paths are made from the data's words: publish refuses any that climbs out."""
    out = tmp_path / "site"
    with pytest.raises(PublishFailed) as caught:
        publish({"index.html": b"ok", "en/../../escaped.html": b"x"}, out)
    assert caught.value.problem.render() == (
        f"{out}: refusing to write outside the site: en/../../escaped.html\n"
        "    hint: this is a bug if the data's checks let it through; nothing was changed")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize(("files", "where"), BUGS)
def test_others_bugs(files: dict[str, str], where: str, base: Path, tmp_path: Path) -> None:
    for name, text in files.items():
        write(base / name, text)
    if "content/en/index.md" in files:
        shutil.rmtree(base / "content" / "fr")
    result = build(base, tmp_path / "out")
    assert result.code == 1, result.err
    assert "internal error" not in result.err
    assert result.err.startswith(where), result.err


# -- a hostile site that is valid: escaped, and nothing runs ---------------------------

PAYLOADS = (HOSTILE / "texts.txt").read_text("utf-8").splitlines()


def text_type(tp: Any) -> bool:
    """Whether a declared type holds a Text (alone, optional, or as a list of them)."""
    args = typing.get_args(tp)
    return tp is Text or any(text_type(a) for a in args)


def record_type(tp: Any) -> type | None:
    """The record class a declared type holds (alone, optional or in a list), if any."""
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return tp
    return next((r for a in typing.get_args(tp) if (r := record_type(a))), None)


class Poisoner:
    """Adds a payload to every text of a data file, as the schema declares them."""

    def __init__(self) -> None:
        self.count = 0

    def payload(self, words: str) -> str:
        self.count += 1
        return f"{words} {CANARY} {PAYLOADS[self.count % len(PAYLOADS)]}"

    def text(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.payload(value)
        if isinstance(value, dict):
            return {lang: self.payload(str(words)) for lang, words in value.items()}
        if isinstance(value, list):
            return [self.text(v) for v in value]
        return value

    def record(self, cls: type, value: Any) -> Any:
        if isinstance(value, list):
            return [self.record(cls, v) for v in value]
        if not isinstance(value, dict):
            return value
        declared = {f.name: hints(cls)[f.name] for f in fields(cls)}
        out = {}
        for key, item in value.items():
            tp = declared.get(key)
            inner = record_type(tp) if tp is not None else None
            if tp is not None and text_type(tp):
                out[key] = self.text(item)
            elif inner is not None:
                out[key] = self.record(inner, item)
            else:
                out[key] = item
        return out


def front_matter(text: str) -> str:
    """A page's title and description, with payloads (they are plain text, not Markdown)."""
    return re.sub(r"^(title|description): (.*)$",
                  lambda m: f"{m.group(1)}: {yaml.safe_dump(m.group(2) + ' ' + CANARY)}"
                  .rstrip("\n").replace("\n...", ""), text, count=2, flags=re.M)


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The example site with a payload in every text and page, built: (source, out)."""
    root = tmp_path_factory.mktemp("hostile")
    src = copy_example(root / "src")
    # A dashboard group's title, poisoned and read: the example has no series for the
    # dashboard to head with it (its pages must stay the example's), and it prints as
    # every data text does (test_history.py heads a real group with one).
    site = src / "data" / "site.yaml"
    site.write_text(site.read_text("utf-8").replace("site:\n", (
        "site:\n  groups:\n    - {id: hostile, title: {en: Hostile, fr: Hostile}}\n"), 1))
    poison = Poisoner()
    for path in sorted((src / "data").rglob("*.yaml")):
        doc, problems = parse(path.read_text("utf-8"), path.name)
        assert not problems
        poisoned = poison.record(schema.Data, doc.data)
        path.write_text(yaml.safe_dump(poisoned, allow_unicode=True, sort_keys=False))
    write(src / "data" / "hostile-ids.yaml", """\
machines:
  - id: hostile-machine  # a hostile id is refused: tests/hostile/refused/ids.yaml
    name: A machine with a hostile name <script>window.__pwned=1</script>
    facts: ['" onmouseover="window.__pwned=1 <script>window.__pwned=1</script>']
measurements:  # texts that the example leaves out
  - id: hostile-history
    title: A history <script>window.__pwned=1</script>
    figure: {value: 2, status: estimate}
    history:
      - {value: 1, label: A label <script>window.__pwned=1</script>}
studies:  # a study of contenders: each side a name and a version, not a commit
  - id: hostile-contenders
    title: Contenders <script>window.__pwned=1</script>
    before: {name: A tool <script>window.__pwned=1</script>, version: '<b>1</b>'}
    after: {name: 'Another <script>window.__pwned=1</script>', version: '" onclick="x'}
    comparisons:
      - id: hostile-contender-time
        title: Time <script>window.__pwned=1</script>
        before: {value: 2, status: estimate}
        after: {value: 1, status: estimate}
roadmaps:
  - id: hostile-roadmap
    title: A roadmap <script>window.__pwned=1</script>
    intro: Its intro <script>window.__pwned=1</script> <a href=javascript:window.__pwned=1>
    tasks:
      - id: hostile-task
        title: A task <script>window.__pwned=1</script>
        status: planned
""")
    page = (HOSTILE / "page.md").read_text("utf-8")
    for path in sorted((src / "content").rglob("*.md")):
        path.write_text(front_matter(path.read_text("utf-8")) + page)
    # Not --strict: the page's `{#id}` of quotes is a warning (the syntax refuses it), and
    # the only one: every other payload is printed as words without a word.
    result = build(src, root / "out")
    assert result.code == 0, result.err
    told = [line for line in result.err.splitlines() if ": warning: " in line]
    assert told and all("warning: heading id '{#a\"b onmouseover=" in line for line in told), \
        result.err
    assert poison.count > 100
    return src, root / "out"


def test_every_text_field_was_attacked(hostile_site: tuple[Path, Path]) -> None:
    source, problems = load(hostile_site[0], strict=True)
    assert source is not None and not [p for p in problems if not p.warning]
    seen: set[tuple[str, str]] = set()
    for rec in walk_records(source.data):
        for fld in fields(type(rec)):
            value = getattr(rec, fld.name)
            texts = value if isinstance(value, tuple) else (value,)
            for text in texts:
                if isinstance(text, Text):
                    seen.add((type(rec).__name__, fld.name))
                    assert all(CANARY in words for _, words in text.by_language), (
                        rec, fld.name)
    declared = {(cls.__name__, f.name) for cls in records(schema.Data)
                for f in fields(cls) if text_type(hints(cls)[f.name])}
    missing = sorted(declared - seen)
    assert not missing, f"add these to the example site (or the hostile one): {missing}"


def records(cls: type, seen: set[type] | None = None) -> set[type]:
    """Every record class reachable from `cls` in the schema."""
    seen = set() if seen is None else seen
    if cls in seen:
        return seen
    seen.add(cls)
    for f in fields(cls):
        inner = record_type(hints(cls)[f.name])
        if inner is not None:
            records(inner, seen)
    return seen


def walk_records(value: Any) -> Iterator[Any]:
    """Every record inside a value."""
    if isinstance(value, tuple):
        for item in value:
            yield from walk_records(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        yield value
        for f in fields(type(value)):
            yield from walk_records(getattr(value, f.name))


SAFE_SCHEMES = ("http:", "https:", "mailto:")
# Elements that can run code, load something or change what the page is. Templates may
# use some (an inline SVG chart, the stylesheet's <link>): the hostile site must have no
# more of them than the example it was made from.
ACTIVE = ("script", "iframe", "object", "embed", "applet", "frame", "frameset", "form",
          "input", "button", "base", "style", "link", "meta", "svg", "math", "video",
          "audio", "source", "template")


def html_pages(out: Path) -> list[Path]:
    return sorted(out.rglob("*.html"))


def census(html: str | bytes) -> dict[str, int]:
    """How many active elements and event-handler attributes a page has."""
    counts = dict.fromkeys(ACTIVE, 0) | {"on*": 0}
    for node in parse_html(html).iter():
        if node.tag in counts:
            counts[node.tag] += 1
        counts["on*"] += sum(1 for a in node.attrs if a.lower().startswith("on"))
    return counts


def test_no_markup_from_the_input(hostile_site: tuple[Path, Path],
                                  example_files: dict[str, bytes]) -> None:
    _, out = hostile_site
    for path in html_pages(out):
        name = path.relative_to(out).as_posix()
        html = path.read_text("utf-8")
        assert census(html) == census(example_files[name]), name
        assert census(html)["on*"] == 0
        for node in parse_html(html).iter():
            for attr in ("href", "src", "action", "formaction", "xlink:href"):
                if attr in node.attrs and not is_empty_icon(node):
                    assert safe_address(node.attrs[attr]), (name, node.tag, node.attrs[attr])
            if node.tag == "img":  # only from the site itself: no request to another host
                assert not re.match(r"^\s*([a-zA-Z][a-zA-Z0-9+.-]*:|//)", node.attrs["src"])
        assert not re.search("[\u202a-\u202e\u2066-\u2069]", html), "direction override"


def ancestors(node: Node) -> list[Node]:
    out = []
    while node.parent is not None:
        node = node.parent
        out.append(node)
    return out


def is_empty_icon(node: Node) -> bool:
    """The theme's own `<link rel="icon" href="data:,">` (no icon, and no request)."""
    return node.tag == "link" and node.attrs.get("rel") == "icon" \
        and node.attrs.get("href") == "data:,"


def safe_address(url: str) -> bool:
    """http(s), mailto, or a relative address: nothing a browser runs."""
    scheme = re.match(r"^\s*([a-zA-Z][a-zA-Z0-9+.-]*):", url)
    return scheme is None or scheme.group(0).strip().lower() in SAFE_SCHEMES


def test_the_payloads_are_shown_as_text(hostile_site: tuple[Path, Path]) -> None:
    _, out = hostile_site
    page = parse_html((out / "index.html").read_bytes())
    text = page.text()
    assert text.count(CANARY) > 50
    assert '<a href="javascript:window.__pwned=1">raw anchor</a>' in text
    assert "{% if true %}Jinja is not run on content{% endif %}" in text
    headline = page.find("h2", id="hostile")
    assert headline.text() == f"Hostile prose {CANARY}"
    remote = [a for a in page.find_all("a") if "tracker.invalid" in a.attrs.get("href", "")]
    assert "remote image, made a link" in [a.text() for a in remote]


def test_a_warm_cache_shows_the_payloads_byte_for_byte_alike(
        hostile_site: tuple[Path, Path], tmp_path: Path) -> None:
    """The first build filled the cache (drawn charts); the next one, which reads it,
    prints exactly the same sanitized HTML."""
    source, out = hostile_site
    again = tmp_path / "again"
    assert build(source, again).code == 0  # as the first: not --strict (hostile_site)
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert sorted(p.relative_to(again).as_posix() for p in again.rglob("*")
                  if p.is_file()) == files
    for name in files:
        assert (again / name).read_bytes() == (out / name).read_bytes(), name


# -- in Chromium ------------------------------------------------------------------------

# Navigating away would hide what ran: links that leave the page are stopped (their
# default only), every other click runs as a reader's would.
STOP_LEAVING = """
document.addEventListener('click', (event) => {
    const a = event.target.closest('a');
    if (a && ['http:', 'https:', 'mailto:'].includes(a.protocol)
            && !(a.hash && a.pathname === location.pathname)) event.preventDefault();
}, true);
"""


# Any handler that slipped through would fire; every link and summary is clicked.
TRIGGER_EVERYTHING = """() => {
    const events = ['mouseover', 'mouseenter', 'mousemove', 'focus', 'focusin', 'blur',
                    'pointerdown', 'pointerup', 'toggle', 'load', 'error', 'animationstart'];
    for (const element of document.querySelectorAll('*'))
        for (const type of events) element.dispatchEvent(new Event(type));
    for (const element of document.querySelectorAll('a[href], summary')) element.click();
}"""


def attack(page: Any) -> str:
    """Trigger everything a reader could, then what `window.__pwned` is."""
    page.evaluate(TRIGGER_EVERYTHING)
    browser.tab_order(page)
    page.wait_for_timeout(200)
    result: str = page.evaluate("typeof window.__pwned")
    return result


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with browser.chromium() as instance:
        yield instance


@pytest.mark.slow  # a real browser or tool run after run: CI runs it
def test_nothing_runs_in_chromium(hostile_site: tuple[Path, Path], chromium: Any) -> None:
    _, out = hostile_site
    with browser.serve(out) as base:
        for path in html_pages(out):
            page = chromium.new_page(viewport=browser.DESKTOP)
            page.add_init_script(STOP_LEAVING)
            seen = browser.watch(page, base)
            page.goto(base + path.relative_to(out).as_posix(), wait_until="load")
            assert page.evaluate("document.querySelectorAll('script').length") == 0
            assert page.evaluate("typeof window.__pwned") == "undefined"
            assert attack(page) == "undefined", path
            assert seen.foreign == [], seen.foreign
            assert seen.dialogs == [] and seen.page_errors == []
            page.close()


@pytest.mark.parametrize("html", [
    '<a href="javascript:window.__pwned=1">a link</a>',
    '<b onmouseover="window.__pwned=1">a handler</b>',
    '<details ontoggle="window.__pwned=1"><summary>s</summary>x</details>',
    '<img src="x" onerror="window.__pwned=1" alt="">',
])
def test_the_canary_sees_what_would_run(html: str, tmp_path: Path, chromium: Any) -> None:
    """The check above is not blind: the same steps catch each way a payload could run."""
    write(tmp_path / "index.html", f"<!doctype html><title>t</title><p>{html}</p>")
    with browser.serve(tmp_path) as base:
        page = chromium.new_page()
        page.add_init_script(STOP_LEAVING)
        page.goto(base)
        assert attack(page) == "number"
        page.close()


# -- what commands print: input spelled out, never acting on the terminal -----------------

RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
FORGING = "x\nFORGED: Built 0 pages\x1b[2J\u202e\x9b"
SPELLED = "x\\nFORGED: Built 0 pages\\x1b[2J\\u202e\\x9b"


def test_the_build_summary_spells_out_the_output_folder(base: Path, tmp_path: Path) -> None:
    out = tmp_path / FORGING
    result = build(base, out)
    assert result.code == 0, result.err
    assert not RAW_CONTROL.search(result.out + result.err)
    [line] = result.out.splitlines()
    assert line.startswith(f"Built 2 pages into {tmp_path}/{SPELLED} in ")


def test_watch_names_changed_files_spelled_out(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from progress_site.pipeline import BuildConfig
    from progress_site.watch.loop import describe
    from progress_site.watch.rebuild import say

    changed = tmp_path / "data" / f"{FORGING}.yaml"
    changed.parent.mkdir()
    changed.write_text("")
    config = BuildConfig(source=tmp_path, out=tmp_path / "site", today=dt.date(2026, 11, 29),
                         compiled=TEMPLATES)
    reason = describe([changed], config)
    assert reason == f"data/{SPELLED}.yaml changed"
    say(f"{reason}: built 1 pages", error=True)
    say("Serving \x1b]0;title\x07")  # the net under every line watch prints
    out, err = capsys.readouterr()
    assert (out, err) == ("Serving \\x1b]0;title\\x07\n",
                          f"data/{SPELLED}.yaml changed: built 1 pages\n")


def test_changes_spell_out_the_old_sites_ids(base: Path, tmp_path: Path) -> None:
    """An old data.json may hold anything: a real escape and a written-out one
    (`\\x1b` typed as four characters) print differently, and neither acts."""
    old = tmp_path / "old"
    old.mkdir()
    (old / "data.json").write_text(
        '{"version": 1, "today": "2026-11-08", '
        '"roadmaps": [{"id": "r\\u001b[2J", "tasks": [{"id": "t\\u202e\\nFORGED", '
        '"status": "done", "proofs": []}, {"id": "t\\\\x1b[2J", "status": "done", '
        '"proofs": []}]}]}')
    result = build(base, tmp_path / "out", "--changes", str(old))
    assert result.code == 0, result.err
    assert not RAW_CONTROL.search(result.out)
    assert result.out.splitlines() == [
        "- task removed roadmaps.r\\x1b[2J.tasks.t\\\\x1b[2J (was done)",
        "- task removed roadmaps.r\\x1b[2J.tasks.t\\u202e\\nFORGED (was done)",
        # The old site has none of the new pages.
        "- 4 pages changed: 404.html, fr/404.html, fr/index.html, index.html"]


def test_a_page_of_many_headings_of_one_name_builds(base: Path, tmp_path: Path) -> None:
    """50,000 headings `# h` take the ids h, h-2 ... h-50000: each took its number by
    trying every one before it (over two minutes; now seconds)."""
    write(base / "content/en/many.md", "---\ntitle: Many\n---\n# h-3\n" + "# h\n" * 50_000)
    write(base / "content/fr/many.md", "---\ntitle: Many\n---\nx\n")
    result = within(60, "--source", base, "--out", tmp_path / "out")
    assert result.code == 0, result.err
    ids = re.findall(r'<h1 id="([^"]+)"', (tmp_path / "out/many/index.html").read_text())
    assert ids[:4] == ["h-3", "h", "h-2", "h-4"]
    assert len(set(ids)) == len(ids) == 50_001 and ids[-1] == "h-50001"


def test_a_date_where_words_belong_is_told_as_a_date(base: Path, tmp_path: Path) -> None:
    """YAML reads `2026-01-01` and `2026-01-01 10:00:00` as a date and a time: the message
    says so in words (it printed `datetime.date(2026, 1, 1)`), and how to keep words."""
    write(base / "data/hostile.yaml", "machines:\n  - {id: a, name: 2026-01-01}\n"
          "  - {id: b, name: 2026-01-01 10:00:00}\n")
    lines = refused(build(base, tmp_path / "out"), tmp_path / "out").splitlines()
    assert [lines[0], lines[3], lines[4], lines[7]] == [
        "data/hostile.yaml:2:19: machines[0].name: expected a text, or {en: ..., fr: ...}, "
        "got a date (2026-01-01)", "    hint: write it in quotes to keep it as words: '...'",
        "data/hostile.yaml:3:19: machines[1].name: expected a text, or {en: ..., fr: ...}, "
        "got a date and time (2026-01-01 10:00:00)",
        "    hint: write it in quotes to keep it as words: '...'"]


def test_a_page_is_at_most_a_megabyte(base: Path, tmp_path: Path) -> None:
    """Markdown costs far more a byte than data: a page of a 1.8 MB table took over a
    minute. A page over 1 MiB is refused before it is parsed; one just under is read."""
    row = "|" + "1|" * 1000 + "\n"
    table = "---\ntitle: T\n---\n|" + "a|" * 1000 + "\n|" + "-|" * 1000 + "\n"
    write(base / "content/en/table.md", table + row * 600)
    write(base / "content/fr/table.md", "---\ntitle: T\n---\nx\n")
    err = refused(build(base, tmp_path / "out"), tmp_path / "out")
    assert err.splitlines()[:2] == [
        "content/en/table.md: file is 1.1 MiB, over the 1 MiB limit",
        "    hint: split it into several files under the same folder"]
    write(base / "content/en/table.md", table + row * 10)
    assert build(base, tmp_path / "out").code == 0


def test_a_pages_title_is_a_line(base: Path, tmp_path: Path) -> None:
    """Each page's navigation prints every page's title (or nav): 100 pages of a
    10,000-character title made 200 MB of HTML from 2 MB of Markdown. Past 200
    characters, a title or a nav is an error at its key; 200 are printed whole."""
    write(base / "content/en/long.md", f"---\ntitle: {'T' * 201}\nnav: {'n' * 10_000}\n---\nx\n")
    write(base / "content/fr/long.md", "---\ntitle: T\n---\nx\n")
    lines = refused(build(base, tmp_path / "out"), tmp_path / "out").splitlines()
    hint = "    hint: keep it to a line; say the rest in `description:` or in the page"
    assert [lines[0], lines[3], lines[4], lines[7]] == [
        "content/en/long.md:2:8: title: 201 characters, more than the 200 a page's title "
        "may have: it is printed in the navigation of every page", hint,
        "content/en/long.md:3:6: nav: 10,000 characters, more than the 200 a page's nav "
        "may have: it is printed in the navigation of every page", hint]
    write(base / "content/en/long.md", f"---\ntitle: {'T' * 200}\nnav: {'n' * 200}\n---\nx\n")
    assert build(base, tmp_path / "out").code == 0
    assert f">{'n' * 200}</a>" in (tmp_path / "out/index.html").read_text()


def test_a_language_has_at_most_200_pages(base: Path, tmp_path: Path) -> None:
    """Each page lists every other: the site grows as the square of their number. A
    language of more than 200 pages is an error at the first page past them, and none
    of its pages is read; 200 build."""
    for lang in ("en", "fr"):
        for i in range(199 if lang == "fr" else 200):
            write(base / f"content/{lang}/p{i:03d}.md", f"---\ntitle: P{i}\n---\nx\n")
    assert refused(build(base, tmp_path / "out"), tmp_path / "out").splitlines()[:2] == [
        "content/en/p199.md: 201 pages in content/en/, more than the 200 a site may have "
        "in a language: each page lists every other in its navigation",
        "    hint: merge pages into fewer, longer ones (a heading for each), or publish "
        "them as a site of their own"]
    (base / "content/en/p199.md").unlink()
    assert build(base, tmp_path / "out").code == 0
    assert len(list((tmp_path / "out").glob("p*/index.html"))) == 199


def test_the_sites_texts_on_every_page_are_short(base: Path, tmp_path: Path) -> None:
    """The site's title, tagline, description and footer are on every page, a series'
    page too: a footer of 100,000 characters over 2,000 series made a site of 243 MB.
    Past 200 characters (the title) or 1,000 (the others), each is an error at its
    language; at the limits, the site builds."""
    site = base / "data/site.yaml"
    text = site.read_text()

    def texts(title: int, other: int) -> str:
        return text.replace("title: Base", f"title: {'T' * title}").replace(
            "tagline: {en: A site to attack, fr: Un site à attaquer}",
            f"tagline: {{en: x, fr: {'t' * other}}}\n  description: {'d' * other}\n"
            f"  footer:\n    en: {'f' * 100_000}\n    fr: {'f' * other}")

    site.write_text(texts(201, 1001))
    lines = refused(build(base, tmp_path / "out"), tmp_path / "out").splitlines()
    hint = "    hint: say it in fewer words; the rest belongs in a page (content/<language>/...)"
    assert lines[0::4] == [
        "data/site.yaml:3:10: site.title: 201 characters, more than the 200 a site's title "
        "may have: it is printed on every page",
        "data/site.yaml:4:24: site.tagline.fr: 1,001 characters, more than the 1,000 a "
        "site's tagline may have: it is printed on every page",
        "data/site.yaml:5:16: site.description: 1,001 characters, more than the 1,000 a "
        "site's description may have: it is printed on every page",
        "data/site.yaml:7:9: site.footer.en: 100,000 characters, more than the 1,000 a "
        "site's footer may have: it is printed on every page",
        "data/site.yaml:8:9: site.footer.fr: 1,001 characters, more than the 1,000 a "
        "site's footer may have: it is printed on every page",
        "Aborted with 5 data errors."]
    assert set(lines[3:-2:4]) == {hint}
    site.write_text(texts(200, 1000).replace("f" * 100_000, "f"))
    assert build(base, tmp_path / "out").code == 0
    assert f"<p>{'f' * 1000}</p>" in (tmp_path / "out/fr/index.html").read_text()


class Walked(tuple):  # type: ignore[type-arg]
    """A site's pages, counting how many times they are walked through."""

    walks = 0

    def __iter__(self) -> Iterator[Page]:
        self.walks += 1
        return super().__iter__()


def walks_to_render(source: Path, out: Path) -> int:
    """How many times the pages of a site are walked through to render them."""
    config = BuildConfig(source=source, out=out, today=TODAY, disk_cache=False)
    ready = prepare(config)
    pages = Walked(ready.pages)
    render(ready.model, pages, ready.catalogs, config.folders("templates"), ChartCache(None),
           compiled=TEMPLATES)
    return pages.walks


def test_rendering_walks_the_pages_a_fixed_number_of_times(base: Path, tmp_path: Path
                                                           ) -> None:
    """Each page names its versions in the other languages and the pages of its
    navigation; found by walking every page for each page, a site of 20,000 series'
    pages spent minutes on it. 60 pages more are walked through no more often."""
    few = walks_to_render(base, tmp_path / "out")
    for lang in ("en", "fr"):
        for i in range(30):
            write(base / f"content/{lang}/p{i}.md", f"---\ntitle: P{i}\n---\nx\n")
    assert walks_to_render(base, tmp_path / "out") == few


def test_a_line_of_many_links_builds_in_time(base: Path, tmp_path: Path) -> None:
    """A page of one line of 90,000 autolinks (900 KB) builds, each link still placed:
    a link's place is not found by searching its whole line again for each link."""
    write(base / "content/en/links.md", "---\ntitle: L\n---\n" + "<http://a>" * 90_000
          + "<javascript:x>\n")
    write(base / "content/fr/links.md", "---\ntitle: L\n---\nx\n")
    result = within(60, "--source", base, "--out", tmp_path / "out")
    assert result.code == 1 and result.err.splitlines()[0] == (
        "content/en/links.md:4:900002: link to 'javascript:x': 'javascript:' addresses are "
        "not allowed")


@pytest.mark.parametrize("column", [0, 1, 150, 100_000, 299_999, 300_001])
def test_a_problem_holds_only_the_part_of_its_line_it_prints(column: int) -> None:
    """20,000 links on one line to no page are 20,000 warnings: each held the whole line
    (5 GB). A problem keeps the part of its line it prints, and prints it as before."""
    line = "".join(chr(0x61 + i % 26) + ("\x1b" if i % 7 == 0 else "") for i in range(260_000))
    problem = Problem(Location("x.md", 3, column), "m", source_line=line)
    shown, caret = excerpt(line, column)
    assert problem.render().splitlines()[1:] == [
        "    " + shown, *(["    " + " " * caret + "^"] if column else [])]
    assert len(problem.source_line) <= 2 * MAX_LINE + 3


def test_a_files_warnings_are_printed_a_hundred_at_most(base: Path, tmp_path: Path) -> None:
    """A build that succeeds printed every warning: 20,000 typed numbers made 10 MB of
    terminal. A file's first hundred are printed, as its errors are, the rest counted."""
    write(base / "content/en/many.md", "---\ntitle: M\n---\n" + "[a](b.html)\n\n" * 150)
    write(base / "content/fr/many.md", "---\ntitle: M\n---\nx\n")
    result = build(base, tmp_path / "out")
    assert result.code == 0, result.err
    told = [line for line in result.err.splitlines() if line.startswith("content/")]
    assert len(told) == 101 and told[99].startswith("content/en/many.md:202:5: warning: ")
    assert told[100] == ("content/en/many.md: and 50 more problems in this file (fix those "
                         "above first)")
    assert "(150 warnings)" in result.out
