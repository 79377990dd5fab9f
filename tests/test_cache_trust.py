"""The build cache holds no code, lives outside the source, and is worth restoring on a
fresh CI machine.

Builds here are real processes (`python build.py`) with a home of their own. A planted
entry is any file of the cache folder made to hold a hostile drawing; the pages are then
parsed and must hold no script. A cache folder the source controls is refused; a cache
moved to another home and checkout is used there without drawing a chart.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jinja2
import pytest

from progress_site import cache
from progress_site.charts.allowed import allowed_svg
from progress_site.pipeline import ENGINE_ROOT

from .conftest import REPO, SOURCE_DATE_EPOCH
from .dom import parse

SVG = '<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="9" height="9">{}</svg>'
# Drawings an attacker may leave in a cache folder: each must be refused, and redrawn.
HOSTILE = {
    "script": SVG.format("<script>alert(1)</script>"),
    "onload": SVG.replace("<svg ", '<svg onload="alert(1)" ').format(""),
    "handler-on-a-path": SVG.format('<path d="M0 0" onmouseover="alert(1)"/>'),
    "foreign-object": SVG.format("<foreignObject><p>hi</p></foreignObject>"),
    "link-out": SVG.format('<a href="javascript:alert(1)"><text>x</text></a>'),
    "use-out": SVG.format('<use href="https://evil.example/x.svg#a"/>'),
    "external-url": SVG.format('<rect fill="url(https://evil.example/a)"/>'),
    "escaped-url": SVG.format('<rect fill="\\75 rl(https://evil.example/a)"/>'),
    "style": SVG.format("<style>rect{fill:url(https://evil.example/a)}</style>"),
    "cdata": SVG.format("<title><![CDATA[</title><img src=x onerror=alert(1)>]]></title>"),
    "comment": SVG.format("<!-- --><title>x</title>"),
    "doctype": '<!DOCTYPE svg [<!ENTITY a "b">]>' + SVG.format("<title>&a;</title>"),
    "prefixed": SVG.replace("<svg ", '<svg xmlns:h="http://www.w3.org/1999/xhtml" ').format(
        "<h:script>alert(1)</h:script>"),
    "other-namespace": SVG.format('<script xmlns="urn:x">alert(1)</script>'),
    "html": "<div onclick=alert(1)>x</div>",
    "cut": SVG.format("<g>")[:-10],
}
PNG = b"\x89PNG\r\n\x1a\n"
NOT_UTF_8 = SVG.format("<title>\xff</title>").encode("latin-1")
ALLOWED = {
    "bare": SVG.format(""),
    "drawing": SVG.format('<title id="t">A &amp; B</title><g transform="translate(1,2)">'
                          '<path d="M0 0L9 9" stroke="#000" stroke-width="1"/>'
                          '<text x="1" y="2" font-size="10px">1 &lt; 2</text></g>'),
    "local-url": SVG.format('<defs><clipPath id="c"><rect width="9" height="9"/></clipPath>'
                            '</defs><g clip-path="url(#c)" aria-hidden="true"/>'),
}


def run(source: Path, out: Path, env: dict[str, str], *args: str,
        cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`python build.py --source SOURCE --out OUT ARGS` in environment `env`."""
    return subprocess.run([sys.executable, str(REPO / "build.py"), "--source", str(source),
                           "--out", str(out), *args], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=300, check=False)


