"""Watch mode end to end: a real `build.py --watch` process, real HTTP, real file edits."""

from __future__ import annotations

import contextlib
import http.client
import io
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from progress_site.cli import main
from progress_site.watch.livestate import LiveState
from progress_site.watch.server import PreviewServer, url_of

from .conftest import TEMPLATES
from .conftest import copy_example as example_in

REPO = Path(__file__).resolve().parent.parent
TIMEOUT = 60.0  # seconds: a bound, not a speed (a busy machine draws charts slowly)
OLD_VALUE = "after: {value: 7.92}"  # data/studies.yaml, comparison cpu-per-packet-500
NEW_VALUE = "after: {value: 7.90}"
OLD_EN, NEW_EN = "7.92\xa0μs", "7.90\xa0μs"
NEW_FR = "7,90\u202fμs"
OLD_BAR, NEW_BAR = "width: 39.0%", "width: 38.9%"  # derived: after / before
BROKEN = "studies: [\n"  # appended to studies.yaml: a YAML syntax error
SIDES = "        before: {value: 20.31}\n"
HISTORY = "        history: [{value: 24.5, commit: 57930e6, label: {en: May, fr: Mai}}]\n"


def copy_example(folder: Path, cache: Path | None = None) -> Path:
    """The example's data and content in a fresh folder (`src`), and a copy of a warm
    cache folder beside it (`cache`, which `Watch` gives the process), if given."""
    source = example_in(folder / "src")
    if cache is not None:
        shutil.copytree(cache, folder / "cache")
    assert OLD_VALUE in studies(source).read_text(encoding="utf-8"), "example data changed"
    # A history gives the edited comparison a trend chart (three points): what a save redraws.
    edit(studies(source), SIDES, f"{HISTORY}{SIDES}")
    return source


WARM = pytest.StashKey[Path]()


def warm_cache(config: pytest.Config, factory: pytest.TempPathFactory) -> Path:
    """A cache folder with the example's charts, drawn once per test session (each test
    takes a copy: a chart one test's edit drew must not be a hit in another's)."""
    # A cold first build draws every chart (seconds); each test would pay for it again.
    # It starts from the charts this session drew already (those of the example, when a
    # test asked for `example_files` first), so it draws only what the history adds; and
    # it runs in this process: the processes under test are the watches, not this build.
    if WARM not in config.stash:
        source = copy_example(factory.mktemp("warm"))
        cache = source.parent / "cache"
        session = Path(os.environ["XDG_CACHE_HOME"]) / "progress-site"
        if session.is_dir():
            shutil.copytree(session, cache)
        done = build_here(source, source / "site", cache)
        if done[0] != 0:
            pytest.fail(f"the example site does not build:\n{done[1]}")
        config.stash[WARM] = cache
    return config.stash[WARM]


def build_here(source: Path, out: Path, cache: Path) -> tuple[int, str]:
    """`build.py --source SOURCE --out OUT --cache-dir CACHE`, run in this process (its
    compiled templates shared, as conftest says): the exit status and what it printed on
    stderr."""
    errors = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(errors):
        status = main(["--source", str(source), "--out", str(out), "--cache-dir", str(cache)],
                      TEMPLATES)
    return status, errors.getvalue()


@pytest.fixture
def source(request: pytest.FixtureRequest, tmp_path: Path,
           tmp_path_factory: pytest.TempPathFactory, example_files: dict[str, bytes]) -> Path:
    """A copy of the example site to edit, its caches warm (`example_files` first: the
    warm cache starts from the charts it drew)."""
    return copy_example(tmp_path, warm_cache(request.config, tmp_path_factory))


def studies(source: Path) -> Path:
    """The data file the tests edit."""
    return source / "data" / "studies.yaml"


def edit(path: Path, old: str, new: str) -> None:
    """Replace text in a file in place, as most editors save."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def as_from_a_terminal() -> None:
    """In the child before it runs: Ctrl-C delivered and not ignored, as a terminal starts
    a command. The watch leaves an ignored SIGINT alone (`cmd &` in a script), and a test
    process can hand an ignored or blocked one down to its children."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})


