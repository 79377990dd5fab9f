"""Live reload, as a served page carries it: the script that follows the build's events
and swaps a page in place, the overlay that shows a failed build's errors, and the
server-sent events they read. The files of the site are never changed: the server adds
these to each HTML page as it sends it (server.py).
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re

from progress_site.watch.livestate import Status

EVENTS_PATH = "/__progress_site/events"
OVERLAY_ID = "progress-site-error"

# The whole client side. `since` is the build state the page was served in: the server
# sends at once whatever happened between that and the connection (no missed reload).
# A good build does not reload the tab: the script fetches the page again and swaps its
# body and head in place, which keeps the scroll position, skips loading the stylesheet
# again, and shows the new numbers sooner (bench/watch_latency.py times save -> refreshed
# page in Chromium). It reloads for real when what the swap cannot
# carry changed: the site's other files (`assets`, counted by the server), the page's
# stylesheets, or a page with scripts of its own (a swapped-in script does not run).
SCRIPT = r"""<script data-progress-site-live>
(() => {
  let assets = "%(assets)s", latest = 0;
  const anyPage = %(any_page)s;  // a "not found" page: any new page may be this one
  const here = location.pathname.replace(/index\.html$/, "");
  const events = new EventSource("%(events)s?since=%(since)s&page=" + encodeURIComponent(here));
  const styling = (el) => el.matches("link[rel~=stylesheet], style");
  const styles = (doc) => [...doc.head.children].filter(styling).map((el) => el.outerHTML);
  const live = "script[data-progress-site-live]";
  const scripted = (doc) => [...doc.scripts].some((el) => !el.matches(live));
  async function refresh(event) {
    const news = JSON.parse(event.data);
    const mine = anyPage || !news.pages || news.pages.includes(here);
    if (news.assets === assets && !mine && !document.getElementById("%(overlay)s")) return;
    const count = ++latest;
    try {
      if (news.assets !== assets || scripted(document)) throw new Error("reload");
      const response = await fetch(location.href, {cache: "no-store"});
      const type = response.headers.get("Content-Type") || "";
      if (!type.startsWith("text/html")) throw new Error("reload");
      const next = new DOMParser().parseFromString(await response.text(), "text/html");
      if (count !== latest) return;  // a newer build's page is on its way
      if (scripted(next) || styles(next).join() !== styles(document).join()) {
        throw new Error("reload");
      }
      for (const el of [...document.head.children]) if (!styling(el)) el.remove();
      document.head.append(...[...next.head.children].filter((el) => !styling(el)));
      for (const {name, value} of next.documentElement.attributes) {
        document.documentElement.setAttribute(name, value);
      }
      next.querySelectorAll(live).forEach((el) => el.remove());
      document.body.replaceWith(document.adoptNode(next.body));
      dispatchEvent(new Event("progress-site:reloaded"));
    } catch {
      location.reload();
    }
  }
  events.addEventListener("reload", refresh);
  events.addEventListener("failed", (event) => {
    document.getElementById("%(overlay)s")?.remove();
    document.body.insertAdjacentHTML("beforeend", JSON.parse(event.data));
  });
})();
</script>
"""

# The script's text as the page's policy hashes it: between its tags, exactly.
SCRIPT_TEXT = re.compile(r"<script data-progress-site-live>(.*?)</script>", re.DOTALL)

OVERLAY = """<div id="%(id)s" role="alert" style="position:fixed;inset:0 0 auto 0;\
z-index:2147483647;max-height:70vh;overflow:auto;margin:0;padding:1rem 1.5rem;\
background:#3b0a0a;color:#fff;font:15px/1.45 system-ui,sans-serif;\
box-shadow:0 4px 16px rgba(0,0,0,.5)">
<p style="margin:0 0 .5rem;font-weight:bold">The last save did not build. \
This is the last good page; save a fix and it reloads by itself.</p>
<pre style="margin:0;padding:0;border:0;white-space:pre-wrap;color:#fff;background:transparent;\
font:13px/1.45 ui-monospace,monospace">\
%(text)s</pre>
</div>
"""


def overlay(error: str) -> str:
    """The error panel laid over the page, with the text escaped."""
    return OVERLAY % {"id": OVERLAY_ID, "text": html.escape(error)}


# A page's Content-Security-Policy, as base.html writes it (a site's own template may
# write one too): the page forbids every script, so the preview allows its own by hash.
POLICY_META = re.compile(
    r"""<meta\b[^>]*?\bhttp-equiv\s*=\s*["']?content-security-policy\b[^>]*>""", re.IGNORECASE)
POLICY_CONTENT = re.compile(r"""(\bcontent\s*=\s*)(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)


def allowing(policy: str, script: str) -> str:
    """A policy that also runs the live-reload script (its SHA-256) and lets it ask the
    server for events and pages ('self'); everything else as the page asked."""
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
    added = {"script-src": f"'sha256-{digest}'", "connect-src": "'self'"}
    directives = [d.split() for d in policy.split(";") if d.strip()]
    named = {d[0].lower(): d[1:] for d in directives}
    fallback = named.get("default-src")
    for name in added:
        if name not in named and fallback is not None:
            directives.append([name, *fallback])
    for directive in directives:
        if directive[0].lower() in added:
            kept = [s for s in directive[1:] if s.lower() != "'none'"]
            source = added[directive[0].lower()]
            directive[1:] = kept if source in kept else [*kept, source]
    return "; ".join(" ".join(d) for d in directives)


def with_live_policy(text: str, script: str) -> str:
    """The page with each Content-Security-Policy of its own allowing the live script."""
    def meta(match: re.Match[str]) -> str:
        return POLICY_CONTENT.sub(lambda c: '{}"{}"'.format(c.group(1), html.escape(
            allowing(html.unescape(c.group(2) or c.group(3) or ""), script), quote=False)
            .replace('"', "&quot;")), match.group(0))
    return POLICY_META.sub(meta, text)


def inject(page: bytes, status: Status, any_page: bool = False) -> bytes:
    """The page with the live-reload script, and the overlay while the build is broken;
    `any_page` for a page served in place of a missing one, which refreshes after every
    build (the missing page may be there now)."""
    extra = SCRIPT % {"events": EVENTS_PATH, "since": status.version, "overlay": OVERLAY_ID,
                      "assets": status.assets, "any_page": "true" if any_page else "false"}
    if status.error is not None:
        extra = overlay(status.error) + extra
    text = page.decode("utf-8", errors="replace")
    inner = SCRIPT_TEXT.search(extra)
    text = with_live_policy(text, inner.group(1) if inner else "")
    at = text.lower().rfind("</body>")
    at = len(text) if at < 0 else at
    return (text[:at] + extra + text[at:]).encode("utf-8")


def event_message(status: Status, pages: list[str] | None) -> bytes:
    """One server-sent event: `reload` after a good build (with the address paths of the
    pages changed since the tab's last event, None for any), `failed` with the overlay."""
    if status.error is None:
        data = json.dumps({"assets": status.assets, "pages": pages})
        return f"id: {status.version}\nevent: reload\ndata: {data}\n\n".encode()
    data = json.dumps(overlay(status.error))  # one line: JSON escapes the newlines
    return f"id: {status.version}\nevent: failed\ndata: {data}\n\n".encode()
