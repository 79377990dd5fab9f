"""A site's own templates/ and locales/ come with its source, which a pull request may change.

Such a template runs in Jinja's sandbox, and reads only regular files inside its folder:
it cannot run a command on the machine that builds, write a file, nor publish one from
outside the source; its mistakes are located errors, never internal ones. (What it
prints is its own: a template writes the page's markup.)
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from .conftest import copy_hostile_base
from .dom import parse
from .test_pipeline import run_build


@pytest.fixture
def base(tmp_path: Path) -> Path:
    copy_hostile_base(tmp_path / "src")
    (tmp_path / "src" / "templates").mkdir()
    return tmp_path / "src"


def page_template(base: Path, text: str) -> None:
    """`text` as the site's own page.html, which every page uses."""
    (base / "templates" / "page.html").write_text(text, encoding="utf-8")


def refused(base: Path, out: Path) -> str:
    """The errors of a build that must have failed cleanly, nothing published."""
    result = run_build("--source", base, "--out", out)
    assert result.returncode == 1, result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    assert not out.exists()
    return result.stderr


@pytest.mark.parametrize("payload", [
    "{{ cycler.__init__.__globals__.os.popen('touch %s').read() }}",
    "{{ joiner.__init__.__globals__['os'].popen('touch %s') }}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}{{ '%s' }}",
    "{{ charts.cache.directory.joinpath('%s').write_text('x') }}",
])
def test_a_template_cannot_run_code_nor_write_a_file(base: Path, tmp_path: Path,
                                                     payload: str) -> None:
    marker = tmp_path / "pwned"
    page_template(base, "{% extends 'base.html' %}{% block main %}\n"
                        + payload % marker + "\n{% endblock %}\n")
    err = refused(base, tmp_path / "out")
    assert err.startswith("templates/page.html:2:1: template error: access to ")
    assert "is unsafe" in err.splitlines()[0]
    assert "hint: a template reads the values it is given and their public attributes " \
           "only" in err
    assert not marker.exists()


def test_a_template_not_in_utf_8_is_told_at_its_line(base: Path, tmp_path: Path) -> None:
    """It was Python's codec message ('can't decode byte 0xff in position 9'), no line."""
    (base / "templates" / "page.html").write_bytes(b"{# a #}\n<p>\xff</p>\n")
    err = refused(base, tmp_path / "out")
    assert err.startswith("templates/page.html:2:1: template error: this template is not "
                          "valid UTF-8: save it as UTF-8\n"), err