def signal_masks(pid: int) -> str:
    """The process's blocked and ignored signals, as /proc says them (for a failure)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    except OSError:
        return "no /proc"
    return ", ".join(line for line in status.splitlines() if line.startswith(("SigBlk", "SigIgn")))


class Watch:
    """A `build.py --watch --port 0` process, with its output collected as it comes."""

    def __init__(self, source: Path, port: int = 0) -> None:
        command = [sys.executable, str(REPO / "build.py"), "--watch", "--port", str(port),
                   "--source", str(source), "--out", str(source / "site"),
                   "--cache-dir", str(source.parent / "cache")]
        # A group of its own: `close` stops the chart drawer it starts with it.
        self.process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True,
                                        encoding="utf-8", preexec_fn=as_from_a_terminal,
                                        start_new_session=True)
        self.lines: list[str] = []
        self.changed = threading.Condition()
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self) -> None:
        """Collect the process's output lines until it closes them."""
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self.changed:
                self.lines.append(line)
                self.changed.notify_all()
        with self.changed:
            self.changed.notify_all()

    def output(self) -> str:
        """Everything printed so far."""
        with self.changed:
            return "".join(self.lines)

    def wait_for(self, pattern: str, timeout: float = TIMEOUT) -> re.Match[str]:
        """The first match of `pattern` in the output, waiting for it if need be."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while (found := re.search(pattern, "".join(self.lines))) is None:
                left = deadline - time.monotonic()
                if left <= 0 or (self.process.poll() is not None and not self.reader.is_alive()):
                    pytest.fail(f"no {pattern!r} in the output:\n{''.join(self.lines)}")
                self.changed.wait(min(left, 0.1))
            return found

    @property
    def url(self) -> str:
        """The address it serves on, as it printed it."""
        return self.wait_for(r"http://127\.0\.0\.1:\d+/").group(0)

    def stop(self, number: int = signal.SIGINT) -> int:
        """Send a signal; the exit status."""
        masks = signal_masks(self.process.pid)
        self.process.send_signal(number)
        try:
            status = self.process.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running {TIMEOUT:.0f} s after signal {number} "
                        f"({masks}):\n{self.output()}")
        self.reader.join(timeout=TIMEOUT)
        return status

    def close(self) -> None:
        """Make sure the process is gone and its pipe closed; its chart drawer too, which
        would otherwise finish its charts (and hold the pipe open) after a kill."""
        with contextlib.suppress(ProcessLookupError):  # the group is gone already
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=TIMEOUT)
        self.reader.join(timeout=TIMEOUT)
        assert self.process.stdout is not None
        self.process.stdout.close()


@pytest.fixture
def watch() -> Iterator[Callable[[Path], Watch]]:
    """Start watch processes; each one is stopped after the test."""
    started: list[Watch] = []

    def start(source: Path) -> Watch:
        """Start one on `source`."""
        started.append(Watch(source))
        return started[-1]

    yield start
    for process in started:
        process.close()


def fetch(url: str, path: str = "/") -> tuple[int, str]:
    """GET a path: the status and the body."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=TIMEOUT)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read().decode("utf-8")
    finally:
        connection.close()


