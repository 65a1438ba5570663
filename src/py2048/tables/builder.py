"""Build a formation's table: expectimax to the end, by dynamic programming, layer by layer.

**The positions.** A position gives each free cell a rank ``0 .. t - 1`` (``t = log2(target)``),
or up to the cell's cap; the fixed cells hold walls (:mod:`.kernels`). Its *layer* is half the
sum of its free tiles, and the file stores each layer as one block, lowest first, a position at
its rank within its layer (:mod:`.ranking`).

**The recurrence.** A position's value is the best over its allowed moves (0 if there is none)
of the afterstate's value: 1 if the move made the target on a target cell, 0 if it made it on
another free cell (an approximation: the target made elsewhere counts as failure) or made a tile
above a cell's cap, else the mean over the empty free cells of ``0.9 * v(a 2 there) + 0.1 *
v(a 4 there)``. Values are stored as uint16 (``round(p * 65535)``) and every value is computed
in float64 from its children's stored values, so a build is exactly reproducible.

**The order.** Moves keep the layer and a spawn raises it by 1 (a 2) or 2 (a 4), so layer
``L`` reads only layers ``L + 1`` and ``L + 2``. Layers are solved from the highest down, each
in parallel (numba ``prange``) over fixed runs of its positions: deterministic, without races.
A build holds three layers in memory (the one being solved and the two it reads), never the
table: 0.05 GB for snake5-512's 1.1 billion positions (:func:`build_needs`).

**Streaming and resuming.** ``NAME.partial`` has the final file's size (its blocks reserved up
front); each finished layer is written into its place there and synced, then ``NAME.progress``
records it (atomically) with the layer's digest. So a build stopped in any way (Ctrl-C, an
error, a kill, a power cut) loses at most the layer it was solving (``build --help`` says so).
A build that finds both files resumes at the next layer, after reading back the two layers it needs
and checking them against their digests: a partial file that is damaged or cut short is
refused (:class:`BuildError`, with the command that starts over). Layers are deterministic, so
the finished file is byte-identical to an uninterrupted build. At the end the header (its
checksum made from the layers' digests, :func:`.storage.combined_checksum`) is written into the
partial file, which is synced and renamed over ``NAME.table``.

**1-byte tables.** With ``width=1`` (``2048 tables build --bytes 1``) the file stores each
value as a code of the fixed code book (:mod:`.codebook`) and has half the size. The layers are
still solved from the exact 2-byte values of the two layers above, so each finished layer is
also kept at 2 bytes in a side file ``NAME.exact0``, ``.exact1`` or ``.exact2`` (the layer's
number modulo 3: a crash while one is rewritten leaves the two the record names intact), its
digest in the record; the side files are removed when the table is finished. So a 1-byte
table is its 2-byte table packed position by position (:data:`.codebook.PACK`), resumed or not.

**Room.** Before anything is written, the build checks that the disk has room for the file
and that memory has room for its layers (:func:`build_needs`), and refuses with a message
saying how much is needed and how much there is. Every write is an ordinary write (no memory
map), so a disk that fills up anyway gives an OSError (ENOSPC) that stops the build, resumable.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import os
import shutil
import stat
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, NamedTuple

import numba
import numpy as np
from numba import njit, prange

from py2048.engine.board import ROW_TABLES
from py2048.files import atomic_write, fsync_folder, open_regular
from py2048.tables.codebook import PACK
from py2048.tables.formations import Formation
from py2048.tables.kernels import SCALE, WALL, direction_value
from py2048.tables.layout import ORDER, layout
from py2048.tables.ranking import (
    layer_sizes,
    layer_starts,
    left_sums,
    next_in_layer,
    ranks_array,
    unrank,
    ways_array,
)
from py2048.tables.storage import (
    DTYPE,
    PAYLOAD_OFFSET,
    WIDTHS,
    TableHeader,
    combined_checksum,
    encode_header,
    exact_path,
    file_size,
    layer_digest,
    partial_path,
    progress_path,
    table_path,
    tables_dir,
)

try:  # POSIX: one build of a table at a time
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

PROGRESS_VERSION = 2
TASK_POSITIONS = 1 << 14
"""Positions of a layer per parallel task (fixed, so a build never depends on its threads)."""
_RECORD_BYTES = 1 << 24
MEMORY_MARGIN = 300_000_000
"""What a build needs in memory besides its layers (Python, numba and the compiled code)."""
DISK_MARGIN = 1_000_000
"""Room a build leaves on the disk beside its file (the progress record, the header)."""


class BuildError(ValueError):
    """A build that cannot start or resume; the message says why and what to do."""


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


@dataclass(frozen=True)
class BuildNeeds:
    """What building a table takes (see :func:`build_needs`)."""

    disk: int
    """Bytes of the finished file (the partial file has the same size), and for a 1-byte
    build its side files of exact layers."""
    memory: int
    """Bytes of the layers held at once (the most over the build), besides :data:`MEMORY_MARGIN`."""


def layer_count(formation: Formation) -> int:
    """Layers of a formation's table: the free-region tile sums 0, 2, ..., up to every free
    cell holding its largest tile (half the target, or its cap)."""
    return sum(1 << (radix - 2) for radix in formation.radices) + 1


def build_needs(formation: Formation, width: int = 2) -> BuildNeeds:
    """The disk and memory a build of ``formation`` at ``width`` bytes a value needs: the file
    (at 1 byte also the side files, at most four layers at 2 bytes while one is rewritten), and
    at the peak the two layers read, the one solved and the next pair (2 bytes a position), and
    ``RANKS``."""
    sizes = layer_sizes(formation)
    padded = np.concatenate([sizes, np.zeros(3, dtype=np.int64)])
    three = int((padded[:-3] + padded[1:-2] + padded[2:-1]).max())
    four = int((padded[:-3] + padded[1:-2] + padded[2:-1] + padded[3:]).max())
    ranks = int(np.prod(ranks_array(formation).shape)) * 8
    side = 2 * four if width == 1 else 0
    return BuildNeeds(file_size(formation, width) + side, 4 * three + width * three + ranks)


def wall_board(formation: Formation) -> tuple[int, int]:
    """``(lo, hi)`` of the empty position: walls on the fixed cells, free cells empty."""
    lo = hi = 0
    for cell in formation.fixed:
        lo |= (WALL & 0xF) << (4 * cell)
        hi |= (WALL >> 4) << cell
    return lo, hi


class Shape(NamedTuple):
    """A formation as the build's kernel reads it."""

    ranks: np.ndarray
    """:func:`.ranking.ranks_array`."""
    ways: np.ndarray
    """:func:`.ranking.ways_array`."""
    radices: np.ndarray
    """int64: each free cell's radix, in canonical order."""
    layout: np.ndarray
    """The canonical orientation's per-cell arrays (:func:`.layout.layout`)."""
    rank_limit: int
    wall_lo: np.uint64
    wall_hi: np.uint64


