"""Atomic file writes, for everything py2048 saves: the terminal game's saves, the network's
checkpoints and weights files; and :func:`open_regular`, which reads only regular files.

:func:`atomic_write` writes to a temporary file in the target's folder, flushes it to disk and
renames it over the target, then makes the rename itself durable. Killing the program at any
moment leaves either the previous file or the new one, whole; a write that fails removes its
temporary file and leaves the previous file untouched.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from io import BufferedReader
from pathlib import Path
from typing import IO

TEMPORARY_PATTERN = ".*.tmp"
"""What the temporary files of a folder match (``.NAME.PID.<random>.tmp``): a program killed
mid-write leaves one behind, which :func:`remove_leftovers` removes."""
LEFTOVER_AGE_S = 60.0
"""A temporary file this old is a leftover whoever wrote it (a write takes milliseconds)."""
_WRITER = re.compile(r"\.(?P<pid>\d+)\.[^.]+\.tmp$")
_KINDS = (
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
)


class NotRegularFileError(OSError):
    """A path that names something other than a regular file (a named pipe, a device, a
    folder); its ``strerror`` says which, as in "it is a named pipe, not a regular file"."""

    strerror: str


def open_regular(path: str | os.PathLike[str]) -> BufferedReader:
    """Open ``path`` for reading, only if it is a regular file (else NotRegularFileError).

    It is opened without blocking (a named pipe would otherwise wait for a writer forever) and
    asked what it is before anything is read. Other errors are the OSError of ``open``.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    descriptor = os.open(path, flags)
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            kind = next((name for test, name in _KINDS if test(mode)), "a special file")
            raise NotRegularFileError(
                errno.EINVAL, f"it is {kind}, not a regular file", os.fspath(path)
            )
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


@contextmanager
def atomic_write(path: str | os.PathLike[str]) -> Iterator[IO[bytes]]:
    """A binary file that replaces ``path`` when the block ends without an error.

    Missing folders are created. The new file gets the permissions a plain ``open`` would give
    it (0o666 less the umask).
    """
    target = Path(path)
    folder = target.parent
    folder.mkdir(parents=True, exist_ok=True)
    prefix = f".{target.name}.{os.getpid()}."
    descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=prefix, suffix=".tmp")
    try:
        os.chmod(temporary, 0o666 & ~_umask())
        with os.fdopen(descriptor, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    fsync_folder(folder)


def remove_leftovers(folder: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files :func:`atomic_write` left in ``folder`` when its program was
    killed mid-write, and return them.

    A temporary file names the process writing it: one whose process is no longer running is
    removed at once; one of a running process (another instance writing right now) is left
    alone unless it is older than ``LEFTOVER_AGE_S``, and so is one whose process cannot be
    asked about (on Windows, or a file of an older py2048).
    """
    removed = []
    cutoff = time.time() - LEFTOVER_AGE_S
    for temporary in Path(folder).glob(TEMPORARY_PATTERN):
        try:
            writer = _WRITER.search(temporary.name)
            ended = writer is not None and not _running(int(writer.group("pid")))
            if ended or temporary.stat().st_mtime < cutoff:
                temporary.unlink()
                removed.append(temporary)
        except OSError:
            continue
    return removed


def _running(pid: int) -> bool:
    """Whether process ``pid`` may still be running (True when that cannot be known)."""
    if os.name != "posix" or pid == os.getpid():
        return True  # on Windows, os.kill(pid, 0) would send CTRL_C_EVENT rather than ask
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # someone else's process, or not a process id at all
    return True


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def fsync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (only POSIX can open a folder to sync it)."""
    if os.name != "posix":
        return
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
