"""Which cells the network looks at: n-tuples and their eight symmetric placements.

An n-tuple is a list of board cells (``4*row + column``). The network keeps one lookup table
per tuple, indexed by the tile exponents on its cells (cell ``i`` of the tuple in bits
``4i..4i+3`` of the index), and reads that table at all eight placements of the tuple under
the board's symmetries (four rotations, each optionally mirrored). Summing over every
placement makes the value of a board equal to the value of each of its rotations and
reflections, and every game position trains all eight placements.

Reading a tuple at every placement is the same as reading it at its own cells on each of the
eight transformed boards, which is how the kernels do it: eight cheap bit transforms of the
board, then each index is a few masks and shifts, one per run of consecutive cells.

A network may have *stages* (Yeh et al. 2016, "multi-stage TD learning"): a full set of tables
per range of the board's largest tile, split at the stage tiles. With stage tile 16384, boards
whose largest tile is below 16384 read the first set and all others the second, so the same
pattern of small tiles can mean one thing early in a game and another once a 16384 stands on
the board, without the late game's rare positions pulling on the weights the early game uses.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise

import numpy as np
from numba import njit

from py2048.engine.board import cell_exponent, transpose_lo

CELL_VALUES = 16
"""Values one cell takes in a table index: exponents 0..15; 65536 and 131072 read as 32768."""

MAX_TUPLE_LENGTH = 7
"""Longest tuple: a table has 16**length entries, so 7 cells already take 1 GiB of float32."""

MAX_ENTRIES = 1 << 31
"""Most table entries a network may have in all (8 GiB of float32)."""

DEFAULT_TUPLES: tuple[tuple[int, ...], ...] = (
    (0, 1, 2, 3, 4, 5),
    (4, 5, 6, 7, 8, 9),
    (0, 1, 2, 4, 5, 6),
    (4, 5, 6, 8, 9, 10),
)
"""Four 6-tuples (two straight-and-bent, two rectangles), the layout of Yeh et al. 2016."""

DEFAULT_SPEC = "0,1,2,3,4,5/4,5,6,7,8,9/0,1,2,4,5,6/4,5,6,8,9,10"

_SIX_BY_SIX = "0,1,2,4,5,6/4,5,6,7,8,9/0,1,2,3,4,5/2,3,4,5,6,9/0,1,2,5,9,10/3,4,5,6,7,8"
NAMED_TUPLES: dict[str, str] = {
    "4x6": DEFAULT_SPEC,
    "6x6": _SIX_BY_SIX,
    "8x6": _SIX_BY_SIX + "/1,3,4,5,6,7/0,1,4,8,9,10",
}
"""Shapes ``--tuples`` also takes by name: the default (Yeh et al. 2016), and TDL2048's
``6x6patt`` and ``8x6patt``; the network py2048 ships is ``8x6`` (``docs/ntuple.md``)."""

SYMMETRY_COUNT = 8

LAYOUT_OFFSET, LAYOUT_FROM, LAYOUT_BELOW, LAYOUT_RUNS, LAYOUT_FIRST_RUN = 0, 1, 2, 3, 4
LAYOUT_COLUMNS = LAYOUT_FIRST_RUN + 3 * MAX_TUPLE_LENGTH
NO_LIMIT = 64
"""An exponent above every tile's: the upper end of the last stage."""


