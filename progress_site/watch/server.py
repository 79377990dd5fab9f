"""The preview server of watch mode: the built site over HTTP, plus live reload.

Pages are read from disk on every request, by path: the publish stage swaps the output
folder for a new one, so holding a handle on the old folder would serve stale pages. The
pages a build renders first (those open in a tab) are served from memory until its whole
site is swapped in (`LiveState.ahead`): the open page is new at once, and a build that
fails after it leaves nothing to undo on disk. HTML responses get a small script that
listens to server-sent events, and, while the last build failed, an overlay with its
errors (livereload.py); the files in the site are never changed.
"""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import socket
import socketserver
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import MappingProxyType
from typing import Any, cast
from urllib.parse import parse_qs, quote, urlsplit

from progress_site.errors import visible
from progress_site.watch.livereload import EVENTS_PATH, event_message, inject
from progress_site.watch.livestate import LiveState, is_version
from progress_site.watch.sitefiles import MAX_PATH, content_type, find, read_file, target

KEEP_ALIVE = 15.0  # seconds between SSE comments, which also find tabs that went away
URL_SAFE = "/%:@!$&'()*+,;=~?"  # what a redirect's Location keeps as it was sent
BIND_ERRORS = MappingProxyType({
    errno.EADDRINUSE: "the port is already in use (another server, or another --watch?); "
                      "stop it, or pick another port with --port (--port 0 picks a free one)",
    errno.EACCES: "permission denied (ports below 1024 need root); pick another port with "
                  "--port",
    errno.EADDRNOTAVAIL: "this machine has no such address; try --host 127.0.0.1",
})

PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>No site built yet</title></head>
<body><main><h1>No site built yet</h1>
<p>The site has not built once yet. Save a fix and this page reloads by itself.</p>
</main></body></html>
"""


class PreviewServer(ThreadingHTTPServer):
    """A threaded HTTP server that knows its site folder and can drop open connections;
    bound as it is made (port 0 picks a free one), OSError when that fails."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], root: Path, state: LiveState) -> None:
        self.root = root
        self.state = state
        self.host_name = address[0].lower()  # as given to --host, before it is resolved
        if ":" in address[0]:  # read by the socket's making, in super().__init__
            self.address_family = socket.AF_INET6
        self._open: set[socket.socket] = set()
        self._open_lock = threading.Lock()
        super().__init__(address, PreviewHandler)

    def server_bind(self) -> None:
        """Bind without HTTPServer's reverse DNS lookup, which can stall startup."""
        socketserver.TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name, self.server_port = str(host), int(port)

    def process_request(self, request: Any, client_address: Any) -> None:
        """Track the connection, so shutdown can close it."""
        with self._open_lock:
            self._open.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        """Forget the connection as it closes."""
        with self._open_lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def start(self) -> threading.Thread:
        """Serve in a thread of its own."""
        # Polling 10 times a second (not 2, the default) lets Ctrl-C end it at once.
        thread = threading.Thread(target=self.serve_forever, args=(0.1,),
                                  name="progress-site server", daemon=True)
        thread.start()
        return thread

    def stop(self, thread: threading.Thread) -> None:
        """End the event streams, the server loop and every connection; free the port."""
        self.state.close()
        self.shutdown()
        # Every open connection cut, so no handler thread stays blocked on a socket.
        with self._open_lock:
            sockets = list(self._open)
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        thread.join(timeout=5)
        self.server_close()  # joins the handler threads, now all on their way out

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A tab that goes away is normal; anything else is one line, not a traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError | TimeoutError):
            return
        print(f"preview server: {type(error).__name__}: {visible(str(error))}",
              file=sys.stderr, flush=True)


