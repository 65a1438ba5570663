"""Perfect play on 3x3: the whole game solved exactly, built on demand.

For every position a 3x3 game can reach (the player to move), the table holds the optimal
expected score still to come and the optimal chances of making 256, 512 and 1024, each its own
optimum (the best play for one goal is not the best for another). ``2048 tables build 3x3``
builds it (:func:`build_perfect_table`), into the tables' folder
(:func:`py2048.tables.tables_dir`: ``--dir``, ``PY2048_TABLES_DIR`` or the user cache), and
:func:`perfect_table` opens it::

    from py2048.engine.size import BoardSize
    from py2048.tables.perfect import perfect_table

    table = perfect_table(BoardSize(3, 3))  # None if not built (or not 3x3)
    board = [1, 0, 0, 0, 0, 0, 0, 0, 1]  # exponents, row-major: a 2 in two corners
    table.value(board)  # the best expected score to come
    table.reach(board, 1024)  # the best chance of making 1024
    table.move_values(board)  # each direction's value (None: it does not move)

**How it is solved.** As the endgame tables solve a formation: by tile sum. A move keeps a
board's tile sum and a spawn adds 2 or 4, so the positions of one sum (a *layer*, half the sum)
depend only on the two layers above. A forward pass lists the positions reachable from every
opening (two tiles on the empty board), layer by layer from the lowest, each once per symmetry
class (the smallest of its eight symmetric packings, :mod:`.perfect_kernels`); then the layers
are solved from the highest down, each position's values the best over its moves of the move's
points plus the spawn-weighted mean of the values of the positions it can lead to. Values are
computed in float64 from the stored (float32) values above them, so a build is reproducible.

**The file** ``perfect-3x3.table``, little-endian:

==========  =======  ==================================================================
offset      size     content
==========  =======  ==================================================================
0           8        magic ``b"PY2048PP"``
8           4        format version (uint32)
12          4        length ``L`` of the header JSON (uint32)
16          L        header JSON: ``size`` ([3, 3]), ``positions`` (N), ``buckets`` (B),
                     ``columns``, ``checksum`` (``"blake2b-256:"`` and a hex digest of
                     the payload), ``build_seconds``, ``peak_memory_bytes``, ``cores``,
                     ``threads``
16 + L      ...      zeros up to ``PAYLOAD_OFFSET`` (4096)
4096        8(B+1)   ``starts`` (int64): bucket ``b = 16 * layer + e8`` (``e8`` the
                     exponent of the last cell of the canonical packing) holds the rows
                     ``starts[b] .. starts[b + 1] - 1``
...         4N       the low 32 bits of each row's canonical packing (uint32), ascending
                     within a bucket; padded with zeros to a multiple of 8 bytes
...         16N      each row's four values (float32): score, 256, 512, 1024
==========  =======  ==================================================================

A file whose size is not what its header says, or whose payload does not hash to its
checksum, is refused (:class:`PerfectTableError`, which says how to rebuild it); a file that
hashed right gets a seal beside it as the endgame tables do (:mod:`.storage`), so the check
costs a full read only once. The build writes a temporary file in the same folder and renames
it over the table only when it is whole and synced: a stopped build leaves no table (run it
again; it starts over).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import mmap
import os
import resource
import struct
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from py2048.engine.integers import is_integer
from py2048.engine.size import BoardSize
from py2048.files import fsync_folder, open_regular
from py2048.tables.storage import (
    SEAL_SUFFIX,
    SETTLE_NS,
    TableError,
    read_seal,
    seal_identity,
    tables_dir,
    write_seal,
)

__all__ = [
    "NAME",
    "PERFECT_SIZE",
    "PerfectTable",
    "PerfectTableError",
    "PositionNotInTable",
    "build_perfect_table",
    "open_perfect_table",
    "perfect_path",
    "perfect_table",
]

PERFECT_SIZE = BoardSize(3, 3)
"""The one size with a perfect-play table."""
NAME = "perfect-3x3"
"""The table's name: its file is ``NAME.table`` in the tables' folder."""
COMMAND = "2048 tables build 3x3"
MAGIC = b"PY2048PP"
FORMAT_VERSION = 1
PAYLOAD_OFFSET = 4096
BUCKETS_PER_LAYER = 16
TARGET_TILES = (256, 512, 1024)
"""The tiles whose chances the table holds, in the order of its columns 1 to 3."""
CHECKSUM_KIND = "blake2b-256"
_PREFIX = struct.Struct("<8sII")
_CHUNK = 1 << 24
_CELLS = PERFECT_SIZE.cells


class PerfectTableError(TableError):
    """A perfect-play table file that must not be used: missing, cut short, damaged or of
    another version. The message names the file and gives the command that rebuilds it."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(path, NAME, problem)
        verb = "Build" if problem == "not built" else "Rebuild"
        self.args = (
            f"the 3x3 perfect-play table ({path}): {problem}. {verb} it with `{COMMAND}`.",
        )

    def __str__(self) -> str:
        return str(self.args[0])


