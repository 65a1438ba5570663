"""Compiled kernels of the 3x3 perfect-play table (:mod:`.perfect`).

A 3x3 position is packed into 36 bits: cell ``i`` (row-major, ``3 * row + col``) holds its
exponent (0 empty, 1..10 the tiles 2..1024) in bits ``4 * i .. 4 * i + 3``. Its *canonical key*
is the smallest packing over the board's eight symmetries; the rules treat every direction
alike, so symmetric positions have the same values. Its *layer* is half its tile sum: a move
keeps it, a spawned 2 adds 1 and a spawned 4 adds 2.

A table row holds four values of the position, the player to move (:data:`COLUMNS`): the best
expected score still to come, and the best chances of making 256, 512 and 1024 (each its own
optimum, 1 when the tile is already on the board). The rules are :mod:`py2048.engine.grid`'s,
and the spawn odds :data:`py2048.engine.rng.SPAWN_ODDS`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from py2048.engine.grid import legal_mask, slide_into
from py2048.engine.rng import SPAWN_ODDS

ROWS = COLS = 3
CELLS = ROWS * COLS
COLUMNS = ("score", "256", "512", "1024")
"""What each of a row's four values is."""
TARGETS = (8, 9, 10)
"""The exponents of the tiles whose chances the table holds: 256, 512, 1024."""
(_TWO, _P_TWO), (_FOUR, _P_FOUR) = SPAWN_ODDS


def _symmetries() -> np.ndarray:
    """``SYMMETRIES[k, i]``: the cell of the board whose tile symmetry ``k`` puts on cell ``i``."""
    last = ROWS - 1
    maps = []
    for k in range(8):
        row = []
        for cell in range(CELLS):
            r, c = divmod(cell, COLS)
            r2, c2 = (
                (r, c),
                (c, last - r),
                (last - r, last - c),
                (last - c, r),
                (c, r),
                (last - c, last - r),
                (r, last - c),
                (last - r, c),
            )[k]
            row.append(COLS * r2 + c2)
        maps.append(row)
    return np.array(maps, dtype=np.int64)


SYMMETRIES = _symmetries()


@njit("u8(u1[::1])", cache=True, nogil=True)
def pack(cells: np.ndarray) -> np.uint64:
    """The 36-bit packing of a board's nine exponents (no symmetry applied)."""
    key = np.uint64(0)
    for i in range(CELLS):
        key |= np.uint64(cells[i]) << np.uint64(4 * i)
    return key


@njit("void(u8, u1[::1])", cache=True, nogil=True)
def unpack_into(key: np.uint64, cells: np.ndarray) -> None:
    for i in range(CELLS):
        cells[i] = np.uint8((key >> np.uint64(4 * i)) & np.uint64(15))


@njit(cache=True, nogil=True)
def canonical(cells: np.ndarray, symmetries: np.ndarray) -> np.uint64:
    """The smallest packing of the board over its eight symmetries."""
    best = np.uint64(0xFFFFFFFFFFFFFFFF)
    for k in range(8):
        key = np.uint64(0)
        for i in range(CELLS):
            key |= np.uint64(cells[symmetries[k, i]]) << np.uint64(4 * i)
        if key < best:
            best = key
    return best


@njit("i8(u1[::1])", cache=True, nogil=True)
def layer_of(cells: np.ndarray) -> int:
    """Half the tile sum of a board."""
    total = 0
    for i in range(CELLS):
        if cells[i]:
            total += 1 << (cells[i] - 1)
    return total


