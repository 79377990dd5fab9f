"""Active content: what a page may not hold, whatever template wrote it.

A site's own templates (and blocks) come with its source and may write markup, which is
what a template is for; but nothing a browser runs, loads into the page or sends away:
no script, no event handler, no `javascript:` address, no frame, plugin, form, `<base>`
or refresh. Each rendered page of such a site is read once with `html.parser`, so what a
template computes (`{{ "<scr" ~ "ipt>"|safe }}`) is seen as the browser will see it.

Where `html.parser` and a browser could read a text apart, the text is read both ways:
a comment, a `<![CDATA[`, a processing instruction and the contents of `<style>`,
`<title>` and `<textarea>` are checked again as markup (a browser ends a comment at
`--!>`, and inside `<svg>` a `<style>` holds elements), and a `<` that `html.parser`
leaves as text where a browser might start a tag is refused. The elements whose text a
browser reads otherwise than `html.parser` does (`<noscript>`, `<xmp>`, `<noembed>`,
`<noframes>`, `<plaintext>`) are refused: a page with no script needs none of them.
"""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser
from types import MappingProxyType

from progress_site.model.links import normalised

# Elements that run script, show another document or plugin inside the page, send what
# a reader types, or change where every address of the page leads.
ELEMENTS = frozenset({
    "script", "iframe", "frame", "frameset", "object", "embed", "applet", "portal",
    "fencedframe", "base", "form", "noscript", "xmp", "noembed", "noframes", "plaintext",
})
# Attributes a browser follows as an address: to navigate (href, action), to load
# (src, data, poster...), or to animate into one (SVG's <set to=...>).
ADDRESSES = frozenset({
    "href", "xlink:href", "src", "action", "formaction", "data", "codebase", "poster",
    "background", "ping", "to", "from", "values", "by", "dynsrc", "lowsrc",
})
# Schemes that run script in the page or open a document of the template's making.
SCHEMES = ("javascript:", "vbscript:", "data:")
# Where a `data:` address is only ever an image: the tab's icon, an <img>.
IMAGES = frozenset({("link", "href"), ("img", "src")})
# What html.parser hands as text but a browser may read as markup (`<x`, `</x`, `<!`).
TAG_IN_TEXT = re.compile(r"<[a-zA-Z/!?]")
# Read again as markup: the contents of these elements, which a browser reads as text in
# HTML and as elements inside <svg> or <math> (a `/>` closes none of them in HTML).
REREAD = frozenset({"style", "title", "textarea"})
# An animation's values, a list a browser may set one by one.
LISTS = frozenset({"values"})
# A text read again inside a text read again...: past this, it cannot be checked.
MAX_DEPTH = 8
# The first findings of a page: a template that writes one writes it on every page.
MAX_FOUND = 10


# One thing a page may not hold: what it is, the markup as the page holds it, and a
# pattern that finds where a template wrote it.
Found = tuple[str, str, str]