class PositionNotInTable(KeyError):
    """A position that no 3x3 game reaches (one set up by hand), whose values the table does
    not hold. Its message says so."""

    def __str__(self) -> str:
        return str(self.args[0])


def perfect_path(directory: str | os.PathLike[str] | None = None) -> Path:
    """The table's file in ``directory`` (default: :func:`~py2048.tables.tables_dir`)."""
    return tables_dir(directory) / f"{NAME}.table"


# --- the header -----------------------------------------------------------------------------


@dataclass(frozen=True)
class PerfectHeader:
    """What a perfect-play table file says about itself."""

    positions: int
    buckets: int
    checksum: str
    build_seconds: float
    peak_memory_bytes: int
    cores: int
    threads: int

    def to_json(self) -> dict[str, Any]:
        return {
            "size": list(PERFECT_SIZE),
            "positions": self.positions,
            "buckets": self.buckets,
            "columns": ["score", *(str(t) for t in TARGET_TILES)],
            "dtype": "<f4",
            "checksum": self.checksum,
            "build_seconds": self.build_seconds,
            "peak_memory_bytes": self.peak_memory_bytes,
            "cores": self.cores,
            "threads": self.threads,
        }

    @property
    def keys_offset(self) -> int:
        return PAYLOAD_OFFSET + 8 * (self.buckets + 1)

    @property
    def values_offset(self) -> int:
        return self.keys_offset + _padded(4 * self.positions)

    @property
    def file_size(self) -> int:
        return self.values_offset + 16 * self.positions


def _padded(count: int) -> int:
    return (count + 7) // 8 * 8


def _encode_header(header: PerfectHeader) -> bytes:
    text = json.dumps(header.to_json(), sort_keys=True, separators=(",", ":")).encode()
    return (_PREFIX.pack(MAGIC, FORMAT_VERSION, len(text)) + text).ljust(PAYLOAD_OFFSET, b"\0")


def _whole(data: dict[str, Any], field: str) -> int:
    value = data[field]
    if not is_integer(value) or isinstance(value, float) or int(value) < 0:
        raise ValueError(f"{field} is not a whole number: {value!r}")
    return int(value)


def read_perfect_header(path: Path) -> PerfectHeader:
    """The header of the table file at ``path``, checked for its form (PerfectTableError)."""
    try:
        with open_regular(path) as handle:
            block = handle.read(PAYLOAD_OFFSET)
    except FileNotFoundError:
        raise PerfectTableError(path, "not built") from None
    except OSError as exc:
        raise PerfectTableError(path, f"cannot be read ({exc.strerror})") from None
    if len(block) < _PREFIX.size or block[:8] != MAGIC:
        raise PerfectTableError(path, "not a py2048 perfect-play table (its first bytes are wrong)")
    _, version, length = _PREFIX.unpack_from(block)
    if version != FORMAT_VERSION:
        raise PerfectTableError(
            path, f"format version {version}; this py2048 reads version {FORMAT_VERSION}"
        )
    if _PREFIX.size + length > len(block):
        raise PerfectTableError(path, "its header is cut short")
    try:
        data = json.loads(block[_PREFIX.size : _PREFIX.size + length])
        if data["size"] != list(PERFECT_SIZE) or data["dtype"] != "<f4":
            raise ValueError("another size or value type")
        header = PerfectHeader(
            positions=_whole(data, "positions"),
            buckets=_whole(data, "buckets"),
            checksum=str(data["checksum"]),
            build_seconds=float(data["build_seconds"]),
            peak_memory_bytes=_whole(data, "peak_memory_bytes"),
            cores=_whole(data, "cores"),
            threads=_whole(data, "threads"),
        )
    except (ValueError, KeyError, TypeError) as exc:
        raise PerfectTableError(path, f"its header is damaged ({exc})") from None
    return header


