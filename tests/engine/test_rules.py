"""One test per sentence and example of the official rules (../shared/rules/)."""

from __future__ import annotations

import pytest

from py2048 import BoardError, Direction, can_move, slide

E = 0


def row_board(row: list[int]) -> list[list[int]]:
    return [row, [E] * 4, [E] * 4, [E] * 4]


@pytest.mark.parametrize(
    ("row", "expected", "gain"),
    [
        ([4, 4, 4, E], [8, 4, E, E], 8),  # merging starts at the edge pushed toward
        ([4, 4, 4, 4], [8, 8, E, E], 16),  # one merge per tile per move: never a 16
        ([2, 2, 4, E], [4, 4, E, E], 4),  # a merged tile does not merge again
        ([E, E, E, 2], [2, E, E, E], 0),  # tiles slide as far as they go
        ([2, E, E, 2], [4, E, E, E], 4),  # tiles meet across gaps
        ([2, 4, 2, 4], [2, 4, 2, 4], 0),  # different tiles never merge
        ([512, 512, E, E], [1024, E, E, E], 1024),  # two 512 become a 1024
        ([256, E, 256, E], [512, E, E, E], 512),  # merging two 256 scores 512
        ([8, 8, 8, 8], [16, 16, E, E], 32),
        ([2, 2, 2, E], [4, 2, E, E], 4),
        ([E, 4, 4, 8], [8, 8, E, E], 8),
    ],
)
def test_left_slides_and_merges(row: list[int], expected: list[int], gain: int) -> None:
    board, points, moved = slide(row_board(row), "left")
    assert board[0] == expected
    assert points == gain
    assert moved == (expected != row)


def test_merging_starts_at_the_far_edge_when_pushing_right() -> None:
    board, gain, _ = slide(row_board([E, 4, 4, 4]), "right")
    assert board[0] == [E, E, 4, 8]
    assert gain == 8


def test_columns_merge_toward_the_edge_pushed() -> None:
    column = [[4], [4], [4], [E]]
    board = [[*c, E, E, E] for c in column]
    up, _, _ = slide(board, "up")
    down, _, _ = slide(board, "down")
    assert [r[0] for r in up] == [8, 4, E, E]
    assert [r[0] for r in down] == [E, E, 4, 8]


def test_only_tiles_brought_together_along_the_axis_merge() -> None:
    # Two equal tiles side by side in a row do not merge when the move is vertical.
    board = [[2, 2, E, E], [E] * 4, [E] * 4, [E] * 4]
    down, gain, moved = slide(board, "down")
    assert moved
    assert gain == 0
    assert down[3] == [2, 2, E, E]


def test_a_direction_that_changes_nothing_is_not_a_move() -> None:
    board = [[2, 4, E, E], [8, E, E, E], [E] * 4, [E] * 4]
    same, gain, moved = slide(board, "left")
    assert not moved
    assert gain == 0
    assert same == board


def test_sliding_without_merging_scores_nothing() -> None:
    _, gain, moved = slide(row_board([E, 2, E, 4]), "left")
    assert moved
    assert gain == 0


def test_all_tiles_move_at_once() -> None:
    board = [[E, 2, E, 4], [8, E, 8, E], [E, E, E, 16], [2, 4, 8, 16]]
    moved, gain, _ = slide(board, Direction.LEFT)
    assert moved == [[2, 4, E, E], [16, E, E, E], [16, E, E, E], [2, 4, 8, 16]]
    assert gain == 16


def test_slide_does_not_change_its_input() -> None:
    board = row_board([2, 2, E, E])
    copy = [r[:] for r in board]
    slide(board, "left")
    assert board == copy


@pytest.mark.parametrize(
    ("row", "expected", "gain"),
    [
        ([32768, 32768, E, E], [65536, E, E, E], 65536),
        ([65536, 65536, E, E], [131072, E, E, E], 131072),
        ([65536, 65536, 32768, 32768], [131072, 65536, E, E], 131072 + 65536),
        ([E, 65536, E, 131072], [65536, 131072, E, E], 0),
        ([131072, 65536, 32768, 32768], [131072, 65536, 65536, E], 65536),
        ([2, 131072, 2, E], [2, 131072, 2, E], 0),
    ],
)
def test_tiles_past_32768_are_exact_in_every_direction(
    row: list[int], expected: list[int], gain: int
) -> None:
    for direction in Direction:
        board = row_board(row)
        # Put the line along the axis of the move, starting at the edge pushed toward.
        line = list(row)
        if direction in (Direction.RIGHT, Direction.DOWN):
            line = line[::-1]
        if direction in (Direction.UP, Direction.DOWN):
            board = [[line[r], E, E, E] for r in range(4)]
        else:
            board = [line, [E] * 4, [E] * 4, [E] * 4]
        result, points, moved = slide(board, direction)
        if direction in (Direction.UP, Direction.DOWN):
            got = [result[r][0] for r in range(4)]
        else:
            got = result[0]
        if direction in (Direction.RIGHT, Direction.DOWN):
            got = got[::-1]
        assert got == expected, direction
        assert points == gain
        assert moved == (expected != row)


