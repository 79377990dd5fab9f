"""Write the new site beside the old one, then swap them in one step; a site that is
already exactly what a build made is left as it is."""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from progress_site.errors import Location, Problem, visible_path

_RENAME_EXCHANGE = 2  # from <linux/fs.h>: swap two paths atomically


class PublishFailed(Exception):
    """The output folder could not be written; the previous site is untouched."""

    exit_code = 1

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        super().__init__(problem.render())


def _exchange(a: Path, b: Path) -> bool:
    """Swap two directories atomically (Linux renameat2); False where unsupported."""
    # The process's own symbols, libc's among them: no need to search for libc's file
    # (ctypes.util.find_library runs `ldconfig -p`).
    libc = ctypes.CDLL(None, use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is None:
        return False
    at_fdcwd = -100
    result = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    if ctypes.get_errno() in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()), str(a))


def write_tree(folder: Path, files: dict[str, bytes]) -> None:
    """Write every file, in sorted order (the swap comes after: a kill loses nothing)."""
    for rel in sorted(files):
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            target.write_bytes(files[rel])
        except OSError as exc:  # a failed write() names no file: say which one it was
            exc.filename = exc.filename or str(target)
            raise


def recover(out: Path) -> None:
    """Finish a swap that a killed build left half done, and drop its leftovers."""
    parent = out.parent
    for leftover in sorted(parent.glob(f".{out.name}-old-*")):
        if not out.exists():
            leftover.rename(out)
        else:
            shutil.rmtree(leftover, ignore_errors=True)
    for leftover in parent.glob(f".{out.name}-new-*"):
        shutil.rmtree(leftover, ignore_errors=True)