def poll(url: str, path: str, check: Callable[[str], bool]) -> str:
    """The body of `path` once `check` accepts it (each save rebuilds in a moment)."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        status, body = fetch(url, path)
        if status == 200 and check(body):
            return body
        if time.monotonic() > deadline:
            pytest.fail(f"{path} never passed the check; last status {status}")
        time.sleep(0.05)


def rebuilds(process: Watch, named: str = "data/studies.yaml") -> int:
    """How many rebuilds a change to `named` (a file or a folder) started."""
    # Only those: the engine's templates and locales are watched too, and another
    # engineer's edits there may rebuild while the tests run.
    return len(re.findall(rf"^{re.escape(named)}.* changed: built", process.output(), re.M))


def test_edit_is_served_with_its_derived_figures(source: Path, watch: Callable[[Path], Watch]
                                                 ) -> None:
    process = watch(source)
    status, page = fetch(process.url)
    assert status == 200 and OLD_EN in page and OLD_BAR in page

    edit(studies(source), OLD_VALUE, NEW_VALUE)

    page = poll(process.url, "/", lambda body: NEW_EN in body)
    assert NEW_BAR in page and OLD_EN not in page
    assert NEW_FR in poll(process.url, "/fr/", lambda body: NEW_FR in body)
    process.wait_for(r"data/studies\.yaml changed: built \d+ pages in \d+ ms; reloading")
    time.sleep(0.5)  # publishing writes beside the source: it must not trigger a rebuild
    assert rebuilds(process) == 1


def test_changed_charts_follow_the_page_and_match_a_full_build(
        source: Path, watch: Callable[[Path], Watch], tmp_path: Path,
        request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The page with the new number is out first, its redrawn charts right after; the
    final files are those `build.py` writes from the same data (with the charts of the
    example as they were before the edit: it draws the changed ones itself)."""
    process = watch(source)
    process.wait_for("Serving")
    edit(studies(source), OLD_VALUE, NEW_VALUE)
    quick = process.wait_for(r"data/studies\.yaml changed: built \d+ pages in \d+ ms; "
                             r"reloading open pages; drawing (\d+) changed charts\.")
    drawn = process.wait_for(r"Drew (\d+) charts in \d+ ms: built \d+ pages in \d+ ms; "
                             r"reloading open pages\.")
    assert int(quick.group(1)) == int(drawn.group(1)) >= 2  # a trend chart, in en and fr
    full = tmp_path / "full"
    shutil.copytree(warm_cache(request.config, tmp_path_factory), tmp_path / "full-cache")
    assert build_here(source, full, tmp_path / "full-cache") == (0, "")
    for page in ("index.html", "fr/index.html"):
        written = (source / "site" / page).read_bytes()
        assert b"chart-redrawing" not in written
        assert written == (full / page).read_bytes()
    assert process.stop() == 0  # Ctrl-C with the drawer process running: clean
    assert "Traceback" not in process.output()


def test_a_chart_not_drawn_stands_in_as_its_last_drawing_dimmed() -> None:
    from progress_site.charts.cache import ChartCache, LatestCharts, stand_in
    from progress_site.charts.spec import ChartSpec, Series

    spec = ChartSpec(id="trend-x", kind="line", title="Cost <1>", x_title="day",
                     y_title="us", series=(Series("a", ((1, 2.0), (2, 3.0))),))
    empty = stand_in(spec)
    assert 'aria-busy="true"' in empty and "<title>Cost &lt;1&gt;</title>" in empty
    assert 'width="560"' in empty and 'height="260"' in empty
    latest: LatestCharts = {}  # what one watch process's builds share
    drawn = ChartCache(None, latest=latest).svg(spec)
    moved = ChartSpec(id="trend-x", kind="line", title="Cost <1>", x_title="day",
                      y_title="us", series=(Series("a", ((1, 2.0), (2, 4.0))),))
    assert stand_in(moved) == empty  # no drawing of it known: the empty frame
    listing = ChartCache(None, drawing=False, latest=latest)
    shown = listing.svg(moved)
    assert listing.missing == [moved]
    assert shown == drawn.replace('class="chart"', 'class="chart chart-redrawing" '
                                  'aria-busy="true" style="opacity:0.35"', 1)


def test_live_script_is_served_but_never_written(source: Path,
                                                 watch: Callable[[Path], Watch]) -> None:
    process = watch(source)
    for path, file in (("/", "index.html"), ("/fr/", "fr/index.html")):
        status, page = fetch(process.url, path)
        assert status == 200 and "/__progress_site/events" in page
        assert "/__progress_site/events" not in (source / "site" / file).read_text("utf-8")
    status, css = fetch(process.url, "/assets/style.css")
    assert status == 200 and "__progress_site" not in css
    assert fetch(process.url, "/no-such-page/")[0] == 404
    assert fetch(process.url, "/../../etc/passwd")[0] == 404


