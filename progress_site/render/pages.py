"""Render stage: every page in every language, returned in memory as {path: bytes}.

Each language's environment (its words, filters, `lookup`) is made in environment.py;
here, each page's Markdown and blocks are rendered into its template, their problems
located in the page."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import jinja2
from markupsafe import Markup

from progress_site.charts.cache import ChartCache
from progress_site.derive.namespace import REFERENCE
from progress_site.derive.site import Model
from progress_site.errors import Location, Problem, closest, did_you_mean
from progress_site.load.pages import Page
from progress_site.render.activeplaces import OwnFiles, active_problems
from progress_site.render.assets import assets
from progress_site.render.blocklines import Block
from progress_site.render.blocks.legend import used_in
from progress_site.render.blocks.options import OWN_OPTIONS, BlockError
from progress_site.render.environment import block_helpers, make_environment
from progress_site.render.footnotes import footnote_problems
from progress_site.render.headingids import heading_id_problems
from progress_site.render.i18n import Catalogs
from progress_site.render.ids import Piece, duplicate_ids, element_ids
from progress_site.render.inputs import unlinked
from progress_site.render.located import broken, located, prose_references
from progress_site.render.markdown import markdown_html, page_tokens, prose_chunks, refused_links
from progress_site.render.notfound import not_found_pages
from progress_site.render.places import PagePlace
from progress_site.render.sandbox import FAILURES, SourceLoader, site_failure, template_problem
from progress_site.render.sitelinks import SiteFiles, published
from progress_site.render.templates import CompiledTemplates
from progress_site.render.words import Words


@dataclasses.dataclass(frozen=True, slots=True)
class SiteListing:
    """The pages each page names, found once for the site rather than by each page's
    own pass over all of them (a time that grows with the square of the pages)."""

    versions: dict[str, list[Page]]  # by name: the page in each language, in site order
    navigation: dict[str, list[Page]]  # by language: the pages of its navigation

    @classmethod
    def of(cls, pages: tuple[Page, ...]) -> SiteListing:
        """The listing of a site's pages."""
        versions: dict[str, list[Page]] = {}
        navigation: dict[str, list[Page]] = {}
        for p in pages:
            versions.setdefault(p.slug, []).append(p)
            # A series' page (`benchmarks/ID`) is reached from the dashboard, not from
            # every page's navigation.
            if "/" not in p.slug:
                navigation.setdefault(p.language, []).append(p)
        return cls(versions, navigation)