def formation_shape(formation: Formation) -> Shape:
    wall_lo, wall_hi = (np.uint64(word) for word in wall_board(formation))
    return Shape(
        ranks_array(formation),
        ways_array(formation),
        np.array(formation.radices, dtype=np.int64),
        layout(formation),
        formation.rank_limit,
        wall_lo,
        wall_hi,
    )


# --- the kernel ---------------------------------------------------------------------------


@njit(parallel=True, cache=True)
def _solve_layer(layer, first, window, base, out, shape, tables):
    """Value the positions of ``layer`` ranked ``first`` to ``first + out.size - 1`` into
    ``out``, reading their children in ``window``: the layers above it from file offset
    ``base`` on. Each position's value depends on nothing else, so any split of a layer into
    ranges gives the same values."""
    count = out.size
    tasks = (count + TASK_POSITIONS - 1) // TASK_POSITIONS
    for task in prange(tasks):
        digits = np.empty(shape.radices.size, dtype=np.int64)
        left = np.empty(shape.radices.size, dtype=np.int64)
        begin = task * TASK_POSITIONS
        unrank(first + begin, layer, shape.radices, shape.ranks, digits)
        left_sums(digits, left)
        for rank in range(begin, min(count, begin + TASK_POSITIONS)):
            if rank > begin:
                next_in_layer(digits, left, shape.radices, shape.ways)
            lo = shape.wall_lo
            for k in range(digits.size):
                lo |= np.uint64(digits[k]) << np.uint64(4 * shape.layout[ORDER, k])
            best = 0.0
            for direction in range(4):
                value = direction_value(
                    lo, shape.wall_hi, direction, window, base, shape.ranks, shape.layout,
                    shape.rank_limit, tables,
                )  # fmt: skip
                if value > best:
                    best = value
            out[rank] = np.uint16(np.floor(best * SCALE + 0.5))