def test_broken_save_keeps_the_last_good_site_until_fixed(
        source: Path, watch: Callable[[Path], Watch]) -> None:
    process = watch(source)
    good = studies(source).read_text(encoding="utf-8")
    fetch(process.url)

    with studies(source).open("a", encoding="utf-8") as fh:
        fh.write(BROKEN)
    process.wait_for(r"data/studies\.yaml:\d+:\d+: YAML syntax error.*\n(.*\n)*?Aborted with 1 "
                     r"data error\.\nStill serving the last good site")
    page = poll(process.url, "/", lambda body: 'role="alert"' in body)
    assert OLD_EN in page  # the last good page, under the overlay
    assert re.search(r'<pre[^>]*>data/studies\.yaml:\d+:\d+: YAML syntax error', page)

    # A second bad save: the overlay follows it, with the text escaped.
    studies(source).write_text(good.replace(OLD_VALUE, 'after: {value: "<b>7.9</b>"}'),
                               encoding="utf-8")
    page = poll(process.url, "/", lambda body: "&lt;b&gt;7.9&lt;/b&gt;" in body)
    assert "<b>7.9</b>" not in page and 'role="alert"' in page

    studies(source).write_text(good.replace(OLD_VALUE, NEW_VALUE), encoding="utf-8")
    page = poll(process.url, "/", lambda body: 'role="alert"' not in body)
    assert NEW_EN in page
    assert "Traceback" not in process.output()


def test_open_pages_hear_about_every_build(source: Path,
                                           watch: Callable[[Path], Watch]) -> None:
    process = watch(source)
    since = re.search(r"since=([\w.]+)", fetch(process.url)[1])
    assert since is not None
    parts = urlsplit(process.url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=TIMEOUT)
    try:
        connection.request("GET", f"/__progress_site/events?since={since.group(1)}")
        events = connection.getresponse()
        assert events.getheader("Content-Type") == "text/event-stream"
        with studies(source).open("a", encoding="utf-8") as fh:
            fh.write(BROKEN)
        assert read_event(events) == "failed"
        edit(studies(source), BROKEN, "")
        assert read_event(events) == "reload"
    finally:
        connection.close()


def read_event(stream: http.client.HTTPResponse) -> str:
    """The name of the next server-sent event on the stream."""
    while line := stream.readline().decode("utf-8"):
        if line.startswith("event: "):
            return line.removeprefix("event: ").strip()
    pytest.fail("the event stream ended")


def test_an_editor_save_is_one_rebuild(source: Path, watch: Callable[[Path], Watch]) -> None:
    process = watch(source)
    process.wait_for("Serving")
    data, target = source / "data", studies(source)
    text = target.read_text(encoding="utf-8").replace(OLD_VALUE, NEW_VALUE)

    # What vim does on :w (backup by rename), plus its swap file being written.
    (data / "4913").write_text("")
    (data / "4913").unlink()
    target.rename(data / "studies.yaml~")
    target.write_text(text, encoding="utf-8")
    (data / ".studies.yaml.swp").write_bytes(b"swap")
    (data / "studies.yaml~").unlink()

    poll(process.url, "/", lambda body: NEW_EN in body)
    time.sleep(0.5)
    assert rebuilds(process) == 1

    # Editor litter alone is no change.
    (data / ".studies.yaml.swp").write_bytes(b"swap again")
    (data / ".#studies.yaml").write_text("emacs lock")
    (data / "__pycache__").mkdir()
    time.sleep(0.5)
    assert rebuilds(process, "data/") == 1


def test_a_new_catalog_takes_effect_without_restart(source: Path,
                                                    watch: Callable[[Path], Watch]) -> None:
    process = watch(source)
    process.wait_for("Serving")
    catalog = source / "locales" / "fr" / "LC_MESSAGES" / "messages.po"
    catalog.parent.mkdir(parents=True)  # a folder the watch did not see at start
    catalog.write_text(po("Aller au contenu (essai)"), encoding="utf-8")
    poll(process.url, "/fr/", lambda body: "Aller au contenu (essai)" in body)

    catalog.write_text(po("Aller au contenu (essai 2)"), encoding="utf-8")
    poll(process.url, "/fr/", lambda body: "Aller au contenu (essai 2)" in body)


