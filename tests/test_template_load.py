"""Templates are loaded once a build: the compiled cache reads Jinja's entries (and only
those of the same source), the build's environments share each template's code, and an
edit shows at the next build whatever its time stamp."""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path

import jinja2
import pytest

from progress_site.pipeline import ENGINE_ROOT, BuildConfig, make_site
from progress_site.render import templates as bytecode
from progress_site.render.templates import TemplateCache, TemplateLoader

from .conftest import TODAY

SOURCE = "{% for x in items %}<b>{{ x }}</b>{% endfor %}\n"


@pytest.fixture(autouse=True)
def nothing_in_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no compiled template kept by the process."""
    monkeypatch.setattr(bytecode, "_LOADED", {})


def bucket(cache: TemplateCache, source: str = SOURCE) -> jinja2.bccache.Bucket:
    """The cache's bucket for `t.html` with `source`, as Jinja asks for it."""
    return cache.get_bucket(jinja2.Environment(), "t.html", "/x/t.html", source)


def entry(folder: Path) -> Path:
    """The one entry the cache in `folder` holds."""
    [path] = folder.glob("*.jinja")
    return path


def written(tmp_path: Path) -> TemplateCache:
    """A cache holding `t.html` compiled, written by Jinja's own writer."""
    cache = TemplateCache(tmp_path)
    fresh = bucket(cache)
    fresh.code = jinja2.Environment().compile(SOURCE, "t.html", "/x/t.html")
    cache.dump_bytecode(fresh)
    bytecode._LOADED.clear()
    return cache


def test_an_entry_reads_back_as_jinjas_own_reader_reads_it(tmp_path: Path) -> None:
    cache = written(tmp_path)
    ours = bucket(cache)
    theirs = jinja2.bccache.Bucket(jinja2.Environment(), ours.key, ours.checksum)
    theirs.load_bytecode(io.BytesIO(entry(tmp_path).read_bytes()))
    assert ours.code is not None and ours.code == theirs.code
    template = jinja2.Environment().template_class.from_code(
        jinja2.Environment(), ours.code, {}, None)
    assert template.render(items=[1, 2]) == "<b>1</b><b>2</b>"


def test_an_entry_of_another_source_is_not_read(tmp_path: Path) -> None:
    cache = written(tmp_path)
    assert bucket(cache, SOURCE.replace("<b>", "<i>")).code is None


@pytest.mark.parametrize("damage", [
    lambda data: b"",
    lambda data: data[:-20],  # cut short
    lambda data: b"j3" + data[2:],  # another format or another Python
    lambda data: data[:-40] + b"\x00" * 40,
], ids=["empty", "cut", "magic", "garbage"])
def test_a_damaged_entry_is_compiled_again(tmp_path: Path,
                                           damage: Callable[[bytes], bytes]) -> None:
    cache = written(tmp_path)
    path = entry(tmp_path)
    path.write_bytes(damage(path.read_bytes()))
    assert bucket(cache).code is None


def test_a_missing_entry_is_compiled(tmp_path: Path) -> None:
    assert bucket(TemplateCache(tmp_path)).code is None


def test_a_read_entry_is_kept_in_memory(tmp_path: Path) -> None:
    cache = written(tmp_path)
    first = bucket(cache).code
    os.unlink(entry(tmp_path))
    assert bucket(cache).code is first


def folders(tmp_path: Path, **templates: str) -> list[Path]:
    """A source's templates/ (`templates`, by name) before a theme's (`t.html` only)."""
    source, theme = tmp_path / "source", tmp_path / "theme"
    for folder in (source, theme):
        folder.mkdir()
    (theme / "t.html").write_text("theme's {{ word }}", "utf-8")
    for name, text in templates.items():
        (source / f"{name}.html").write_text(text, "utf-8")
    return [source, theme]


def environment(loader: TemplateLoader, word: str) -> jinja2.Environment:
    """An environment of one language, as render.make_environment makes it (its own
    globals), around the build's loader."""
    env = jinja2.Environment(loader=loader, auto_reload=False)
    env.globals["word"] = word
    return env


def test_the_environments_of_a_build_share_each_read(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[str] = []
    read = jinja2.FileSystemLoader.get_source

    def counted(self: jinja2.FileSystemLoader, env: jinja2.Environment, name: str
                ) -> tuple[str, str, Callable[[], bool]]:
        reads.append(name)
        return read(self, env, name)

    monkeypatch.setattr(jinja2.FileSystemLoader, "get_source", counted)
    loader = TemplateLoader(folders(tmp_path, u="{% include 't.html' %}"),
                            TemplateCache(tmp_path / "cache"))
    english, french = environment(loader, "word"), environment(loader, "mot")
    assert english.get_template("u.html").render() == "theme's word"
    assert french.get_template("u.html").render() == "theme's mot"
    assert english.get_template("t.html").render() == "theme's word"
    assert reads == ["u.html", "t.html"]


def test_a_sources_template_comes_before_the_themes(tmp_path: Path) -> None:
    loader = TemplateLoader(folders(tmp_path, t="source's {{ word }}"), None)
    assert environment(loader, "word").get_template("t.html").render() == "source's word"


def test_a_missing_template_is_reported_as_jinja_reports_it(tmp_path: Path) -> None:
    paths = folders(tmp_path)
    with pytest.raises(jinja2.TemplateNotFound) as ours:
        environment(TemplateLoader(paths, None), "word").get_template("nope.html")
    with pytest.raises(jinja2.TemplateNotFound) as theirs:
        jinja2.Environment(loader=jinja2.FileSystemLoader([str(p) for p in paths])
                           ).get_template("nope.html")
    assert (ours.value.name, ours.value.message) == (theirs.value.name, theirs.value.message)


def test_a_compiled_template_goes_to_the_cache_once(tmp_path: Path) -> None:
    cache = TemplateCache(tmp_path / "cache")
    loader = TemplateLoader(folders(tmp_path), cache)
    for word in ("word", "mot"):
        assert environment(loader, word).get_template("t.html").render() == f"theme's {word}"
    assert len(list((tmp_path / "cache").glob("*.jinja"))) == 1


def test_the_next_build_sees_an_edit_that_keeps_size_and_time(example_copy: Path) -> None:
    """Whether a template changed is never judged by its time: each build reads it."""
    override = example_copy / "templates" / "blocks"
    override.mkdir(parents=True)
    legend = override / "legend.html"
    original = (ENGINE_ROOT / "templates" / "blocks" / "legend.html").read_text("utf-8")
    config = BuildConfig(source=example_copy, out=example_copy / "site", today=TODAY)
    for marker in ("first-edit", "other-edit"):
        legend.write_text(f"<p>{marker}</p>\n{original}", "utf-8")
        os.utime(legend, ns=(1_700_000_000_000_000_000,) * 2)
        assert f"<p>{marker}</p>".encode() in make_site(config).files["index.html"]
