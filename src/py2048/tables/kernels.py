"""The compiled kernels that read a table: one position's move values, for a real board.

The builder and the look-up share :func:`direction_value`, so a table's advice for a real board
is computed exactly as the table itself was: the same float64 operations in the same order.
Where a position's value lies in a table file is :mod:`.ranking`'s: the kernels take the
formation's ``RANKS`` array beside the values.

The board the kernels move is the *wall board*: free cells hold their exponent (rank), fixed
cells hold exponent 31 (nibble 15 in ``lo``, bit set in ``hi``), a tile of 5-bit exponent >= 17
which the engine never merges, not even with another wall, yet slides like any tile. A move is
allowed when it changes the board and every wall stays in place, which for a wall board is
exactly ``new_hi == hi`` (only walls have a fifth bit, and walls never merge).

Kernels that take ``values`` accept it read-only (a table's memory map) or writable, of
2-byte values (uint16, ``v / 65535``) or of 1-byte codes (uint8, :mod:`.codebook`): a stored
value is read through :func:`stored`, which the compiler specializes for each width, so the
2-byte path is the plain read it always was.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from py2048.engine.board import cell_exponent, move
from py2048.engine.rng import SPAWN_ODDS
from py2048.tables.codebook import SCALED_CODE_BOOK
from py2048.tables.layout import FIXED, ORDER, PLACE, RADIX, TARGET

SCALE = 65535.0
"""A stored value ``v`` means the probability ``v / 65535``."""
SPAWN_2 = dict(SPAWN_ODDS)[1]
SPAWN_4 = dict(SPAWN_ODDS)[2]
"""The probabilities that a spawned tile is a 2 and a 4 (the engine's :data:`SPAWN_ODDS`)."""
WALL = 31
"""The exponent a fixed cell holds in the wall board."""

_U1 = np.uint64(1)
_NIBBLE = np.uint64(0xF)
_WALL_NIBBLE = np.uint64(0xF)

_VALUES_RO = types.Array(types.uint16, 1, "C", readonly=True)
_VALUES_RW = types.Array(types.uint16, 1, "C")
_CODES_RO = types.Array(types.uint8, 1, "C", readonly=True)
_CODES_RW = types.Array(types.uint8, 1, "C")
_ALL_VALUES = (_VALUES_RO, _VALUES_RW, _CODES_RO, _CODES_RW)
_BOOK = SCALED_CODE_BOOK


def stored(values: np.ndarray, index: int) -> float:
    """A stored value on the 2-byte scale (0 to 65535): ``values[index]`` itself for uint16
    values, the code book's probability times 65535 for uint8 codes."""
    if values.dtype == np.uint8:
        return float(_BOOK[values[index]])
    return float(values[index])


@overload(stored, inline="always")
def _stored(values, index):
    if values.dtype == types.uint8:
        return lambda values, index: _BOOK[values[index]]
    return lambda values, index: values[index]


_LAYOUT = types.Array(types.int64, 2, "C")
_RANKS = types.Array(types.int64, 3, "C", readonly=True)
_LAYOUTS = types.Array(types.int64, 3, "C")
_TABLES = types.Array(types.uint32, 2, "C")
_OUT = types.Array(types.float64, 1, "C")


@njit(cache=True, nogil=True, inline="always")
def afterstate_value(
    after_lo: np.uint64,
    values: np.ndarray,
    base: int,
    ranks: np.ndarray,
    layout: np.ndarray,
    rank_limit: int,
) -> float:
    """The success probability of a wall board just moved (before its spawn).

    1 if a target cell holds rank ``rank_limit``, 0 if another free cell does or a free cell
    holds more than its cap allows; otherwise the mean over the empty free cells of
    ``0.9 * v(2 there) + 0.1 * v(4 there)``, from the stored values of those children, summed
    in the canonical order of the free cells. A child at file offset ``o`` (see
    :mod:`.ranking`; ``ranks`` is the formation's ``RANKS``) is read at ``values[o - base]``:
    a whole table with ``base`` 0, or a build's window of layers starting at ``base``.
    """
    # One pass from the last free cell back: what is left at each cell is the sum of the
    # cells from it on, so the layer and the afterstate's own terms come together.
    whole = 0
    layer = 0
    success = False
    failure = False
    for k in range(15, -1, -1):
        cell = layout[ORDER, k]
        if cell < 0:
            continue
        rank = int((after_lo >> np.uint64(4 * cell)) & _NIBBLE)
        if rank == rank_limit:
            if layout[TARGET, cell] != 0:
                success = True
            else:
                failure = True
        elif rank >= layout[RADIX, cell]:
            failure = True
        elif rank > 0:
            layer += 1 << (rank - 1)
            whole += ranks[k, rank, layer]
    if success:
        return 1.0
    if failure:
        return 0.0
    # A spawn on cell k raises what is left for cells 0 .. k by 1 (a 2) or 2 (a 4) and leaves
    # the cells after k as they were: its offset is where its layer starts, the afterstate's
    # terms before k read one or two sums up, cell k's own term, and the terms after k.
    total = 0.0
    empty = 0
    before = 0
    up_1 = ranks[0, 0, layer + 1] - base
    up_2 = ranks[0, 0, layer + 2] - base
    left = layer
    for k in range(16):
        cell = layout[ORDER, k]
        if cell < 0:
            break
        rank = int((after_lo >> np.uint64(4 * cell)) & _NIBBLE)
        if rank == 0:
            after = whole - before
            two = stored(values, up_1 + ranks[k, 1, left + 1] + after)
            four = stored(values, up_2 + ranks[k, 2, left + 2] + after)
            total += SPAWN_2 * two + SPAWN_4 * four
            empty += 1
        else:
            before += ranks[k, rank, left]
            up_1 += ranks[k, rank, left + 1]
            up_2 += ranks[k, rank, left + 2]
            left -= 1 << (rank - 1)
    if empty == 0:
        return 0.0
    return total / (empty * SCALE)


@njit(cache=True, nogil=True, inline="always")
def wall_position(index: int, empty_lo: np.uint64, layout: np.ndarray) -> np.uint64:
    """The wall board of position ``index`` read through ``layout``: ``empty_lo`` (the walls,
    free cells empty) with each free cell holding its digit of the index."""
    lo = empty_lo
    for k in range(16):
        cell = layout[ORDER, k]
        if cell < 0:
            break
        radix = layout[RADIX, cell]
        lo |= np.uint64(index % radix) << np.uint64(4 * cell)
        index //= radix
    return lo


@njit(cache=True, nogil=True, inline="always")
def direction_value(
    lo: np.uint64,
    hi: np.uint64,
    direction: int,
    values: np.ndarray,
    base: int,
    ranks: np.ndarray,
    layout: np.ndarray,
    rank_limit: int,
    tables: np.ndarray,
) -> float:
    """The success probability of moving the wall board ``direction``; -1 if not allowed
    (``values``, ``base``, ``ranks``: as :func:`afterstate_value` reads them)."""
    new_lo, new_hi, _ = move(lo, hi, direction, tables)
    if new_hi != hi or new_lo == lo:
        return -1.0
    return afterstate_value(new_lo, values, base, ranks, layout, rank_limit)


@njit(cache=True, nogil=True, inline="always")
def fits(lo: np.uint64, hi: np.uint64, layout: np.ndarray, rank_limit: int) -> bool:
    """The real board fits the formation read through ``layout``: every fixed cell holds a
    tile of at least the target, no two neighbouring fixed cells hold equal tiles, and every
    free cell holds a tile below the target (and at most its cap)."""
    for cell in range(16):
        exponent = cell_exponent(lo, hi, cell)
        if layout[FIXED, cell] != 0:
            if exponent < rank_limit:
                return False
            if (
                cell % 4 < 3
                and layout[FIXED, cell + 1] != 0
                and cell_exponent(lo, hi, cell + 1) == exponent
            ):
                return False
            if (
                cell < 12
                and layout[FIXED, cell + 4] != 0
                and cell_exponent(lo, hi, cell + 4) == exponent
            ):
                return False
        elif exponent >= layout[RADIX, cell]:
            return False
    return True


@njit(cache=True, nogil=True, inline="always")
def position_index(lo: np.uint64, hi: np.uint64, layout: np.ndarray) -> int:
    """The table index of a board that fits (see :func:`fits`): its canonical image's."""
    index = 0
    for cell in range(16):
        index += cell_exponent(lo, hi, cell) * layout[PLACE, cell]
    return index


@njit(
    [
        types.boolean(
            types.uint64, types.uint64, values, _RANKS, _LAYOUT, types.int64, _TABLES, _OUT
        )
        for values in _ALL_VALUES
    ],
    cache=True,
    nogil=True,
)
def table_move_values(
    lo: np.uint64,
    hi: np.uint64,
    values: np.ndarray,
    ranks: np.ndarray,
    layout: np.ndarray,
    rank_limit: int,
    tables: np.ndarray,
    out: np.ndarray,
) -> bool:
    """Each real direction's success probability for a real board read under one symmetry.

    ``lo, hi``: the real board (packed as :mod:`py2048.engine.board` packs it); ``values``: the
    table; ``ranks``: its formation's ``RANKS`` (:func:`py2048.tables.ranking.ranks_array`,
    where each position lies in ``values``); ``layout``: one symmetry's arrays
    (:func:`py2048.tables.layout.layout`);
    ``rank_limit``: log2 of the target; ``tables``: the engine's ``ROW_TABLES``. Writes
    ``out[d]`` for the four directions (-1 where the move is not allowed or would move a fixed
    tile) and returns True if the board fits: every fixed cell holds a tile of at least the
    target, no two neighbouring fixed cells hold equal tiles, and every free cell holds a tile
    below the target (and at most its cap). A board that does not fit gets -1 everywhere and
    False.
    """
    for d in range(4):
        out[d] = -1.0
    if not fits(lo, hi, layout, rank_limit):
        return False
    wall_lo = np.uint64(0)
    wall_hi = np.uint64(0)
    for cell in range(16):
        if layout[FIXED, cell] != 0:
            wall_lo |= _WALL_NIBBLE << np.uint64(4 * cell)
            wall_hi |= _U1 << np.uint64(cell)
        else:
            wall_lo |= np.uint64(cell_exponent(lo, hi, cell)) << np.uint64(4 * cell)
    for d in range(4):
        out[d] = direction_value(wall_lo, wall_hi, d, values, 0, ranks, layout, rank_limit, tables)
    return True


@njit(
    [
        types.int64(
            types.uint64, types.uint64, values, _RANKS, _LAYOUTS, types.int64, _TABLES, _OUT
        )
        for values in _ALL_VALUES
    ],
    cache=True,
    nogil=True,
)
def best_table_move_values(
    lo: np.uint64,
    hi: np.uint64,
    values: np.ndarray,
    ranks: np.ndarray,
    layouts: np.ndarray,
    rank_limit: int,
    tables: np.ndarray,
    out: np.ndarray,
) -> int:
    """:func:`table_move_values` under every symmetry the board fits; keeps the best.

    ``layouts``: the ``(8, LAYOUT_ROWS, 16)`` arrays of :func:`py2048.tables.layout.layouts`.
    Returns the symmetry whose best direction has the highest success probability (the first
    of equal ones), with its direction values in ``out``; -1 (and -1 everywhere in ``out``)
    when the board fits under none.
    """
    best_symmetry = -1
    best = -2.0
    v0 = v1 = v2 = v3 = -1.0
    for k in range(layouts.shape[0]):
        if not table_move_values(lo, hi, values, ranks, layouts[k], rank_limit, tables, out):
            continue
        top = max(out[0], out[1], out[2], out[3])
        if top > best:
            best = top
            best_symmetry = k
            v0, v1, v2, v3 = out[0], out[1], out[2], out[3]
    out[0], out[1], out[2], out[3] = v0, v1, v2, v3
    return best_symmetry
