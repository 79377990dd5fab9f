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

from progress_site import bytecode
from progress_site.bytecode import TemplateCache

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
