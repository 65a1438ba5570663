"""Where table files live, their format, and the checks that keep a bad file from being used.

The folder is ``PY2048_TABLES_DIR`` if set, else the user cache folder (platformdirs) for
py2048 plus ``tables`` (:func:`py2048.user_folders.cache_folder`): Linux
``~/.cache/py2048/tables``, macOS ``~/Library/Caches/py2048/tables``, Windows
``%LOCALAPPDATA%\\py2048\\Cache\\tables``.
A formation ``NAME`` has

- ``NAME.table``: the finished table;
- ``NAME.partial`` and ``NAME.progress``: a build in progress (see :mod:`.builder`), and for a
  1-byte build ``NAME.exact0`` to ``NAME.exact2``, its last finished layers at 2 bytes.

**The file format** (version 2 for 2-byte values, version 3 for 1-byte values), little-endian:

==========  =======  ==================================================================
offset      size     content
==========  =======  ==================================================================
0           8        magic ``b"PY2048TB"``
8           4        format version (uint32)
12          4        length ``L`` of the header JSON (uint32)
16          L        header JSON, UTF-8: ``formation`` (its JSON), ``entries``, ``dtype``
                     (``"<u2"``) and ``scale`` (65535), or (version 3) ``dtype`` ``"u1"``,
                     ``code_book`` and ``code_book_digest`` (:mod:`.codebook`),
                     ``order`` (``"layers"``),
                     ``checksum`` (``"blake2b-256-layers:"`` and a hex digest, below),
                     ``build_seconds``, ``cores`` (of the machine that built it),
                     ``threads`` (the build used), and where known ``peak_memory``
                     (the most resident bytes the build held, over all its runs)
16 + L      ...      zeros up to ``PAYLOAD_OFFSET`` (4096)
4096        W * N    the payload: N = entries values, layer by layer from the lowest tile
                     sum up, each layer's positions in the order of :mod:`.ranking`;
                     W = 2: uint16, value / 65535 = probability; W = 1: uint8 codes of the
                     fixed code book (:data:`.codebook.CODE_BOOK`)
==========  =======  ==================================================================

The checksum is the blake2b-256 digest of the layers' own blake2b-256 digests, lowest layer
first, so a build computes it from the layers as it writes them, and a check reads the file
once, in order (the layers' bytes as stored, at either width).
Version 1 (py2048 before layer-ordered tables) held the same values in the
order of the positions' dense index; such a file is refused with a rebuild hint.

The payload is page-aligned, so a table opens as a read-only ``np.memmap`` and is read through
it: the look-up reads about a hundred values a move, so a table larger than memory works. A
file whose size is not exactly ``4096 + W * entries``, or whose payload does not hash to its
checksum, raises :class:`TableError`. :func:`verify_file` hashes the whole payload: 2-3 s per
GB from the page cache on this project's 2-core machine, longer from disk.

So that this is paid once, not on every process's first hint, a file that hashed right gets a
*seal* ``NAME.verified`` beside it (JSON: the checksum and the file's device, inode, size,
modification and change times in nanoseconds; only for a file last changed at least a second
before its check). :func:`check_file` trusts a seal that matches the file as it is now and
hashes the file again otherwise: any write, truncation or replacement changes the change time
or the inode, and a program cannot set the change time back (short of the system clock).
``2048 tables verify`` always hashes (it also finds damage the file system did not record).

Only regular files are read: a named pipe, a device or a folder in a table's (or a seal's)
place is refused at once (:func:`py2048.files.open_regular`), instead of waiting for a writer.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import struct
import time
from collections.abc import Sequence
from dataclasses import dataclass
from io import BufferedReader
from pathlib import Path
from typing import Any

from py2048.engine.integers import is_int
from py2048.files import NotRegularFileError, open_regular
from py2048.tables.codebook import CODE_BOOK_DIGEST, CODE_BOOK_NAME
from py2048.tables.formations import Formation
from py2048.user_folders import cache_folder

MAGIC = b"PY2048TB"
FORMAT_VERSION = 2
"""The version of files of 2-byte values (unchanged since layer-ordered tables)."""
PACKED_VERSION = 3
"""The version of files of 1-byte values (:mod:`.codebook`)."""
ORDER = "layers"
PAYLOAD_OFFSET = 4096
DTYPE = "<u2"
PACKED_DTYPE = "u1"
DTYPES = {2: DTYPE, 1: PACKED_DTYPE}
"""Each value width's numpy dtype."""
WIDTHS = (2, 1)
VALUE_SCALE = 65535
CHECKSUM_KIND = "blake2b-256-layers"
ENVIRONMENT_VARIABLE = "PY2048_TABLES_DIR"
TABLE_SUFFIX = ".table"
PARTIAL_SUFFIX = ".partial"
PROGRESS_SUFFIX = ".progress"
SEAL_SUFFIX = ".verified"
EXACT_SUFFIX = ".exact"
SETTLE_NS = 1_000_000_000
"""A file changed less than this before its check is not sealed: file times advance in coarse
steps, so a write in the same step as the last one could leave them as the seal saw them."""
NOT_BUILT = "not built"
_PREFIX = struct.Struct("<8sII")
_CHUNK = 1 << 24
_SEAL_BYTES = 4096