def po(skip_link: str) -> str:
    """A French catalog that overrides one of the engine's words."""
    return ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
            '"Language: fr\\n"\n\n'
            f'msgid "Skip to the content"\nmsgstr "{skip_link}"\n')


def test_a_broken_first_build_still_serves(source: Path,
                                           watch: Callable[[Path], Watch]) -> None:
    with studies(source).open("a", encoding="utf-8") as fh:
        fh.write(BROKEN)
    process = watch(source)
    status, page = fetch(process.url)
    assert status == 503 and 'role="alert"' in page and "YAML syntax error" in page
    process.wait_for("Aborted with 1 data error.")  # the output is read by another thread

    edit(studies(source), BROKEN, "")
    # The pages asked for first can be served while the rest is built, the last error
    # still told over them: what counts is that the page comes back without it.
    poll(process.url, "/", lambda body: OLD_EN in body and 'role="alert"' not in body)


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_stops_cleanly_and_frees_the_port(
        source: Path, watch: Callable[[Path], Watch], number: int) -> None:
    process = watch(source)
    parts = urlsplit(process.url)
    address = (parts.hostname or "", parts.port or 0)
    # An open event stream and an idle connection must not hold the shutdown up.
    stream = http.client.HTTPConnection(*address, timeout=TIMEOUT)
    idle = socket.create_connection(address, timeout=TIMEOUT)
    try:
        stream.request("GET", "/__progress_site/events")
        stream.getresponse()
        started = time.monotonic()
        assert process.stop(number) == 0
        assert time.monotonic() - started < 3  # no join left to time out (those wait 5 s)
    finally:
        stream.close()
        idle.close()
    output = process.output()
    assert "Stopped." in output and "Traceback" not in output
    with socket.socket() as again:  # the port is free for the next server, as HTTPServer
        again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # binds (TIME_WAIT aside)
        again.bind(address)
        again.listen()