LayerSolver = Callable[[int, int, np.ndarray, int], np.ndarray]
"""``solve(layer, count, window, base)``: the ``count`` values of ``layer``, by rank, from its
children in ``window`` (the two layers above it, from file offset ``base`` on)."""


def solve_range(
    formation: Formation, layer: int, first: int, count: int, window: np.ndarray, base: int
) -> np.ndarray:
    """The values of ``layer``'s positions ranked ``first`` to ``first + count - 1``: a piece of
    a layer, as a cluster's task solves it (:mod:`.farm`)."""
    out = np.zeros(count, dtype=DTYPE)
    if count:
        _solve_layer(layer, first, window, base, out, _shape_of(formation), ROW_TABLES)
    return out


@functools.lru_cache(maxsize=4)
def _shape_of(formation: Formation) -> Shape:
    return formation_shape(formation)


@contextlib.contextmanager
def _layer_solver(formation: Formation, ray_address: str | None) -> Iterator[LayerSolver]:
    """Solve layers here, or on the Ray cluster at ``ray_address`` (connected for the block)."""
    if ray_address is None:
        yield lambda layer, count, window, base: solve_range(
            formation, layer, 0, count, window, base
        )
        return
    from py2048.tables.farm import ray_layers

    with ray_layers(ray_address, formation) as solve:
        yield solve


# --- the build ----------------------------------------------------------------------------


@dataclass
class _State:
    """A build's progress as its record keeps it."""

    layers_done: int
    seconds: float
    digests: list[bytes]
    """The finished layers' digests (of their stored bytes), the highest layer first."""
    width: int = 2
    exact: dict[int, bytes] | None = None
    """At 1 byte: the digests of the side files of the lowest two finished layers (2 bytes a
    value), by layer."""
    peak_memory: int = 0
    """The most memory (resident bytes) any run of the build has held so far; 0: not known."""