class PageRenderer:
    """Renders the pages of one language."""

    def __init__(self, env: jinja2.Environment, words: Words, model: Model,
                 places: dict[tuple[str, str], PagePlace], files: SiteFiles,
                 own: OwnFiles) -> None:
        self.env = env
        self.words = words
        self.model = model
        self.places = places
        self.files = files  # what the build publishes, which the prose's links lead to
        self.own = own  # the site's own templates, where active content is told
        # Each unknown block's hint, made once: it lists the template folders, and a page
        # of 50,000 lines naming no block took minutes.
        self.hints: dict[str, str] = {}
        self.blocks: list[str] | None = None

    def body(self, page: Page, problems: list[Problem]) -> list[Piece]:
        """The page's Markdown chunks and blocks, each with its HTML, in order."""
        html: list[Piece] = []
        legends: list[tuple[int, Block]] = []  # last: a legend lists the statuses shown
        level = 1  # the heading the next block stands under: the page's title at first
        for start, part in prose_chunks(page):
            if isinstance(part, Block) and part.name == "legend":
                legends.append((len(html), part))
                html.append((part, ""))
            elif isinstance(part, Block):
                html.append((part, self.block(part, page, problems, section=level)))
            else:
                html.append((part, self.prose(part, page, problems, start)))
                level = next((int(t.tag[1]) for t in reversed(page_tokens(part, page))
                              if t.type == "heading_open"), level)
        used = used_in(piece for _, piece in html)
        for at, legend in legends:
            html[at] = (legend, self.block(legend, page, problems, used))
        return html

    def prose(self, text: str, page: Page, problems: list[Problem], start: int = 0) -> str:
        """A Markdown chunk with its `{{ references }}` printed; `start` is its offset.
        Each reference and link is checked here, where its place in the page is known,
        and printed by the Markdown renderer, in its context (references.Renderer)."""
        problems += prose_references(text, page, self.model, start)
        for at, url, why in refused_links(text, page):
            problems.append(located(page, start + at, f"link to '{url}': {why}",
                                         "use an http(s) address or a page of this site"))
        here = self.places[(page.language, page.slug)].path
        for at, message, hint in self.files.missing(here, text, page):
            problems.append(located(page, start + at, message, hint,
                                    warning=not self.files.strict))
        problems += footnote_problems(text, page, start, self.files.strict)
        problems += heading_id_problems(text, page, start, self.files.strict)
        return markdown_html(text, self.words.printed, self.table_label, self.words.lang,
                             page)

    def table_label(self, columns: str) -> str:
        """The name of a prose table's region, from its columns' headings."""
        return self.words._("Table: %(columns)s", columns=columns)

    def block(self, block: Block, page: Page, problems: list[Problem],
              used: frozenset[str] = frozenset(), section: int = 1) -> str:
        """One `{{< name ... >}}` line, rendered by templates/blocks/NAME.html; `used`:
        the statuses of the page's badges, for a legend; `section`: the level of the
        heading it stands under (1, the page's title), for a block that heads its parts."""
        where = Location(page.display, block.line, 1)
        try:
            template = self.env.get_template(f"blocks/{block.name}.html")
        except jinja2.TemplateNotFound:
            problems.append(Problem(where, f"unknown block '{block.name}'",
                                    hint=self.block_hint(block.name)))
            return ""
        except FAILURES as exc:
            self.failed(exc, problems)
            return ""
        problems += self.unknown_options(block, where) + self.option_references(block, where)
        try:
            return template.render(args=block.args, options=dict(block.options),
                                   page=page, here=self.places[(page.language, page.slug)],
                                   used=used, section=section)
        except BlockError as exc:
            # Told already: what it names (or a dataset it reads) failed as the data loaded.
            if not exc.told and not set(map(str, block.args)) & self.model.namespace.told:
                problems.append(Problem(where, str(exc), hint=exc.hint or "check the name "
                                                                          "after the block's name"))
            return ""
        except jinja2.UndefinedError:
            # Blocks read their arguments as args[0], args[1]...: a missing one ends here.
            problems.append(Problem(where, f"block '{block.name}' is missing an argument",
                                    hint="see its arguments in the table of blocks in "
                                         "docs/data-format.md"))
            return ""
        except FAILURES as exc:
            self.failed(exc, problems)
            return ""

    def failed(self, exc: BaseException, problems: list[Problem]) -> bytes:
        """No page: its template failed, told once however many pages use it (a Python
        error of the engine's own templates is a bug: raised again)."""
        if not site_failure(exc, self.env):
            raise exc
        problem = template_problem(exc, self.env)
        if problem not in problems:
            problems.append(problem)
        return b""

    def block_hint(self, name: str) -> str:
        """A "did you mean" for a block no template renders (`runs` for `run`), else
        where to write it."""
        if self.blocks is None:  # the blocks there are, listed once
            self.blocks = [
                n.removeprefix("blocks/").removesuffix(".html")
                for n in self.env.list_templates(filter_func=lambda n: n.startswith("blocks/"))]
        if name not in self.hints:
            close = closest(name, self.blocks)
            self.hints[name] = f"did you mean '{close}'?" if close else (
                f"write templates/blocks/{name}.html, or use one of the blocks listed in "
                "docs/data-format.md")
        return self.hints[name]

    @staticmethod
    def unknown_options(block: Block, where: Location) -> list[Problem]:
        """The options an engine block that reads its own (OWN_OPTIONS) does not know:
        a slip there would be ignored without a word."""
        known = OWN_OPTIONS.get(block.name)
        if known is None:
            return []
        return [Problem(where, f"{block.name}: unknown option '{name}'",
                        hint=did_you_mean(name, known, "known options") if known else
                        f"{block.name} takes no options")
                for name, _ in block.options if name not in known]

    def option_references(self, block: Block, where: Location) -> list[Problem]:
        """The references of a block's options that cannot be printed (a caption's)."""
        return [Problem(where, f"{block.name}: in {name}=, {why.message}", hint=why.hint)
                for name, value in block.options for match in REFERENCE.finditer(value)
                if (why := broken(match.group(1), self.model)) is not None]

    def page(self, page: Page, listed: SiteListing, problems: list[Problem]) -> bytes:
        """A whole HTML page: the body inside the page's template."""
        here = self.places[(page.language, page.slug)]
        alternates = [(p.language, here.href(self.places[(p.language, p.slug)]))
                      for p in listed.versions[page.slug]]
        pieces = self.body(page, problems)
        traced = [(part, element_ids(html)) for part, html in pieces]
        texts = [html for _, html in pieces]
        del pieces
        template = self.template_of(page, problems)
        if template is None:
            return b""
        joined = "\n".join(texts)
        del texts  # a large page's pieces are gone before its template makes it whole
        body = Markup(joined)
        del joined
        try:
            html = template.render(
                page=page, body=body, here=here, alternates=alternates,
                pages=list(listed.navigation.get(page.language, ())),
                place=lambda p: here.href(self.places[(p.language, p.slug)]))
        except FAILURES as exc:
            return self.failed(exc, problems)
        at = html.find(body)  # its ids are known: the template's are read alone
        place = (at, at + len(body)) if at >= 0 else None
        del body  # the page holds it now: not kept beside the page's bytes
        problems += duplicate_ids(page, traced, html, self.model, place)
        if self.env.sandboxed:  # a site's own templates wrote it (the engine's write none)
            active_problems(html, self.own, page.display, page.meta.template, problems)
        return unlinked(html).encode("utf-8")

    def template_of(self, page: Page, problems: list[Problem]) -> jinja2.Template | None:
        """The template a page names, or None with the problem that it cannot be."""
        # A page names its template in its front matter, which nobody trusts: only the
        # templates made to show a page (`page.html`, `page-NAME.html`), never the 404
        # page, a block or a part of a template, which read other names and fail half-way.
        name = page.meta.template
        if not re.fullmatch(r"page(-[a-z0-9_-]+)?\.html", name):
            problems.append(Problem(page.where("template"), f"'{name}' is not a page's "
                                    "template", hint="remove `template:` to use page.html, "
                                    "or name a template of yours made for pages: "
                                    "templates/page-NAME.html"))
            return None
        try:
            return self.env.get_template(name)
        except jinja2.TemplateNotFound:
            problems.append(Problem(page.where("template"), f"no template '{name}' for this "
                                    "page", hint="remove `template:` to use page.html, or add "
                                                 f"templates/{name}"))
        except FAILURES as exc:
            self.failed(exc, problems)
        return None