def parse_tuples(spec: str) -> tuple[tuple[int, ...], ...]:
    """Parse ``"0,1,2,3/4,5,6,7"`` (tuples split by ``/``, cells by ``,``), or a name of
    :data:`NAMED_TUPLES` (``"8x6"``), and validate it."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError("tuples must be cells like '0,1,2,3/4,5,6,7', got an empty value")
    spec = NAMED_TUPLES.get(spec.strip(), spec)
    tuples = []
    for part in spec.split("/"):
        try:
            tuples.append(tuple(int(cell) for cell in part.split(",")))
        except ValueError:
            raise ValueError(
                f"tuple {part.strip()!r} must be comma-separated cell numbers 0-15"
            ) from None
    return validate_tuples(tuples)


def format_tuples(tuples: Sequence[Sequence[int]]) -> str:
    """The inverse of :func:`parse_tuples`."""
    return "/".join(",".join(str(cell) for cell in cells) for cells in tuples)


def validate_tuples(tuples: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """Return the tuples as tuples of ints, or raise ValueError naming the faulty one."""
    if len(tuples) == 0:
        raise ValueError("a network needs at least one tuple")
    checked = []
    for number, cells in enumerate(tuples):
        cells = tuple(int(cell) for cell in cells)
        if not 1 <= len(cells) <= MAX_TUPLE_LENGTH:
            raise ValueError(
                f"tuple {number} has {len(cells)} cells; a tuple has 1 to {MAX_TUPLE_LENGTH}"
            )
        if any(not 0 <= cell < 16 for cell in cells):
            raise ValueError(f"tuple {number} {cells}: cells are numbered 0 to 15 (4*row+column)")
        if len(set(cells)) != len(cells):
            raise ValueError(f"tuple {number} {cells} names a cell twice")
        checked.append(cells)
    entries = sum(CELL_VALUES ** len(cells) for cells in checked)
    if entries > MAX_ENTRIES:
        raise ValueError(f"these tuples need {entries} table entries; the most is {MAX_ENTRIES}")
    return tuple(checked)


def validate_stage_tiles(stage_tiles: Iterable[int]) -> tuple[int, ...]:
    """Return the stage tiles as a sorted tuple, or raise ValueError."""
    tiles = tuple(sorted({int(tile) for tile in stage_tiles}))
    for tile in tiles:
        if tile < 4 or tile > 131072 or tile & (tile - 1):
            raise ValueError(f"stage tiles must be powers of two from 4 to 131072, got {tile}")
    return tiles


def table_sizes(tuples: Sequence[Sequence[int]]) -> np.ndarray:
    """Entries in each tuple's table."""
    return np.array([CELL_VALUES ** len(cells) for cells in tuples], dtype=np.int64)


def entry_count(tuples: Sequence[Sequence[int]], stage_tiles: Sequence[int]) -> int:
    """Table entries of a network: every tuple's table, once per stage."""
    count = int(table_sizes(tuples).sum()) * (len(stage_tiles) + 1)
    if count > MAX_ENTRIES:
        raise ValueError(f"these tuples and stages need {count} entries; the most is {MAX_ENTRIES}")
    return count


def stage_bounds(stage_tiles: Sequence[int]) -> list[tuple[int, int]]:
    """Each stage's range of the largest tile's exponent: ``from <= exponent < below``."""
    edges = [0, *(tile.bit_length() - 1 for tile in stage_tiles), NO_LIMIT]
    return list(pairwise(edges))


def stage_sources(old_tiles: Sequence[int], new_tiles: Sequence[int]) -> list[int]:
    """For each stage split at ``new_tiles``, the stage split at ``old_tiles`` it lies within.

    ``new_tiles`` must include every one of ``old_tiles``: stages can be split, never merged.
    """
    missing = set(old_tiles) - set(new_tiles)
    if missing:
        raise ValueError(
            f"stage tiles can only be added; {', '.join(map(str, sorted(missing)))} would be lost"
        )
    old_starts = [start for start, _ in stage_bounds(old_tiles)]
    return [sum(start >= old for old in old_starts) - 1 for start, _ in stage_bounds(new_tiles)]


