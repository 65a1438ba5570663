"""Where numba keeps py2048's compiled kernels: a folder of their own for each state of the
sources.

numba's on-disk cache checks only the source file of the function it compiled: a kernel that
inlines or calls a function from another module keeps running the old code after that module
changes (numba's documented limitation). An upgrade or an edited checkout could then play with
a mix of old and new kernels. So every distinct set of py2048 sources (each file's path, size
and modification time, with the numba, llvmlite, NumPy and Python versions) gets its own cache
folder under the user's cache, and a change anywhere compiles everything afresh once. The
newest few folders are kept, so switching between two installs does not recompile each time.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

F = TypeVar("F", bound=Callable[..., object])

KEPT_FOLDERS = 4
"""Cache folders kept for earlier states of the sources (the newest ones)."""
_PREFIX = "kernels-"


def sources_fingerprint(package: Path, numba_version: str) -> str:
    """A short digest of every ``.py`` file under ``package`` (path, size, modification time)
    and of the compiler's versions (``numba_version``: numba's, or any string that names them)
    and Python's."""
    digest = hashlib.sha256(f"{numba_version}|{sys.version}".encode())
    for path in sorted(package.rglob("*.py")):
        stat = path.stat()
        digest.update(f"|{path.relative_to(package)}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:16]


def cache_folder(package: Path, base: Path, numba_version: str) -> Path | None:
    """Create (if needed) and return the cache folder for these sources under ``base``, or None
    where it cannot be made (numba then caches beside the sources, as it would by itself)."""
    folder = base / f"{_PREFIX}{sources_fingerprint(package, numba_version)}"
    if folder.is_dir():
        return folder
    try:
        folder.mkdir(parents=True)
    except FileExistsError:
        return folder if folder.is_dir() else None
    except OSError:
        return None
    _prune(base, keep=folder)
    return folder


def _prune(base: Path, keep: Path) -> None:
    """Remove all but the newest :data:`KEPT_FOLDERS` cache folders (``keep`` always stays)."""
    try:
        folders = [p for p in base.iterdir() if p.name.startswith(_PREFIX) and p != keep]
        folders.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return
    for old in folders[KEPT_FOLDERS - 1 :]:
        shutil.rmtree(old, ignore_errors=True)


def use_private_cache() -> None:
    """Point numba's cache at the folder for the installed py2048 sources.

    Under ``NUMBA_CACHE_DIR`` when the user set it, else under the user's cache folder
    (``py2048/numba``). Runs when py2048 is first imported, before any kernel is compiled.
    """
    import numba
    import platformdirs

    chosen = os.environ.get("PY2048_NUMBA_BASE") or os.environ.get("NUMBA_CACHE_DIR")
    base = Path(chosen) if chosen else Path(platformdirs.user_cache_dir("py2048")) / "numba"
    if base.name.startswith(_PREFIX):  # inherited from a parent process that set it up
        base = base.parent
    import llvmlite
    import numpy

    versions = f"{numba.__version__}|{llvmlite.__version__}|{numpy.__version__}"
    folder = cache_folder(Path(__file__).parent, base, versions)
    if folder is None:
        return
    numba.config.CACHE_DIR = str(folder)  # type: ignore[attr-defined]  # set at run time
    os.environ["PY2048_NUMBA_BASE"] = str(base)
    os.environ["NUMBA_CACHE_DIR"] = str(folder)


def constants_digest(constants: object) -> str:
    """A short digest of the constants a kernel closure is compiled with: nested tuples and
    lists of ints, floats, bools, strings and NumPy arrays. Equal constants give equal digests
    in every process."""
    digest = hashlib.sha256()

    def feed(value: object) -> None:
        if isinstance(value, (tuple, list)):
            digest.update(f"({len(value)}:".encode())
            for item in value:
                feed(item)
            digest.update(b")")
        elif isinstance(value, (bool, int, float, str)):
            digest.update(f"{type(value).__name__}:{value!r};".encode())
        elif type(value).__module__ == "numpy":  # an array or a NumPy scalar
            import numpy

            array = numpy.ascontiguousarray(value)
            digest.update(f"{array.dtype.str}{array.shape}:".encode())
            digest.update(array.tobytes())
        else:
            raise TypeError(f"cannot digest a kernel constant of type {type(value).__name__}")

    feed(constants)
    return digest.hexdigest()[:16]


def cached_per(*constants: object) -> Callable[[F], F]:
    """Give a kernel closure compiled with these constants (a network's layout, its scale) a
    name of its own, under which numba caches it on disk; apply it below ``@njit``.

    numba keeps one index file per function name and numbers the compiled copies in it. Two
    processes that compile the same closure for different constants at once both read the
    index, both take the next number, and the one that writes its data last may leave it
    under the other's key: a later process then runs one network's compiled code with another
    network's tables (wrong values, or a crash on an index out of range). With a name per set
    of constants each index holds one network's kernels, and processes that race on it write
    the same code.
    """
    suffix = constants_digest(constants)

    def rename(function: F) -> F:
        name = f"{function.__name__}_{suffix}"
        function.__name__ = name
        function.__qualname__ = f"{function.__qualname__.rpartition('.')[0]}.{name}".lstrip(".")
        return function

    return rename