def test_a_template_of_its_own_ok(base: Path, tmp_path: Path) -> None:
    page_template(base, "{% extends 'base.html' %}{% block main %}\n<p>{{ page.meta.title "
                        "}} {{ site.title | t | upper }} {{ charts.__class__ is defined }}</p>\n"
                        "{% endblock %}\n")
    result = run_build("--source", base, "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert "<p>Base BASE False</p>" in (tmp_path / "out" / "index.html").read_text()


@pytest.mark.parametrize(("text", "line", "message"), [
    ("{% if %}\n", 1, "Expected an expression, got 'end of statement block'"),
    ("\n{{ nothing.here }}\n", 2, "'nothing' is undefined"),
])
def test_a_broken_template_is_a_located_error(base: Path, tmp_path: Path, text: str,
                                              line: int, message: str) -> None:
    page_template(base, text)
    err = refused(base, tmp_path / "out")
    assert err.splitlines()[0] == f"templates/page.html:{line}:1: template error: {message}"
    assert err.endswith("Aborted with 1 template error.\nThe previous site was left as it "
                        "was.\n")


@pytest.mark.parametrize(("name", "text", "message"), [
    ("page.html", "{% extends 'base.html' %}{% block main %}\n{{ 1 / 0 }}{% endblock %}",
     "templates/page.html:2:1: template error: division by zero"),
    ("page.html", "{% extends 'base.html' %}{% block main %}\n{{ 1 + 'a' }}{% endblock %}",
     "templates/page.html:2:1: template error: unsupported operand type(s) for +: 'int' "
     "and 'str'"),
    ("404.html", "\n{{ nothing.here }}", "templates/404.html:2:1: template error: 'nothing' "
     "is undefined"),
    ("404.html", "{{ 1 / 0 }}", "templates/404.html:1:1: template error: division by zero"),
])
def test_a_template_that_raises_is_a_template_error(base: Path, tmp_path: Path, name: str,
                                                     text: str, message: str) -> None:
    """A site's template that computes what cannot be (or its 404 page that fails) is a
    located template error, once, named so in the closing line: it was an internal
    error, or a 'data error'."""
    (base / "templates" / name).write_text(text, encoding="utf-8")
    err = refused(base, tmp_path / "out")
    assert err.splitlines()[0] == message
    assert err.count("template error:") == 1
    assert err.endswith("Aborted with 1 template error.\nThe previous site was left as it "
                        "was.\n")


def test_errors_of_data_and_templates_are_counted_apart(base: Path, tmp_path: Path) -> None:
    page_template(base, "{% extends 'base.html' %}{% block main %}\n{{ nothing.here }}"
                        "{{ body }}{% endblock %}\n")
    index = base / "content" / "en" / "index.md"
    index.write_text(index.read_text() + "\n{{< no-such-block >}}\n")
    err = refused(base, tmp_path / "out")
    assert "content/en/index.md:6:1: unknown block 'no-such-block'" in err
    assert err.endswith("Aborted with 2 errors (1 data, 1 template).\nThe previous site "
                        "was left as it was.\n")


def test_a_template_or_asset_linked_from_outside_is_not_read(base: Path,
                                                              tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET of the machine that builds")
    (base / "templates" / "secret.html").symlink_to(secret)
    page_template(base, "{% extends 'base.html' %}{% block main %}{% include 'secret.html' %}"
                        "{% endblock %}\n")
    (base / "templates" / "assets").mkdir()
    (base / "templates" / "assets" / "secret.css").symlink_to(secret)
    err = refused(base, tmp_path / "out")
    assert err == (
        "templates/assets/secret.css: this asset cannot be published: it links to a place "
        "outside its folder\n    hint: put the file itself in templates/assets/, or delete "
        "it\ntemplates/secret.html: template error: this template links to a place outside "
        "its folder\n    hint: correct the template, or delete it to use the engine's\n"
        "Aborted with 2 template errors.\nThe previous site was left as it was.\n")
    assert "SECRET" not in err


CATALOG = r'''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\n"

msgid "Skip to the content"
msgstr "<script>window.__pwned=1</script> & co"

msgid "Language"
msgstr "x\" onmouseover=\"window.__pwned=1"
'''


def test_a_catalogs_words_are_text(base: Path, tmp_path: Path) -> None:
    """A site's catalog comes with its source: a translation holding markup, or a quote
    that would end the attribute it is printed in, is printed as words."""
    (base / "locales" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    (base / "locales" / "fr" / "LC_MESSAGES" / "messages.po").write_text(CATALOG)
    result = run_build("--source", base, "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    page = parse((tmp_path / "out" / "fr" / "index.html").read_text())
    assert not page.find_all("script")
    assert page.find_all("a", class_="skip")[0].text() == (
        "<script>window.__pwned=1</script> & co")
    nav = page.find_all("nav", class_="languages")[0]
    assert nav.attrs == {"class": "languages", "aria-label": 'x" onmouseover="window.__pwned=1'}


@pytest.mark.parametrize(("data", "message"), [
    pytest.param(CATALOG.replace("& co", "\u202e& co").encode(),
                 "locales/fr/LC_MESSAGES/messages.po:7:43: invisible control character "
                 "U+202E (right-to-left override): it makes the text read otherwise than it "
                 "is written", id="direction override"),
    pytest.param(CATALOG.encode("utf-16"), "locales/fr/LC_MESSAGES/messages.po: the file is "
                 "UTF-16, not UTF-8", id="utf-16"),
    pytest.param(CATALOG.encode().replace(b"& co", b"\xff co"),
                 "locales/fr/LC_MESSAGES/messages.po:7:43: the file is not valid UTF-8",
                 id="not utf-8"),
])
def test_a_catalogs_file_is_held_to_a_data_files_rules(base: Path, tmp_path: Path,
                                                      data: bytes, message: str) -> None:
    """A direction override in a translation reached the French page and feed; a byte
    that is not UTF-8 was Python's codec message, with no place."""
    (base / "locales" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    (base / "locales" / "fr" / "LC_MESSAGES" / "messages.po").write_bytes(data)
    assert refused(base, tmp_path / "out").startswith(message + "\n")


@pytest.mark.parametrize("entries", [30_000, 40_000])
def test_a_catalog_past_1_mib_is_refused_before_it_is_read(base: Path, tmp_path: Path,
                                                            entries: int) -> None:
    """A catalog of 32 MiB (950,000 entries, within a data file's limit) took Babel a
    minute to read; the engine's own holds 13 KB."""
    (base / "locales" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    (base / "locales" / "fr" / "LC_MESSAGES" / "messages.po").write_text(
        CATALOG + "".join(f'\nmsgid "x{i:06}"\nmsgstr "y{i:06}"\n' for i in range(entries)))
    if entries == 30_000:  # 1.02 MB
        result = run_build("--source", base, "--out", tmp_path / "out")
        assert result.returncode == 0, result.stderr
        return
    assert refused(base, tmp_path / "out") == (
        "locales/fr/LC_MESSAGES/messages.po: file is 1.3 MiB, over the 1 MiB limit\n"
        "    hint: a catalog holds the words of the templates: keep the entries they use "
        "(`pybabel update --ignore-obsolete`)\n"
        "Aborted with 1 catalog error.\nThe previous site was left as it was.\n")


def test_a_catalogs_syntax_error_is_at_its_line(base: Path, tmp_path: Path) -> None:
    """Babel named the line in its message ("... on 11", counted from 0): the problem
    carries it as every other does, with the line."""
    (base / "locales" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    (base / "locales" / "fr" / "LC_MESSAGES" / "messages.po").write_text(
        CATALOG + '\nmsgid "a"\nmsgid_plural "b"\nmsgstr[0] "c"\nmsgstr[1] "d"\n'
        'msgstr[2] "e"\n')
    assert refused(base, tmp_path / "out") == (
        "locales/fr/LC_MESSAGES/messages.po:12:1: cannot read the catalog: msg has more "
        "translations than num_plurals of catalog\n    msgid \"a\"\n    ^\n"
        "    hint: run `pybabel update` or "
        "fix the line\nAborted with 1 catalog error.\nThe previous site was left as it was.\n")


def test_a_catalog_saved_with_a_bom_and_crlf_ok(base: Path, tmp_path: Path) -> None:
    """Windows' Notepad saves one so: Babel read the BOM as a keyword ('Unknown or
    misformatted keyword on 0')."""
    (base / "locales" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    (base / "locales" / "fr" / "LC_MESSAGES" / "messages.po").write_bytes(
        b"\xef\xbb\xbf" + CATALOG.replace("\n", "\r\n").encode())
    result = run_build("--source", base, "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    page = parse((tmp_path / "out" / "fr" / "index.html").read_text())
    assert page.find_all("a", class_="skip")[0].text() == (
        "<script>window.__pwned=1</script> & co")


@pytest.mark.parametrize(("text", "message"), [
    ('{% extends "page.html" %}', "maximum recursion depth exceeded in comparison"),
    ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "maximum recursion depth exceeded"),
    ("{% for i in range(10**9) %}x{% endfor %}",
     "Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000)."),
    ("{{ 'x' * 10**9 }}", "a text or list repeated past 1,000,000 items"),
    ("{{ [0] * 10**9 }}", "a text or list repeated past 1,000,000 items"),
    ("{{ 7 ** 1000000 }}", "a power of 1,000,000 is over the limit of 1,000"),
    ("{{ lipsum(10**6) }}", "'lipsum' is undefined"),
    ("{{ 'x'|center(10**10) }}", "No filter named 'center'."),
    ("{{ 'x'|indent(10**10) }}", "No filter named 'indent'."),
    ("{{ '%*s'|format(10**10, 1) }}", "No filter named 'format'."),
    ("{{ '{:>10000000000}'.format(1) }}", "access to attribute 'format' of 'str' object "
                                           "is unsafe."),
    ("{{ 'x'.rjust(10**10) }}", "access to attribute 'rjust' of 'str' object is unsafe."),
])
def test_a_template_cannot_exhaust_the_builder(base: Path, tmp_path: Path, text: str,
                                               message: str) -> None:
    """A template that calls itself, or computes a billion of anything, is a located
    error (it was an internal error, or gigabytes of memory, or a power that never
    ends)."""
    page_template(base, text + "\n")
    err = refused(base, tmp_path / "out")
    assert err.splitlines()[0].startswith(f"templates/page.html:1:1: template error: {message}")


def test_a_template_computes_within_the_limits_ok(base: Path, tmp_path: Path) -> None:
    page_template(base, "{% extends 'base.html' %}{% block main %}<p>{{ 'ab' * 3 }} "
                        "{{ 2 ** 10 }} {{ [0] * 2 }}</p>{% endblock %}\n")
    result = run_build("--source", base, "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert "<p>ababab 1024 [0, 0]</p>" in (tmp_path / "out" / "index.html").read_text()


def test_a_templates_folder_linked_from_outside_is_not_read(base: Path,
                                                            tmp_path: Path) -> None:
    """templates/ (or locales/) that links out of the source would be read whole, its
    assets published: an error; one that links to a folder of the source is read."""
    theme = tmp_path / "theme"
    (theme / "assets").mkdir(parents=True)
    (theme / "assets" / "secret.css").write_text("SECRET")
    (base / "templates").rmdir()
    (base / "templates").symlink_to(theme, target_is_directory=True)
    (base / "locales").symlink_to(tmp_path / "nowhere", target_is_directory=True)
    assert refused(base, tmp_path / "out") == (
        "locales: this folder links to a place outside the source folder\n"
        "    hint: copy the folder into the source instead of linking to it\n"
        "templates: this folder links to a place outside the source folder\n"
        "    hint: copy the folder into the source instead of linking to it\n"
        "Aborted with 2 errors (1 catalog, 1 template).\nThe previous site was left as it "
        "was.\n")
    (base / "templates").unlink()
    (base / "locales").unlink()
    shutil.copytree(theme, base / "theme")
    (base / "templates").symlink_to(base / "theme", target_is_directory=True)
    result = run_build("--source", base, "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "assets" / "secret.css").read_text() == "SECRET"


def test_an_assets_name_is_held_to_a_data_files_rules(base: Path, tmp_path: Path) -> None:
    """A file of templates/assets/ is published under its name, which the build prints:
    one with ESC (`\\x1b[2J` clears a CI log's screen) or bytes that are not UTF-8 was
    published as it was. Each is an error naming it spelled out; a plain name is kept."""
    assets = base / "templates/assets"
    assets.mkdir()
    (assets / "y\x1b[2J.css").write_text("a")
    (assets / os.fsdecode(b"x\xff.css")).write_text("a")
    (assets / "plain-name.css").write_text("a")
    assert refused(base, tmp_path / "out").splitlines() == [
        "templates/assets/x\\xff.css: this file's name is not UTF-8 text",
        "    hint: rename the file with letters, digits, '-' and '_'",
        "templates/assets/y\\x1b[2J.css: this file's name holds U+001B (a control character)",
        "    hint: rename the file with letters, digits, '-' and '_'",
        "Aborted with 2 template errors.", "The previous site was left as it was."]
    for name in ("y\x1b[2J.css", os.fsdecode(b"x\xff.css")):
        (assets / name).unlink()
    assert run_build("--source", base, "--out", tmp_path / "out").returncode == 0
    assert (tmp_path / "out/assets/plain-name.css").read_text() == "a"