@njit(cache=True, nogil=True)
def _children(keys: np.ndarray, symmetries: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The canonical keys of every position one turn after ``keys`` (all of one layer): those
    with a 2 spawned, and those with a 4, each sorted without repeats."""
    n = keys.size
    twos = np.empty(n * 4 * CELLS, dtype=np.uint64)
    fours = np.empty(n * 4 * CELLS, dtype=np.uint64)
    found = 0
    cells = np.empty(CELLS, dtype=np.uint8)
    after = np.empty(CELLS, dtype=np.uint8)
    for index in range(n):
        unpack_into(keys[index], cells)
        mask = legal_mask(cells, ROWS, COLS)
        for direction in range(4):
            if not mask >> direction & 1:
                continue
            slide_into(cells, ROWS, COLS, direction, after)
            for cell in range(CELLS):
                if after[cell] == 0:
                    after[cell] = _TWO
                    twos[found] = canonical(after, symmetries)
                    after[cell] = _FOUR
                    fours[found] = canonical(after, symmetries)
                    after[cell] = 0
                    found += 1
    return np.unique(twos[:found]), np.unique(fours[:found])


def children(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_children` in runs of positions (so that its buffers stay small)."""
    run = 1 << 18
    twos, fours = [], []
    for start in range(0, keys.size, run):
        a, b = _children(keys[start : start + run], SYMMETRIES)
        twos.append(a)
        fours.append(b)
    if not twos:
        empty = np.empty(0, dtype=np.uint64)
        return empty, empty
    return np.unique(np.concatenate(twos)), np.unique(np.concatenate(fours))


@njit(cache=True, nogil=True, inline="always")
def _find(keys: np.ndarray, key: np.uint64) -> int:
    """The index of ``key`` in the sorted ``keys``, or -1."""
    index = np.searchsorted(keys, key)
    if index < keys.size and keys[index] == key:
        return int(index)
    return -1


@njit(cache=True, nogil=True, inline="always")
def _top(cells: np.ndarray) -> int:
    top = 0
    for i in range(CELLS):
        if cells[i] > top:
            top = cells[i]
    return top


@njit(cache=True, nogil=True)
def afterstate_values(
    after: np.ndarray,
    keys2: np.ndarray,
    values2: np.ndarray,
    keys4: np.ndarray,
    values4: np.ndarray,
    symmetries: np.ndarray,
    out: np.ndarray,
) -> bool:
    """The four values of an afterstate (the board after a move, before its spawn) into
    ``out``: the spawn-weighted mean over its empty cells of the values of the positions with
    a 2 there (read in ``keys2`` / ``values2``) and with a 4 (``keys4`` / ``values4``).
    False if one of them is not in the table (``out`` is then meaningless)."""
    for j in range(4):
        out[j] = 0.0
    empty = 0
    for cell in range(CELLS):
        if after[cell] != 0:
            continue
        empty += 1
        after[cell] = _TWO
        i2 = _find(keys2, canonical(after, symmetries))
        after[cell] = _FOUR
        i4 = _find(keys4, canonical(after, symmetries))
        after[cell] = 0
        if i2 < 0 or i4 < 0:
            return False
        for j in range(4):
            out[j] += _P_TWO * values2[i2, j] + _P_FOUR * values4[i4, j]
    for j in range(4):
        out[j] /= empty
    return True


@njit(cache=True, nogil=True, parallel=True)
def solve_layer(
    keys: np.ndarray,
    keys2: np.ndarray,
    values2: np.ndarray,
    keys4: np.ndarray,
    values4: np.ndarray,
    symmetries: np.ndarray,
) -> tuple[np.ndarray, int]:
    """The values of a layer's positions, from the two layers above it (its 2- and 4-spawns).

    Returns the ``(n, 4)`` float64 values and the number of children missing from the layers
    above (0 in a table built whole: every child of a table position is a table position).
    """
    n = keys.size
    values = np.zeros((n, 4), dtype=np.float64)
    missing = np.zeros(n, dtype=np.int64)
    for index in prange(n):
        cells = np.empty(CELLS, dtype=np.uint8)
        after = np.empty(CELLS, dtype=np.uint8)
        child = np.empty(4, dtype=np.float64)
        unpack_into(keys[index], cells)
        top = _top(cells)
        best = np.zeros(4, dtype=np.float64)
        mask = legal_mask(cells, ROWS, COLS)
        for direction in range(4):
            if not mask >> direction & 1:
                continue
            gain, _ = slide_into(cells, ROWS, COLS, direction, after)
            if not afterstate_values(after, keys2, values2, keys4, values4, symmetries, child):
                missing[index] += 1
                continue
            if gain + child[0] > best[0]:
                best[0] = gain + child[0]
            for j in range(3):
                if child[j + 1] > best[j + 1]:
                    best[j + 1] = child[j + 1]
        for j in range(3):
            if top >= TARGETS[j]:
                best[j + 1] = 1.0
        for j in range(4):
            values[index, j] = best[j]
    return values, int(missing.sum())


@njit(cache=True, nogil=True)
def row_of(cells: np.ndarray, keys: np.ndarray, starts: np.ndarray, symmetries: np.ndarray) -> int:
    """The table row of a board (nine exponents), or -1 if the table does not hold it.

    ``keys`` holds the low 32 bits of every row's canonical packing; the rows of bucket
    ``b = 16 * layer + (packing >> 32)`` are ``starts[b] .. starts[b + 1] - 1``, ascending.
    """
    key = canonical(cells, symmetries)
    bucket = 16 * layer_of(cells) + int(key >> np.uint64(32))
    if bucket + 1 >= starts.size:
        return -1
    lo = starts[bucket]
    hi = starts[bucket + 1]
    low = np.uint32(key & np.uint64(0xFFFFFFFF))
    index = lo + np.searchsorted(keys[lo:hi], low)
    if index < hi and keys[index] == low:
        return int(index)
    return -1


@njit(cache=True, nogil=True)
def move_values_into(
    cells: np.ndarray,
    keys: np.ndarray,
    starts: np.ndarray,
    values: np.ndarray,
    symmetries: np.ndarray,
    out: np.ndarray,
) -> int:
    """Each direction's four values into ``out[direction]``: the move's points plus the
    spawn-weighted mean score of the positions it leads to, and the mean of their chances.

    Returns the mask of the directions that move, plus 16 times the mask of those leading to
    a position that the table (:func:`row_of`'s layout) does not hold.
    """
    after = np.empty(CELLS, dtype=np.uint8)
    mask = legal_mask(cells, ROWS, COLS)
    missing = 0
    for direction in range(4):
        for j in range(4):
            out[direction, j] = 0.0
        if not mask >> direction & 1:
            continue
        gain, _ = slide_into(cells, ROWS, COLS, direction, after)
        empty = 0
        for cell in range(CELLS):
            if after[cell] != 0:
                continue
            empty += 1
            after[cell] = _TWO
            r2 = row_of(after, keys, starts, symmetries)
            after[cell] = _FOUR
            r4 = row_of(after, keys, starts, symmetries)
            after[cell] = 0
            if r2 < 0 or r4 < 0:
                missing |= 1 << direction
                break
            for j in range(4):
                out[direction, j] += _P_TWO * values[r2, j] + _P_FOUR * values[r4, j]
        for j in range(4):
            out[direction, j] /= empty
        out[direction, 0] += gain
    return mask | (missing << 4)