def home_env(home: Path, **extra: str) -> dict[str, str]:
    """This environment with another home, and no XDG_CACHE_HOME: the cache is then
    HOME/.cache/progress-site, as on a CI runner."""
    env = {k: v for k, v in os.environ.items() if k != "XDG_CACHE_HOME"}
    return {**env, "HOME": str(home), "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH, **extra}


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every path under `folder` with its bytes (a link: its target; a folder: '/')."""
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        found[name] = (f"-> {os.readlink(path)}" if path.is_symlink() else
                       "/" if path.is_dir() else path.read_bytes())
    return found


def pages(out: Path) -> dict[str, bytes]:
    """The HTML pages of a built site, by path."""
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*.html"))}


def warm_home(home: Path) -> None:
    """A home whose cache holds the example's charts, from this session's cache folder."""
    session = Path(os.environ["XDG_CACHE_HOME"]) / "progress-site"
    shutil.copytree(session, home / ".cache" / "progress-site")


def clean_pages(example_files: dict[str, bytes]) -> dict[str, bytes]:
    """The example's pages as this session built them (in memory, from a cache nobody
    planted, and checked against the golden site): what a build from a planted cache must
    publish all the same."""
    return {name: page for name, page in example_files.items() if name.endswith(".html")}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_drawing_is_not_served(name: str) -> None:
    assert allowed_svg(HOSTILE[name].encode()) is None


def test_a_drawing_not_in_utf_8_is_not_served() -> None:
    assert allowed_svg(NOT_UTF_8) is None


@pytest.mark.parametrize("name", sorted(ALLOWED))
def test_a_drawing_like_ours_is_served_as_it_is(name: str) -> None:
    assert allowed_svg(ALLOWED[name].encode()) == ALLOWED[name]


def entry_of_kind(folder: Path, kind: str) -> Path:
    """A cache entry that is a plain file, or something else in its place."""
    path, target = folder / "entry.svg", folder / "target.svg"
    target.write_bytes(b"<svg/>")
    if kind == "file":
        path.write_bytes(b"<svg/>")
    elif kind == "fifo":
        os.mkfifo(path)  # a reader that opened it plainly would wait for a writer
    elif kind == "link":
        path.symlink_to(target)
    elif kind == "folder":
        path.mkdir()
    elif kind == "too-large":
        path.write_bytes(b" " * 101)
    return path


@pytest.mark.parametrize(("kind", "read"), [("file", b"<svg/>"), ("fifo", None),
                                            ("link", None), ("folder", None),
                                            ("too-large", None)])
def test_only_a_plain_file_under_the_limit_is_read(kind: str, read: bytes | None,
                                                   tmp_path: Path) -> None:
    assert cache.read(entry_of_kind(tmp_path, kind), limit=100) == read


def test_a_planted_chart_never_reaches_the_page(example_copy: Path, tmp_path: Path,
                                                example_files: dict[str, bytes]) -> None:
    warm_home(tmp_path / "home")
    env = home_env(tmp_path / "home")
    clean = clean_pages(example_files)
    planted = 0
    for entry in (tmp_path / "home" / ".cache").rglob("*"):
        if entry.is_file() and entry.read_bytes().startswith(b"<svg"):
            entry.write_text(list(HOSTILE.values())[planted % len(HOSTILE)], "utf-8")
            planted += 1
    assert planted >= 3, "the example's charts are in HOME/.cache"
    done = run(example_copy, tmp_path / "out", env)
    assert done.returncode == 0, done.stderr
    assert pages(tmp_path / "out") == clean  # every planted chart was drawn again
    for name, page in clean.items():
        elements = parse(page).iter()
        assert [e.tag for e in elements if e.tag in ("script", "foreignobject")] == [], name
        assert [a for e in elements for a in e.attrs if a.startswith("on")] == [], name


def test_a_planted_social_card_is_not_published(example_copy: Path, tmp_path: Path,
                                                example_files: dict[str, bytes]) -> None:
    """A card is published as a file, not inlined: still, only a whole PNG of the card's
    size is taken from the cache; anything else is converted again."""
    # The charts kept, the cards not (any the session's other builds converted): the cards
    # are what these builds make.
    warm_home(tmp_path / "home")
    for entry in (tmp_path / "home" / ".cache").rglob("*"):
        if entry.is_file() and entry.read_bytes().startswith(PNG):
            entry.unlink()
    env = home_env(tmp_path / "home")
    address = ("--base-url", "https://example.org/")
    assert run(example_copy, tmp_path / "clean", env, *address).returncode == 0
    cards = [p for p in (tmp_path / "home" / ".cache").rglob("*")
             if p.is_file() and p.read_bytes().startswith(PNG)]
    assert len(cards) == 2, "a card a language, kept in HOME/.cache"
    whole = cards[0].read_bytes()
    for card, planted in zip(cards, [PNG + b"<script>alert(1)</script>",
                                     whole[:-12] + whole[-12:].replace(b"IEND", b"IEN\0")],
                             strict=True):
        card.write_bytes(planted)
    done = run(example_copy, tmp_path / "out", env, *address)
    assert done.returncode == 0, done.stderr
    for name in ("social.png", "fr/social.png"):
        assert (tmp_path / "out" / name).read_bytes() == (tmp_path / "clean" / name).read_bytes()


def test_a_planted_compiled_template_is_not_run(example_copy: Path, tmp_path: Path,
                                                example_files: dict[str, bytes]) -> None:
    """Compiled template code left in the cache folder (in the files Jinja's own disk
    cache would read) is never run: templates are compiled by each build."""
    warm_home(tmp_path / "home")
    marker = tmp_path / "ran"
    code = compile(f"open({str(marker)!r}, 'w').close()", "<planted>", "exec")
    loader = jinja2.FileSystemLoader(ENGINE_ROOT / "templates")
    cache_root = tmp_path / "home" / ".cache" / "progress-site"
    for folder in [cache_root, *(p for p in cache_root.rglob("*") if p.is_dir()),
                   cache_root / "templates"]:
        folder.mkdir(parents=True, exist_ok=True)
        planted = jinja2.FileSystemBytecodeCache(str(folder))
        env = jinja2.Environment(loader=loader, bytecode_cache=planted)
        for name in loader.list_templates():
            source, filename, _ = loader.get_source(env, name)
            bucket = planted.get_bucket(env, name, filename, source)
            bucket.code = code
            planted.set_bucket(bucket)
    done = run(example_copy, tmp_path / "out", home_env(tmp_path / "home"))
    assert done.returncode == 0, done.stderr
    assert not marker.exists()


def test_a_build_writes_nothing_into_the_source_nor_beside_the_site(
        example_copy: Path, tmp_path: Path, example_files: dict[str, bytes]) -> None:
    warm_home(tmp_path / "home")
    before = snapshot(example_copy)
    (tmp_path / "public").mkdir()
    done = run(example_copy, tmp_path / "public" / "site", home_env(tmp_path / "home"))
    assert done.returncode == 0, done.stderr
    assert snapshot(example_copy) == before
    assert sorted(p.name for p in (tmp_path / "public").iterdir()) == ["site"]


REFUSED = ("refusing to keep the cache there: it is inside the source folder, which a "
           "build must not write into; give it a folder outside the source and the "
           "output, such as ~/.cache/progress-site (the default); nothing was written\n")


@pytest.mark.parametrize("where", ["src/.cache", "src/data/cache", "src/link"])
def test_a_cache_dir_in_the_source_is_refused(where: str, example_copy: Path,
                                              tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (example_copy / "link").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    before = snapshot(tmp_path)
    done = run(Path("src"), tmp_path / "out", home_env(tmp_path / "home"),
               "--cache-dir", where, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr == f"error: --cache-dir {where}: {REFUSED}"
    assert snapshot(tmp_path) == before


def test_a_cache_dir_in_the_output_is_refused(example_copy: Path, tmp_path: Path) -> None:
    done = run(example_copy, tmp_path / "out", home_env(tmp_path / "home"),
               "--cache-dir", str(tmp_path / "out" / "cache"))
    assert done.returncode == 2
    assert "refusing to keep the cache there: it is inside the output folder" in done.stderr


def test_a_cache_dir_of_its_own_is_used(example_copy: Path, tmp_path: Path,
                                        example_files: dict[str, bytes]) -> None:
    warm_home(tmp_path / "home")
    given = tmp_path / "home" / ".cache" / "progress-site"
    done = run(example_copy, tmp_path / "out", home_env(tmp_path / "nobody"),
               "--cache-dir", str(given), "--strict")
    assert (done.returncode, done.stderr) == (0, "")
    assert not (tmp_path / "nobody").exists()


def test_a_cache_home_in_the_source_is_left_unused(example_copy: Path, tmp_path: Path
                                                   ) -> None:
    """XDG_CACHE_HOME=src/.cache (relative, as CI that caches only the project's paths
    sets it): the build warns once, keeps nothing, and writes nothing under the source."""
    before = snapshot(example_copy)
    done = run(Path("src"), tmp_path / "out", home_env(tmp_path / "home",
                                                       XDG_CACHE_HOME="src/.cache"),
               cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("warning:") == 1
    assert done.stderr.startswith(
        f"warning: {example_copy}/.cache/progress-site: not used as the build's cache: it "
        "is inside the source folder, which a build must not write into; this build keeps "
        "nothing for the next one (every chart is drawn again)\nhint: set XDG_CACHE_HOME "
        "to a folder outside the source and the output, or pass --cache-dir DIR\n")
    assert snapshot(example_copy) == before
    assert pages(tmp_path / "out")


BLOCK_VL_CONVERT = """import sys
class Blocked:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in ("vl_convert", "altair"):
            raise ImportError(f"{name} is not usable on this machine")