def tuple_layout(tuples: Sequence[Sequence[int]], stage_tiles: Sequence[int] = ()) -> np.ndarray:
    """The int64 array the kernels read, one row per tuple and stage.

    A row holds where its table starts in the flat weights (stage after stage, each holding
    every tuple's table), the range of largest-tile exponents it applies to, its number of runs
    of consecutive cells, then for each run ``(source shift, mask, target shift)``: the run's
    index bits are ``(board >> source) & mask``, placed at ``target`` in the tuple's index.
    Tuple ``0,1,2,4,5,6`` is two runs: cells 0-2 (bits 0-11 of the board) and cells 4-6.
    """
    sizes = table_sizes(tuples)
    rows = np.zeros((len(tuples), LAYOUT_COLUMNS), dtype=np.int64)
    rows[:, LAYOUT_OFFSET] = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    for t, cells in enumerate(tuples):
        runs = 0
        first = 0
        for i in range(1, len(cells) + 1):
            if i == len(cells) or cells[i] != cells[i - 1] + 1:
                column = LAYOUT_FIRST_RUN + 3 * runs
                rows[t, column : column + 3] = (
                    4 * cells[first],
                    (1 << (4 * (i - first))) - 1,
                    4 * first,
                )
                runs += 1
                first = i
        rows[t, LAYOUT_RUNS] = runs
    bounds = stage_bounds(stage_tiles)
    layout = np.tile(rows, (len(bounds), 1))
    for stage, (low, below) in enumerate(bounds):
        stage_rows = layout[stage * len(tuples) : (stage + 1) * len(tuples)]
        stage_rows[:, LAYOUT_OFFSET] += stage * int(sizes.sum())
        stage_rows[:, LAYOUT_FROM] = low
        stage_rows[:, LAYOUT_BELOW] = below
    return layout


# --- reading a board's tuples in compiled code ------------------------------------------------

_NIBBLE = np.uint64(0xF)


NETWORK_TOP = 15
"""The largest exponent a network's tables hold (four bits a cell: 32768)."""


@njit(cache=True, nogil=True, inline="always")
def network_board(lo: np.uint64, hi: np.uint64) -> np.uint64:
    """The board as the network reads it: four bits a cell, so exponents up to 15 (32768).

    A board with a tile past 32768 is *downgraded* first (as TDL2048+ does for boards past its
    training): while its largest tile is over 32768 and some smaller tile is missing from the
    ladder, every tile above the lowest missing one is read one step smaller. That keeps every
    pair of tiles in the same order, equal tiles equal and different tiles different, so a
    65536 beside a 32768 is not read as two 32768s that could merge. Only a board whose every
    tile from 2 up is present (no gap to close) still has its largest tiles read as 32768.
    """
    if hi == 0:
        return lo
    low = lo  # the low four bits of each cell's exponent
    high = hi  # the fifth bit of each cell's exponent
    present = 0
    top = 0
    for cell in range(16):
        e = cell_exponent(low, high, cell)
        if e > 0:
            present |= 1 << e
            top = max(top, e)
    while top > NETWORK_TOP:
        gap = 1
        while gap < top and (present >> gap) & 1:
            gap += 1
        if gap >= top:
            break
        new_low = np.uint64(0)
        new_high = np.uint64(0)
        for cell in range(16):
            e = cell_exponent(low, high, cell)
            if e > gap:
                e -= 1
            new_low |= np.uint64(e & 15) << np.uint64(4 * cell)
            new_high |= np.uint64(e >> 4) << np.uint64(cell)
        low, high = new_low, new_high
        below = present & ((1 << gap) - 1)
        present = below | ((present >> (gap + 1)) << gap)
        top -= 1
    board = np.uint64(0)
    for cell in range(16):
        e = min(cell_exponent(low, high, cell), NETWORK_TOP)
        board |= np.uint64(e) << np.uint64(4 * cell)
    return board


DOWNGRADE_FROM = 16384
"""From this largest tile up, the solver reads a board *downgraded* (tile downgrading, Guei,
Chen and Wu 2022): :func:`downgraded_board` closes its highest missing tiles, so that a 16384
building its 8192 is read as the 8192 building its 4096 that the network has learnt from in most
of its games, where the 16384's boards are rare in training. Measured: d2 with the nine default
tables reached 32768 in 45.5% of 200 games against 33.5% read as they are; from 8192 up, 39.5%
(``docs/ntuple.md``, "Tile downgrading"). Training reads boards as they are."""

