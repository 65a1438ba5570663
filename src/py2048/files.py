"""Atomic file writes, for everything py2048 saves: the terminal game's saves, the network's
checkpoints and weights files.

:func:`atomic_write` writes to a temporary file in the target's folder, flushes it to disk and
renames it over the target, then makes the rename itself durable. Killing the program at any
moment leaves either the previous file or the new one, whole; a write that fails removes its
temporary file and leaves the previous file untouched.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

TEMPORARY_PATTERN = ".*.tmp"
"""What the temporary files of a folder match (``.NAME.XXXXXXXX.tmp``): a program killed
mid-write leaves one behind, which its owner may remove once it is old."""


@contextmanager
def atomic_write(path: str | os.PathLike[str]) -> Iterator[IO[bytes]]:
    """A binary file that replaces ``path`` when the block ends without an error.

    Missing folders are created. The new file gets the permissions a plain ``open`` would give
    it (0o666 less the umask).
    """
    target = Path(path)
    folder = target.parent
    folder.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
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
    _fsync_folder(folder)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable. Only POSIX can open a folder to sync it."""
    if os.name != "posix":
        return
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