def build_table(
    formation: Formation,
    directory: str | os.PathLike[str] | None = None,
    *,
    progress: Callable[[BuildProgress], None] | None = None,
    threads: int | None = None,
    restart: bool = False,
    clock: Callable[[], float] = time.monotonic,
    memory: Callable[[], int] | None = None,
    ray_address: str | None = None,
    width: int | None = None,
) -> Path:
    """Build ``formation``'s table in ``directory`` (see :func:`.storage.tables_dir`).

    ``width``: bytes a value, 2 or 1 (the code book of :mod:`.codebook`); default: the width of
    the stopped build it resumes, else 2. A stopped build of the other width is not resumed
    (BuildError) unless ``restart``.

    Resumes a build that was stopped (unless ``restart``). ``progress`` is called once at the
    start and after every layer; an exception it raises stops the build as Ctrl-C does,
    leaving it resumable. ``threads``: numba threads (default: all). ``clock``: the clock
    whose seconds the file records as its build time. ``memory``: the build's peak memory so
    far in bytes, which the file records (the most over every run of a resumed build; 0: not
    known, nothing recorded); default: this process's peak resident memory since the build
    started, where the system says (Linux). ``ray_address``: solve each large
    layer's positions as tasks on that Ray cluster (:mod:`.farm`; the file, its layers and
    the resuming stay here, and the table is byte-identical to one built without it); a
    ValueError says when the cluster cannot be reached. Returns the finished file's path.
    Raises :class:`BuildError` when the disk or memory is short or a stopped build's partial
    file is damaged, and OSError when a write fails (the build stays resumable).
    """
    folder = tables_dir(directory)
    folder.mkdir(parents=True, exist_ok=True)
    final = table_path(formation.name, folder)
    partial = partial_path(formation.name, folder)
    record = progress_path(formation.name, folder)
    started = clock()
    sizes = layer_sizes(formation)
    starts = layer_starts(formation)
    layers = sizes.size
    entries = formation.entries
    if width is not None and width not in WIDTHS:
        raise ValueError(f"a table stores 1 or 2 bytes a value, not {width}")
    with (
        _layer_solver(formation, ray_address) as solve,
        threads_used(threads) as used,
        _locked(partial, formation.name) as resumable,
    ):
        state = None if restart or not resumable else _read_progress(record, formation)
        if state is not None and state.layers_done == 0:
            state = None  # nothing done yet: nothing to keep
        if state is not None and width is not None and state.width != width:
            raise BuildError(
                f"a stopped build of table {formation.name} at {state.width} bytes a value is "
                f"in {folder}: run `2048 tables build --bytes {state.width} {formation.name}` "
                f"to resume it, or `2048 tables build --force --bytes {width} "
                f"{formation.name}` to start over at {width}"
            )
        chosen = state.width if state is not None else (width or 2)
        needs = build_needs(formation, chosen)
        _check_memory(formation, needs)
        if state is not None:
            _check_partial(partial, formation, state)
        else:
            record.unlink(missing_ok=True)  # no record may outlive the values it describes
            _remove_exact(formation, folder)
            _check_disk(folder, partial, needs)
            _reset_partial(partial, file_size(formation, chosen))
            state = _State(0, 0.0, [], chosen, {} if chosen == 1 else None)
            _write_progress(record, formation, state)
        _reserve(partial, fresh=state.layers_done == 0)
        seconds_before = state.seconds
        if memory is None:
            memory = peak_memory if reset_peak_memory() else _unknown

        def seconds() -> float:
            return seconds_before + (clock() - started)

        def done_positions() -> int:
            return int(starts[layers] - starts[layers - state.layers_done])

        first_layer, at_start = state.layers_done, done_positions()

        def report() -> None:
            if progress is not None:
                progress(
                    BuildProgress(
                        formation, state.layers_done, layers, done_positions(), entries,
                        first_layer, at_start,
                    )
                )  # fmt: skip

        packed = state.width == 1
        with open(partial, "r+b") as handle:
            window = _read_window(handle, partial, formation, state, starts)
            report()
            for layer in range(layers - 1 - state.layers_done, -1, -1):
                out = solve(layer, int(sizes[layer]), window, int(starts[layer + 1]))
                data = memoryview(PACK[out] if packed else out).cast("B")
                handle.seek(PAYLOAD_OFFSET + state.width * int(starts[layer]))
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
                state.digests.append(layer_digest(data))
                if state.exact is not None:
                    exact = memoryview(out).cast("B")
                    with atomic_write(exact_path(formation.name, layer % 3, folder)) as side:
                        side.write(exact)
                    state.exact = {
                        layer: layer_digest(exact),
                        **{k: v for k, v in state.exact.items() if k == layer + 1},
                    }
                state.layers_done += 1
                state.seconds = seconds()
                state.peak_memory = max(state.peak_memory, memory())
                _write_progress(record, formation, state)
                above = sizes[layer + 1] if layer + 1 < layers else 0
                window = np.concatenate([out, window[:above]])
                report()
            del window
            header = TableHeader(
                formation,
                entries,
                combined_checksum(state.digests[::-1]),
                round(seconds(), 3),
                os.cpu_count() or 1,
                used,
                state.width,
                state.peak_memory or None,
            )
            handle.seek(0)
            handle.write(encode_header(header))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(partial, final)
    fsync_folder(folder)
    record.unlink(missing_ok=True)
    _remove_exact(formation, folder)
    return final


def _remove_exact(formation: Formation, folder: Path) -> None:
    for slot in range(3):
        exact_path(formation.name, slot, folder).unlink(missing_ok=True)


