"""Bytes of each published page with everything it loads, raw and gzipped, beside the
target: at most 25 KB gzipped in at most 2 requests, charts and CSS included (the page
and its stylesheet: charts are inline SVG).

    python bench/page_weight.py [SITE_DIR]
"""

from __future__ import annotations

import gzip
import re
import sys
from pathlib import Path

from common import REPO, table

TARGET_REQUESTS, TARGET_KB = 2, 25
LOADED = re.compile(r'<(?:link rel="stylesheet"|img|script)[^>]*(?:href|src)="([^"]+)"')


def weigh(site: Path) -> list[tuple[str, ...]]:
    """One row per page: requests, raw and gzipped bytes of the page and what it loads."""
    rows = [("page", "requests", "target requests", "raw (KB)", "gzip (KB)",
             "target gzip (KB)")]
    for page in sorted(site.rglob("index.html")):
        html = page.read_bytes()
        loaded = [(page.parent / ref).resolve() for ref in LOADED.findall(html.decode())]
        parts = [html] + [p.read_bytes() for p in loaded]
        raw = sum(len(p) for p in parts)
        packed = sum(len(gzip.compress(p, 9, mtime=0)) for p in parts)
        rows.append((page.relative_to(site).as_posix(), str(len(parts)),
                     f"<= {TARGET_REQUESTS}", f"{raw / 1024:.1f}", f"{packed / 1024:.1f}",
                     f"<= {TARGET_KB}"))
    return rows


if __name__ == "__main__":
    print(table(weigh(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "site")))
    print(f"\ntarget: each page at most {TARGET_KB} KB gzipped with what it loads, in at most "
          f"{TARGET_REQUESTS} requests")
