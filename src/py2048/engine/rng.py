"""The seeded spawn generator: SplitMix64 in counter mode, the same on every machine.

Spawn number ``k`` of a game (``k = 0, 1`` are the two starting tiles, ``k = 2`` follows the first
move, and so on) uses the 64-bit draw::

    key  = mix64(seed + GAMMA)            # once per game
    draw = mix64(key + (k + 1) * GAMMA)   # all arithmetic modulo 2**64

where ``mix64`` is SplitMix64's finaliser (Steele, Lea & Flood 2014). The draw places the tile:

- its high 32 bits pick the cell: ``cell = (draw >> 32) * n >> 32`` among the ``n`` empty cells,
  counted row by row from the top left;
- its low 32 bits pick the value: a 4 when ``draw & 0xFFFFFFFF < 429_496_730`` (probability
  0.1 + 9e-11), otherwise a 2.

Because a draw depends only on ``(seed, k)``, a saved game resumes from its seed and spawn count
alone, and replaying a seed with the same moves gives the same game on any machine.
"""

from __future__ import annotations

import secrets

import numpy as np
from numba import njit

from py2048.engine.integers import is_integer

GAMMA = np.uint64(0x9E3779B97F4A7C15)
FOUR_THRESHOLD = np.uint64(429_496_730)
SPAWN_ODDS = ((1, 0.9), (2, 0.1))
"""Each spawned tile's exponent and probability: a 2 at 0.9, a 4 at 0.1, the rule book's odds.
Every expectation over spawns (the search, the tables, their distillation) uses these; the
generator's own threshold (``FOUR_THRESHOLD``) gives a 4 at 0.1 + 9e-11."""
SEED_LIMIT = 1 << 53
"""Seeds are below 2**53 so that they survive JavaScript's JSON numbers in the browser."""

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)


@njit("u8(u8)", cache=True, nogil=True)
def mix64(z: np.uint64) -> np.uint64:
    """SplitMix64's output function: a bijection of 64-bit integers with strong avalanche."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit("u8(u8)", cache=True, nogil=True)
def seed_key(seed: np.uint64) -> np.uint64:
    """The per-game key that all of a game's draws derive from."""
    return mix64(seed + GAMMA)


@njit("u8(u8, u8)", cache=True, nogil=True)
def draw(key: np.uint64, k: np.uint64) -> np.uint64:
    """The 64-bit draw for spawn number ``k`` of the game with this key."""
    return mix64(key + (k + np.uint64(1)) * GAMMA)


@njit("u8(u8, u8)", cache=True, nogil=True)
def spawn_cell_index(r: np.uint64, empty_count: np.uint64) -> np.uint64:
    """Which of ``empty_count`` empty cells the draw ``r`` picks (0-based, row-major)."""
    return ((r >> np.uint64(32)) * empty_count) >> np.uint64(32)


@njit("u8(u8)", cache=True, nogil=True)
def spawn_exponent(r: np.uint64) -> np.uint64:
    """The exponent of the spawned tile: 2 (a 4) at probability 0.1, else 1 (a 2)."""
    return np.uint64(2) if (r & _LOW32) < FOUR_THRESHOLD else np.uint64(1)


def validate_seed(seed: object) -> int:
    """Return ``seed`` as an int, or raise ValueError saying what a seed must be."""
    if not is_integer(seed):
        raise ValueError(f"seed must be an integer, not {type(seed).__name__}")
    value = int(seed)
    if not 0 <= value < SEED_LIMIT:
        raise ValueError(f"seed must be between 0 and 2**53 - 1, got {value}")
    return value


def random_seed() -> int:
    """A fresh seed for an unseeded game (reported by Game.seed so the game can be replayed)."""
    return secrets.randbelow(SEED_LIMIT)
