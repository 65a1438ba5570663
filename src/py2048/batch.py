"""Many games of 2048 at once: N packed boards in numpy arrays, stepped in one compiled call.

For people who write their own training loops (and for :mod:`py2048.env`, which builds on it).
Nothing here needs Gymnasium. Every game plays exactly as ``py2048.Game(seed)``: game ``i``
of ``Batch(n, seed=s)`` is ``Game(s + i)``, and the same moves give the same boards and scores.

State lives in one ``(N, 6)`` uint64 array whose columns are the packed board (``lo``, ``hi``;
see :mod:`py2048.engine.board`), the spawn key, the game's seed, its number of real moves and
its score. A game that restarts without a seed of its own plays ``next_seed(seed)``, so a whole
run of games follows from the first seeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numba import njit

from py2048.engine.board import (
    MAX_EXPONENT,
    ROW_TABLES,
    cell_exponent,
    legal_mask,
    max_exponent,
    move,
    pack,
    play,
    start,
)
from py2048.engine.rng import SEED_LIMIT, draw, seed_key, validate_seed

LO, HI, KEY, SEED, MOVES, SCORE = range(6)
"""Columns of the state array."""
STATE_COLUMNS = 6

ONEHOT_PLANES = MAX_EXPONENT + 1
"""Planes of a one-hot observation: plane ``e`` marks the cells holding exponent ``e``."""

_NEXT_GAME_DRAW = np.uint64(1 << 63)
"""A spawn number no game reaches; its draw picks the seed of the game that follows."""

SeedLike = int | Sequence[int] | np.ndarray | None


# --- compiled building blocks (also used by py2048.env) ------------------------------------


@njit("u8(u8)", cache=True, nogil=True)
def next_seed(seed: np.uint64) -> np.uint64:
    """The seed of the game that follows game ``seed`` when a game restarts unseeded (< 2**53)."""
    return draw(seed_key(seed), _NEXT_GAME_DRAW) >> np.uint64(11)


@njit(cache=True, nogil=True)
def restart(state: np.ndarray, i: int, seed: np.uint64) -> None:
    """Make row ``i`` of ``state`` the opening position of ``Game(seed)``."""
    key = seed_key(seed)
    lo, hi = start(key)
    state[i, LO] = lo
    state[i, HI] = hi
    state[i, KEY] = key
    state[i, SEED] = seed
    state[i, MOVES] = 0
    state[i, SCORE] = 0


@njit(cache=True, nogil=True)
def restart_from(
    state: np.ndarray, i: int, seed: np.uint64, lo: np.uint64, hi: np.uint64, use_board: bool
) -> None:
    """Row ``i`` becomes ``Game(seed)``, or ``Game.from_board(board, seed=seed)`` with a board."""
    restart(state, i, seed)
    if use_board:
        state[i, LO] = lo
        state[i, HI] = hi


@njit(cache=True, nogil=True)
def advance(state: np.ndarray, i: int, action: int, tables: np.ndarray) -> tuple[int, bool]:
    """Play ``action`` in game ``i`` as ``Game.step`` does: ``(gain, moved)``."""
    lo, hi, gain, cell, _ = play(
        state[i, LO],
        state[i, HI],
        action,
        state[i, KEY],
        state[i, MOVES] + np.uint64(2),
        tables,
    )
    if cell < 0:
        return 0, False
    state[i, LO] = lo
    state[i, HI] = hi
    state[i, MOVES] += np.uint64(1)
    state[i, SCORE] += np.uint64(gain)
    return gain, True


@njit(cache=True, nogil=True)
def write_observation(lo: np.uint64, hi: np.uint64, out: np.ndarray) -> None:
    """Write a board into a flat buffer: 16 exponents, or 18 x 16 one-hot planes (288 bytes)."""
    if out.size == 16:
        for cell in range(16):
            out[cell] = cell_exponent(lo, hi, cell)
    else:
        out[:] = 0
        for cell in range(16):
            out[cell_exponent(lo, hi, cell) * 16 + cell] = 1


@njit(cache=True, nogil=True)
def write_mask_row(mask: int, out: np.ndarray, i: int) -> None:
    """Row ``i`` of an (N, 4) action-mask array from a legal-move bitmask."""
    for d in range(4):
        out[i, d] = (mask >> d) & 1


@njit(cache=True, nogil=True)
def first_bad_action(actions: np.ndarray) -> int:
    """Index of the first action outside 0-3, or -1 when all are valid."""
    for i in range(actions.shape[0]):
        if actions[i] < 0 or actions[i] > 3:
            return i
    return -1


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
        mask = legal_mask(state[i, LO], state[i, HI], tables)
        over[i] = mask == 0
        if mask == 0:
            final_scores[i] = state[i, SCORE]
            final_max_tiles[i] = 1 << max_exponent(state[i, LO], state[i, HI])
            if autoreset:
                restart(state, i, next_seed(state[i, SEED]))
                mask = legal_mask(state[i, LO], state[i, HI], tables)
        else:
            final_scores[i] = 0
            final_max_tiles[i] = 0
        legal[i] = mask


@njit(cache=True, nogil=True)
def _max_tiles(state: np.ndarray, out: np.ndarray) -> None:
    for i in range(state.shape[0]):
        out[i] = 1 << max_exponent(state[i, LO], state[i, HI])


@njit(cache=True, nogil=True)
def _legal(state: np.ndarray, tables: np.ndarray, out: np.ndarray) -> None:
    for i in range(state.shape[0]):
        out[i] = legal_mask(state[i, LO], state[i, HI], tables)


@njit(cache=True, nogil=True)
def _observe(state: np.ndarray, out: np.ndarray) -> None:
    flat = out.reshape(state.shape[0], out.size // state.shape[0])
    for i in range(state.shape[0]):
        write_observation(state[i, LO], state[i, HI], flat[i])


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
            new_lo, new_hi, gain = move(state[i, LO], state[i, HI], d, tables)
            lo[i, d] = new_lo
            hi[i, d] = new_hi
            gains[i, d] = gain
            legal[i, d] = new_lo != state[i, LO] or new_hi != state[i, HI]


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
        n = positive_int("the number of games", n)
        self.state = np.zeros((n, STATE_COLUMNS), dtype=np.uint64)
        """(N, 6) uint64: columns LO, HI, KEY, SEED, MOVES, SCORE of this module."""
        self.legal = np.zeros(n, dtype=np.uint8)
        """(N,) uint8 bitmask of legal actions (bit d set when action d moves), kept current."""
        self.reset(seed)

    @property
    def n(self) -> int:
        return self.state.shape[0]

    @property
    def lo(self) -> np.ndarray:
        return self.state[:, LO]

    @property
    def hi(self) -> np.ndarray:
        return self.state[:, HI]

    @property
    def seeds(self) -> np.ndarray:
        return self.state[:, SEED]

    @property
    def moves(self) -> np.ndarray:
        return self.state[:, MOVES]

    @property
    def scores(self) -> np.ndarray:
        return self.state[:, SCORE]

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


# --- argument checks shared with py2048.env -------------------------------------------------


def positive_int(name: str, value: object) -> int:
    """``value`` as an int, or ValueError when it is not a positive integer."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def seeds_for(seed: SeedLike, n: int) -> np.ndarray:
    """N game seeds from an int (``seed + i``), a sequence of N ints, or None (random)."""
    if seed is None:
        return np.random.default_rng().integers(SEED_LIMIT, size=n, dtype=np.uint64)
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        first = validate_seed(seed)
        if first + n > SEED_LIMIT:
            raise ValueError(f"seed + {n - 1} must stay below 2**53, got seed {first}")
        return np.arange(first, first + n, dtype=np.uint64)
    values = list(seed)
    if len(values) != n:
        raise ValueError(f"expected {n} seeds, got {len(values)}")
    return np.array([validate_seed(value) for value in values], dtype=np.uint64)