class TableError(Exception):
    """A table file that must not be used: missing, truncated, corrupted or of another
    formation. The message names the file and says how to rebuild it."""

    def __init__(self, path: Path, name: str, problem: str) -> None:
        self.path = path
        self.name = name
        self.problem = problem
        verb = "Build" if problem == NOT_BUILT else "Rebuild"
        super().__init__(
            f"table {name} ({path}): {problem}. {verb} it with `2048 tables build {name}`."
        )


@dataclass(frozen=True)
class TableHeader:
    """What a table file says about itself."""

    formation: Formation
    entries: int
    checksum: str
    build_seconds: float
    cores: int
    threads: int
    width: int = 2
    """Bytes a value: 2 (uint16) or 1 (a code of :data:`.codebook.CODE_BOOK`)."""
    peak_memory: int | None = None
    """The most memory (resident bytes) the build held, over all its runs; None: not recorded
    (a file built before py2048 recorded it, or where the system does not say)."""

    def to_json(self) -> dict[str, Any]:
        values: dict[str, Any] = {"dtype": DTYPE, "scale": VALUE_SCALE}
        if self.width == 1:
            values = {
                "dtype": PACKED_DTYPE,
                "code_book": CODE_BOOK_NAME,
                "code_book_digest": CODE_BOOK_DIGEST,
            }
        return {
            "formation": self.formation.to_json(),
            "entries": self.entries,
            **values,
            "order": ORDER,
            "checksum": self.checksum,
            "build_seconds": self.build_seconds,
            "cores": self.cores,
            "threads": self.threads,
            **({} if self.peak_memory is None else {"peak_memory": self.peak_memory}),
        }

    @property
    def version(self) -> int:
        return FORMAT_VERSION if self.width == 2 else PACKED_VERSION

    @property
    def file_size(self) -> int:
        return file_size(self.formation, self.width)


def file_size(formation: Formation, width: int = 2) -> int:
    """Bytes of the table file of ``formation`` at ``width`` bytes a value."""
    return PAYLOAD_OFFSET + width * formation.entries


def tables_dir(directory: str | os.PathLike[str] | None = None) -> Path:
    """``directory`` if given, else ``PY2048_TABLES_DIR``, else the user cache's tables folder."""
    return cache_folder("tables", ENVIRONMENT_VARIABLE, directory)


def table_path(name: str, directory: str | os.PathLike[str] | None = None) -> Path:
    """The finished table file of formation ``name``."""
    return tables_dir(directory) / f"{name}{TABLE_SUFFIX}"


def partial_path(name: str, directory: str | os.PathLike[str] | None = None) -> Path:
    """The payload of a build in progress (the final file's layout, header not yet written)."""
    return tables_dir(directory) / f"{name}{PARTIAL_SUFFIX}"


def progress_path(name: str, directory: str | os.PathLike[str] | None = None) -> Path:
    """The record of how far a build in progress has come."""
    return tables_dir(directory) / f"{name}{PROGRESS_SUFFIX}"