def _read_window(
    handle: IO[bytes], partial: Path, formation: Formation, state: _State, starts: np.ndarray
) -> np.ndarray:
    """The two lowest finished layers (the next layer's children), read back from the partial
    file and checked against their digests; BuildError if they do not match."""
    layers = starts.size - 1
    done = state.layers_done
    low = layers - done  # the lowest finished layer
    high = min(layers, low + 2)
    if state.exact is None:
        handle.seek(PAYLOAD_OFFSET + 2 * int(starts[low]))
        data = handle.read(2 * int(starts[high] - starts[low]))
        window = np.frombuffer(data, dtype=DTYPE).copy()
    else:
        window = _read_exact(partial, formation, state, low, high, starts)
    for layer in range(low, high):
        piece = window[starts[layer] - starts[low] : starts[layer + 1] - starts[low]]
        stored = PACK[piece] if state.width == 1 else piece
        if layer_digest(memoryview(stored).cast("B")) != state.digests[layers - 1 - layer]:
            raise BuildError(
                f"the stopped build of table {formation.name} cannot resume: layer {layer} of "
                f"{partial} does not match the digest recorded when it was written (the file "
                f"was damaged). Run `2048 tables build --force {formation.name}` to build it "
                "from the start."
            )
    return window


def _read_exact(
    partial: Path, formation: Formation, state: _State, low: int, high: int, starts: np.ndarray
) -> np.ndarray:
    """A 1-byte build's window: the exact values of layers ``low`` to ``high - 1`` from their
    side files, checked against the digests the record keeps; BuildError if one is missing or
    damaged."""
    pieces = []
    exact = state.exact or {}
    for layer in range(low, high):
        path = exact_path(formation.name, layer % 3, partial.parent)
        size = 2 * int(starts[layer + 1] - starts[layer])
        try:
            with open_regular(path) as side:
                data = side.read(size + 1)
        except OSError:
            data = b""
        if len(data) != size or layer_digest(data) != exact.get(layer):
            raise BuildError(
                f"the stopped 1-byte build of table {formation.name} cannot resume: {path}, "
                f"the exact values of layer {layer}, is missing or damaged. Run `2048 tables "
                f"build --force --bytes 1 {formation.name}` to build it from the start."
            )
        pieces.append(np.frombuffer(data, dtype=DTYPE))
    return np.concatenate(pieces) if pieces else np.zeros(0, dtype=DTYPE)


def _check_partial(partial: Path, formation: Formation, state: _State) -> None:
    """A stopped build's partial file has its full size; BuildError if it was cut short."""
    expected = file_size(formation, state.width)
    size = partial.stat().st_size
    if size != expected:
        raise BuildError(
            f"the stopped build of table {formation.name} cannot resume: {partial} is "
            f"{size:,} bytes, not {expected:,} (it was cut short or changed). Run "
            f"`2048 tables build --force {formation.name}` to build it from the start."
        )


def _gb(count: int) -> str:
    return f"{count / 1e9:,.2f} GB"


def _check_disk(folder: Path, partial: Path, needs: BuildNeeds) -> None:
    """OSError (ENOSPC, as :func:`_reserve` raises it) unless the folder's disk has room for
    the table; the blocks the partial file already holds count as room."""
    try:
        held = partial.stat().st_blocks * 512
    except (OSError, AttributeError):
        held = 0
    if needs.disk + DISK_MARGIN > shutil.disk_usage(folder).free + held:
        raise _no_room(errno.ENOSPC, os.strerror(errno.ENOSPC), needs.disk, partial)


def _no_room(number: int, problem: str, size: int, partial: Path) -> OSError:
    return OSError(number, f"{problem} (the table needs {size / 1e6:,.1f} MB there)", str(partial))


def _unknown() -> int:
    return 0


