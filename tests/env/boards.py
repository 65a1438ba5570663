"""Boards and strategies shared by the RL tests."""

from __future__ import annotations

from hypothesis import strategies as st

from py2048.engine.rng import SEED_LIMIT

BOARDS_BY_LEGAL_MOVES = [
    # (board, legal actions as a 0/1 list in action order: up, right, down, left)
    ([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]], [0, 0, 0, 0]),
    ([[0, 0, 0, 0], [2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4]], [1, 0, 0, 0]),
    ([[0, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]], [1, 0, 0, 1]),
    ([[2, 2, 8, 4], [4, 8, 2, 8], [2, 4, 8, 4], [4, 2, 4, 2]], [0, 1, 0, 1]),
    ([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 0, 4, 2]], [0, 1, 1, 1]),
    ([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 4]], [1, 1, 1, 1]),
    ([[0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 4, 0]], [1, 1, 1, 1]),
]
"""Boards with 0 to 4 legal moves, including a full board that can still merge."""

ONE_MOVE_LEFT = [[0, 0, 0, 0], [2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4]]
"""Only up is legal."""

GAME_OVER = BOARDS_BY_LEGAL_MOVES[0][0]

seeds = st.integers(0, SEED_LIMIT - 1)
action_lists = st.lists(st.integers(0, 3), max_size=250)