class PreviewHandler(BaseHTTPRequestHandler):
    """GET and HEAD of the site's files, and the live-reload event stream."""

    server_version = "progress-site"
    # A request line that is not HTTP is answered with a status line and headers (400),
    # not as HTTP/0.9, whose answer is a bare body that no client reads as an error.
    default_request_version = "HTTP/1.0"

    @property
    def preview(self) -> PreviewServer:
        """The server, with its site folder and build state."""
        return cast(PreviewServer, self.server)

    def do_GET(self) -> None:
        """Serve a file, or the event stream."""
        if not self.host_allowed():
            return
        if target(self.path)[0] == EVENTS_PATH:
            self.stream_events()
        else:
            self.serve_file(with_body=True)

    def do_HEAD(self) -> None:
        """Serve a file's headers."""
        if self.host_allowed():
            self.serve_file(with_body=False)

    def host_allowed(self) -> bool:
        """Whether the request names this server; else answer 403. A page of another
        site whose name is made to resolve to 127.0.0.1 (DNS rebinding) would otherwise
        read the preview, and the overlay's source lines, as its own origin."""
        host = self.headers.get("Host")
        if host is None or local_host(host, self.preview.host_name):
            return True
        self.send_error(403, "this preview answers only requests for localhost, an IP "
                             "address or the --host it serves on")
        return False

    def log_message(self, format: str, *args: Any) -> None:
        """Stay quiet: the terminal is for build results."""

    def serve_file(self, with_body: bool) -> None:
        """The file at the URL (HTML with the live script), a redirect, or a 404."""
        url_path, query = target(self.path)
        if len(url_path) > MAX_PATH:
            self.send_error(414, f"the path is longer than {MAX_PATH} characters")
            return
        path, folder = find(self.preview.root, url_path)
        if folder:
            self.send_response(301)
            self.send_header("Location", quote(url_path, safe=URL_SAFE) + "/"
                             + (f"?{quote(query, safe=URL_SAFE)}" if query else ""))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        # A page the build under way rendered first is served before the site is swapped in.
        body = None if path is None else self.preview.state.ahead(
            path.relative_to(self.preview.root).as_posix())
        body = body if body is not None else read_file(path)
        if body is not None and path is not None:
            self.send_body(200, path, body, with_body)
        else:
            self.send_missing(with_body)

    def send_missing(self, with_body: bool) -> None:
        """The site's 404 page, or a placeholder while no build has succeeded yet."""
        root = self.preview.root
        if not (root / "index.html").is_file():
            self.send_body(503, Path("placeholder.html"), PLACEHOLDER.encode(), with_body)
            return
        page = read_file(root / "404.html")
        if page is None:
            page = b"<!doctype html><title>Not found</title><h1>Not found</h1>\n"
        self.send_body(404, Path("404.html"), page, with_body)

    def send_body(self, code: int, path: Path, body: bytes, with_body: bool) -> None:
        """Send a response; HTML gets the live script and, when broken, the overlay."""
        if path.suffix in (".html", ".htm"):
            body = inject(body, self.preview.state.current(), any_page=code != 200)
        self.send_response(code)
        self.send_header("Content-Type", content_type(path))
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")  # a reload must see the new build
        self.end_headers()
        if with_body:
            self.wfile.write(body)

    def stream_events(self) -> None:
        """Tell the tab about every build, as server-sent events, until it or we go away."""
        query = parse_qs(target(self.path)[1])
        since = self.headers.get("Last-Event-ID") or query.get("since", [""])[0]
        since = since if is_version(since) else ""  # not one we gave: as if absent
        with self.preview.state.viewing(query.get("page", [""])[0]):
            self.send_events(since)

    def send_events(self, since: str) -> None:
        """The event stream's headers, then one event per build after `since`."""
        state = self.preview.state
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(b"retry: 500\n\n")  # reconnect soon after a restart
        self.wfile.flush()
        while (status := state.wait(since, KEEP_ALIVE)) is not None:
            if status.version == since:
                self.wfile.write(b": still here\n\n")
            else:
                # Every page changed since the last event sent, not only by the newest
                # build: two builds can come between two wake-ups of this thread.
                pages = state.pages_since(since)
                since = status.version
                self.wfile.write(event_message(status, pages))
            self.wfile.flush()


def local_host(header: str, served: str) -> bool:
    """Whether a Host header names this machine: localhost, an IP address (which no DNS
    answer can rebind) or the name the server was asked to serve on."""
    try:
        name = urlsplit(f"//{header}").hostname or ""
    except ValueError:
        return False
    with contextlib.suppress(ValueError):
        ipaddress.ip_address(name)
        return True
    return name in ("localhost", served) or name.endswith(".localhost")


def url_of(server: PreviewServer) -> str:
    """The address to open in a browser, with the real port."""
    host, port = server.server_address[:2]
    host = str(host)
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1" if server.address_family == socket.AF_INET else "::1"
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def explain_bind_error(host: str, port: int, error: OSError) -> str:
    """A clear sentence for a server that could not start."""
    if isinstance(error, socket.gaierror):
        why = f"unknown host {host!r}; try --host 127.0.0.1"
    else:
        why = BIND_ERRORS.get(error.errno or 0, error.strerror or str(error))
    return f"cannot serve on {host}:{port}: {why}"