@contextlib.contextmanager
def locked(out: Path) -> Iterator[None]:
    """One build at a time per output folder: a second one waits for the first.

    The lock is taken on the folder that holds `out` (flock on its own descriptor): no
    lock file is made beside the site, none is left behind by a killed build (the kernel
    drops the lock with the process), and it needs no cache folder. Builds publishing
    side by side into one folder wait for each other too, which costs only their overlap.
    Where that folder cannot be locked (some network file systems), builds go unordered:
    each swap is still atomic."""
    fd = os.open(out.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError as exc:
            if exc.errno not in (errno.EBADF, errno.ENOLCK, errno.EOPNOTSUPP, errno.EINVAL):
                raise
        yield
    finally:
        os.close(fd)  # and with it the lock


def is_published(folder: Path) -> bool:
    """Whether a folder is a site a build published: data.json beside index.html (either
    may be damaged since: the next build replaces it)."""
    # lexists says False, not an error, for a path it cannot look at.
    return all(os.path.lexists(folder / name) for name in ("data.json", "index.html"))


def refuse(out: Path) -> None:
    """Stop before replacing a folder that is not a site: the old `out` is deleted after
    the swap, so `--out .` must not cost anyone their project."""
    blocker = next((p for p in out.parents if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        raise PublishFailed(Problem(Location(str(blocker)), "cannot write the site under "
                                    "this file: it is not a folder", hint="choose another "
                                    "--out; nothing was changed"))
    reason = ""
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        reason = "it is not a folder"
    elif Path.cwd().resolve().is_relative_to(out.resolve()):
        reason = "it holds the current folder"
    elif (out / ".git").exists() or (out / "data").is_dir():
        reason = "it holds a project's sources (.git or data/), not a built site"
    elif out.is_dir() and any(out.iterdir()) and not is_published(out):
        # Only a site a build published is replaced (as Hugo's --cleanDestinationDir
        # asks first): `--out ~` or `--out ../docs` must not cost anyone a folder.
        reason = "it is not empty and holds no site a build published (index.html and data.json)"
    if reason:
        raise PublishFailed(Problem(Location(str(out)), f"refusing to replace this output "
                                    f"folder: {reason}", hint="publish into a folder of its "
                                    "own (the default is SOURCE/site); nothing was changed"))


def overlap(out: Path, source: Path, folders: list[Path]) -> str:
    """Why `out` cannot take a site built from `source` ('' when it can): the old `out`
    is deleted after the swap, so it must not be the source, hold it, or be, hold or lie
    in one of its `folders` (data/, content/, templates/...), even through a link. A
    folder of its own inside the source, such as the default SOURCE/site, is fine."""
    target, root = out.resolve(), source.resolve()
    if target == root:
        return "it is the source folder"
    if root.is_relative_to(target):
        return "it holds the source folder"
    for folder in folders:
        place = folder.resolve()
        name = (f"the source's {folder.relative_to(source).as_posix()}/ folder"
                if folder.is_relative_to(source) else
                f"{visible_path(str(folder))}, a folder the build reads")
        if target.is_relative_to(place):
            return f"it is {'' if target == place else 'inside '}{name}"
        if place.is_relative_to(target):
            return f"it holds {name}"
    return ""


def outside(files: dict[str, bytes]) -> list[str]:
    """Names that would land outside the site (`../x`, `/x`): the pages' paths are made
    from the data's words (languages, slugs), which nobody trusts."""
    return sorted(name for name in files
                  if PurePosixPath(name).is_absolute() or "\\" in name
                  or any(part in ("", ".", "..") for part in name.split("/")))


def publish(files: dict[str, bytes], out: Path) -> None:
    """Replace `out` with exactly `files`; on any failure the old `out` stays as it was."""
    out = out.absolute()
    new: Path | None = None
    if outside(files):
        raise PublishFailed(Problem(Location(str(out)), "refusing to write outside the site: "
                                    + ", ".join(outside(files)[:3]), hint="this is a bug "
                                    "if the data's checks let it through; nothing was changed"))
    try:
        refuse(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        with locked(out):
            recover(out)
            if holds_exactly(out, files):
                return  # a rebuild of unchanged sources: files, times and inodes stay
            new = Path(tempfile.mkdtemp(prefix=f".{out.name}-new-", dir=out.parent))
            try:
                write_tree(new, files)
                new.chmod(0o755)
                swap(new, out)
            finally:
                shutil.rmtree(new, ignore_errors=True)
    except OSError as exc:
        # Name the file as it would have been published, not its place in the temporary
        # folder (which is gone by now).
        name = Path(exc.filename) if exc.filename else out
        if new is not None and name.is_relative_to(new):
            name = out / name.relative_to(new)
        raise PublishFailed(Problem(Location(str(name)), "cannot write the site: "
                                    f"{exc.strerror or exc}", hint="check the folder's "
                                    "permissions and free space; the previous site is "
                                    "untouched")) from exc


def holds_exactly(out: Path, files: dict[str, bytes]) -> bool:
    """Whether `out` holds exactly these files and nothing else: then publishing leaves
    it alone, and a deploy that sends what changed by modification time sends nothing."""
    found: set[str] = set()  # paths in `out`, a folder's with a trailing "/"
    folders = [("", str(out))]
    try:
        while folders:
            prefix, folder = folders.pop()
            with os.scandir(folder) as entries:
                for entry in entries:
                    name = prefix + entry.name
                    if entry.is_symlink() or not (entry.is_dir() or entry.is_file()):
                        return False
                    if entry.is_dir():
                        found.add(name + "/")
                        folders.append((name + "/", entry.path))
                    else:
                        found.add(name)
        parents = {f"{above}/" for name in files for above in PurePosixPath(name).parents
                   if above.name}  # `a/b/c.html`: `a/`, `a/b/`
        return found == {*files, *parents} and all((out / name).read_bytes() == files[name]
                                                   for name in files)
    except OSError:
        return False


def swap(new: Path, out: Path) -> None:
    """Put `new` in place of `out`; what was `out` ends at `new` (and is then removed)."""
    if out.exists() and _exchange(new, out):
        return
    if out.exists():
        # No atomic exchange here: rename aside first; recover() undoes a kill in between.
        old = out.parent / f".{out.name}-old-{os.getpid()}"
        out.rename(old)
        new.rename(out)
        old.rename(new)
    else:
        new.rename(out)
