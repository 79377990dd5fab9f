"""The 'page not found' page of each language, linking to every built home page.

A host serves it at whatever address was asked for, so its links cannot be relative to
where it is: they start at the base URL when there is one. Its style is inlined, so it
is styled at any depth even without a base URL.
"""

from __future__ import annotations

import jinja2

from progress_site.errors import Problem
from progress_site.load.pages import Page, PageMeta
from progress_site.model.schema import Site
from progress_site.render.activeplaces import OwnFiles, active_problems
from progress_site.render.formatting import own_name
from progress_site.render.places import PagePlace, home_page, language_folder, public_url
from progress_site.render.sandbox import FAILURES, site_failure, template_problem
from progress_site.render.words import Words


def language_name(lang: str) -> str:
    """A language's name in that language, as a link to it reads: `Français`."""
    name = own_name(lang)
    return name[:1].upper() + name[1:]


def not_found_pages(languages: list[tuple[jinja2.Environment, Words]], own: OwnFiles,
                    site: Site, assets: dict[str, bytes], base_url: str | None,
                    pages: tuple[Page, ...], problems: list[Problem]) -> dict[str, bytes]:
    """The 404 page of each language, made by its pages' environment and words; they
    link to the home pages among `pages` (the site's pages, all built). No page at all
    when a site's own 404.html fails: told in `problems` once, not once a language.
    `own`: the site's own templates, where active content is told."""
    css = assets.get("assets/style.css", b"").decode("utf-8")
    try:
        made = [(env, not_found(env, words, site, css, base_url, pages))
                for env, words in languages]
    except FAILURES as exc:
        if not site_failure(exc, languages[0][0]):
            raise
        problems.append(template_problem(exc, languages[0][0]))
        return {}
    for env, (_, html) in made:
        if env.sandboxed:  # a site's own 404.html or style.css (the engine's: no script)
            active_problems(html.decode("utf-8"), own, "templates/404.html", "404.html",
                            problems)
    return dict(page for _, page in made)


def not_found(env: jinja2.Environment, words: Words, site: Site, css: str,
              base_url: str | None, pages: tuple[Page, ...]) -> tuple[str, bytes]:
    """The 404 page of one language, and where it is published; `env` is its pages'
    (`base_url` among its globals)."""
    default = site.languages[0]
    folder = language_folder(words.lang, default)
    # Without a base URL, links are relative to where the page is published.
    root = base_url or "../" * folder.count("/")
    here = PagePlace(f"{folder}404.html", root)

    def address(path: str) -> str:
        return public_url(path, base_url) if base_url else root + path

    # Each language's own home page, when it is built; for this page's language, the
    # site's home when its own is not.
    built = {PagePlace.of(p.language, p.slug, default).path for p in pages}
    own = home_page(pages, words.lang, default)
    homes = []
    for lang in site.languages:
        path = own if lang == words.lang else PagePlace.of(lang, "index", default).path
        if path in built and (lang == words.lang or path != own):
            homes.append((lang, address(path), language_name(lang)))
    page = Page(words.lang, "404", PageMeta(title=words.gettext("Page not found")), "", 1,
                "templates/404.html")
    # No hreflang alternates: a 404 page has no versions to index; it links to each home.
    html = env.get_template("404.html").render(
        page=page, body="", here=here, alternates=[], homes=homes, css=css, pages=[],
        place=lambda p: "")
    return here.path, html.encode("utf-8")