def reset_peak_memory() -> bool:
    """Count this process's peak memory afresh from now on (Linux: ``/proc/self/clear_refs``);
    False where that cannot be done, so that an earlier peak (another table built by the same
    process) is not taken for this build's."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as handle:
            handle.write("5")
    except OSError:
        return False
    return peak_memory() > 0


def peak_memory() -> int:
    """This process's peak resident memory in bytes since the last reset (Linux ``VmHWM``);
    0 where the system does not say."""
    return _proc_bytes("/proc/self/status", "VmHWM:") or 0


def available_memory() -> int | None:
    """Bytes of memory the system says it can give (Linux ``MemAvailable``); None elsewhere."""
    return _proc_bytes("/proc/meminfo", "MemAvailable:")


def _proc_bytes(path: str, field: str) -> int | None:
    """The ``field: N kB`` line of a Linux ``/proc`` file, in bytes; None where there is none."""
    try:
        with open(path, encoding="ascii") as handle:
            for line in handle:
                if line.startswith(field):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _check_memory(formation: Formation, needs: BuildNeeds) -> None:
    free = available_memory()
    if free is not None and needs.memory + MEMORY_MARGIN > free:
        raise BuildError(
            f"table {formation.name} needs {_gb(needs.memory + MEMORY_MARGIN)} of memory to "
            f"build (its largest three layers and py2048 itself), and {_gb(free)} is "
            "available: close other programs, or build it on a larger machine"
        )


def partial_layers(
    formation: Formation, directory: str | os.PathLike[str] | None = None
) -> int | None:
    """Layers a stopped build of ``formation`` has finished, or None when there is none."""
    stopped = stopped_build(formation, directory)
    return None if stopped is None else stopped[0]


def stopped_build(
    formation: Formation, directory: str | os.PathLike[str] | None = None
) -> tuple[int, int] | None:
    """``(layers finished, bytes a value)`` of a stopped build of ``formation``, or None when
    there is none (no valid record, or a partial file of another size)."""
    state = _read_progress(progress_path(formation.name, directory), formation)
    if state is None:
        return None
    try:
        whole = partial_path(formation.name, directory).stat().st_size == file_size(
            formation, state.width
        )
    except OSError:
        whole = False
    return (state.layers_done, state.width) if whole else None


def _read_progress(record: Path, formation: Formation) -> _State | None:
    """The record of a stopped build of this formation, or None."""
    try:
        with open_regular(record) as handle:
            data = json.loads(handle.read(_RECORD_BYTES))
        digests = [bytes.fromhex(digest) for digest in data["digests"]]
        width = data.get("width", 2)
        exact = data.get("exact")
        exact_digests = (
            None if exact is None else {int(k): bytes.fromhex(v) for k, v in exact.items()}
        )
        if (
            width not in WIDTHS
            or (width == 1) != (exact_digests is not None)
            or data["version"] != PROGRESS_VERSION
            or data["formation"] != formation.to_json()
            or data["entries"] != formation.entries
            or data["layers"] != layer_count(formation)
            or not 0 <= data["layers_done"] <= data["layers"]
            or len(digests) != data["layers_done"]
        ):
            return None
        peak = data.get("peak_memory", 0)
        if not isinstance(peak, int) or peak < 0:
            return None
        return _State(
            int(data["layers_done"]), float(data["seconds"]), digests, width, exact_digests, peak
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _write_progress(record: Path, formation: Formation, state: _State) -> None:
    data = {
        "version": PROGRESS_VERSION,
        "formation": formation.to_json(),
        "entries": formation.entries,
        "layers": layer_count(formation),
        "layers_done": state.layers_done,
        "seconds": state.seconds,
        "digests": [digest.hex() for digest in state.digests],
        "width": state.width,
        "peak_memory": state.peak_memory,
    }
    if state.exact is not None:
        data["exact"] = {str(layer): digest.hex() for layer, digest in state.exact.items()}
    with atomic_write(record) as handle:
        handle.write(json.dumps(data).encode() + b"\n")


def _reserve(partial: Path, *, fresh: bool) -> None:
    """Give the partial file its disk blocks now, so that a disk too small for the table fails
    here with an OSError (ENOSPC), before any layer is solved.

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
            raise _no_room(error.errno, error.strerror, size, partial) from None


def _reset_partial(partial: Path, size: int) -> None:
    """A partial file of zeros (sparse where the file system allows) of the final size."""
    with open(partial, "r+b") as handle:
        handle.truncate(0)
        handle.truncate(size)


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
def threads_used(threads: int | None) -> Iterator[int]:
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
