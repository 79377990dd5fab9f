"""How the model reads in one language: the functions templates call, bound to a language."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from gettext import NullTranslations
from types import MappingProxyType
from typing import Any

from markupsafe import Markup, escape

from progress_site.derive.evaluation import evaluate
from progress_site.derive.expressions import ExpressionError
from progress_site.derive.kinds import kind_of
from progress_site.derive.namespace import Namespace
from progress_site.derive.quantity import Quantity
from progress_site.model.declare import Link
from progress_site.model.links import repository_link
from progress_site.model.schema import Commit, Side, Site
from progress_site.model.values import Number, Text
from progress_site.render import formatting
from progress_site.render.markdown import inline_html, parsed
from progress_site.render.references import Printed, plain


def N_(message: str) -> str:
    """Mark a message for `pybabel extract` without translating it here."""
    return message


STATUS_WORDS = MappingProxyType({
    # Evidence statuses, with the words the legend explains them with.
    "measured": N_("Measured"),
    "watch": N_("Measured, to watch"),
    "over-limit": N_("Measured, over the limit"),
    "estimate": N_("Estimate"),
    "not-judgeable": N_("Not judgeable"),
    "shown": N_("Shown to work"),
    "not-shown": N_("Not shown"),
    "done": N_("Done"),
    "in-progress": N_("In progress"),
    "planned": N_("Planned"),
    "stale": N_("To re-measure"),
})


class Words:
    """Everything a template prints, in one language: numbers, texts, links, statuses."""

    def __init__(self, lang: str, translations: NullTranslations, site: Site,
                 namespace: Namespace) -> None:
        self.lang = lang
        # Templates ask for the same few dozen messages ~100,000 times on a large site;
        # a catalog and its fallbacks are looked up once per message.
        self.gettext: Callable[[str], str] = functools.cache(translations.gettext)
        self.ngettext: Callable[[str, str, int], str] = functools.cache(translations.ngettext)
        self.site = site
        self.namespace = namespace
        own = [u for d in namespace.datasets.values() for u in d.units]
        self.units = {u.id: (u.one, u.other) for u in (*site.units, *own)}
        # A text without a reference reads the same wherever it is printed, and some (a
        # machine's name) are on every row; most are printed once, so few are kept, and
        # plain words (`inline`), cheaper to escape again than to look up, are not.
        self.plain = functools.lru_cache(maxsize=1024)(self.uncited)
        self.hashes: dict[str, Markup] = {}

    def _(self, message: str, **values: Any) -> str:
        """A translated sentence with its %(name)s values filled in."""
        text = self.gettext(message)
        return text % values if values else text

    def number(self, value: float, decimals: int = 0) -> str:
        """A plain number in this language."""
        return formatting.number(value, decimals, self.lang)

    def quantity(self, q: Quantity | None) -> str:
        """A quantity as a reader reads it: `2.62 cores`, `12.5 to 17.1 packets`, `56 of 56`.
        Spelled each time it is printed: a large site prints most of its figures once, and
        keeping what was spelled cost it more (a hash of every quantity, twice) than a small
        site's repeats save."""
        if q is None:
            return self._("no number")
        return kind_of(q).printed(q, self)  # each kind prints itself, with these words

    def with_unit(self, value: float, decimals: int, unit: str | None) -> str:
        """One number with its unit (`47.83 ms`), as `quantity` prints a value's."""
        return formatting.with_unit(value, decimals, unit, self.lang, self.units)

    def signed_percent(self, amount: float, decimals: int) -> str:
        """A change in percent, with its sign (`+1.5%`, `+1,5 %`)."""
        return formatting.percent_amount(amount, decimals, self.lang, sign=True)

    def date(self, day: dt.date | None) -> str:
        """A full date: `November 8, 2026` / `8 novembre 2026`."""
        return formatting.date(day, self.lang) if day else ""

    def short_date(self, day: dt.date | None) -> str:
        """A date without its year: `November 8` / `8 novembre`."""
        return formatting.short_date(day, self.lang) if day else ""

    def status(self, status: str) -> str:
        """The words of an evidence or task status."""
        return self._(STATUS_WORDS[status])

    def text(self, text: Text | None, linked: bool = False) -> Markup:
        """A data text in this language: inline Markdown, references printed, no raw HTML
        (`linked`: the words of a link, where a commit is not a link of its own)."""
        if text is None:
            return Markup("")
        return self.inline(text.get(self.lang, self.site.languages[0]), text.scope, linked)

    def inline(self, words: str, scope: str = "", linked: bool = False) -> Markup:
        """Inline Markdown, each `{{ reference }}` printed as `scope` reads it."""
        if "{{" in words:  # a reference prints what its scope names
            refer = functools.partial(self.printed, scope=scope, linked=linked)
            return Markup(inline_html(words, refer, self.lang))
        if not parsed(words):  # most: plain words, escaped for less than a look-up
            return self.uncited(words)
        return self.plain(words)

    def plain_text(self, words: str, scope: str = "") -> str:
        """Words that are not Markdown (a chart's title, a verdict), each reference as
        its plain words: they are escaped where they are printed, attribute or not."""
        return plain(words, {"refer": functools.partial(self.printed, scope=scope)})

    def uncited(self, words: str) -> Markup:
        """Inline Markdown of words without a reference (no `{{`)."""
        return Markup(inline_html(words, lang=self.lang))

    def printed(self, expression: str, scope: str = "", linked: bool = False
                ) -> Printed | None:
        """What one `{{ name }}`, `{{ name:decimals }}` or `{{ expression }}` prints: a
        number in words, or a commit with its address (none among a link's words); None
        for one in error (reported where the text is checked)."""
        try:
            entry = evaluate(expression, self.namespace, scope)
        except ExpressionError:
            return None
        if not isinstance(entry, Commit):
            return Printed(self.quantity(entry))
        if entry.pull is None:
            href = "" if linked else self.address(entry.repository, "commit", entry.id)
            return Printed(entry.id, href, code=True)
        _, repo_name = self.repository_url(entry.repository)
        href = "" if linked else self.address(entry.repository, "pull", str(entry.pull))
        return Printed(self.numbered("pull", entry.pull, repo_name), href)

    def repository_url(self, repo_id: str | None) -> tuple[str, Text | None]:
        """The address and name of a repository (the site's own when None)."""
        repo_id = repo_id or self.site.repository
        for repo in self.site.repositories:
            if repo.id == repo_id:
                own = repo.id == self.site.repository
                return repo.url, None if own else repo.name
        return "", None

    def address(self, repo_id: str | None, *parts: str) -> str:
        """The address of a repository's pull, issue or commit, its parts quoted."""
        base, _ = self.repository_url(repo_id)
        return repository_link(base, *parts) if base else ""

    def link(self, link: Link) -> Markup:
        """A proof or link as an anchor, with words made from its number when it has none."""
        _, repo_name = self.repository_url(link.repository)
        if link.url is not None:
            href = link.url
            words = self.text(link.text, linked=True) if link.text else escape(link.url)
        else:
            number = link.pull if link.pull is not None else link.issue
            kind = "pull" if link.pull is not None else "issues"
            href = self.address(link.repository, kind, str(number))
            words = self.text(link.text, linked=True) if link.text else escape(
                self.numbered(kind, number, repo_name))
        # Escaped as Markup.format escapes its fields, without its Python-level formatter:
        # feeds and pages print hundreds of links (see bench/scale.py).
        return Markup(f'<a href="{escape(href)}">{escape(words)}</a>')

    def numbered(self, kind: str, number: int | None, repo: Text | None) -> str:
        """`pull request #160`, or `Horizon pull request #10527` for another repository."""
        if repo is None:
            own = N_("pull request #%(n)s") if kind == "pull" else N_("issue #%(n)s")
            return self._(own, n=number)
        other = (N_("%(repo)s pull request #%(n)s") if kind == "pull"
                 else N_("%(repo)s issue #%(n)s"))
        return self._(other, repo=repo.get(self.lang), n=number)

    def commit_link(self, commit: Commit) -> Markup:
        """A commit as readers cite it: its pull request when it has one, else its hash."""
        if commit.pull is None:
            return self.commit_hash(commit.id)
        return self.link(Link(pull=commit.pull, repository=commit.repository))

    def commit_hash(self, commit_id: str) -> Markup:
        """A commit's hash, linked to the commit in its repository (built once per hash)."""
        html = self.hashes.get(commit_id)
        if html is None:
            commit = self.commits.get(commit_id)
            href = self.address(commit.repository if commit else None, "commit", commit_id)
            html = self.hashes[commit_id] = Markup('<a href="{}"><code>{}</code></a>').format(
                href, commit_id)
        return html

    def at_point(self, commit: str, label: str | None = None) -> str:
        """Where a point of a history was measured, as a sentence says it: at its label
        (a release: `at v1.2`) when it has one, else at its commit (`at commit c38a01e`)."""
        if label:
            return self._("at %(label)s", label=label)
        return self._("at commit %(commit)s", commit=commit)

    @functools.cached_property
    def commits(self) -> dict[str, Commit]:
        """The commits the data declares, by id."""
        return {e.id: e for e in self.namespace.entries.values() if isinstance(e, Commit)}

    def contender(self, side: Side) -> Markup:
        """A contender as pages name it, `cargo test 1.66.0`, linked to its page when the
        data gives one (checked safe by validate)."""
        words = self.text(side.name, linked=side.url is not None)
        if side.version:
            words = Markup(f"{words} {escape(side.version)}")
        if side.url is None:
            return words
        return Markup(f'<a href="{escape(side.url)}">{words}</a>')

    def contender_words(self, side: Side) -> str:
        """A contender's name and version as plain words (chart labels, feed lines);
        empty for a side that is a commit."""
        if side.name is None:
            return ""
        name = self.plain_text(side.name.get(self.lang, self.site.languages[0]),
                               side.name.scope)
        return f"{name} {side.version}" if side.version else name

    def percent(self, amount: Number) -> str:
        """A percentage written in the data as a number (`allowance: 5` -> `5 %`)."""
        return formatting.percent_amount(amount.value, amount.decimals, self.lang)

    @staticmethod
    def ends(q: Quantity) -> tuple[float, float] | None:
        """A quantity's lowest and highest, as its kind says (a distribution's strip)."""
        return kind_of(q).ends(q)

    @staticmethod
    def share(value: float, scale: float) -> str:
        """A CSS width: `value` as a percentage of `scale` (language-independent)."""
        fraction = 0.0 if scale <= 0 else max(0.0, min(1.0, value / scale))
        return f"{fraction * 100:.1f}%"
