"""The site's public address (`--base-url`), parsed (urllib.parse) and checked once, where
the command line reads it; render/places.py makes each page's address from it.

Pure: no I/O, and every stage may read it (the model is the bottom stage).
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import quote, urlsplit


class BaseUrlError(ValueError):
    """A --base-url that is not an http(s) address of a folder."""


# A host name's labels (after IDNA for names in other scripts), or an IPv4 address.
_LABEL = r"[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?"
_HOST = re.compile(rf"{_LABEL}(?:\.{_LABEL})*\.?")
# What a URL's path may hold as it is (RFC 3986: unreserved, sub-delims, ':', '@', '/',
# and '%' of an escape already written); anything else, a space too, is percent-encoded.
_PATH_SAFE = "/:@!$&'()*+,;=-._~%"
_LONE_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")


def check_base_url(text: str) -> str:
    """The site's public address, parsed (urllib.parse) and checked: http or https, a
    valid host, no user, query or fragment, a path that ends in '/' (the folder every
    page's address starts with); written back with its path percent-encoded."""
    if not text.strip().isprintable():  # urlsplit would drop a tab or a line break
        raise BaseUrlError(f"the base URL holds a control character, got {text!r}")
    try:
        parts = urlsplit(text.strip())
    except ValueError as exc:  # a bracket left open: "Invalid IPv6 URL"
        raise BaseUrlError(f"{text!r} is not an address ({exc})") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.netloc:
        raise BaseUrlError(f"expected an http:// or https:// address, got {text!r}")
    if parts.query or parts.fragment or "?" in text or "#" in text:
        raise BaseUrlError(f"the base URL takes no ?query or #fragment, got {text!r}")
    if "@" in parts.netloc:
        raise BaseUrlError(f"the base URL takes no user name or password, got {text!r}")
    host = checked_host(parts.hostname or "", text)
    try:
        port = parts.port
    except ValueError:
        raise BaseUrlError(f"the port is not a number from 0 to 65535, got {text!r}") from None
    path = parts.path or "/"
    if not path.endswith("/"):
        raise BaseUrlError(f"the base URL is the address of a folder, ending in '/': "
                           f"write {text.strip() + '/'!r}, not {text!r}")
    path = _LONE_PERCENT.sub("%25", quote(path, safe=_PATH_SAFE))
    return f"{scheme}://{host}{'' if port is None else f':{port}'}{path}"


def checked_host(host: str, text: str) -> str:
    """A URL's host as an address carries it: IPv6 in brackets, other scripts in IDNA."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        return f"[{address.compressed}]" if address.version == 6 else address.compressed
    try:
        ascii_host = host.encode("idna").decode("ascii")
    except UnicodeError:
        ascii_host = ""
    if not _HOST.fullmatch(ascii_host):
        raise BaseUrlError(f"{host!r} is not a host name, in {text!r}")
    return ascii_host