_LOW_NIBBLES = np.uint64(0x0F0F0F0F0F0F0F0F)
_NIBBLE_CARRIES = np.uint64(0x1010101010101010)
_BYTE_ONES = np.uint64(0x0101010101010101)


@njit(cache=True, nogil=True, inline="always")
def _nibbles_above(board: np.uint64, exponent: int | np.int64) -> np.uint64:
    """A 1 in each nibble of the board that holds more than ``exponent`` (0 to 14), else 0:
    each nibble, in a byte of its own, carries into bit 4 when ``15 - exponent`` is added."""
    add = np.uint64(15 - exponent) * _BYTE_ONES
    even = ((board & _LOW_NIBBLES) + add) & _NIBBLE_CARRIES
    odd = (((board >> np.uint64(4)) & _LOW_NIBBLES) + add) & _NIBBLE_CARRIES
    return (even >> np.uint64(4)) | odd


@njit(cache=True, nogil=True, inline="always")
def has_exponent_at_least(board: np.uint64, exponent: int) -> bool:
    """Whether some cell of a nibble board holds at least ``exponent`` (1 to 15)."""
    return bool(_nibbles_above(board, exponent - 1) != np.uint64(0))


@njit(cache=True, nogil=True)
def downgraded_board(board: np.uint64, from_exponent: int) -> np.uint64:
    """A nibble board as the solver's network reads it once its largest tile is at least
    ``2**from_exponent``: while it is, and some smaller tile is missing, every tile above the
    highest missing one is read one step smaller. The tiles keep their order (equal tiles stay
    equal, different ones different), only the tiles above the highest gap change, and a board
    without a gap below its largest tile, or whose largest tile is smaller, is read as it is.
    """
    current = np.uint64(board)
    present = np.int64(0)
    top = np.int64(0)
    for cell in range(16):
        e = np.int64((current >> np.uint64(4 * cell)) & _NIBBLE)
        if e > 0:
            present |= 1 << e
            top = max(top, e)
    while top >= from_exponent:
        gap = top - 1
        while gap >= 1 and (present >> gap) & 1:
            gap -= 1
        if gap < 1:
            break
        current -= _nibbles_above(current, gap)
        present = (present & ((1 << gap) - 1)) | ((present >> (gap + 1)) << gap)
        top -= 1
    return current


@njit(cache=True, nogil=True, inline="always")
def nibble_max(board: np.uint64) -> int:
    """The largest exponent of a nibble board."""
    top = np.int64(0)
    for cell in range(16):
        top = max(top, np.int64((board >> np.uint64(4 * cell)) & _NIBBLE))
    return int(top)


@njit(cache=True, nogil=True, inline="always")
def _mirror_columns(board: np.uint64) -> np.uint64:
    return (
        ((board & np.uint64(0x000F000F000F000F)) << np.uint64(12))
        | ((board & np.uint64(0x00F000F000F000F0)) << np.uint64(4))
        | ((board & np.uint64(0x0F000F000F000F00)) >> np.uint64(4))
        | ((board & np.uint64(0xF000F000F000F000)) >> np.uint64(12))
    )


@njit(cache=True, nogil=True, inline="always")
def _mirror_rows(board: np.uint64) -> np.uint64:
    return (
        (board << np.uint64(48))
        | ((board & np.uint64(0xFFFF0000)) << np.uint64(16))
        | ((board >> np.uint64(16)) & np.uint64(0xFFFF0000))
        | (board >> np.uint64(48))
    )