def exact_path(name: str, slot: int, directory: str | os.PathLike[str] | None = None) -> Path:
    """A 1-byte build's side file of one finished layer's exact (2-byte) values: ``slot`` is
    the layer's number modulo 3 (see :mod:`.builder`)."""
    return tables_dir(directory) / f"{name}{EXACT_SUFFIX}{slot}"


def encode_header(header: TableHeader) -> bytes:
    """The first ``PAYLOAD_OFFSET`` bytes of a table file."""
    text = json.dumps(header.to_json(), sort_keys=True, separators=(",", ":")).encode()
    block = _PREFIX.pack(MAGIC, header.version, len(text)) + text
    if len(block) > PAYLOAD_OFFSET:
        raise ValueError(f"table header of {len(block)} bytes does not fit in {PAYLOAD_OFFSET}")
    return block.ljust(PAYLOAD_OFFSET, b"\0")


def read_header(path: Path, name: str | None = None) -> TableHeader:
    """The header of a table file, checked for its form (not yet against its payload)."""
    name = name or path.name.removesuffix(TABLE_SUFFIX)
    try:
        with open_regular(path) as handle:
            block = handle.read(PAYLOAD_OFFSET)
    except FileNotFoundError:
        raise TableError(path, name, NOT_BUILT) from None
    except NotRegularFileError as exc:
        raise TableError(path, name, exc.strerror) from None
    except OSError as exc:
        raise TableError(path, name, f"cannot be read ({exc.strerror})") from None
    if len(block) < _PREFIX.size or block[:8] != MAGIC:
        raise TableError(path, name, "not a py2048 table file (its first bytes are wrong)")
    _, version, length = _PREFIX.unpack_from(block)
    if version == 1:
        raise TableError(
            path,
            name,
            "format version 1, from a py2048 before layer-ordered tables; this py2048 reads "
            f"version {FORMAT_VERSION}",
        )
    if version not in (FORMAT_VERSION, PACKED_VERSION):
        raise TableError(
            path,
            name,
            f"format version {version}; this py2048 reads versions {FORMAT_VERSION} (2-byte "
            f"values) and {PACKED_VERSION} (1-byte values)",
        )
    if _PREFIX.size + length > len(block):
        raise TableError(path, name, "its header is cut short")
    try:
        data = json.loads(block[_PREFIX.size : _PREFIX.size + length])
        header = TableHeader(
            formation=Formation.from_json(data["formation"]),
            entries=_whole(data["entries"]),
            checksum=str(data["checksum"]),
            build_seconds=float(data["build_seconds"]),
            cores=_whole(data["cores"]),
            threads=_whole(data["threads"]),
            width=2 if version == FORMAT_VERSION else 1,
            peak_memory=_whole(data["peak_memory"]) if "peak_memory" in data else None,
        )
        if data["order"] != ORDER:
            raise ValueError("unknown order")
        if version == FORMAT_VERSION and (data["dtype"] != DTYPE or data["scale"] != VALUE_SCALE):
            raise ValueError("unknown value type")
        if version == PACKED_VERSION and data["dtype"] != PACKED_DTYPE:
            raise ValueError("unknown value type")
        if version == PACKED_VERSION and (
            data["code_book"] != CODE_BOOK_NAME or data["code_book_digest"] != CODE_BOOK_DIGEST
        ):
            raise TableError(
                path,
                name,
                f"its 1-byte values use the code book {data['code_book']!r}, not this "
                f"py2048's {CODE_BOOK_NAME!r}",
            )
    except (ValueError, KeyError, TypeError) as exc:
        raise TableError(path, name, f"its header is damaged ({exc})") from None
    if header.entries != header.formation.entries:
        raise TableError(path, name, "its header is damaged (entries do not match formation)")
    return header


def _whole(value: object) -> int:
    if not is_int(value) or value < 0:
        raise ValueError(f"expected a whole number, got {value!r}")
    return value


def layer_digest(data: bytes | memoryview) -> bytes:
    """The digest of one layer's stored bytes."""
    return hashlib.blake2b(data, digest_size=32).digest()