def _payload_checksum(handle: Any, length: int) -> str:
    digest = hashlib.blake2b(digest_size=32)
    buffer = bytearray(_CHUNK)
    view = memoryview(buffer)
    left = length
    while left > 0:
        got = handle.readinto(view[: min(left, _CHUNK)])
        if not got:
            break
        digest.update(view[:got])
        left -= got
    return f"{CHECKSUM_KIND}:{digest.hexdigest()}"


def verify_perfect_file(path: Path) -> PerfectHeader:
    """Check the table file whole (header, size, checksum) and seal it; PerfectTableError if
    it is bad (its seal is then removed)."""
    seal = path.with_suffix(SEAL_SUFFIX)
    started = time.time_ns()
    try:
        header = read_perfect_header(path)
        identity = seal_identity(path, header.checksum)
        size = identity["size"]
        if size != header.file_size:
            cut = "truncated" if size < header.file_size else "longer than its header says"
            raise PerfectTableError(path, f"{cut}: {size:,} bytes, expected {header.file_size:,}")
        try:
            with open_regular(path) as handle:
                handle.seek(PAYLOAD_OFFSET)
                checksum = _payload_checksum(handle, header.file_size - PAYLOAD_OFFSET)
        except OSError as exc:
            raise PerfectTableError(path, f"cannot be read ({exc.strerror})") from None
        if checksum != header.checksum:
            raise PerfectTableError(path, "corrupted: its contents do not match its checksum")
    except PerfectTableError:
        with contextlib.suppress(OSError):
            seal.unlink(missing_ok=True)
        raise
    if max(identity["modified_ns"], identity["changed_ns"]) < started - SETTLE_NS:
        write_seal(seal, identity)
    return header


def check_perfect_file(path: Path) -> PerfectHeader:
    """:func:`verify_perfect_file`, unless the seal of an earlier full check still matches."""
    header = read_perfect_header(path)
    if read_seal(path.with_suffix(SEAL_SUFFIX)) == seal_identity(path, header.checksum):
        return header
    return verify_perfect_file(path)


# --- the table ------------------------------------------------------------------------------


def _checked_cells(exponents: Sequence[int]) -> np.ndarray:
    """A 3x3 board's nine exponents as a uint8 array; ValueError naming a bad one."""
    if isinstance(exponents, (str, bytes)) or len(exponents) != _CELLS:
        raise ValueError(f"exponents must be {_CELLS} exponents (a 3x3 board, row-major)")
    for index, e in enumerate(exponents):
        if not is_integer(e) or not 0 <= int(e) <= PERFECT_SIZE.max_exponent:
            raise ValueError(
                f"exponents[{index}] = {e!r} is not an exponent of a 3x3 tile "
                f"(0 empty, 1 to {PERFECT_SIZE.max_exponent})"
            )
    return np.array([int(e) for e in exponents], dtype=np.uint8)


