"""The command line: the one place where errors become messages and exit codes."""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from progress_site import cache
from progress_site.errors import BuildFailed, UsageError, visible, visible_path
from progress_site.outcome import REGRESSED, build_and_report, print_changes, replay
from progress_site.publish import lastbuild

if TYPE_CHECKING:
    from progress_site.charts.ahead import Drawer
    from progress_site.pipeline import BuildConfig
    from progress_site.render.templates import CompiledTemplates



def base_url(text: str) -> str:
    """The --base-url option, checked: an http(s) address."""
    from progress_site.model.base_url import BaseUrlError, check_base_url

    try:
        return check_base_url(text)
    except BaseUrlError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def port(text: str) -> int:
    """The --port option, checked: bind() raised OverflowError for one past 65535."""
    try:
        number = int(text)
    except ValueError:
        number = -1
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(
            f"expected a port from 0 to 65535 (0 picks a free one), got {text!r}")
    return number


class Version(argparse.Action):
    """`--version`: the installed engine's version, looked up only when asked for."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        # A clone that `pip install -e .` never saw has no installed version.
        found = cache.library_version("progress-site") or "(not installed)"
        print(f"{parser.prog} {found}")
        parser.exit()


def parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The options of `python build.py` (and `python -m progress_site`). A command's own
    are added only when `argv` names it: `record` and `import` load the data format,
    which a build that finds nothing changed never needs."""
    p = argparse.ArgumentParser(
        prog="progress-site",
        description="Build a project's page of progress, tests and benchmarks from its data.",
        epilog="Command `new DIR` starts a site; `record` and `import` add results to "
               "data/; `COMMAND --help` tells how.")
    p.add_argument("--source", type=Path, default=Path("."),
                   help="folder with data/, content/ and optional templates/, locales/ "
                        "(default: the current folder)")
    p.add_argument("--out", type=Path, default=None,
                   help="where to publish the site, a folder of its own that is replaced "
                        "whole: never the source, nor one of its folders (default: "
                        "SOURCE/site)")
    p.add_argument("--strict", action="store_true",
                   help="treat warnings (missing translations) as errors")
    p.add_argument("--changes", type=Path, metavar="OLD_SITE", default=None,
                   help="print what differs from a previously published site (for a pull "
                        "request) instead of publishing")
    p.add_argument("--format", choices=("text", "markdown"), default="text",
                   help="with --changes: plain lines (the default), or Markdown for a "
                        "pull request comment or $GITHUB_STEP_SUMMARY")
    p.add_argument("--fail-on-regression", action="store_true",
                   help=f"exit with status {REGRESSED} when the new site finds a "
                        "regression the old one (--changes OLD_SITE, else the site it "
                        "replaces) did not have; the site is published or the summary "
                        "printed all the same")
    p.add_argument("--debug", action="store_true",
                   help="show the Python traceback of an unexpected error")
    p.add_argument("--watch", action="store_true",
                   help="build, serve the site on HOST:PORT, rebuild on every save and "
                        "reload the browser")
    p.add_argument("--host", default="127.0.0.1", help="address to serve on (with --watch)")
    p.add_argument("--port", type=port, default=8000,
                   help="port to serve on (with --watch; 0 picks a free one)")
    p.add_argument("--base-url", type=base_url, default=None, metavar="URL",
                   help="the site's public address (https://owner.github.io/repo/): "
                        "canonical links, social previews, sitemap; without it every "
                        "link stays relative")
    p.add_argument("--cache-dir", type=Path, default=None, metavar="DIR",
                   help="where drawn charts are kept between builds, outside the source "
                        "and the output (default: $XDG_CACHE_HOME/progress-site, else "
                        "~/.cache/progress-site; safe to delete)")
    p.add_argument("--force", action="store_true", dest="force_build",  # `new` has its own
                   help="build even when the sources, options and engine are those of the "
                        "last build into the output and it holds what that build left "
                        "(then a build does nothing and says so)")
    p.add_argument("--version", action=Version, nargs=0, help="show the version and exit")
    commands = p.add_subparsers(dest="command", metavar="COMMAND")
    named = set(sys.argv[1:] if argv is None else argv)
    for name, what in COMMANDS:
        command = commands.add_parser(name, help=what)
        if name in named:
            command_options(name, command)
    return p