def board_words(board: Sequence[Sequence[int]] | None) -> tuple[np.uint64, np.uint64, bool]:
    """``(lo, hi, True)`` for a valid board, ``(0, 0, False)`` for None; BoardError otherwise."""
    if board is None:
        return np.uint64(0), np.uint64(0), False
    lo, hi = pack(board)
    return np.uint64(lo), np.uint64(hi), True


def checked_mask(mask: object, n: int) -> np.ndarray:
    """A boolean selection of N games, or ValueError saying what was wrong."""
    array = np.asarray(mask)
    if array.dtype != np.bool_ or array.shape != (n,):
        raise ValueError(
            f"mask must be a bool array of shape ({n},), got {array.dtype} {array.shape}"
        )
    return array


def checked_actions(actions: object, n: int) -> np.ndarray:
    """N actions as int64, or ValueError naming the first bad one."""
    array = np.asarray(actions)
    if array.shape != (n,) or not np.issubdtype(array.dtype, np.integer):
        raise ValueError(
            f"actions must be {n} integers (0 up, 1 right, 2 down, 3 left), "
            f"got {array.dtype} {array.shape}"
        )
    array = array.astype(np.int64, copy=False)
    bad = first_bad_action(array)
    if bad >= 0:
        raise ValueError(
            f"actions[{bad}] = {array[bad]} is not an action: use 0 up, 1 right, 2 down, 3 left"
        )
    return array