class PerfectTable:
    """The solved 3x3 game, read from its file (a read-only memory map).

    Positions are given as nine exponents, row-major (0 empty, ``e`` the tile ``2 ** e``, at
    most 10). The table holds every position a game can reach; a position set up by hand that
    no game reaches may not be in it, and then the methods answer from the positions its
    moves lead to when those are in it, and raise :class:`PositionNotInTable` (a KeyError)
    otherwise.
    """

    def __init__(self, path: Path, header: PerfectHeader) -> None:
        from py2048.tables.perfect_kernels import SYMMETRIES

        self.path = path
        self.header = header
        with open_regular(path) as handle:
            self._map = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        buffer = memoryview(self._map)
        self.starts = np.frombuffer(
            buffer, dtype="<i8", count=header.buckets + 1, offset=PAYLOAD_OFFSET
        )
        self.keys = np.frombuffer(
            buffer, dtype="<u4", count=header.positions, offset=header.keys_offset
        )
        self.values = np.frombuffer(
            buffer, dtype="<f4", count=4 * header.positions, offset=header.values_offset
        ).reshape(header.positions, 4)
        self._symmetries = SYMMETRIES

    @property
    def size(self) -> BoardSize:
        return PERFECT_SIZE

    @property
    def positions(self) -> int:
        """How many positions (one per symmetry class) the table holds."""
        return self.header.positions

    def _cells(self, exponents: Sequence[int]) -> np.ndarray:
        return _checked_cells(exponents)

    def _row(self, cells: np.ndarray) -> int:
        from py2048.tables.perfect_kernels import row_of

        return int(row_of(cells, self.keys, self.starts, self._symmetries))

    def _moves(self, cells: np.ndarray) -> tuple[np.ndarray, int, int]:
        """Each direction's four values, the mask of directions that move, and the mask of
        those with a position after them that the table does not hold."""
        from py2048.tables.perfect_kernels import move_values_into

        out = np.zeros((4, 4), dtype=np.float64)
        status = int(
            move_values_into(cells, self.keys, self.starts, self.values, self._symmetries, out)
        )
        return out, status & 15, status >> 4

    def _not_held(self, cells: np.ndarray) -> PositionNotInTable:
        board = [int(e) for e in cells]
        return PositionNotInTable(
            f"the 3x3 position {board} (exponents) is not in the perfect-play table, nor are "
            "all the positions its moves lead to: no game reaches it"
        )

    def _column(self, cells: np.ndarray, column: int) -> float:
        row = self._row(cells)
        if row >= 0:
            return float(self.values[row, column])
        out, mask, missing = self._moves(cells)
        if missing:
            raise self._not_held(cells)
        if not mask:
            return 0.0
        return max(float(out[d, column]) for d in range(4) if mask >> d & 1)

    def value(self, exponents: Sequence[int]) -> float:
        """The optimal expected score still to come from this position (0 when it is over)."""
        return self._column(self._cells(exponents), 0)

    def reach(self, exponents: Sequence[int], tile: int) -> float:
        """The optimal chance of making ``tile`` (256, 512 or 1024) from this position; 1.0 if
        it, or a larger tile, is already on the board (a larger tile was made from it)."""
        if tile not in TARGET_TILES:
            raise ValueError(
                f"tile must be one of {', '.join(map(str, TARGET_TILES))}, got {tile!r}"
            )
        cells = self._cells(exponents)
        if int(cells.max()) >= tile.bit_length() - 1:
            return 1.0
        return self._column(cells, 1 + TARGET_TILES.index(tile))

    def move_values(self, exponents: Sequence[int]) -> list[float | None]:
        """For each direction (0 up, 1 right, 2 down, 3 left): the optimal expected score still
        to come after playing it, the move's own points included; None where it does not
        move. Raises :class:`PositionNotInTable` if a position a move leads to is not held."""
        cells = self._cells(exponents)
        out, mask, missing = self._moves(cells)
        if missing:
            raise self._not_held(cells)
        return [float(out[d, 0]) if mask >> d & 1 else None for d in range(4)]

    def move_reach(self, exponents: Sequence[int], tile: int) -> list[float | None]:
        """For each direction: the optimal chance of making ``tile`` after playing it; None
        where it does not move."""
        if tile not in TARGET_TILES:
            raise ValueError(
                f"tile must be one of {', '.join(map(str, TARGET_TILES))}, got {tile!r}"
            )
        cells = self._cells(exponents)
        out, mask, missing = self._moves(cells)
        if missing:
            raise self._not_held(cells)
        column = 1 + TARGET_TILES.index(tile)
        return [float(out[d, column]) if mask >> d & 1 else None for d in range(4)]


