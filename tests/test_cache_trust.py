"""The cache folder comes with the source, so a pull request can plant files in it: the
build uses only entries this machine signed, and ignores any other without an error.

Each attack plants what an attacker can make without the key (a chart SVG with a
script), then builds: the site is the one built from the source alone.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from progress_site import cache
from progress_site.pipeline import BuildConfig, make_site

from .conftest import TODAY


@pytest.fixture
def key_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A user cache folder of this test's own, and a key read afresh from it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    monkeypatch.delenv(cache.KEY_VARIABLE, raising=False)
    cache.cache_key.cache_clear()
    yield tmp_path / "user-cache"
    cache.cache_key.cache_clear()


def build(source: Path) -> dict[str, bytes]:
    """The site's files, built from `source` with its cache."""
    return make_site(BuildConfig(source=source, out=source / "site", today=TODAY)).files


def entries(folder: Path) -> list[Path]:
    """The cache entries in `folder`, which a first build has filled (entries that other
    versions of the engine left there are not this build's: they are misses already)."""
    found = sorted(path for path in folder.iterdir()
                   if path.is_file() and cache.read(path) is not None)
    assert found, f"the build kept nothing in {folder}"
    return found


def unsigned(path: Path) -> bytes:
    """What a signed entry holds, as an attacker can rebuild it from the source."""
    data = cache.read(path)
    assert data is not None
    return data


def planted_forms(payload: bytes) -> list[bytes]:
    """An entry as an attacker may write it: bare, or behind a MAC made without the key."""
    return [payload, bytes(cache.MAC_BYTES) + payload, os.urandom(cache.MAC_BYTES) + payload]


def test_a_planted_chart_never_reaches_the_page(example_copy: Path) -> None:
    pristine = build(example_copy)
    script = (b'<svg xmlns="http://www.w3.org/2000/svg" class="chart">'
              b"<script>alert(1)</script></svg>")
    for path in entries(example_copy / ".cache" / "charts"):
        path.write_bytes(planted_forms(script)[len(path.name) % 3])
    files = build(example_copy)
    assert files == pristine
    assert not [name for name, data in files.items() if b"alert(1)" in data]


@pytest.mark.parametrize("damage", [b"", b"short", bytes(100)])
def test_a_damaged_entry_is_a_miss(key_home: Path, tmp_path: Path, damage: bytes) -> None:
    path = tmp_path / "entry"
    assert cache.store(path, b"kept")
    assert cache.read(path) == b"kept"
    path.write_bytes(damage)
    assert cache.read(path) is None


def test_an_entry_moved_to_another_name_is_a_miss(key_home: Path, tmp_path: Path) -> None:
    cache.store(tmp_path / "a", b"of a")
    os.replace(tmp_path / "a", tmp_path / "b")
    assert cache.read(tmp_path / "b") is None


def test_the_key_is_made_once_outside_the_source_readable_by_its_owner(
        key_home: Path, tmp_path: Path) -> None:
    cache.store(tmp_path / "entry", b"kept")
    key = key_home / "progress-site" / "key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    made = key.read_bytes()
    cache.cache_key.cache_clear()  # another build on this machine reads the same key
    assert cache.read(tmp_path / "entry") == b"kept"
    assert key.read_bytes() == made


def test_another_machines_entry_is_a_miss(key_home: Path, tmp_path: Path) -> None:
    cache.store(tmp_path / "entry", b"kept")
    (key_home / "progress-site" / "key").write_bytes(os.urandom(32))
    cache.cache_key.cache_clear()
    assert cache.read(tmp_path / "entry") is None


def test_ci_may_give_the_key(key_home: Path, tmp_path: Path,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.KEY_VARIABLE, "a secret of the CI")
    cache.store(tmp_path / "entry", b"kept")
    assert not (key_home / "progress-site" / "key").exists()
    cache.cache_key.cache_clear()
    assert cache.read(tmp_path / "entry") == b"kept"
    monkeypatch.setenv(cache.KEY_VARIABLE, "another secret")
    cache.cache_key.cache_clear()
    assert cache.read(tmp_path / "entry") is None


def test_no_key_folder_means_a_cache_of_one_process(key_home: Path, tmp_path: Path) -> None:
    key_home.write_text("a file where the folder should be", "utf-8")
    assert cache.store(tmp_path / "entry", b"kept")
    assert cache.read(tmp_path / "entry") == b"kept"
    cache.cache_key.cache_clear()
    assert cache.read(tmp_path / "entry") is None