def render(model: Model, pages: tuple[Page, ...], catalogs: Catalogs, folders: list[Path],
           charts: ChartCache, base_url: str | None = None,
           these: tuple[Page, ...] | None = None, compiled: CompiledTemplates | None = None,
           strict: bool = False) -> tuple[dict[str, bytes], list[Problem]]:
    """The pages `these` (every page of `pages`, the site's, if None) as {published
    path: bytes}: a build renders its pages in the parts and the order it needs (the
    pages open in a browser first), each once; `whole_site_files` makes the rest. A link
    of the prose to no file the site publishes is a warning, an error if `strict`."""
    # Each language has its own environment (its own words), which share the compiled
    # templates (`compiled`, else this build's own), and the chart cache.
    loader = SourceLoader(folders)
    compiled = compiled if compiled is not None else CompiledTemplates()
    site = model.data.site
    places = page_places(pages, site.languages)
    files = SiteFiles(published(pages, site.languages, folders), strict)
    out: dict[str, bytes] = {}
    problems: list[Problem] = []
    listed = SiteListing.of(pages)
    own = OwnFiles(folders)  # shared by the languages: read once, if a page needs them
    these = pages if these is None else these
    for lang in site.languages:
        mine = [p for p in these if p.language == lang]
        if not mine:
            continue
        env, words = language(lang, model, catalogs, loader, compiled, charts, base_url)
        renderer = PageRenderer(env, words, model, places, files, own)
        for page in mine:
            out[places[(lang, page.slug)].path] = renderer.page(page, listed, problems)
    return out, problems


def page_places(pages: tuple[Page, ...], languages: tuple[str, ...]
                ) -> dict[tuple[str, str], PagePlace]:
    """Where each page is published, by (language, slug)."""
    return {(p.language, p.slug): PagePlace.of(p.language, p.slug, languages[0])
            for p in pages}


def language(lang: str, model: Model, catalogs: Catalogs, loader: jinja2.BaseLoader,
             compiled: CompiledTemplates, charts: ChartCache, base_url: str | None
             ) -> tuple[jinja2.Environment, Words]:
    """One language's environment and words, its blocks' helpers among its globals."""
    translations = catalogs.translations[lang]
    words = Words(lang, translations, model.data.site, model.namespace)
    env = make_environment(loader, compiled, translations, words, model)
    env.globals.update(block_helpers(words, model, charts), base_url=base_url or "")
    return env, words


def whole_site_files(model: Model, pages: tuple[Page, ...], catalogs: Catalogs,
                     folders: list[Path], charts: ChartCache, languages: tuple[str, ...],
                     base_url: str | None, compiled: CompiledTemplates,
                     problems: list[Problem]) -> dict[str, bytes]:
    """What a whole build renders besides the pages (`pages`, the site's): the 404 pages
    of `languages`, the assets and `.nojekyll`; a problem of them in `problems`."""
    static = assets(folders, problems)
    out: dict[str, bytes] = {}
    # The 404 pages after all the others and only without errors: a broken 404 template
    # never hides a page's error.
    if all(p.warning for p in problems):
        loader = SourceLoader(folders)
        envs = [language(lang, model, catalogs, loader, compiled, charts, base_url)
                for lang in languages]
        out |= not_found_pages(envs, OwnFiles(folders), model.data.site, static, base_url,
                               pages, problems)
    return out | static | {".nojekyll": b""}
