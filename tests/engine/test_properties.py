"""Invariants of a slide, checked on random boards (hypothesis), including 65536 and 131072."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from py2048 import Direction, can_move, slide
from py2048.engine.board import ROW_COUNT, ROW_TABLES, build_row_tables, legal_mask, pack
from tests.engine.reference import mirror, reference_slide, transpose

# Up to 32768, so that no slide can make two 131072s (no game can); big_boards go beyond.
tiles = st.sampled_from([0, 0, 0, 0, 0] + [1 << e for e in range(1, 16)])
boards = st.lists(st.lists(tiles, min_size=4, max_size=4), min_size=4, max_size=4)
big_boards = st.lists(
    st.lists(st.sampled_from([0, 2, 32768, 65536]), min_size=4, max_size=4), min_size=4, max_size=4
)
directions = st.sampled_from(list(Direction))


def created_tiles(before: list[list[int]], after: list[list[int]]) -> list[int]:
    """Tiles on ``after`` that merges must have made (multiset difference)."""
    remaining = [v for row in before for v in row if v]
    made = []
    for value in (v for row in after for v in row if v):
        if value in remaining:
            remaining.remove(value)
        else:
            made.append(value)
    return made


@settings(max_examples=400)
@given(boards, directions)
def test_slide_matches_the_plain_reference(board: list[list[int]], direction: Direction) -> None:
    expected, gain = reference_slide(board, str(direction))
    assert slide(board, direction)[:2] == (expected, gain)


@settings(max_examples=300)
@given(big_boards, directions)
def test_big_tiles_match_the_plain_reference(board: list[list[int]], direction: Direction) -> None:
    expected, gain = reference_slide(board, str(direction))
    assert slide(board, direction)[:2] == (expected, gain)


@given(boards, directions)
def test_a_slide_conserves_the_sum_of_tiles(board: list[list[int]], direction: Direction) -> None:
    after, _, _ = slide(board, direction)
    assert sum(map(sum, after)) == sum(map(sum, board))


@given(boards, directions)
def test_gain_is_the_sum_of_the_created_tiles(board: list[list[int]], direction: Direction) -> None:
    after, gain, _ = slide(board, direction)
    # Each merge removes two tiles of v and adds one of 2v; the gain counts the 2v tiles.
    tiles_before = sum(1 for row in board for v in row if v)
    tiles_after = sum(1 for row in after for v in row if v)
    assert gain % 4 == 0 or gain == 0
    assert (tiles_before - tiles_after == 0) == (gain == 0)
    assert gain >= sum(created_tiles(board, after))


@given(boards, directions)
def test_moved_exactly_when_the_board_changed(board: list[list[int]], direction: Direction) -> None:
    after, _, moved = slide(board, direction)
    assert moved == (after != board)


@given(boards)
def test_slides_commute_with_the_symmetries(board: list[list[int]]) -> None:
    assert slide(board, "up")[0] == transpose(slide(transpose(board), "left")[0])
    assert slide(board, "down")[0] == transpose(slide(transpose(board), "right")[0])
    assert slide(board, "right")[0] == mirror(slide(mirror(board), "left")[0])
    flipped = board[::-1]
    assert slide(board, "down")[0] == slide(flipped, "up")[0][::-1]


@given(boards, directions)
def test_a_slid_board_does_not_move_again_the_same_way_without_merges(
    board: list[list[int]], direction: Direction
) -> None:
    after, _, _ = slide(board, direction)
    _again, gain, moved = slide(after, direction)
    assert moved == (gain > 0)


@given(boards)
def test_can_move_agrees_with_the_four_slides(board: list[list[int]]) -> None:
    # A tile next to an empty cell can always move into it, so on any board with a tile
    # "not over" (the rule: not full, or two equal neighbours) means "some direction moves".
    assume(any(map(any, board)))
    assert can_move(board) == any(slide(board, d)[2] for d in Direction)


def test_32768s_and_65536s_merge_exactly() -> None:
    for value in (32768, 65536):
        board = [[value, value, 0, 0], [0, 0, 0, value], [0, 0, 0, value], [0, 0, 0, 0]]
        left, gain, _ = slide(board, "left")
        assert left[0] == [2 * value, 0, 0, 0] and gain == 2 * value
        down, gain, _ = slide(board, "down")
        assert down[3] == [value, value, 0, 2 * value] and gain == 2 * value


def test_the_shipped_tables_are_the_row_rule_applied_to_every_row() -> None:
    # The tables are derived at import; check a fresh derivation agrees on every row, and that
    # sampled rows agree with the plain reference (exponents up to 17 only).
    assert np.array_equal(build_row_tables(), ROW_TABLES)
    rng = np.random.default_rng(5)
    for index in rng.integers(0, ROW_COUNT, 2000):
        exps = [((index >> 4 * c) & 0xF) | (((index >> (16 + c)) & 1) << 4) for c in range(4)]
        if max(exps) > 17:
            continue
        row = [(1 << e) if e else 0 for e in exps]
        result = ROW_TABLES[0, index]
        got = [((result >> 4 * c) & 0xF) | (((result >> (16 + c)) & 1) << 4) for c in range(4)]
        expected, gain = reference_slide([row, [0] * 4, [0] * 4, [0] * 4], "left")
        assert [(1 << e) if e else 0 for e in got] == expected[0]
        assert ROW_TABLES[2, index] == gain


@given(st.one_of(boards, big_boards))
def test_legal_mask_is_the_set_of_directions_that_move(board: list[list[int]]) -> None:
    lo, hi = pack(board)
    mask = legal_mask(lo, hi, ROW_TABLES)
    assert [bool(mask >> d & 1) for d in Direction] == [slide(board, d)[2] for d in Direction]
