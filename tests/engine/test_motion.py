"""Tile paths for animation agree with the move itself."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from py2048 import Direction, slide
from py2048.engine import TileMotion, trace
from py2048.engine.board import exponents_from_board

tiles = st.sampled_from([0, 0, 0, 2, 4, 8, 16, 65536])
boards = st.lists(st.lists(tiles, min_size=4, max_size=4), min_size=4, max_size=4)


def test_three_equal_tiles_pushed_left() -> None:
    board = [[4, 4, 4, 0], [0] * 4, [0] * 4, [0] * 4]
    motions = trace(exponents_from_board(board), Direction.LEFT)
    assert motions == [
        TileMotion(4, (0, 0), (0, 0), True),
        TileMotion(4, (0, 1), (0, 0), True),
        TileMotion(4, (0, 2), (0, 1), False),
    ]


def test_a_column_pushed_down_merges_at_the_bottom() -> None:
    board = [[2, 0, 0, 0], [2, 0, 0, 0], [2, 0, 0, 0], [0] * 4]
    motions = trace(exponents_from_board(board), Direction.DOWN)
    assert TileMotion(2, (2, 0), (3, 0), True) in motions
    assert TileMotion(2, (1, 0), (3, 0), True) in motions
    assert TileMotion(2, (0, 0), (2, 0), False) in motions


@given(boards, st.sampled_from(list(Direction)))
def test_replaying_the_motions_rebuilds_the_slid_board(
    board: list[list[int]], direction: Direction
) -> None:
    rebuilt = [[0] * 4 for _ in range(4)]
    for motion in trace(exponents_from_board(board), direction):
        r, c = motion.to_cell
        rebuilt[r][c] += motion.value
    assert rebuilt == slide(board, direction)[0]
    assert sum(1 for m in trace(exponents_from_board(board), direction)) == sum(
        1 for row in board for v in row if v
    )