class ActiveContent(HTMLParser):
    """A page's markup, read as `html.parser` does, collecting what it may not hold."""

    def __init__(self, depth: int = 0) -> None:
        super().__init__(convert_charrefs=False)
        self.depth = depth
        self.found: list[Found] = []
        self.held: list[str] | None = None  # the text of an element read again

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        written = self.get_starttag_text() or f"<{tag}>"
        if tag in ELEMENTS:
            self.found.append((f"a <{tag}> element", written, rf"<{re.escape(tag)}\b"))
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append((f"an event handler ({name}=)", written,
                                   rf"(?<=[\s/\"']){re.escape(name)}\s*="))
            elif value is not None and name in ADDRESSES:
                scheme = unsafe(tag, name, value)
                if scheme:
                    self.found.append((f"a {scheme} address in {name}=", written,
                                       re.escape(scheme)))
        if tag == "meta" and any(n == "http-equiv" and (v or "").strip().lower() == "refresh"
                                 for n, v in attrs):
            self.found.append(("a <meta http-equiv=refresh>", written,
                               r"http-equiv\s*=\s*[\"']?\s*refresh"))
        if tag in REREAD:
            self.held = []
            self.set_cdata_mode(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.held is not None:
            self.again("".join(self.held))
            self.held = None

    def close(self) -> None:
        super().close()
        # What an element never closed holds (html.parser keeps it unread), read again.
        left = "".join(self.held or ()) + self.rawdata
        self.held, self.rawdata = None, ""
        self.again(left)

    def handle_data(self, data: str) -> None:
        if self.held is not None:
            self.held.append(data)
        elif "<" in data and TAG_IN_TEXT.search(data):
            self.unread("markup that cannot be checked", data)

    def handle_comment(self, data: str) -> None:
        self.again(data)

    def handle_decl(self, decl: str) -> None:
        self.again(decl)

    def handle_pi(self, data: str) -> None:
        self.again(data)

    def unknown_decl(self, data: str) -> None:
        self.again(data)

    def again(self, text: str) -> None:
        """A text read once more as markup, as a browser might read it."""
        if "<" not in text:
            return
        if self.depth >= MAX_DEPTH:
            self.unread("markup nested too deep to check", text)
            return
        self.found += active_content(text, self.depth + 1)


    def unread(self, what: str, text: str) -> None:
        """A text that `html.parser` reads otherwise than a browser might: refused too."""
        at = TAG_IN_TEXT.search(text)
        start = at.start() if at else 0
        self.found.append((what, shortened(text[start:]), re.escape(text[start:start + 40])))


def unsafe(tag: str, name: str, value: str) -> str:
    """The scheme of an address that runs script or opens a document made by the page's
    author (`javascript:`), else ''."""
    for part in value.split(";") if name in LISTS else (value,):
        address = normalised(part).lower()
        scheme = next((s for s in SCHEMES if address.startswith(s)), "")
        if scheme and (scheme != "data:" or (tag, name) not in IMAGES):
            return scheme
    return ""


def shortened(text: str) -> str:
    """A piece of markup as an error quotes it."""
    text = text.strip()
    return text if len(text) <= 80 else text[:79] + "…"


# What a page holding active content must hold, however it is read (in a comment, a
# <style>, an attribute, by html.parser or a browser): a refused element's tag, an
# attribute named on... given a value, or an address attribute (or http-equiv) given a
# value a browser may read as one of SCHEMES (or "refresh"): its first character, past
# blanks and controls, is one of theirs or starts an entity. An attribute's name follows
# a blank, `/` or a quote. Each pattern is searched in the page's bytes with ASCII
# letters lowered (a name's case matters to no browser), looking at no context, so a
# page none of them finds is inert and html.parser need not read it: it takes seconds
# over the pages of 10,000 figures, these a few hundredths.
_TAGS = re.compile(rb"<(?:" + "|".join(sorted(ELEMENTS)).encode() + rb")[\s/>]")
_HANDLER = re.compile(rb"on[^\s/>=]*\s*=")
_SUSPECT = re.compile(rb"""=\s*["']?[\x00-\x20]*[&jvdr]""")
_VALUE = re.compile(rb"""\s*("[^"]*"|'[^']*'|[^\s>]*)""")
# Those names by their last letter: most `=` follow another name (`class=`).
_ADDRESS_NAMES = tuple(sorted(n.encode() for n in ADDRESSES | {"http-equiv"}))
_NAMES = MappingProxyType({name[-1]: tuple(n for n in _ADDRESS_NAMES if n[-1] == name[-1])
                           for name in _ADDRESS_NAMES})
# Where a list of addresses may hide one past its first (`values="https://x;javascript:"`).
_LISTS = re.compile(rb"values\s*=")
_BEFORE_NAME = frozenset(b" \t\n\r\f\v/\"'")
# A value a browser reads as written: no entity, escape, blank or control to decode.
_PLAIN = re.compile(r"[^\x00-\x20\x7f-\x9f&%\\]*")


def surely_inert(html: str) -> bool:
    """Whether a page certainly holds nothing active_content would find (False: it may,
    and active_content is to read it)."""
    raw = html.encode("utf-8", "surrogatepass")
    low = raw.lower()  # ASCII letters only: offsets stay those of `raw`
    if _TAGS.search(low):
        return False
    if any(m.start() and low[m.start() - 1] in _BEFORE_NAME for m in _HANDLER.finditer(low)):
        return False
    for name, at in valued(low):
        value = _VALUE.match(raw, at)
        if value and suspect(name, value.group(1).decode("utf-8", "surrogatepass")):
            return False
    return True


def valued(low: bytes) -> list[tuple[str, int]]:
    """The address attributes (and http-equiv) whose value may be refused, each with
    where its value starts (past its `=`)."""
    found = [(named(low, m.start()), m.start() + 1) for m in _SUSPECT.finditer(low)]
    found += [("values", m.end()) for m in _LISTS.finditer(low)
              if m.start() and low[m.start() - 1] in _BEFORE_NAME]
    return [(name, at) for name, at in found if name]


def named(low: bytes, at: int) -> str:
    """The address attribute (or http-equiv) whose `=` is at `at`, else ''."""
    end = at
    while end and low[end - 1] in b" \t\n\r\f\v":  # blanks between a name and its `=`
        end -= 1
    for name in _NAMES.get(low[end - 1], ()) if end else ():
        start = end - len(name)
        if start > 0 and low.startswith(name, start) and low[start - 1] in _BEFORE_NAME:
            return name.decode()
    return ""


def suspect(name: str, value: str) -> bool:
    """Whether an attribute's value, as written, may be an address active_content refuses
    (or a refresh)."""
    if value[:1] in ("'", '"'):
        value = value[1:-1]
    if name == "http-equiv":
        return "refresh" in unescape(value).lower()
    if _PLAIN.fullmatch(value):
        return any(part.lower().startswith(SCHEMES) and part != "data:,"
                   for part in value.split(";"))
    return bool(unsafe("", "values", unescape(value)))


def active_content(html: str, depth: int = 0) -> list[Found]:
    """What a piece of HTML may not hold, in page order; at most MAX_FOUND of them."""
    reader = ActiveContent(depth)
    reader.feed(html)
    reader.close()
    return reader.found[:MAX_FOUND]