def open_perfect_table(directory: str | os.PathLike[str] | None = None) -> PerfectTable:
    """Open the built table, checked whole (once per file, see the module); raises
    :class:`PerfectTableError` (missing, cut short, damaged) with the command that rebuilds it."""
    path = perfect_path(directory)
    return PerfectTable(path, check_perfect_file(path))


def perfect_table(size: BoardSize, directory: Path | None = None) -> PerfectTable | None:
    """The perfect-play table of boards of ``size``: None when ``size`` is not 3x3 or the
    table is not built. A bad file (cut short, damaged) is never used: this warns with what is
    wrong and the command that rebuilds it, and returns None."""
    if tuple(size) != tuple(PERFECT_SIZE):
        return None
    try:
        return open_perfect_table(directory)
    except PerfectTableError as error:
        if error.problem != "not built":
            warnings.warn(str(error), stacklevel=2)
        return None


# --- the build ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PerfectProgress:
    """How far a build has come: ``stage`` "listing" (the forward pass, ``done`` layers of at
    most ``total``) or "solving" (``done`` positions of ``total``)."""

    stage: str
    done: int
    total: int


def peak_memory_bytes() -> int:
    """This process's peak resident memory so far."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak) if sys.platform == "darwin" else int(peak) * 1024


def _openings(boards: Sequence[Sequence[int]] | None = None) -> dict[int, np.ndarray]:
    """The canonical keys of the given boards (nine exponents each), by layer; without boards,
    of every opening of a game (two tiles, 2s or 4s, on the empty board)."""
    from py2048.tables.perfect_kernels import SYMMETRIES, canonical, layer_of

    if boards is None:
        every: list[list[int]] = []
        for a in range(_CELLS):
            for b in range(a + 1, _CELLS):
                for ea in (1, 2):
                    for eb in (1, 2):
                        opening = [0] * _CELLS
                        opening[a], opening[b] = ea, eb
                        every.append(opening)
        boards = every
    found: dict[int, set[int]] = {}
    for board in boards:
        cells = _checked_cells(board)
        key = int(canonical(cells, SYMMETRIES))
        found.setdefault(int(layer_of(cells)), set()).add(key)
    return {layer: np.array(sorted(keys), dtype=np.uint64) for layer, keys in found.items()}


def list_positions(
    progress: Callable[[PerfectProgress], None] | None = None,
    openings: Sequence[Sequence[int]] | None = None,
) -> list[np.ndarray]:
    """Every reachable position's canonical key, by layer (``result[L]``: layer ``L``, sorted);
    with ``openings``, only those reachable from these boards (see :func:`build_perfect_table`)."""
    from py2048.tables.perfect_kernels import children

    pending: dict[int, list[np.ndarray]] = {
        layer: [keys] for layer, keys in _openings(openings).items()
    }
    layers: list[np.ndarray] = []
    layer = 0
    last = PERFECT_SIZE.max_tile  # an upper bound of the last layer
    while pending:
        parts = pending.pop(layer, [])
        keys = np.unique(np.concatenate(parts)) if parts else np.empty(0, dtype=np.uint64)
        layers.append(keys)
        if keys.size:
            twos, fours = children(keys)
            if twos.size:
                pending.setdefault(layer + 1, []).append(twos)
            if fours.size:
                pending.setdefault(layer + 2, []).append(fours)
        if progress is not None:
            progress(PerfectProgress("listing", layer + 1, last))
        layer += 1
    return layers


def _bucket_starts(layers: list[np.ndarray]) -> np.ndarray:
    starts = np.zeros(len(layers) * BUCKETS_PER_LAYER + 1, dtype=np.int64)
    offset = 0
    nibbles = np.arange(BUCKETS_PER_LAYER, dtype=np.uint64)
    for layer, keys in enumerate(layers):
        high = keys >> np.uint64(32)
        first = layer * BUCKETS_PER_LAYER
        starts[first : first + BUCKETS_PER_LAYER] = offset + np.searchsorted(high, nibbles)
        offset += keys.size
    starts[-1] = offset
    return starts


def build_perfect_table(
    directory: str | os.PathLike[str] | None = None,
    *,
    progress: Callable[[PerfectProgress], None] | None = None,
    threads: int | None = None,
    openings: Sequence[Sequence[int]] | None = None,
) -> Path:
    """Solve 3x3 and write the table (atomically) into ``directory``; returns its path.

    Takes about 5 minutes, 0.65 GB of memory and 1 GB of disk (``docs/tables.md`` has the
    measured figures). A stopped build leaves no table and no temporary file. With
    ``openings`` (boards of nine exponents) it solves only the positions reachable from them:
    a table of a part of the game, small enough for tests and for studying an ending.
    """
    from py2048.tables.builder import threads_used
    from py2048.tables.perfect_kernels import SYMMETRIES, solve_layer

    started = time.monotonic()
    folder = tables_dir(directory)
    folder.mkdir(parents=True, exist_ok=True)
    target = perfect_path(folder)
    with threads_used(threads) as used:
        layers = list_positions(progress, openings)
        starts = _bucket_starts(layers)
        positions = int(starts[-1])
        header = PerfectHeader(
            positions=positions,
            buckets=starts.size - 1,
            checksum="",
            build_seconds=0.0,
            peak_memory_bytes=0,
            cores=os.cpu_count() or 1,
            threads=used,
        )
        temporary = folder / f".{target.name}.{os.getpid()}.tmp"
        try:
            with open(temporary, "w+b") as handle:
                descriptor = handle.fileno()
                if hasattr(os, "posix_fallocate"):  # a disk too small fails here, at once
                    os.posix_fallocate(descriptor, 0, header.file_size)
                else:
                    os.ftruncate(descriptor, header.file_size)
                os.pwrite(descriptor, starts.astype("<i8").tobytes(), PAYLOAD_OFFSET)
                offset = 0
                for keys in layers:
                    low = (keys & np.uint64(0xFFFFFFFF)).astype("<u4")
                    os.pwrite(descriptor, low.tobytes(), header.keys_offset + 4 * offset)
                    offset += keys.size
                done = 0
                above: dict[int, np.ndarray] = {}
                empty_values = np.zeros((0, 4), dtype=np.float32)
                empty_keys = np.empty(0, dtype=np.uint64)
                for layer in range(len(layers) - 1, -1, -1):
                    keys = layers[layer]
                    keys2 = layers[layer + 1] if layer + 1 < len(layers) else empty_keys
                    keys4 = layers[layer + 2] if layer + 2 < len(layers) else empty_keys
                    values64, missing = solve_layer(
                        keys,
                        keys2,
                        above.get(layer + 1, empty_values),
                        keys4,
                        above.get(layer + 2, empty_values),
                        SYMMETRIES,
                    )
                    if missing:  # the forward pass lists every child; this is a bug
                        raise RuntimeError(f"layer {layer}: {missing} children not listed")
                    values = values64.astype(np.float32)
                    first = int(starts[layer * BUCKETS_PER_LAYER])
                    os.pwrite(
                        descriptor,
                        values.astype("<f4").tobytes(),
                        header.values_offset + 16 * first,
                    )
                    above.pop(layer + 2, None)
                    above[layer] = values
                    done += keys.size
                    if progress is not None:
                        progress(PerfectProgress("solving", done, positions))
                handle.flush()
                handle.seek(PAYLOAD_OFFSET)
                checksum = _payload_checksum(handle, header.file_size - PAYLOAD_OFFSET)
                final = PerfectHeader(
                    positions=positions,
                    buckets=header.buckets,
                    checksum=checksum,
                    build_seconds=round(time.monotonic() - started, 1),
                    peak_memory_bytes=peak_memory_bytes(),
                    cores=header.cores,
                    threads=used,
                )
                os.pwrite(descriptor, _encode_header(final), 0)
                os.fsync(descriptor)
            os.replace(temporary, target)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
    fsync_folder(folder)
    target.with_suffix(SEAL_SUFFIX).unlink(missing_ok=True)
    return target