def test_a_port_in_use_is_a_clear_error(source: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run(
            [sys.executable, str(REPO / "build.py"), "--watch", "--port", str(port),
             "--source", str(source), "--out", str(source / "site")],
            cwd=REPO, capture_output=True, text=True, timeout=TIMEOUT,
            env={**os.environ, "PYTHONWARNINGS": "error"})
    assert done.returncode == 1
    assert done.stderr == (f"error: cannot serve on 127.0.0.1:{port}: the port is already in "
                           "use (another server, or another --watch?); stop it, or pick "
                           "another port with --port (--port 0 picks a free one)\n")
    assert done.stdout == ""
    assert not (source / "site").exists()  # nothing built for a server that cannot start


def test_the_drawer_draws_in_its_own_process_and_reports(tmp_path: Path) -> None:
    from progress_site.charts.spec import ChartSpec, Series
    from progress_site.watch.drawer import ChartDrawer

    specs = tuple(ChartSpec(id=f"c{i}", kind="bar", title="t", x_title="x", y_title="y",
                            series=(Series("a", (("one", float(i + 1)),)),))
                  for i in range(2))
    news: list[tuple[int, float]] = []
    done = threading.Event()

    def drawn(count: int, seconds: float) -> None:
        news.append((count, seconds))
        done.set()

    drawer = ChartDrawer(tmp_path, drawn, lambda text: pytest.fail(text))
    try:
        drawer.submit(specs)
        assert done.wait(60), "the drawer never reported"
    finally:
        drawer.close()
    assert news[0][0] == 2
    assert len(list(tmp_path.glob("*.svg"))) == 2


@contextlib.contextmanager
def serving(folder: Path) -> Iterator[tuple[str, LiveState]]:
    """A preview server on 127.0.0.1 over a small built site in `folder`: its address and
    state, while the block runs."""
    root = folder / "site"
    (root / "fr").mkdir(parents=True)
    for name in ("index.html", "fr/index.html", "404.html"):
        (root / name).write_text(f"<!doctype html><body><p>{name}</p></body>", "utf-8")
    (folder / "secret.txt").write_text("not for the browser", "utf-8")
    (root / "leak.txt").symlink_to(folder / "secret.txt")
    (root / "out").symlink_to(folder, target_is_directory=True)
    state = LiveState()
    server = PreviewServer(("127.0.0.1", 0), root, state)
    thread = server.start()
    try:
        yield url_of(server), state
    finally:
        server.stop(thread)


@pytest.fixture
def preview(tmp_path: Path) -> Iterator[tuple[str, LiveState]]:
    """A preview server whose state has heard of no build but its first."""
    with serving(tmp_path) as served:
        yield served


@pytest.fixture(scope="module")
def answering(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of one preview server for the tests of requests, which leave its state
    alone (each server's stop waits out a turn of its loop)."""
    with serving(tmp_path_factory.mktemp("answering")) as (url, _):
        yield url


def raw_request(url: str, request_line: bytes, host: bytes = b"localhost") -> bytes:
    """Send one request line (and an empty header block); everything answered."""
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname or "", parts.port or 0),
                                  timeout=TIMEOUT) as sock:
        sock.sendall(request_line + b"\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
        return answer


def status_line(answer: bytes) -> tuple[str, int]:
    """The protocol and status code of a response."""
    first = answer.split(b"\r\n", 1)[0].decode("latin-1")
    protocol, code = first.split()[:2]
    return protocol, int(code)


@pytest.mark.parametrize(("line", "code"), [
    (b"GET / HTTP/1.1", 200),
    (b"GET /fr HTTP/1.1", 301),
    (b"GET /" + b"a" * 300 + b" HTTP/1.1", 404),  # a name longer than a file's may be
    (b"GET /" + b"a" * 255 + b"/" + b"b" * 255 + b" HTTP/1.1", 404),
    (b"GET /" + b"a/" * 2047 + b" HTTP/1.1", 404),  # 4,095 characters: the longest path
    (b"GET /" + b"a/" * 2048 + b" HTTP/1.1", 414),
    (b"GET /" + b"a/" * 20000 + b" HTTP/1.1", 414),  # 40 kB
    (b"GET /" + b"a" * 70000 + b" HTTP/1.1", 414),  # past http.server's request line
    (b"GET /x%00y HTTP/1.1", 404),
    (b"GET /%ff%fe%c0 HTTP/1.1", 404),
    (b"GET //[x HTTP/1.1", 404),  # no address to urlsplit
    (b"GET /a\\..\\..\\secret.txt HTTP/1.1", 404),
    (b"GET /../secret.txt HTTP/1.1", 404),
    (b"GET /leak.txt HTTP/1.1", 404),  # a link out of the site
    (b"GET /out/secret.txt HTTP/1.1", 404),
    (b"HEAD /" + b"a" * 300 + b" HTTP/1.1", 404),
    (b"GARBAGE", 400),
    (b"\xff\xfe", 400),
    (b"\xff\xfe \x00 HTTP/1.1", 501),  # a method it does not know
    (b"GET / HTTP/9.9", 505),
], ids=lambda value: repr(value)[:48] if isinstance(value, bytes) else None)
def test_every_request_is_answered(answering: str, line: bytes, code: int,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Whatever the request line, a status line comes back, and the log stays quiet."""
    answer = raw_request(answering, line)
    assert status_line(answer) == ("HTTP/1.0", code)
    assert b"not for the browser" not in answer
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("host", [b"localhost:8000", b"127.0.0.1", b"[::1]:80",
                                  b"192.168.1.5:8000", b"app.localhost"])
def test_a_request_for_this_machine_is_served(answering: str, host: bytes) -> None:
    assert status_line(raw_request(answering, b"GET / HTTP/1.1", host))[1] == 200


@pytest.mark.parametrize("host", [b"evil.example", b"evil.example:8000", b"127.0.0.1.nip.io",
                                  b"localhost.evil.example", b"[::1", b""])
@pytest.mark.parametrize("line", [b"GET / HTTP/1.1", b"HEAD / HTTP/1.1",
                                  b"GET /__progress_site/events HTTP/1.1"])
def test_a_request_for_another_host_is_refused(answering: str, line: bytes,
                                               host: bytes) -> None:
    """DNS rebinding: a page of evil.example whose name is made to resolve to 127.0.0.1
    reads nothing of the preview, its event stream included."""
    answer = raw_request(answering, line, host)
    assert status_line(answer)[1] == 403
    assert b"index.html" not in answer


@pytest.mark.parametrize("held", [
    b"GET / HT",  # half a request line, never ended
    b"GET / HTTP/1.1\r\nHost: localhost\r\nX-a: 1\r\n",  # headers that never end
    b"GET /__progress_site/events HTTP/1.1\r\nHost: localhost\r\n\r\n",  # a tab's stream
], ids=["request line", "headers", "event stream"])
def test_clients_that_hold_a_connection_hold_no_other(answering: str, held: bytes) -> None:
    """Slowloris: each connection has a thread of its own, so twenty clients that never
    finish their request (or a tab's stream, which never ends) keep no page from another
    tab; and each page is served whole while they wait."""
    parts = urlsplit(answering)
    with contextlib.ExitStack() as stack:
        for _ in range(20):
            sock = stack.enter_context(socket.create_connection(
                (parts.hostname or "", parts.port or 0), timeout=TIMEOUT))
            sock.sendall(held)
        started = time.monotonic()
        answer = raw_request(answering, b"GET /fr/ HTTP/1.1")
        assert status_line(answer)[1] == 200 and b"<p>fr/index.html</p>" in answer
        assert time.monotonic() - started < TIMEOUT / 2


def test_too_many_headers_or_a_body_on_a_get_are_answered(answering: str) -> None:
    """A request of 101 headers is refused (431: http.server's limit, so a request costs
    at most 100 lines of 64 KiB); a body sent with a GET is not read, and the connection
    closes after the answer."""
    many = b"".join(b"X-%d: %s\r\n" % (i, b"y" * 1000) for i in range(101))
    assert status_line(raw_request(answering, b"GET / HTTP/1.1\r\n" + many[:-2]))[1] == 431
    answer = raw_request(answering, b"GET / HTTP/1.1\r\nContent-Length: 1000000000000")
    assert status_line(answer)[1] == 200


def test_a_folder_redirect_keeps_its_path_quoted(answering: str) -> None:
    answer = raw_request(answering, b'GET /fr?a=<b>"c HTTP/1.1')
    assert status_line(answer)[1] == 301
    assert b'\r\nLocation: /fr/?a=%3Cb%3E%22c\r\n' in answer


def next_event(stream: Any) -> str:
    """The name of the next server-sent event on a raw stream."""
    while line := stream.readline():
        if line.startswith(b"event: "):
            return line.removeprefix(b"event: ").strip().decode()
    pytest.fail("the event stream ended")


@pytest.mark.parametrize("since", ["{prefix}.%C2%B2", "{prefix}.%D9%A3", "{prefix}.",
                                   "{prefix}." + "9" * 40, "x" * 5000, "%ff%fe", "..",
                                   "{prefix}.1%0Aevent:%20x"], ids=lambda value: value[:24])
def test_an_odd_since_is_ignored_and_the_stream_lives(
        preview: tuple[str, LiveState], since: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A `since` the server never gave is as if absent: the tab hears of every build."""
    url, state = preview
    prefix = state.current().version.split(".")[0]
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname or "", parts.port or 0),
                                  timeout=TIMEOUT) as sock:
        query = since.format(prefix=prefix)
        sock.sendall(f"GET /__progress_site/events?since={query}&page=/ HTTP/1.1\r\n"
                     "Host: localhost\r\n\r\n".encode())
        stream = sock.makefile("rb")
        assert stream.readline() == b"HTTP/1.0 200 OK\r\n"
        assert next_event(stream) == "reload"  # absent: what the state is now
        state.announce("data/x.yaml:1:1: broken")
        assert next_event(stream) == "failed"
        state.announce(None)
        assert next_event(stream) == "reload"
    assert capsys.readouterr().err == ""