def test_gain_of_the_largest_merges() -> None:
    _, gain, _ = slide(row_board([65536, 65536, E, E]), "left")
    assert gain == 131072
    _, gain, _ = slide(row_board([32768, 32768, 16384, 16384]), "left")
    assert gain == 65536 + 32768


def test_a_full_board_with_a_merge_left_is_not_over() -> None:
    board = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 4]]
    assert can_move(board)
    _, gain, moved = slide(board, "left")
    assert moved and gain == 8


def test_a_full_board_with_a_vertical_merge_left_is_not_over() -> None:
    board = [[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 2048, 4096], [8, 16, 32, 4096]]
    assert can_move(board)
    _, _, moved_lr = slide(board, "left")
    _, _, moved_ud = slide(board, "up")
    assert not moved_lr and moved_ud


def test_a_full_board_without_equal_neighbours_is_over() -> None:
    board = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]
    assert not can_move(board)
    assert all(not slide(board, d)[2] for d in Direction)


def test_a_board_with_an_empty_cell_is_never_over() -> None:
    board = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, E]]
    assert can_move(board)


def test_equal_tiles_on_a_diagonal_do_not_count_as_neighbours() -> None:
    board = [[2, 4, 8, 16], [4, 8, 16, 32], [8, 16, 32, 64], [16, 32, 64, 128]]
    assert not can_move(board)


@pytest.mark.parametrize(
    "board",
    [
        [[3, 0, 0, 0]] + [[0] * 4] * 3,
        [[1, 0, 0, 0]] + [[0] * 4] * 3,
        [[262144, 0, 0, 0]] + [[0] * 4] * 3,
        [[-2, 0, 0, 0]] + [[0] * 4] * 3,
        [[2.0, 0, 0, 0]] + [[0] * 4] * 3,
        [[True, 0, 0, 0]] + [[0] * 4] * 3,
        [[0] * 4] * 2,  # 3x4 and 4x5 are boards (see test_sizes.py); 2 rows are not
        [[0] * 9] * 4,
        [[0] * 4] * 3 + [[0, 0, 0]],
        [[0] * 5] * 5 + [[0] * 4],
        [[4096, 0, 0]] + [[0] * 3] * 2,  # 3x3 makes at most 1024
        "2048",
        None,
    ],
)
def test_impossible_boards_are_refused_with_a_clear_error(board: object) -> None:
    with pytest.raises(BoardError, match=r"board"):
        slide(board, "left")  # type: ignore[arg-type]
    with pytest.raises(BoardError):
        can_move(board)  # type: ignore[arg-type]


def test_two_131072s_are_a_board_and_do_not_merge() -> None:
    # No game reaches them, but a board given by hand may: 65536 + 65536 beside a 131072 makes
    # the second one, so refusing them would refuse what a move made.
    made, gain, _ = slide(row_board([131072, 65536, 65536, E]), "left")
    assert made[0] == [131072, 131072, E, E] and gain == 131072
    assert slide(made, "left") == (made, 0, False)
    full = [[131072, 131072, 2, 4], [2, 4, 8, 16], [4, 8, 16, 32], [8, 16, 32, 64]]
    assert not can_move(full)


@pytest.mark.parametrize("direction", ["north", "", 4, -1, None, 1.0])
def test_unknown_directions_are_refused(direction: object) -> None:
    with pytest.raises(ValueError, match="unknown direction"):
        slide(row_board([2, 2, E, E]), direction)  # type: ignore[arg-type]


@pytest.mark.parametrize("spelling", ["left", "LEFT", "Left", "l", "L", 3, Direction.LEFT])
def test_directions_are_accepted_in_every_documented_spelling(spelling: object) -> None:
    assert slide(row_board([E, E, E, 2]), spelling)[0][0] == [2, E, E, E]  # type: ignore[arg-type]
