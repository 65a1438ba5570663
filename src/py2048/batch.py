"""Many games of 2048 at once: N packed boards in numpy arrays, stepped in one compiled call.

For people who write their own training loops (and for :mod:`py2048.env`, which builds on the
same row kernels). Nothing here needs Gymnasium. Every game plays exactly as
``py2048.Game(seed)``: game ``i`` of ``Batch(n, seed=s)`` is ``Game(s + i)``, and the same moves
give the same boards and scores.

State lives in one ``(N, 6)`` uint64 array whose columns are the packed board (``lo``, ``hi``;
see :mod:`py2048.engine.board`), the spawn key, the game's seed, its number of real moves and
its score (:data:`STATE_LO` ... :data:`STATE_SCORE`, from :mod:`py2048.engine.rows`). A game
that restarts without a seed of its own plays :func:`next_seed` of its seed, so a whole run of
games follows from the first seeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numba import njit

from py2048.checks import (
    SeedLike,
    board_words,
    checked_actions,
    checked_mask,
    checked_positive_int,
    seeds_for,
)
from py2048.engine.board import ROW_TABLES, legal_mask, max_exponent, move
from py2048.engine.rows import (
    STATE_COLUMNS,
    STATE_HI,
    STATE_KEY,
    STATE_LO,
    STATE_MOVES,
    STATE_SCORE,
    STATE_SEED,
    advance,
    next_seed,
    restart,
    restart_from,
)
from py2048.observation import ONEHOT_PLANES, write_observation

__all__ = [
    "STATE_COLUMNS",
    "STATE_HI",
    "STATE_KEY",
    "STATE_LO",
    "STATE_MOVES",
    "STATE_SCORE",
    "STATE_SEED",
    "Afterstates",
    "Batch",
    "SeedLike",
    "StepResult",
    "next_seed",
]


# --- whole-batch kernels --------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _restart_selected(
    state: np.ndarray,
    select: np.ndarray,
    seeds: np.ndarray,
    lo: np.uint64,
    hi: np.uint64,
    use_board: bool,
) -> None:
    for i in range(state.shape[0]):
        if select[i]:
            restart_from(state, i, seeds[i], lo, hi, use_board)


@njit(cache=True, nogil=True)
def _step(
    state: np.ndarray,
    actions: np.ndarray,
    autoreset: bool,
    tables: np.ndarray,
    gains: np.ndarray,
    moved: np.ndarray,
    over: np.ndarray,
    final_scores: np.ndarray,
    final_max_tiles: np.ndarray,
    legal: np.ndarray,
) -> None:
    for i in range(state.shape[0]):
        gains[i], moved[i] = advance(state, i, actions[i], tables)
        mask = legal_mask(state[i, STATE_LO], state[i, STATE_HI], tables)
        over[i] = mask == 0
        if mask == 0:
            final_scores[i] = state[i, STATE_SCORE]
            final_max_tiles[i] = 1 << max_exponent(state[i, STATE_LO], state[i, STATE_HI])
            if autoreset:
                restart(state, i, next_seed(state[i, STATE_SEED]))
                mask = legal_mask(state[i, STATE_LO], state[i, STATE_HI], tables)
        else:
            final_scores[i] = 0
            final_max_tiles[i] = 0
        legal[i] = mask


@njit(cache=True, nogil=True)
def _max_tiles(state: np.ndarray, out: np.ndarray) -> None:
    for i in range(state.shape[0]):
        out[i] = 1 << max_exponent(state[i, STATE_LO], state[i, STATE_HI])


@njit(cache=True, nogil=True)
def _legal(state: np.ndarray, tables: np.ndarray, out: np.ndarray) -> None:
    for i in range(state.shape[0]):
        out[i] = legal_mask(state[i, STATE_LO], state[i, STATE_HI], tables)


@njit(cache=True, nogil=True)
def _observe(state: np.ndarray, out: np.ndarray) -> None:
    flat = out.reshape(state.shape[0], out.size // state.shape[0])
    for i in range(state.shape[0]):
        write_observation(state[i, STATE_LO], state[i, STATE_HI], flat[i])


@njit(cache=True, nogil=True)
def _afterstates(
    state: np.ndarray,
    tables: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    gains: np.ndarray,
    legal: np.ndarray,
) -> None:
    for i in range(state.shape[0]):
        for d in range(4):
            new_lo, new_hi, gain = move(state[i, STATE_LO], state[i, STATE_HI], d, tables)
            lo[i, d] = new_lo
            hi[i, d] = new_hi
            gains[i, d] = gain
            legal[i, d] = new_lo != state[i, STATE_LO] or new_hi != state[i, STATE_HI]


# --- the Python API -------------------------------------------------------------------------


class StepResult(NamedTuple):
    """What one :meth:`Batch.step` did, one entry per game (fresh arrays every step)."""

    gains: np.ndarray
    """int64: points scored by the move (0 for a direction that did not move)."""
    moved: np.ndarray
    """bool: the direction changed the board (and a tile spawned)."""
    over: np.ndarray
    """bool: the game has no legal move left (with autoreset it has already restarted)."""
    final_scores: np.ndarray
    """int64: the final score of each game that is over (0 for the others)."""
    final_max_tiles: np.ndarray
    """int64: the largest tile of each game that is over (0 for the others)."""


class Afterstates(NamedTuple):
    """Every game slid each way without a spawn: arrays of shape (N, 4), one column per action."""

    lo: np.ndarray
    hi: np.ndarray
    gains: np.ndarray
    legal: np.ndarray
    """bool: the action changes the board."""


class Batch:
    """N games stepped together: ``Batch(1024, seed=0).step(actions)``.

    Game ``i`` starts as ``Game(seed + i)`` (or ``Game(seed[i])`` for a sequence of seeds; fresh
    random seeds for ``None``). The array properties are views of the live state: copy them to
    keep a snapshot.
    """

    __slots__ = ("legal", "state")

    def __init__(self, n: int, seed: SeedLike = None) -> None:
        n = checked_positive_int("the number of games", n)
        self.state = np.zeros((n, STATE_COLUMNS), dtype=np.uint64)
        """(N, 6) uint64, a game per row: columns STATE_LO, ..., STATE_SCORE of this module."""
        self.legal = np.zeros(n, dtype=np.uint8)
        """(N,) uint8 bitmask of legal actions (bit d set when action d moves), kept current."""
        self.reset(seed)

    @property
    def n(self) -> int:
        return self.state.shape[0]

    @property
    def lo(self) -> np.ndarray:
        return self.state[:, STATE_LO]

    @property
    def hi(self) -> np.ndarray:
        return self.state[:, STATE_HI]

    @property
    def seeds(self) -> np.ndarray:
        return self.state[:, STATE_SEED]

    @property
    def moves(self) -> np.ndarray:
        return self.state[:, STATE_MOVES]

    @property
    def scores(self) -> np.ndarray:
        return self.state[:, STATE_SCORE]

    def reset(
        self,
        seed: SeedLike = None,
        mask: np.ndarray | None = None,
        board: Sequence[Sequence[int]] | None = None,
    ) -> None:
        """Restart the games selected by ``mask`` (all by default) from the given seeds.

        ``seed`` is an int (game ``i`` gets ``seed + i``), a sequence of N seeds, or None (fresh
        random seeds). With ``board`` (4 rows of 4 tile values), the games start from that
        board, as ``Game.from_board(board, seed=...)`` does.
        """
        select = np.ones(self.n, dtype=bool) if mask is None else checked_mask(mask, self.n)
        seeds = seeds_for(seed, self.n)
        lo, hi, use_board = board_words(board)
        _restart_selected(self.state, select, seeds, lo, hi, use_board)
        _legal(self.state, ROW_TABLES, self.legal)

    def step(self, actions: Sequence[int] | np.ndarray, *, autoreset: bool = False) -> StepResult:
        """Play one action in every game (0 up, 1 right, 2 down, 3 left) in one compiled call.

        A direction that does not move changes nothing, as in the game. The result reports the
        final score and largest tile of every game that is over; with ``autoreset`` those games
        then restart at once, each with ``next_seed`` of its seed.
        """
        checked = checked_actions(actions, self.n)
        n = self.n
        result = StepResult(
            np.empty(n, np.int64),
            np.empty(n, np.bool_),
            np.empty(n, np.bool_),
            np.empty(n, np.int64),
            np.empty(n, np.int64),
        )
        _step(self.state, checked, autoreset, ROW_TABLES, *result, self.legal)
        return result

    def observe(self, onehot: bool = False) -> np.ndarray:
        """Exponents as (N, 4, 4) uint8, or one-hot planes as (N, 18, 4, 4) uint8."""
        shape = (self.n, ONEHOT_PLANES, 4, 4) if onehot else (self.n, 4, 4)
        out = np.empty(shape, dtype=np.uint8)
        _observe(self.state, out)
        return out

    def max_tiles(self) -> np.ndarray:
        """(N,) int64: each game's largest tile."""
        out = np.empty(self.n, dtype=np.int64)
        _max_tiles(self.state, out)
        return out

    def action_masks(self) -> np.ndarray:
        """(N, 4) int8: 1 where the action would move the board."""
        return ((self.legal[:, None] >> np.arange(4, dtype=np.uint8)) & 1).astype(np.int8)

    def afterstates(self) -> Afterstates:
        """Each game slid in each direction without a spawn (the afterstates of TD learning)."""
        n = self.n
        result = Afterstates(
            np.empty((n, 4), np.uint64),
            np.empty((n, 4), np.uint64),
            np.empty((n, 4), np.int64),
            np.empty((n, 4), np.bool_),
        )
        _afterstates(self.state, ROW_TABLES, *result)
        return result