sys.meta_path.insert(0, Blocked())
"""


def test_a_restored_cache_is_used_on_a_fresh_machine(example_copy: Path, tmp_path: Path,
                                                     example_files: dict[str, bytes]) -> None:
    """The cache of one machine, restored into another home with the source checked out
    elsewhere (a CI run), draws no chart: the build runs with vl-convert and Altair
    unusable, and publishes the same pages. The first machine is this session's build of
    the example (from the engine's folder, with its own cache folder)."""
    warm_home(tmp_path / "b")
    checkout = shutil.copytree(example_copy, tmp_path / "elsewhere" / "checkout")
    path = blocking(tmp_path / "blocker", BLOCK_VL_CONVERT)
    second = run(checkout, tmp_path / "out-b", home_env(tmp_path / "b", PYTHONPATH=path))
    assert second.returncode == 0, second.stderr
    assert pages(tmp_path / "out-b") == clean_pages(example_files)
    # Without the cache, the same build must draw, and cannot: the block is real.
    third = run(checkout, tmp_path / "out-c", home_env(tmp_path / "c", PYTHONPATH=path))
    assert third.returncode != 0


def blocking(folder: Path, code: str) -> str:
    """A PYTHONPATH whose sitecustomize runs `code` in a build's process (the engine's
    checkout after it)."""
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(code, "utf-8")
    return os.pathsep.join([str(folder), str(REPO)])


BLOCK_ALTAIR = BLOCK_VL_CONVERT.replace('("vl_convert", "altair")', '("altair",)')


def drawings_gone(home: Path) -> list[Path]:
    """The home's kept chart shapes (Vega specs, found by what they hold, wherever the
    cache keeps them), once every drawn chart is deleted (as after an edit that changes
    every chart's numbers)."""
    shapes = []
    for entry in sorted(p for p in (home / ".cache").rglob("*") if p.is_file()):
        if entry.read_bytes().startswith(b"<svg"):
            entry.unlink()
        elif entry.read_bytes().startswith(b"{") and "/schema/vega/" in str(
                json.loads(entry.read_bytes()).get("$schema", "")):
            shapes.append(entry)
    assert shapes, "the example's shapes were kept"
    return shapes


def test_a_chart_redrawn_in_a_kept_shape_needs_no_altair(example_copy: Path, tmp_path: Path,
                                                         example_files: dict[str, bytes]
                                                         ) -> None:
    """A chart whose drawing is gone but whose shape was compiled before is drawn from the
    kept shape: the build runs with Altair unusable, and publishes the same pages."""
    warm_home(tmp_path / "home")
    drawings_gone(tmp_path / "home")
    path = blocking(tmp_path / "blocker", BLOCK_ALTAIR)
    done = run(example_copy, tmp_path / "out", home_env(tmp_path / "home", PYTHONPATH=path))
    assert done.returncode == 0, done.stderr
    assert pages(tmp_path / "out") == clean_pages(example_files)


# Shapes an attacker may leave in a cache folder: each is compiled again, and replaced.
PLANTED_SHAPES = {
    # vl-convert draws it, as an <image>: a drawing not of the kind ours are.
    "draws-an-image": '{"width": 9, "height": 9, "marks": [{"type": "image", "encode": '
                      '{"enter": {"url": {"value": "data:image/png;base64,iVBORw0KGgo="}, '
                      '"width": {"value": 5}, "height": {"value": 5}}}}]}',
    "not-drawable": '{"width": 9, "marks": [{"type": "text", "encode": {"enter": '
                    '{"href": {"value": "javascript:alert(1)"}}}}]}',
    "not-a-shape": '{"data": 5, "scales": "x"}',
    # Work no chart of ours asks for: refused as read, never drawn.
    "a-billion-points": '{"data": [{"name": "n", "transform": [{"type": "sequence", '
                        '"start": 0, "stop": 1000000000}]}]}',
    "a-billion-ticks": '{"signals": [{"name": "n", "update": "length(sequence(0, 1e9))"}], '
                       '"axes": [{"scale": "x", "orient": "bottom", "tickCount": 1000000000}]}',
    "not-an-object": "[1, 2]",
    "not-json": "{width: 9",
}


# The quick run keeps one shape drawn and checked, and one refused as read; CI runs all.
QUICK_SHAPES = {"draws-an-image", "a-billion-points"}


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=() if name in QUICK_SHAPES else pytest.mark.slow)
    for name in sorted(PLANTED_SHAPES)])
def test_a_planted_shape_never_reaches_the_page(name: str, example_copy: Path,
                                                tmp_path: Path,
                                                example_files: dict[str, bytes]) -> None:
    warm_home(tmp_path / "home")
    shapes = drawings_gone(tmp_path / "home")
    for shape in shapes:
        shape.write_text(PLANTED_SHAPES[name], "utf-8")
    done = run(example_copy, tmp_path / "out", home_env(tmp_path / "home"))
    assert done.returncode == 0, done.stderr
    assert pages(tmp_path / "out") == clean_pages(example_files)
    # The example's shapes were compiled again and replaced (the session's cache holds
    # other tests' shapes too, planted alike and left unused).
    assert any(s.read_text("utf-8") != PLANTED_SHAPES[name] for s in shapes)
