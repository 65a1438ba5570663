"""Many games in one array: the compiled kernels that restart, advance and observe one row.

These are the 4x4 kernels; boards of other sizes are stepped by ``py2048.batch``'s kernels on
the grid boards of :mod:`py2048.engine.grid`.

A game's state is one row of a uint64 array with :data:`STATE_COLUMNS` columns: the packed
board (``lo``, ``hi``; see :mod:`py2048.engine.board`), the spawn key, the game's seed, its
number of real moves and its score. Row ``i`` then plays exactly as ``Game(seed)``: the same
opening, the same spawns for the same moves. ``py2048.batch.Batch`` and the Gymnasium
environments (:mod:`py2048.env`) step their games with these kernels; what a learner sees of a
row (its observation) is :mod:`py2048.observation`'s.

A game that restarts without a seed of its own plays :func:`next_seed` of its seed, so a whole
run of games follows from the first seeds.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from py2048.engine.board import play, start
from py2048.engine.rng import draw, seed_key

STATE_LO, STATE_HI, STATE_KEY, STATE_SEED, STATE_MOVES, STATE_SCORE = range(6)
"""Columns of a state row: board words, spawn key, seed, real moves, score."""
STATE_COLUMNS = 6

_NEXT_GAME_DRAW = np.uint64(1 << 63)
"""A spawn number no game reaches; its draw picks the seed of the game that follows."""


@njit("u8(u8)", cache=True, nogil=True)
def next_seed(seed: np.uint64) -> np.uint64:
    """The seed of the game that follows game ``seed`` when a game restarts unseeded (< 2**53)."""
    return draw(seed_key(seed), _NEXT_GAME_DRAW) >> np.uint64(11)


@njit(cache=True, nogil=True)
def restart(state: np.ndarray, i: int, seed: np.uint64) -> None:
    """Make row ``i`` of ``state`` the opening position of ``Game(seed)``."""
    key = seed_key(seed)
    lo, hi = start(key)
    state[i, STATE_LO] = lo
    state[i, STATE_HI] = hi
    state[i, STATE_KEY] = key
    state[i, STATE_SEED] = seed
    state[i, STATE_MOVES] = 0
    state[i, STATE_SCORE] = 0


@njit(cache=True, nogil=True)
def restart_from(
    state: np.ndarray, i: int, seed: np.uint64, lo: np.uint64, hi: np.uint64, use_board: bool
) -> None:
    """Row ``i`` becomes ``Game(seed)``, or ``Game.from_board(board, seed=seed)`` with a board."""
    restart(state, i, seed)
    if use_board:
        state[i, STATE_LO] = lo
        state[i, STATE_HI] = hi


@njit(cache=True, nogil=True)
def advance(state: np.ndarray, i: int, action: int, tables: np.ndarray) -> tuple[int, bool]:
    """Play ``action`` in game ``i`` as ``Game.step`` does: ``(gain, moved)``."""
    lo, hi, gain, cell, _ = play(
        state[i, STATE_LO],
        state[i, STATE_HI],
        action,
        state[i, STATE_KEY],
        state[i, STATE_MOVES] + np.uint64(2),
        tables,
    )
    if cell < 0:
        return 0, False
    state[i, STATE_LO] = lo
    state[i, STATE_HI] = hi
    state[i, STATE_MOVES] += np.uint64(1)
    state[i, STATE_SCORE] += np.uint64(gain)
    return gain, True