def combined_checksum(digests: Sequence[bytes]) -> str:
    """A file's checksum from its layers' digests, lowest layer first."""
    return f"{CHECKSUM_KIND}:{hashlib.blake2b(b''.join(digests), digest_size=32).hexdigest()}"


def payload_checksum(handle: BufferedReader, formation: Formation, width: int = 2) -> str:
    """The checksum of a payload of ``width``-byte values read from ``handle``'s current
    position, layer by layer."""
    from py2048.tables.ranking import layer_sizes

    buffer = bytearray(_CHUNK)
    view = memoryview(buffer)
    digests = []
    for size in layer_sizes(formation):
        digest = hashlib.blake2b(digest_size=32)
        left = width * int(size)
        while left > 0:
            got = handle.readinto(view[: min(left, len(buffer))])
            if not got:
                break
            digest.update(view[:got])
            left -= got
        digests.append(digest.digest())
    return combined_checksum(digests)


def verify_file(path: Path, formation: Formation | None = None) -> TableHeader:
    """Check a table file whole: header, size and checksum, and (if given) its formation.

    Returns the header and seals the file (see :func:`check_file`); raises
    :class:`TableError` saying what is wrong and how to rebuild, and removes any seal.
    """
    seal = path.with_suffix(SEAL_SUFFIX)
    started = time.time_ns()
    try:
        header, identity = _verify_whole(path, formation)
    except TableError:
        with contextlib.suppress(OSError):
            seal.unlink(missing_ok=True)
        raise
    if max(identity["modified_ns"], identity["changed_ns"]) < started - SETTLE_NS:
        write_seal(seal, identity)
    return header


def check_file(path: Path, formation: Formation) -> TableHeader:
    """:func:`verify_file`, unless the file's seal of an earlier full check still matches it.

    Raises :class:`TableError` as :func:`verify_file` does.
    """
    header = read_header(path, formation.name)
    seal = read_seal(path.with_suffix(SEAL_SUFFIX))
    if header.formation == formation and seal == seal_identity(path, header.checksum):
        return header
    return verify_file(path, formation)


def _verify_whole(path: Path, formation: Formation | None) -> tuple[TableHeader, dict[str, Any]]:
    """The checked header, and the file's identity as it was before it was hashed."""
    name = formation.name if formation is not None else path.name.removesuffix(TABLE_SUFFIX)
    header = read_header(path, name)
    if formation is not None and header.formation != formation:
        raise TableError(
            path,
            name,
            f"it was built for another formation ({json.dumps(header.formation.to_json())})",
        )
    identity = seal_identity(path, header.checksum)
    size = identity["size"]
    if size != header.file_size:
        cut = "truncated" if size < header.file_size else "longer than its header says"
        raise TableError(path, name, f"{cut}: {size:,} bytes, expected {header.file_size:,}")
    try:
        with open_regular(path) as handle:
            handle.seek(PAYLOAD_OFFSET)
            checksum = payload_checksum(handle, header.formation, header.width)
    except OSError as exc:  # replaced since its header was read
        raise TableError(path, name, f"cannot be read ({exc.strerror})") from None
    if checksum != header.checksum:
        raise TableError(path, name, "corrupted: its contents do not match its checksum")
    return header, identity


def seal_identity(path: Path, checksum: str) -> dict[str, Any]:
    """What a seal records: the checksum and what the file system says of the file now."""
    stat = path.stat()
    return {
        "checksum": checksum,
        "device": stat.st_dev,
        "inode": stat.st_ino,
        "size": stat.st_size,
        "modified_ns": stat.st_mtime_ns,
        "changed_ns": stat.st_ctime_ns,
    }


def read_seal(seal: Path) -> object:
    try:
        with open_regular(seal) as handle:
            return json.loads(handle.read(_SEAL_BYTES).decode("utf-8"))
    except (OSError, ValueError):
        return None


def write_seal(seal: Path, identity: dict[str, Any]) -> None:
    """Write the seal atomically; a folder that cannot be written only costs the next process
    a full check."""
    temporary = seal.with_name(f"{seal.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(json.dumps(identity, sort_keys=True), encoding="utf-8")
        os.replace(temporary, seal)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
