"""Files opened only when they are regular files: never a FIFO, a device or a socket.

Reading a FIFO waits for a writer that never comes, and a device may never end
(`/dev/zero`) or act when opened: a path the source folder controls (a data file, a
page, an old site's data.json, a cache entry) could hang or flood the build. The file is
looked at before it is opened, and opened without blocking, then looked at again
through the open descriptor, so one swapped in between is still refused. Every reader
of such a path goes through here.
"""

from __future__ import annotations

import errno
import io
import os
import stat
from pathlib import Path

_KINDS = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a folder"),
          (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


class NotRegular(OSError):
    """A path that names something other than a regular file."""

    def __init__(self, what: str) -> None:
        super().__init__(errno.EINVAL, f"it is {what}, not a regular file")
        self.what = what


class TooBig(OSError):
    """A regular file larger than its reader's limit."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(errno.EFBIG, f"it holds {size:,} bytes, over the {limit:,} limit")
        self.size = size


def _checked(info: os.stat_result, limit: int | None) -> os.stat_result:
    """`info`, if it is a regular file's of at most `limit` bytes; else NotRegular, TooBig."""
    if not stat.S_ISREG(info.st_mode):
        raise NotRegular(next((what for test, what in _KINDS if test(info.st_mode)),
                              "not a regular file"))
    if limit is not None and info.st_size > limit:
        raise TooBig(info.st_size, limit)
    return info


def looked_at(path: Path, limit: int | None = None, *, follow: bool = True
              ) -> os.stat_result:
    """What `path` is, if it is a regular file of at most `limit` bytes, without opening
    it: `open_regular` opens it and looks again."""
    return _checked(os.stat(path, follow_symlinks=follow), limit)


def open_regular(path: Path, limit: int | None = None, *, follow: bool = True) -> io.FileIO:
    """`path` opened for reading, if it is a regular file of at most `limit` bytes; with
    `follow` false, a symbolic link is refused too (NotRegular)."""
    looked_at(path, None, follow=follow)
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow:
            raise NotRegular("a symbolic link") from exc
        raise
    try:
        _checked(os.fstat(fd), limit)
        return io.FileIO(fd, "rb", closefd=True)
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: Path, limit: int | None = None, *, follow: bool = True) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (see `open_regular`)."""
    with open_regular(path, limit, follow=follow) as file:
        data = file.read() if limit is None else file.read(limit + 1)
    if limit is not None and len(data) > limit:  # it grew since it was looked at
        raise TooBig(len(data), limit)
    return data
