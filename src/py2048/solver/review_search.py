"""The review's compiled loop: the search's value of every direction, for many positions at once.

A game review (:mod:`py2048.solver.reviewer`) asks the search about every position of a game, at
one fixed depth. Asked one position at a time from Python, the call itself would cost more than
a shallow search (about 0.2 ms a call); :func:`grade_positions` searches a whole slice of the
game's positions in one call that releases the GIL, the way :func:`py2048.solver.autoplay.
play_game` plays a whole game.

Each position is searched with a generation of its own (``first_generation`` plus its index),
so no search reads what another left in the transposition table: a position's values do not
depend on which positions were searched before it, or in how many calls.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from py2048.evaluation.contract import EVALUATION_DATA, KERNEL_TYPE
from py2048.solver.search import (
    COUNTER_SLOTS,
    SEARCH_PLAN,
    TRANSPOSITION_TABLE,
    Run,
    decide,
)


@njit(
    types.void(
        types.uint64[::1],  # lo of each position
        types.uint64[::1],  # hi of each position
        SEARCH_PLAN,
        KERNEL_TYPE,
        EVALUATION_DATA,
        TRANSPOSITION_TABLE,
        types.uint32[:, ::1],  # move tables
        types.int64,  # first generation
        types.float64[:, ::1],  # out: (positions, 4) values, -inf where a direction is no move
        types.int64[::1],  # out: the depth that answered each position (-1: no move)
    ),
    cache=True,
    nogil=True,
)
def grade_positions(
    los, his, plan, evaluate, evaluation, table, tables, first_generation, values, depths
):
    """Search every position ``(los[i], his[i])`` as ``plan`` says, with no time limit; write
    each direction's value into ``values[i]`` and the depth searched into ``depths[i]``."""
    counters = np.zeros(COUNTER_SLOTS, dtype=np.int64)
    out = np.empty(4, dtype=np.float64)
    for i in range(los.shape[0]):
        run = Run(tables, np.uint64(first_generation + i + 1), counters, 0.0, 0.0, 0)
        depths[i] = decide(los[i], his[i], plan, evaluate, evaluation, table, run, out)
        for direction in range(4):
            values[i, direction] = out[direction]