COMMANDS = (("record", "add or update one figure of the data"),
            ("import", "turn a benchmark tool's output into measurements"),
            ("new", "start a new site in a folder of its own"))


def command_options(name: str, command: argparse.ArgumentParser) -> None:
    """The options of one command, imported only for a command line that names it."""
    if name == "new":
        from progress_site.scaffold import new_options

        new_options(command)
        return
    from progress_site.record.options import import_options, record_options

    (record_options if name == "record" else import_options)(command)


def today() -> dt.date:
    """The build's 'today': SOURCE_DATE_EPOCH when set (reproducible builds), else the clock."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        # ASCII digits only, as the reproducible-builds spec says ("a non-negative
        # integer", as `date +%s` prints it): int() would also take '１７', ' 17 ' or
        # '-1'; a day past year 9999 overflows datetime (or time_t) instead.
        try:
            if not re.fullmatch(r"[0-9]{1,20}", epoch):
                raise ValueError(epoch)
            return dt.datetime.fromtimestamp(int(epoch), dt.UTC).date()
        except (ValueError, OverflowError, OSError) as exc:
            raise UsageError(f"SOURCE_DATE_EPOCH must be a whole number of seconds since "
                             f"1970, digits only (a day of the years 1970 to 9999), got "
                             f"{epoch!r}; write it as `git log -1 --format=%ct` prints it"
                             ) from exc
    return dt.date.today()


def config_from(args: argparse.Namespace,
                compiled: CompiledTemplates | None = None) -> BuildConfig:
    """The build's settings from the options, checked; with `compiled`, the build reuses
    templates this process compiled before."""
    from progress_site.pipeline import BuildConfig
    from progress_site.publish.swap import overlap

    source = args.source
    if not (source / "data").is_dir():
        raise UsageError(f"{visible_path(str(source))}: no data/ folder here; pass --source "
                         "with the folder that holds data/ and content/")
    if not any((source / "content").glob("*/*.md")):  # else "Built 0 pages", and no hint
        raise UsageError(f"{visible_path(str(source))}: no pages yet; write the home page, "
                         "content/en/index.md (content/LANG/ for each language of "
                         "data/site.yaml), or start from `progress-site new DIR`")
    out = args.out if args.out is not None else source / "site"
    shared: dict[str, Any] = {} if compiled is None else {"compiled": compiled}
    config = BuildConfig(source=source.resolve(), out=out, today=today(), strict=args.strict,
                         base_url=args.base_url, cache=args.cache_dir,
                         disk_cache=cache_allowed(args.cache_dir, source, out), **shared)
    reason = overlap(out, config.source, config.own_folders())
    if reason:  # checked before anything is written, the caches too
        raise UsageError(f"--out {visible_path(str(out))}: refusing to publish there: "
                         f"{reason}; give the site a folder of its own, such as SOURCE/site "
                         "(the default); nothing was written")
    return config


def cache_allowed(given: Path | None, source: Path, out: Path) -> bool:
    """Whether the build may keep a cache on disk: a --cache-dir `cache.refusal` refuses
    is a usage error; the user's cache folder, from the environment, a warning."""
    folder = given if given is not None else cache.user_folder()
    reason = cache.refusal(folder, source, out)
    if reason and given is not None:
        raise UsageError(f"--cache-dir {visible_path(str(given))}: refusing to keep the "
                         f"cache there: {reason}, which a build must not write into; give "
                         "it a folder outside the source and the output, such as "
                         "~/.cache/progress-site (the default); nothing was written")
    if reason:
        print(f"warning: {visible_path(str(folder))}: not used as the build's cache: "
              f"{reason}, which a build must not write into; this build keeps nothing "
              "for the next one (every chart is drawn again)\nhint: set XDG_CACHE_HOME to "
              "a folder outside the source and the output, or pass --cache-dir DIR",
              file=sys.stderr)
    return not reason


