"""Checks of the arguments that the batch API and the environments take.

``py2048.batch`` and ``py2048.env`` share them, and they need only numpy: the batch API works
without Gymnasium. Each returns the value in the form the kernels take, or raises ValueError
(or :class:`py2048.BoardError`, a ValueError) saying what was wrong.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from py2048.engine.board import BoardError, exponents_from_board, pack_exponents
from py2048.engine.integers import is_integer as is_integer  # shared with the environments
from py2048.engine.rng import SEED_LIMIT, validate_seed
from py2048.engine.save import too_few_tiles

SeedLike = int | Sequence[int] | np.ndarray | None
"""Seeds for N games: an int (game ``i`` gets ``seed + i``), N ints, or None (random)."""


def checked_positive_int(name: str, value: object) -> int:
    """``value`` as an int, or ValueError when it is not a positive integer."""
    if not is_integer(value) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def seeds_for(seed: SeedLike, n: int) -> np.ndarray:
    """N game seeds from an int (``seed + i``), a sequence of N ints, or None (random)."""
    if seed is None:
        return np.random.default_rng().integers(SEED_LIMIT, size=n, dtype=np.uint64)
    if is_integer(seed):
        first = validate_seed(seed)
        if first + n > SEED_LIMIT:
            raise ValueError(f"seed + {n - 1} must stay below 2**53, got seed {first}")
        return np.arange(first, first + n, dtype=np.uint64)
    values = list(seed)
    if len(values) != n:
        raise ValueError(f"expected {n} seeds, got {len(values)}")
    return np.array([validate_seed(value) for value in values], dtype=np.uint64)


def board_words(board: Sequence[Sequence[int]] | None) -> tuple[np.uint64, np.uint64, bool]:
    """``(lo, hi, True)`` for a board a game can hold (as ``Game.from_board`` takes), ``(0, 0,
    False)`` for None; BoardError otherwise."""
    if board is None:
        return np.uint64(0), np.uint64(0), False
    exponents = exponents_from_board(board)
    too_few = too_few_tiles(exponents)
    if too_few:
        raise BoardError(f"board: {too_few}")
    lo, hi = pack_exponents(exponents)
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


@njit(cache=True, nogil=True)
def first_bad_action(actions: np.ndarray) -> int:
    """Index of the first action outside 0-3, or -1 when all are valid."""
    for i in range(actions.shape[0]):
        if actions[i] < 0 or actions[i] > 3:
            return i
    return -1
