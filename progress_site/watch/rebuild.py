"""Watch mode's builds: the pipeline run again after a save, open pages shown first, and
the outcome told to the terminal and to the open tabs (livestate.py).

A rebuild is `python build.py`'s own (`pipeline.build`), asked for an order made for a
reader looking at a page: the pages open in a browser are rendered right after derive,
served from memory (`LiveState.serve_ahead`) and announced, then the whole site is
rendered and swapped in as usual. Hugo's server does much the same ("fast render mode").
Why: the open page is new before the rest of the site is rendered (bench/watch_latency.py
times save -> page served). The charts a build misses are not drawn in it: each shows
its last drawing, dimmed, until the drawer (drawer.py) has drawn it and the next build
shows it; the first build too, whose pages are served before any chart is drawn. What a
plain build publishes, a watch session publishes too, file for file.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

from progress_site.charts.cache import LatestCharts
from progress_site.errors import BuildFailed, rendered, visible, visible_path
from progress_site.pipeline import BuildConfig, Built, build
from progress_site.publish.swap import PublishFailed
from progress_site.watch.livestate import LiveState, page_url

if TYPE_CHECKING:
    from progress_site.charts.spec import ChartSpec

# Published files that no page loads: a change to anything else (a stylesheet, an image)
# makes open tabs reload for real rather than swap in the new page (livereload.SCRIPT).
NOT_LOADED = (".html", ".xml", ".json", ".txt")


def say(text: str, error: bool = False) -> None:
    """Print lines now (stdout is often a pipe, and pipes buffer). Input in them is
    spelled out where it is put in; escaping each line again is the net under that."""
    shown = "\n".join(visible(line) for line in text.split("\n"))
    print(shown, file=sys.stderr if error else sys.stdout, flush=True)


class Builder:
    """Runs the pipeline and tells the server, and the terminal, how it went."""

    def __init__(self, config: BuildConfig, state: LiveState) -> None:
        self.config = config
        # The last drawing of each chart: what a chart shows while the drawer redraws it;
        # the one thing about charts a build is handed (`pipeline.build(last_drawings=)`).
        self.latest: LatestCharts = {}
        self.state = state
        self.last_files: dict[str, bytes] | None = None
        self.broken = False
        self.shown: dict[str, bytes] = {}  # the pages this build served ahead
        self.shown_after: float | None = None  # seconds from the start of the build

    def run(self, reason: str | None) -> tuple[ChartSpec, ...]:
        """Build after `reason` (None: the first build); a failure keeps the last good
        site. Returns the charts left to draw."""
        started = time.perf_counter()
        self.shown, self.shown_after = {}, None
        built = self.attempt(started)
        if built is None:
            return ()
        ms = (time.perf_counter() - started) * 1000
        for warning in rendered(built.warnings):  # a file's first hundred, as a build's
            say(warning, error=True)
        pages = sum(1 for name in built.files if name.endswith("index.html"))  # as cli.py
        changed = self.tell_pages(built)
        count = len(built.charts_to_draw)
        later = f"; drawing {count} {'changed ' * (reason is not None)}" \
                f"chart{'s' * (count != 1)}" if count else ""
        if reason is None:
            say(f"Built {pages} pages into {visible_path(str(self.config.out))} in "
                f"{ms:.0f} ms{later}.")
        else:
            outcome = "reloading open pages" if changed else "no page changed"
            first = "" if self.shown_after is None else \
                f" (the open ones first, in {self.shown_after * 1000:.0f} ms)"
            say(f"{reason}: built {pages} pages in {ms:.0f} ms{first}; {outcome}{later}.")
        return built.charts_to_draw

    def attempt(self, started: float) -> Built | None:
        """One build; None after reporting why it failed."""
        try:
            return build(self.config, self.open_pages(),
                         lambda pages: self.show(pages, started), self.latest)
        except BuildFailed as exc:
            text = exc.render()
        except PublishFailed as exc:
            text = exc.problem.render()
        except Exception as exc:  # a bug in the engine must not end the session
            text = (f"internal error: {type(exc).__name__}: {visible(str(exc))}\n"
                    "This is a bug in progress-site; run `python build.py --debug` and "
                    "report it.")
        finally:
            # Swapped in, the site on disk has them; failed, it keeps the last good ones.
            self.state.serve_ahead({})
        self.failed(text)
        return None

    def open_pages(self) -> frozenset[str]:
        """The published pages open in a tab now, to build first; none after a failed
        build (every tab must then hear of the outcome at once) or before the first."""
        if self.last_files is None or self.broken:
            return frozenset()
        return frozenset(name for name in self.state.viewed() if name in self.last_files)

    def show(self, pages: dict[str, bytes], started: float) -> None:
        """Serve the open pages that changed ahead of the rest, and tell their tabs."""
        assert self.last_files is not None
        changed = {name: html for name, html in pages.items()
                   if self.last_files.get(name) != html}
        if changed:
            self.state.serve_ahead(changed)
            self.shown, self.shown_after = changed, time.perf_counter() - started
            self.state.announce(None, pages=map(page_url, changed))

    def tell_pages(self, built: Built) -> bool:
        """Tell open tabs which pages changed (those shown early are told already),
        whether a file they load (a stylesheet, an image) changed, and clear a failed
        build's errors. True when any page or loaded file changed."""
        last = self.last_files
        changed = [name for name in built.files.keys() | (last or {}).keys()
                   if last is None or built.files.get(name) != last.get(name)]
        assets = last is None or any(not name.endswith(NOT_LOADED) for name in changed)
        pages = {page_url(name) for name in changed
                 if name.endswith(".html") and name not in self.shown}
        if assets or pages or self.broken:
            self.state.announce(None, assets, None if self.broken else pages)
        self.last_files, self.broken = built.files, False
        return assets or bool(pages) or bool(self.shown)

    def failed(self, text: str) -> None:
        """Report a failed build in the terminal and in every open page (the pages it
        served ahead are not served once it is over: `attempt`)."""
        self.broken = True
        self.state.announce(text)
        say(text, error=True)
        say("Still serving the last good site; the browser shows these errors until a "
            "save builds.", error=True)
