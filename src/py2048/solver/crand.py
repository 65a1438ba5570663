"""``c-rand`` spawns: glibc's ``rand()``, as the public C++ 2048 AIs are benchmarked.

With ``--rng c-rand``, ``2048 bench`` seeds game ``i`` with ``srand(seed + i)`` and places every
tile the same way:

1. list the empty cells row by row from the top left (cell ``4*row + col``);
2. ``cell = rand() % n`` picks one of the ``n`` empty cells;
3. the tile is a 4 if ``rand() % 10 == 0``, otherwise a 2.

The opening board is two such spawns on an empty board. The numbers are exactly those of
glibc's ``srand``/``rand`` (its default additive feedback generator, ``TYPE_3``: 31 words,
``r[i] = r[i-31] + r[i-3]``, seeded by a Lehmer sequence, the first 310 outputs discarded),
so results compare seed for seed with programs benchmarked on Linux; the tests check the
sequence against the C library's own ``rand`` through ctypes.

The generator is reimplemented rather than called: the C library keeps one ``rand`` state per
process, which any other thread of the process (a Ray worker's own threads, for one) may
advance in the middle of a game. Here every game owns its state array.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from py2048.engine.board import cell_exponent, count_empty, unpack

SEED_LIMIT = 1 << 32
"""``srand`` takes an unsigned int."""

_DEGREE = 31
_SEPARATION = 3
_FRONT = _DEGREE
_REAR = _DEGREE + 1
STATE_SIZE = _DEGREE + 2
"""A generator's state: the 31 words, then the front and rear positions."""


@njit("i8(u4[::1])", cache=True, nogil=True)
def rand(state):
    """The next ``rand()`` of this state: 0 .. 2**31 - 1."""
    front = state[_FRONT]
    rear = state[_REAR]
    value = np.uint32(state[front] + state[rear])
    state[front] = value
    front += 1
    rear += 1
    if front >= _DEGREE:
        front = 0
    elif rear >= _DEGREE:
        rear = 0
    state[_FRONT] = front
    state[_REAR] = rear
    return np.int64(value >> np.uint32(1))


@njit("void(u8, u4[::1])", cache=True, nogil=True)
def seed(value, state):
    """``srand(value)``: fill ``state`` as glibc's ``srandom_r`` does (seed 0 counts as 1)."""
    bits = np.uint32(value) if value != 0 else np.uint32(1)
    state[0] = bits
    word = np.int64(np.int32(bits))  # glibc keeps the seed in a signed 32-bit word
    for i in range(1, _DEGREE):
        # 16807 * word % (2**31 - 1) by Schrage's method, with C's division (toward zero)
        hi, lo = divmod(abs(word), 127773)
        if word < 0:
            hi, lo = -hi, -lo
        word = 16807 * lo - 2836 * hi
        if word < 0:
            word += 2147483647
        state[i] = np.uint32(word)
    state[_FRONT] = _SEPARATION
    state[_REAR] = 0
    for _ in range(10 * _DEGREE):
        rand(state)


@njit("Tuple((u8, i8, i8))(u8, u8, u4[::1])", cache=True, nogil=True)
def spawn(lo, hi, state):
    """Place one tile as described above: ``(lo, cell, exponent)``; cell -1 on a full board."""
    n = count_empty(lo, hi)
    if n == 0:
        return lo, -1, 0
    target = rand(state) % n
    exponent = 2 if rand(state) % 10 == 0 else 1
    seen = 0
    for cell in range(16):
        if cell_exponent(lo, hi, cell) == 0:
            if seen == target:
                return lo | (np.uint64(exponent) << np.uint64(4 * cell)), cell, exponent
            seen += 1
    return lo, -1, 0


@njit("UniTuple(u8, 2)(u8, u4[::1])", cache=True, nogil=True)
def start(value, state):
    """``srand(value)`` into ``state`` and the opening board: two spawns on an empty board."""
    seed(value, state)
    lo, _, _ = spawn(np.uint64(0), np.uint64(0), state)
    lo, _, _ = spawn(lo, np.uint64(0), state)
    return lo, np.uint64(0)


@njit("u4[::1]()", cache=True, nogil=True)
def new_state() -> np.ndarray:
    """An empty generator state, for :func:`seed` or :func:`start` to fill (also from compiled
    code)."""
    return np.zeros(STATE_SIZE, dtype=np.uint32)


def opening_board(value: int) -> list[list[int]]:
    """The opening board of the c-rand game with this seed, as a 4x4 list of tiles."""
    if not 0 <= value < SEED_LIMIT:
        raise ValueError(f"a c-rand seed must be between 0 and 2**32 - 1, got {value}")
    return unpack(*start(np.uint64(value), new_state()))