def main(argv: list[str] | None = None, compiled: CompiledTemplates | None = None) -> int:
    """Run the command line; return the exit status. `compiled`: templates this process
    compiled before, for a caller that builds many sites in one process (the tests)."""
    args = parser(argv).parse_args(argv)
    # Only now: `--help` and `--version` have exited without loading the build.
    from progress_site.publish.swap import PublishFailed

    try:
        return run(args, compiled)
    except BuildFailed as exc:
        print(exc.render(), file=sys.stderr)
        print("The previous site was left as it was.", file=sys.stderr)
        return exc.exit_code
    except PublishFailed as exc:
        print(exc.problem.render(), file=sys.stderr)
        return exc.exit_code
    except UsageError as exc:
        # Input in a message is spelled out where it is put in; this is the net under it.
        print("\n".join(visible(line) for line in f"error: {exc}".split("\n")),
              file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("Interrupted; the previous site was left as it was.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return output_closed()
    except Exception as exc:  # a traceback is a bug: say so, show it only with --debug
        if args.debug:
            raise
        print(f"internal error: {type(exc).__name__}: {visible(str(exc))}\n"
              "This is a bug in progress-site; run again with --debug and report the "
              "traceback.", file=sys.stderr)
        return 70


def output_closed() -> int:
    """The end of a command whose reader stopped reading (`| head`): said in one line, not
    as an internal error; what the command did before it printed stays done."""
    # Python's last flush at exit would fail again on the closed pipe and print its own
    # traceback: what is left of the output goes nowhere instead.
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    with contextlib.suppress(OSError):
        print("error: the output was closed before the command had printed all of it "
              "(`| head`?); what it did before is done", file=sys.stderr)
    return 141  # as a shell reports a command that SIGPIPE ended: 128 + 13


def run(args: argparse.Namespace, compiled: CompiledTemplates | None = None) -> int:
    """The command the options name: record or import, watch, --changes, or a build."""
    if args.command == "new":
        from progress_site.scaffold import run_new

        return run_new(args)
    if args.command is not None:  # record, import: they print their own report
        from progress_site.record.options import run_command

        return run_command(args, today())
    last = last_build(args)
    if last is not None:
        done = None if args.force_build else last.unchanged()
        if done is not None:
            return replay(done, last.out)
        last.forget()
    from progress_site.charts.ahead import drawer

    # A first build forks the child that draws its charts now, before the build's own
    # modules load: its start overlaps all of the build's work (charts/ahead.py). Watch
    # mode and --changes draw the few charts they need as they go.
    with drawer(cache_folder(args), not args.watch and args.changes is None) as charts:
        return run_configured(args, compiled, last, charts)


def run_configured(args: argparse.Namespace, compiled: CompiledTemplates | None,
                   last: lastbuild.LastBuild | None, charts: Drawer | None) -> int:
    """A build, a watch or --changes, as the options say; `charts`: a child ready to draw
    a first build's charts."""
    config = config_from(args, compiled)
    if args.format != "text" and args.changes is None:
        raise UsageError("--format applies to --changes OLD_SITE; a build prints its "
                         "summary as text")
    if args.watch and args.fail_on_regression:
        raise UsageError("--fail-on-regression applies to a build or to --changes, not "
                         "to --watch")
    if args.watch:
        from progress_site.watch.loop import run_watch  # the server and watchdog: when asked

        status: int = run_watch(config, args.host, args.port)
        return status
    if args.changes is not None:
        return print_changes(config, args.changes, args.format, args.fail_on_regression)
    return build_and_report(config, args.fail_on_regression, last, charts)


def cache_folder(args: argparse.Namespace) -> Path:
    """The cache folder the options name: --cache-dir, else the user's."""
    return args.cache_dir if args.cache_dir is not None else cache.user_folder()


def last_build(args: argparse.Namespace) -> lastbuild.LastBuild | None:
    """What the last build of this source into this output left, to compare this one's
    inputs with; None for a watch, --changes, or no cache folder to keep it in."""
    if args.watch or args.changes is not None or args.format != "text":
        return None
    out = args.out if args.out is not None else args.source / "site"
    folder = cache_folder(args)
    if cache.refusal(folder, args.source, out):
        return None  # config_from says why
    # Every option (but --force) and "today": an option added later is in it by itself.
    options = {name: os.path.realpath(value) if isinstance(value, Path) else value
               for name, value in vars(args).items() if name != "force_build"}
    try:
        options["today"] = today().isoformat()
    except UsageError:  # config_from says so, after what it checks first
        return None
    return lastbuild.LastBuild.of(folder, args.source, out, options)