@njit(cache=True, nogil=True, inline="always")
def symmetric_boards(board: np.uint64) -> tuple[np.uint64, ...]:
    """The eight images of a nibble board under rotations and reflections."""
    t = transpose_lo(board)
    return (
        board,
        _mirror_columns(board),
        _mirror_rows(board),
        _mirror_columns(_mirror_rows(board)),
        t,
        _mirror_columns(t),
        _mirror_rows(t),
        _mirror_columns(_mirror_rows(t)),
    )


LayoutPlan = tuple[tuple[int, ...], ...]
"""One row per layout row: table offset, stage range (the largest tile's exponent from,
below), then (shift, mask, destination) for each run of cells; shorter tuples pad with zero
masks."""

Plan = tuple[LayoutPlan, int, bool, tuple[int, ...], int]
"""``(plan, runs, staged, stage_from, stage_size)`` as :func:`layout_plan` gives it: the
constants a kernel is compiled with. ``plan`` holds the first stage's rows (every stage reads
the same tuples); ``runs`` is the most runs of cells in a tuple; ``staged``: more than one
stage; ``stage_from`` the exponents at which the second, third... stage begin (``(NO_LIMIT,)``
with one stage); ``stage_size`` the entries of one stage, the distance between two stages'
tables."""


def layout_plan(layout: np.ndarray) -> Plan:
    """``(plan, runs, staged, stage_from, stage_size)``: a network's layout as constants for a
    compiled kernel.

    Kernels compiled with the layout as constants (numba closures over the plan) let numba fold
    the index arithmetic away: three to four times quicker per evaluation than reading the
    layout from an array at run time, with the same sums in the same order. A network with
    stages is read as one stage's rows plus an offset (:func:`stage_offset`) chosen once per
    board: testing every stage's rows for the board's largest tile made a staged network train
    half as fast as a one-stage one (docs/ntuple.md, "Speed").
    """
    rows = [tuple(int(x) for x in row) for row in layout]
    runs = max(row[LAYOUT_RUNS] for row in rows)
    first = [row for row in rows if row[LAYOUT_FROM] == 0]
    stage_from = tuple(sorted({row[LAYOUT_FROM] for row in rows} - {0}))
    stage_size = rows[len(first)][LAYOUT_OFFSET] if stage_from else 0
    for stage in range(1, len(stage_from) + 1):
        stage_rows = rows[stage * len(first) : (stage + 1) * len(first)]
        for row, base in zip(stage_rows, first, strict=True):
            moved = row[LAYOUT_OFFSET] - base[LAYOUT_OFFSET]
            if row[LAYOUT_RUNS:] != base[LAYOUT_RUNS:] or moved != stage * stage_size:
                raise ValueError("every stage of a layout must read the same tuples in turn")
    plan = tuple(
        (
            row[LAYOUT_OFFSET],
            row[LAYOUT_FROM],
            row[LAYOUT_BELOW],
            *row[LAYOUT_FIRST_RUN : LAYOUT_FIRST_RUN + 3 * runs],
        )
        for row in first
    )
    return plan, runs, bool(stage_from), stage_from or (NO_LIMIT,), stage_size


@njit(cache=True, nogil=True, inline="always")
def stage_offset(top: int, planned: Plan) -> int:
    """How far past the first stage's tables a board whose largest tile's exponent is ``top``
    reads (0 in a network of one stage, whose ``stage_size`` is 0). Kernels call it only for a
    staged network, so a one-stage one does not pay for finding ``top``."""
    _, _, _, stage_from, stage_size = planned
    offset = 0
    for low in stage_from:
        if top >= low:
            offset += stage_size
    return offset


@njit(cache=True, nogil=True, inline="always")
def table_index(board: np.uint64, row: tuple[int, ...], runs: int) -> int:
    """Where the tuple of this plan row, read on this (transformed) board, sits in the table."""
    index = np.uint64(0)
    for r in range(runs):
        cells = (board >> np.uint64(row[3 + 3 * r])) & np.uint64(row[4 + 3 * r])
        index |= cells << np.uint64(row[5 + 3 * r])
    return row[0] + int(index)
