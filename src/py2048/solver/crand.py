"""``c-rand`` spawns: the C library's ``rand()``, as the public C++ 2048 AIs are benchmarked.

With ``--rng c-rand``, ``2048 bench`` seeds game ``i`` with ``srand(seed + i)`` and places every
tile the same way:

1. list the empty cells row by row from the top left (cell ``4*row + col``);
2. ``cell = rand() % n`` picks one of the ``n`` empty cells;
3. the tile is a 4 if ``rand() % 10 == 0``, otherwise a 2.

The opening board is two such spawns on an empty board. ``rand`` is the C library's (glibc on
Linux), so results compare seed for seed with programs benchmarked that way on the same system.
The generator is one per process, which is why the bench plays one game at a time per worker
process. The functions are called by name from compiled code, like the clock in
:mod:`py2048.solver.clock`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from py2048.engine.board import cell_exponent, count_empty, unpack

_srand = types.ExternalFunction("srand", types.void(types.uint32))
_rand = types.ExternalFunction("rand", types.int32())

SEED_LIMIT = 1 << 32
"""``srand`` takes an unsigned int."""


@njit("void(u8)", cache=True, nogil=True)
def seed(value):
    """``srand(value)``: restart the process's C generator."""
    _srand(np.uint32(value))


@njit("Tuple((u8, i8, i8))(u8, u8)", cache=True, nogil=True)
def spawn(lo, hi):
    """Place one tile as described above: ``(lo, cell, exponent)``; cell -1 on a full board."""
    n = count_empty(lo, hi)
    if n == 0:
        return lo, -1, 0
    target = _rand() % n
    exponent = 2 if _rand() % 10 == 0 else 1
    seen = 0
    for cell in range(16):
        if cell_exponent(lo, hi, cell) == 0:
            if seen == target:
                return lo | (np.uint64(exponent) << np.uint64(4 * cell)), cell, exponent
            seen += 1
    return lo, -1, 0


@njit("UniTuple(u8, 2)(u8)", cache=True, nogil=True)
def start(value):
    """``srand(value)`` and the opening board: two spawns on an empty board."""
    seed(value)
    lo, _, _ = spawn(np.uint64(0), np.uint64(0))
    lo, _, _ = spawn(lo, np.uint64(0))
    return lo, np.uint64(0)


def opening_board(value: int) -> list[list[int]]:
    """The opening board of the c-rand game with this seed, as a 4x4 list of tiles."""
    if not 0 <= value < SEED_LIMIT:
        raise ValueError(f"a c-rand seed must be between 0 and 2**32 - 1, got {value}")
    return unpack(*start(np.uint64(value)))
