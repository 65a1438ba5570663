"""Spawns: where and what, as the rules and the documented generator say."""

from __future__ import annotations

import numpy as np

from py2048 import Game
from py2048.engine.board import place
from py2048.engine.rng import draw, seed_key

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def mix64(z: int) -> int:
    """SplitMix64's finaliser, written out as in the rng module's documentation."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def documented_draw(seed: int, k: int) -> int:
    key = mix64((seed + GAMMA) & MASK)
    return mix64((key + (k + 1) * GAMMA) & MASK)


def test_draws_follow_the_documented_formula() -> None:
    for seed in (0, 1, 42, 2**53 - 1):
        key = seed_key(seed)
        for k in (0, 1, 2, 1000, 2**40):
            assert draw(key, k) == documented_draw(seed, k)


def test_start_boards_are_pinned_so_games_replay_on_every_version() -> None:
    # Changing these changes every seeded game ever played: the generator is part of the format.
    assert Game(seed=0).board == [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 2, 2], [0, 0, 0, 0]]
    assert Game(seed=42).board == [[0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]
    game = Game.replay(7, "LURDLURD")
    assert game.board == [[0, 4, 0, 0], [0, 0, 0, 2], [0, 0, 0, 4], [0, 4, 4, 4]]
    assert game.score == 16


def documented_start(seed: int) -> list[list[int]]:
    """The opening board computed from the rng module's documentation alone."""
    cells = [0] * 16
    for k in (0, 1):
        r = documented_draw(seed, k)
        empty = [i for i in range(16) if not cells[i]]
        cells[empty[((r >> 32) * len(empty)) >> 32]] = 4 if (r & 0xFFFFFFFF) < 429_496_730 else 2
    return [cells[i : i + 4] for i in range(0, 16, 4)]


def test_start_boards_follow_the_documented_placement() -> None:
    for seed in range(200):
        assert Game(seed=seed).board == documented_start(seed)


def test_a_game_starts_with_two_tiles_of_2_or_4() -> None:
    for seed in range(300):
        tiles = [v for row in Game(seed=seed).board for v in row if v]
        assert len(tiles) == 2
        assert set(tiles) <= {2, 4}


def spawn_many(count: int, empties_mask: int) -> tuple[np.ndarray, int]:
    """Spawn ``count`` times on a board whose empty cells are the set bits of ``empties_mask``."""
    lo = 0
    for cell in range(16):
        if not empties_mask >> cell & 1:
            lo |= 3 << (4 * cell)  # an 8 on every occupied cell
    cells = np.zeros(16, dtype=np.int64)
    fours = 0
    for seed in range(count // 100):
        key = seed_key(seed)
        for k in range(100):
            _, cell, exponent = place(lo, 0, draw(key, k))
            cells[cell] += 1
            fours += exponent == 2
    return cells, fours


def chi_square(counts: np.ndarray) -> float:
    expected = counts.sum() / len(counts)
    return float(((counts - expected) ** 2 / expected).sum())


def test_four_in_ten_and_uniform_cells_over_100000_spawns_on_an_empty_board() -> None:
    n = 100_000
    cells, fours = spawn_many(n, 0xFFFF)
    # The share of 4s is 0.1; five standard errors is +-0.0047.
    assert abs(fours / n - 0.1) < 5 * (0.1 * 0.9 / n) ** 0.5
    # 15 degrees of freedom: chi-square above 37.7 has probability 0.001 for uniform cells.
    assert chi_square(cells) < 37.7


def test_only_empty_cells_are_chosen_and_uniformly_so() -> None:
    empties = 0b1010_0000_0100_1001  # cells 0, 3, 6, 13, 15
    cells, fours = spawn_many(50_000, empties)
    chosen = np.flatnonzero(cells)
    assert set(chosen) == {0, 3, 6, 13, 15}
    # 4 degrees of freedom: 18.5 is the 0.001 critical value.
    assert chi_square(cells[chosen]) < 18.5
    assert abs(fours / 50_000 - 0.1) < 5 * (0.1 * 0.9 / 50_000) ** 0.5


def test_a_full_board_gets_no_spawn() -> None:
    lo = int("3" * 16, 16)
    assert place(lo, 0, draw(seed_key(1), 5)) == (lo, -1, 0)
