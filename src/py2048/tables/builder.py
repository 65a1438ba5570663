"""Build a formation's table: expectimax to the end, by dynamic programming, resumably.

**The positions.** A position gives each free cell a rank ``0 .. t - 1`` (``t = log2(target)``),
or up to the cell's cap, and is stored at ``index = sum(rank[cell] * place_values[cell])`` (the
free cells in increasing order are the digits of the index in base t, or in the mixed radix of
the caps), so a table has ``t ** n`` entries for ``n`` free cells without caps. The fixed cells
hold walls (:mod:`.kernels`).

**The recurrence.** A position's value is the best over its allowed moves (0 if there is none)
of the afterstate's value: 1 if the move made the target on a target cell, 0 if it made it on
another free cell (an approximation: the target made elsewhere counts as failure) or made a tile
above a cell's cap, else the mean over the empty free cells of ``0.9 * v(a 2 there) + 0.1 *
v(a 4 there)``. A spawn in
cell ``c`` adds ``rank * place_values[c]`` to the afterstate's index, so children are found
without re-encoding. Values are stored as uint16 (``round(p * 65535)``) and every value is
computed in float64 from its children's stored values, so a build is exactly reproducible.

**The order.** Moves keep the sum of the free tiles and spawns add 2 or 4, so every child lies
in a layer of higher sum. Layers (layer ``L`` holds the sum ``2 L``) are solved from the highest
sum down, each in parallel (numba ``prange``) over its positions, which read only finished
layers: deterministic, without races. A count of every layer's positions, then one pass over
the index range per *band* of layers (:data:`BAND_POSITIONS`) gathers their indices: memory
stays bounded for tables of billions of positions.

**Resuming.** The values being built live in ``NAME.partial``, laid out as the final file
with its header block still empty. Every minute (:data:`CHECKPOINT_SECONDS`), and when a
build stops on an exception (Ctrl-C included), the partial file is flushed and then
``NAME.progress`` records the layers finished (written atomically). A build that finds both
resumes after the last recorded layer; layers are recomputed whole, so the finished file is
byte-identical to an uninterrupted build. At the end the header is written into the partial
file, which is synced and renamed over ``NAME.table``.

**Disk space.** Before any layer is solved, the partial file's blocks are reserved
(``posix_fallocate``): writes through a memory map cannot report a full disk (the process
would die of SIGBUS), so a disk too small for the table stops the build at its start with an
OSError instead. On file systems that cannot reserve blocks (some copy-on-write ones) a full
disk can still end a build with SIGBUS.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numba
import numpy as np
from numba import njit, prange

from py2048.engine.board import ROW_TABLES
from py2048.files import atomic_write, fsync_folder, open_regular
from py2048.tables.formations import Formation
from py2048.tables.kernels import SCALE, WALL, direction_value, wall_position
from py2048.tables.layout import layout
from py2048.tables.storage import (
    DTYPE,
    PAYLOAD_OFFSET,
    TableHeader,
    encode_header,
    partial_path,
    payload_checksum,
    progress_path,
    table_path,
    tables_dir,
)

try:  # POSIX: one build of a table at a time
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

CHECKPOINT_SECONDS = 60.0
"""How often a running build records its progress: a crash loses at most this much work. Each
record first writes the values changed since the last one back to disk, scattered over the
whole file, so recording every few seconds wrote the file many times over (snake6-512: 5 GB
written for a 457 MB table, and a third of the build's time)."""
PROGRESS_VERSION = 1
_RECORD_BYTES = 1 << 16
_CHUNKS = 256
BAND_POSITIONS = 1 << 28
"""The most positions whose indices a build holds in memory at once (8 bytes each): layers are
gathered in bands of about this many, so a table's build needs 2 GB besides its values however
large it is."""


@dataclass(frozen=True)
class BuildProgress:
    """How far a build has come; passed to the ``progress`` callback of :func:`build_table`."""

    formation: Formation
    layers_done: int
    layers: int
    positions_done: int
    positions: int
    layers_done_at_start: int
    positions_at_start: int
    """Layers and positions already done when this run started (a resumed build: above 0)."""


def layer_count(formation: Formation) -> int:
    """Layers of a formation's table: the free-region tile sums 0, 2, ..., up to every free
    cell holding its largest tile (half the target, or its cap)."""
    return sum(1 << (radix - 2) for radix in formation.radices) + 1


def wall_board(formation: Formation) -> tuple[int, int]:
    """``(lo, hi)`` of the empty position: walls on the fixed cells, free cells empty."""
    lo = hi = 0
    for cell in formation.fixed:
        lo |= (WALL & 0xF) << (4 * cell)
        hi |= (WALL >> 4) << cell
    return lo, hi


# --- kernels ------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _start_digits(index: int, radices: np.ndarray, digits: np.ndarray) -> int:
    """Write the mixed-radix digits of ``index``; return the position's layer (tile sum / 2)."""
    layer = 0
    for k in range(digits.size):
        digits[k] = index % radices[k]
        index //= radices[k]
        if digits[k] > 0:
            layer += 1 << (digits[k] - 1)
    return layer


@njit(cache=True, nogil=True)
def _next_digits(layer: int, radices: np.ndarray, digits: np.ndarray) -> int:
    """Step the digits to the next index (an odometer); return the new layer."""
    for k in range(digits.size):
        rank = digits[k]
        if rank > 0:
            layer -= 1 << (rank - 1)
        if rank + 1 < radices[k]:
            digits[k] = rank + 1
            return layer + (1 << rank)
        digits[k] = 0
    return layer


@njit(cache=True, nogil=True)
def _entries(radices: np.ndarray) -> int:
    """How many positions the mixed radix numbers: the product of the radices."""
    entries = 1
    for radix in radices:
        entries *= radix
    return entries


@njit(parallel=True, cache=True)
def _count_by_layer(radices: np.ndarray, counts: np.ndarray) -> None:
    """``counts[chunk, L]``: how many indices of each fixed chunk of the index range lie in
    layer ``L`` (chunks are fixed, so the result never depends on threads)."""
    entries = _entries(radices)
    chunks = counts.shape[0]
    for chunk in prange(chunks):
        begin = entries * chunk // chunks
        end = entries * (chunk + 1) // chunks
        digits = np.zeros(radices.size, dtype=np.int64)
        layer = _start_digits(begin, radices, digits)
        for _ in range(begin, end):
            counts[chunk, layer] += 1
            layer = _next_digits(layer, radices, digits)


@njit(parallel=True, cache=True)
def _gather_band(radices: np.ndarray, counts: np.ndarray, low: int, high: int, order: np.ndarray):
    """Gather the indices of layers ``low .. high - 1`` into ``order``, grouped by layer in
    increasing order, each layer's in increasing index order."""
    entries = _entries(radices)
    chunks = counts.shape[0]
    offsets = np.empty((chunks, high - low), dtype=np.int64)
    position = 0
    for layer in range(low, high):
        for chunk in range(chunks):
            offsets[chunk, layer - low] = position
            position += counts[chunk, layer]
    for chunk in prange(chunks):
        begin = entries * chunk // chunks
        end = entries * (chunk + 1) // chunks
        digits = np.zeros(radices.size, dtype=np.int64)
        layer = _start_digits(begin, radices, digits)
        for index in range(begin, end):
            if low <= layer < high:
                order[offsets[chunk, layer - low]] = index
                offsets[chunk, layer - low] += 1
            layer = _next_digits(layer, radices, digits)


@njit(parallel=True, cache=True)
def _solve_layer(
    positions: np.ndarray,
    values: np.ndarray,
    arrays: np.ndarray,
    rank_limit: int,
    wall_lo: np.uint64,
    wall_hi: np.uint64,
    tables: np.ndarray,
) -> None:
    """Value every position of one layer from the finished layers above it."""
    for i in prange(positions.size):
        index = np.int64(positions[i])
        lo = wall_position(index, wall_lo, arrays)
        best = 0.0
        for direction in range(4):
            value = direction_value(lo, wall_hi, direction, values, arrays, rank_limit, tables)
            if value > best:
                best = value
        values[index] = np.uint16(np.floor(best * SCALE + 0.5))


# --- the build ----------------------------------------------------------------------------


def build_table(
    formation: Formation,
    directory: str | os.PathLike[str] | None = None,
    *,
    progress: Callable[[BuildProgress], None] | None = None,
    threads: int | None = None,
    restart: bool = False,
    clock: Callable[[], float] = time.monotonic,
) -> Path:
    """Build ``formation``'s table in ``directory`` (see :func:`.storage.tables_dir`).

    Resumes a build that was stopped (unless ``restart``). ``progress`` is called once at the
    start and after every layer; an exception it raises stops the build as Ctrl-C does,
    leaving it resumable. ``threads``: numba threads (default: all). ``clock``: the clock
    whose seconds the file records as its build time. Returns the finished file's path.
    """
    folder = tables_dir(directory)
    folder.mkdir(parents=True, exist_ok=True)
    final = table_path(formation.name, folder)
    partial = partial_path(formation.name, folder)
    record = progress_path(formation.name, folder)
    started = clock()
    layers = layer_count(formation)
    entries = formation.entries
    with _threads(threads) as used, _locked(partial, formation.name) as resumable:
        state = None if restart or not resumable else _read_progress(record, partial, formation)
        if state is None:
            record.unlink(missing_ok=True)  # no record may outlive the values it describes
            _reset_partial(partial, entries)
            state = (0, 0.0)
            _write_progress(record, formation, 0, 0.0)
        _reserve(partial, fresh=state[0] == 0)
        layers_done, seconds_before = state

        def seconds() -> float:
            return seconds_before + (clock() - started)

        counts = np.zeros((min(_CHUNKS, entries), layers), dtype=np.int64)
        radices = np.array(formation.radices, dtype=np.int64)
        _count_by_layer(radices, counts)
        starts = np.zeros(layers + 1, dtype=np.int64)
        np.cumsum(counts.sum(axis=0), out=starts[1:])
        values = np.memmap(partial, dtype=DTYPE, mode="r+", offset=PAYLOAD_OFFSET, shape=entries)
        arrays = layout(formation)
        wall_lo, wall_hi = (np.uint64(word) for word in wall_board(formation))

        def report() -> None:
            if progress is not None:
                done = int(starts[layers] - starts[layers - layers_done])
                progress(
                    BuildProgress(
                        formation, layers_done, layers, done, entries, first_layer, at_start
                    )
                )

        first_layer = layers_done
        at_start = int(starts[layers] - starts[layers - layers_done])
        report()
        last_checkpoint = time.monotonic()
        try:
            for low, high in _bands(starts, layers - layers_done):
                order = np.empty(starts[high] - starts[low], dtype=np.int64)
                _gather_band(radices, counts, low, high, order)
                for layer in range(high - 1, low - 1, -1):
                    begin, end = starts[layer] - starts[low], starts[layer + 1] - starts[low]
                    if end > begin:
                        _solve_layer(
                            order[begin:end],
                            values,
                            arrays,
                            formation.rank_limit,
                            wall_lo,
                            wall_hi,
                            ROW_TABLES,
                        )
                    layers_done = layers - layer
                    if time.monotonic() - last_checkpoint >= CHECKPOINT_SECONDS:
                        values.flush()
                        _write_progress(record, formation, layers_done, seconds())
                        last_checkpoint = time.monotonic()
                    report()
                del order
        except BaseException:
            values.flush()
            _write_progress(record, formation, layers_done, seconds())
            raise
        values.flush()
        del values
        header_seconds = round(seconds(), 3)
        with open(partial, "r+b") as handle:
            handle.seek(PAYLOAD_OFFSET)
            checksum = payload_checksum(handle, 2 * entries)
            header = TableHeader(
                formation, entries, checksum, header_seconds, os.cpu_count() or 1, used
            )
            handle.seek(0)
            handle.write(encode_header(header))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(partial, final)
    fsync_folder(folder)
    record.unlink(missing_ok=True)
    return final


def _bands(starts: np.ndarray, top: int) -> Iterator[tuple[int, int]]:
    """Layers ``0 .. top - 1`` in bands ``(low, high)`` of at most :data:`BAND_POSITIONS`
    positions (or one layer, if larger), from the highest layers down."""
    high = top
    while high > 0:
        low = high - 1
        while low > 0 and starts[high] - starts[low - 1] <= BAND_POSITIONS:
            low -= 1
        yield low, high
        high = low


def partial_layers(
    formation: Formation, directory: str | os.PathLike[str] | None = None
) -> int | None:
    """Layers a stopped build of ``formation`` has finished, or None when there is none."""
    record = progress_path(formation.name, directory)
    state = _read_progress(record, partial_path(formation.name, directory), formation)
    return None if state is None else state[0]


def _read_progress(record: Path, partial: Path, formation: Formation) -> tuple[int, float] | None:
    """``(layers_done, seconds)`` of a stopped build of this formation, or None."""
    try:
        with open_regular(record) as handle:
            data = json.loads(handle.read(_RECORD_BYTES))
        if (
            data["version"] != PROGRESS_VERSION
            or data["formation"] != formation.to_json()
            or data["entries"] != formation.entries
            or data["layers"] != layer_count(formation)
            or not 0 <= data["layers_done"] <= data["layers"]
        ):
            return None
        if partial.stat().st_size != PAYLOAD_OFFSET + 2 * formation.entries:
            return None
        return int(data["layers_done"]), float(data["seconds"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _write_progress(record: Path, formation: Formation, layers_done: int, seconds: float) -> None:
    data = {
        "version": PROGRESS_VERSION,
        "formation": formation.to_json(),
        "entries": formation.entries,
        "layers": layer_count(formation),
        "layers_done": layers_done,
        "seconds": seconds,
    }
    with atomic_write(record) as handle:
        handle.write(json.dumps(data, indent=1).encode() + b"\n")


def _reserve(partial: Path, *, fresh: bool) -> None:
    """Give the partial file its disk blocks now, so that a disk too small for the table fails
    here with an OSError (ENOSPC) instead of a write through the memory map dying of SIGBUS.

    Values already written are kept. When it fails on a ``fresh`` build (no layer done), the
    file gives back every block it holds (it is emptied; the next build starts over).
    Where the system has no ``posix_fallocate`` (Windows, macOS), or the file system cannot
    reserve (EOPNOTSUPP, EINVAL), nothing is reserved.
    """
    allocate = getattr(os, "posix_fallocate", None)
    if allocate is None:  # pragma: no cover - not POSIX
        return
    size = partial.stat().st_size
    with open(partial, "r+b") as handle:
        try:
            allocate(handle.fileno(), 0, size)
        except OSError as error:
            if error.errno in (errno.EOPNOTSUPP, errno.EINVAL):
                return
            if fresh:
                handle.truncate(0)
            raise OSError(
                error.errno,
                f"{error.strerror} (the table needs {size / 1e6:,.1f} MB there)",
                str(partial),
            ) from None


def _reset_partial(partial: Path, entries: int) -> None:
    """A partial file of zeros (sparse where the file system allows) of the final size."""
    with open(partial, "r+b") as handle:
        handle.truncate(0)
        handle.truncate(PAYLOAD_OFFSET + 2 * entries)


@contextlib.contextmanager
def _locked(partial: Path, name: str) -> Iterator[bool]:
    """Hold ``partial`` (created if missing) for one build; yields whether it already existed."""
    existed = partial.exists()
    descriptor = os.open(partial, os.O_RDWR | os.O_CREAT | getattr(os, "O_NONBLOCK", 0), 0o666)
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise ValueError(f"{partial} is not a regular file: remove it, then build {name} again")
    handle: IO[bytes] = os.fdopen(descriptor, "r+b")  # held for the whole build
    if fcntl is None:  # pragma: no cover - Windows: no lock, and no open file to rename
        handle.close()
        yield existed
        return
    try:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise ValueError(
                f"another build of table {name} is running (it holds {partial})"
            ) from None
        yield existed
    finally:
        handle.close()


@contextlib.contextmanager
def _threads(threads: int | None) -> Iterator[int]:
    """Run numba's parallel kernels on ``threads`` threads (default: all); yields the count."""
    previous = numba.get_num_threads()
    wanted = numba.config.NUMBA_NUM_THREADS if threads is None else threads
    if not 1 <= wanted <= numba.config.NUMBA_NUM_THREADS:
        raise ValueError(
            f"threads must be from 1 to {numba.config.NUMBA_NUM_THREADS}, got {threads}"
        )
    numba.set_num_threads(wanted)
    try:
        yield wanted
    finally:
        numba.set_num_threads(previous)
