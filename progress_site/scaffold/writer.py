"""The new site's files, written under its folder and nowhere else.

The folder is first surveyed (nothing written): a symbolic link anywhere on a path `new`
would write (the folder itself, `content/`, a dangling `data/x.yaml`), a file where a
folder is needed, or a path that cannot be read is a problem, and every problem is
reported at once. Then each folder and file is opened relative to its parent's
descriptor (`dir_fd`) with O_NOFOLLOW, and each file is created with O_EXCL: a link
planted after the survey makes the write fail, it is never followed. A write that fails
half-way (a full disk) removes what this run made, so the folder is left as it was.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from progress_site.errors import Location, Problem, UsageError

FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
# O_NONBLOCK: a FIFO planted where a file is expected must not hang the survey.
READ_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC

# What is wrong at a path, and the way out (each hint then says that nothing was written).
LINK = ("a symbolic link: `new` never writes through one",
        "remove the link, or choose another folder")
NOT_A_FOLDER = ("a file where the new site needs a folder",
                "move or rename it, or choose another folder")
RETRY = "check the folder, then run `new` again"
DENIED = ("permission denied",
          "give yourself the right to read and write there, or choose another folder")
FULL = "free some space, then run `new` again"
REASONS = MappingProxyType({
    errno.EACCES: DENIED,
    errno.EPERM: DENIED,
    errno.EROFS: ("the file system is read-only", "choose a folder on a writable disk"),
    errno.ENAMETOOLONG: ("the name is too long for the file system", "choose a shorter name"),
    errno.ENOSPC: ("no space left on the disk", FULL),
    errno.EDQUOT: ("the disk quota is used up", FULL),
    errno.EFBIG: ("the file is larger than this process may write", RETRY),
    errno.ELOOP: LINK,
    errno.ENOTDIR: NOT_A_FOLDER,
    errno.EEXIST: ("it appeared while the new site was being written", RETRY),
})


class NotWritten(UsageError):
    """A file of the new site cannot be written where asked; nothing was written."""

    exit_code = 1

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(p.render() for p in problems))


def problem(path: Path, reason: tuple[str, str]) -> Problem:
    """A problem with one path of the new site: what is wrong, and the way out."""
    return Problem(Location(str(path)), reason[0], hint=f"{reason[1]}; nothing was written")


def os_problem(path: Path, exc: OSError) -> Problem:
    """An error of the file system as a problem with the path it concerns."""
    if path.is_symlink():  # O_DIRECTORY | O_NOFOLLOW on one says ENOTDIR, a dangling ENOENT
        return problem(path, LINK)
    return problem(path, os_reason(exc))


def os_reason(exc: OSError) -> tuple[str, str]:
    """What an error of the file system means, and the way out."""
    return REASONS.get(exc.errno or 0) or (exc.strerror or str(exc), RETRY)


@dataclass
class Survey:
    """What is at each path of the new site, before anything is written."""

    new: list[str] = field(default_factory=list)  # nothing there yet
    kept: list[str] = field(default_factory=list)  # already there, different: left alone
    problems: dict[str, Problem] = field(default_factory=dict)  # by path, each once


def survey(root: Path, files: dict[str, bytes]) -> Survey:
    """Look at every path the new site would write (reading only, never through a link)."""
    found = Survey()
    for name, data in files.items():
        kind, where, reason = look(root, name, data)
        if reason is not None:
            found.problems.setdefault(str(where), problem(where, reason))
        elif kind != "same":  # already there, identical: nothing to write or tell
            getattr(found, kind).append(name)
    return found


def look(root: Path, name: str, data: bytes) -> tuple[str, Path, tuple[str, str] | None]:
    """Whether `name` is new, the same or kept; or the path in the way and why."""
    path = root
    parts = name.split("/")
    for depth, part in enumerate(["", *parts]):
        path = path / part if part else path
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            return "new", path, None
        except OSError as exc:
            return "", path, os_reason(exc)
        if stat.S_ISLNK(info.st_mode):
            return "", path, LINK
        last = depth == len(parts)
        if not last and not stat.S_ISDIR(info.st_mode):
            return "", path, NOT_A_FOLDER
    if not stat.S_ISREG(info.st_mode):
        return "", path, ("not a plain file", "move it away, or choose another folder")
    try:
        return ("same" if same_bytes(path, info.st_size, data) else "kept"), path, None
    except OSError as exc:
        return "", path, os_reason(exc)


def same_bytes(path: Path, size: int, data: bytes) -> bool:
    """Whether a file holds exactly `data` (opened without following a link, and opened
    even when its size differs: a file `new` cannot read is reported, not passed over)."""
    fd = os.open(path, READ_FILE)
    with os.fdopen(fd, "rb") as fh:
        return size == len(data) and fh.read(len(data) + 1) == data


def write(root: Path, names: list[str], files: dict[str, bytes]) -> None:
    """Create `names` under `root` (made if missing), each through its parent's
    descriptor; on a failure, remove what this run made and raise NotWritten."""
    made: list[Path] = []  # folders and files this run created, in order
    try:
        make_root(root, made)
        fd = os.open(root, FOLDER)
        try:
            for name in names:
                write_file(fd, root, name, files[name], made)
        finally:
            os.close(fd)
    except Failed as failed:
        undo(made)
        raise NotWritten([os_problem(failed.path, failed.error)]) from failed.error
    except OSError as exc:
        undo(made)
        raise NotWritten([os_problem(root, exc)]) from exc


class Failed(Exception):
    """An OSError, and the path of the new site it happened at."""

    def __init__(self, path: Path, error: OSError) -> None:
        super().__init__(path, error)
        self.path, self.error = path, error


def make_root(root: Path, made: list[Path]) -> None:
    """Make the site's folder and its missing parents, outermost first."""
    for folder in reversed([p for p in (root, *root.parents) if not os.path.lexists(p)]):
        try:
            os.mkdir(folder)
        except OSError as exc:
            raise Failed(folder, exc) from exc
        made.append(folder)


def write_file(root_fd: int, root: Path, name: str, data: bytes, made: list[Path]) -> None:
    """One new file, its missing folders made first; none of it through a link."""
    *folders, leaf = name.split("/")
    opened: list[int] = []
    fd, path = root_fd, root
    try:
        for part in folders:
            path = path / part
            fd = open_folder(fd, part, path, made)
            opened.append(fd)
        path = path / leaf
        out = os.open(leaf, NEW_FILE, 0o666, dir_fd=fd)
        made.append(path)
        with os.fdopen(out, "wb") as fh:
            fh.write(data)
    except OSError as exc:
        raise Failed(path, exc) from exc
    finally:
        for opened_fd in opened:
            os.close(opened_fd)


def open_folder(fd: int, part: str, path: Path, made: list[Path]) -> int:
    """Make a folder if it is missing, and open it (never a link to one)."""
    try:
        os.mkdir(part, 0o777, dir_fd=fd)
        made.append(path)
    except FileExistsError:
        pass
    return os.open(part, FOLDER, dir_fd=fd)


def undo(made: list[Path]) -> None:
    """Remove what this run made, innermost first; what cannot be removed is left."""
    for path in reversed(made):
        with contextlib.suppress(OSError):
            os.rmdir(path) if path.is_dir() and not path.is_symlink() else os.unlink(path)


def entries(root: Path) -> list[str]:
    """The names in a folder (is it empty?); one that cannot be listed is NotWritten."""
    try:
        return os.listdir(root)
    except OSError as exc:
        raise NotWritten([os_problem(root, exc)]) from exc
