"""The rules on every board size from 3x3 to 8x8, against the plain reference; saves of every
size; and the grid kernels playing exactly the packed kernels' games on 4x4."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from py2048 import Direction, Game, SaveError, can_move, slide
from py2048.engine import board as packed
from py2048.engine import grid
from py2048.engine.rng import seed_key
from py2048.engine.size import DEFAULT_SIZE, MAX_SIDE, MIN_SIDE, SIZES, BoardSize, parse_size
from tests.engine.reference import mirror, reference_slide, transpose

DIRECTIONS = list(Direction)
Board = list[list[int]]


def board_of(size: BoardSize, exponents: list[int]) -> Board:
    return grid.tiles(exponents, size)


@st.composite
def sized_boards(draw: st.DrawFn, sizes: st.SearchStrategy[BoardSize] | None = None) -> Board:
    """A board of a random size: mostly small tiles (so that merges happen), some of any size up
    to the size's largest, and empty cells."""
    size = draw(sizes or st.sampled_from(SIZES))
    exponent = st.one_of(st.just(0), st.integers(1, 3), st.integers(1, size.max_exponent))
    cells = draw(st.lists(exponent, min_size=size.cells, max_size=size.cells))
    return board_of(size, cells)


def random_board(rng: np.random.Generator, size: BoardSize) -> Board:
    small = rng.integers(0, 5, size.cells)
    large = rng.integers(1, size.max_exponent + 1, size.cells)
    return board_of(size, np.where(rng.random(size.cells) < 0.1, large, small).tolist())


def cells_of(board: Board) -> np.ndarray:
    return np.array([v.bit_length() - 1 if v else 0 for row in board for v in row], np.uint8)


def flip(board: Board) -> Board:
    return [list(row) for row in board[::-1]]


# --- the rules against the reference ------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_every_size_slides_as_the_plain_reference(size: BoardSize) -> None:
    rng = np.random.default_rng(size.rows * 10 + size.cols)
    for _ in range(30):
        board = random_board(rng, size)
        mask = grid.legal_mask(cells_of(board), *size)
        for direction in DIRECTIONS:
            expected, gain = reference_slide(board, str(direction))
            assert slide(board, direction) == (expected, gain, expected != board)
            assert bool(mask >> direction & 1) == (expected != board)
        assert can_move(board) == (mask != 0)


@settings(max_examples=300, deadline=None)
@given(sized_boards(), st.sampled_from(DIRECTIONS))
def test_random_sizes_slide_as_the_plain_reference(board: Board, direction: Direction) -> None:
    expected, gain = reference_slide(board, str(direction))
    assert slide(board, direction) == (expected, gain, expected != board)


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_two_of_the_largest_tile_do_not_merge(size: BoardSize) -> None:
    exponents = [0] * size.cells
    exponents[0] = exponents[1] = size.max_exponent
    exponents[size.cols] = exponents[size.cols + 1] = size.max_exponent - 1
    board = board_of(size, exponents)
    after, gain, _ = slide(board, "left")
    assert after[0][:2] == [size.max_tile, size.max_tile]
    assert after[1][0] == size.max_tile and gain == size.max_tile


def test_merges_past_two_to_the_62_score_exactly() -> None:
    size = BoardSize(8, 8)
    board = board_of(size, [63, 63, 64, 64, 2, 2, 0, 0] + [1, 2] * 28)
    after, gain, moved = slide(board, "left")
    assert after[0] == [2**64, 2**65, 8, 0, 0, 0, 0, 0]
    assert gain == 2**64 + 2**65 + 8 and moved
    assert (after, gain) == reference_slide(board, "left")


# --- invariants on random boards of random sizes --------------------------------------------


@settings(max_examples=200, deadline=None)
@given(sized_boards(), st.sampled_from(DIRECTIONS))
def test_a_move_keeps_the_tile_sum_and_never_adds_tiles(board: Board, direction: Direction) -> None:
    after, gain, _ = slide(board, direction)
    assert sum(map(sum, after)) == sum(map(sum, board))
    count_before = sum(1 for row in board for v in row if v)
    count_after = sum(1 for row in after for v in row if v)
    assert count_after <= count_before
    assert (gain == 0) == (count_after == count_before)


@settings(max_examples=200, deadline=None)
@given(sized_boards())
def test_legal_mask_and_can_move_agree_with_slide(board: Board) -> None:
    size, exponents = grid.read_board(board)
    cells = np.array(exponents, np.uint8)
    mask = grid.legal_mask(cells, *size)
    out = grid.new_cells(size)
    for direction in DIRECTIONS:
        _, moved = grid.slide_into(cells, size.rows, size.cols, int(direction), out)
        assert bool(mask >> direction & 1) == moved == slide(board, direction)[2]
    if cells.any():  # every board of a game holds tiles (an empty one has room but no move)
        assert grid.can_move(cells, *size) == (mask != 0) == can_move(board)


@settings(max_examples=200, deadline=None)
@given(sized_boards())
def test_symmetric_boards_move_symmetrically(board: Board) -> None:
    left, left_gain, _ = slide(board, "left")
    up, up_gain, _ = slide(board, "up")
    assert slide(mirror(board), "right")[:2] == (mirror(left), left_gain)
    assert slide(transpose(board), "up")[:2] == (transpose(left), left_gain)
    assert slide(flip(board), "down")[:2] == (flip(up), up_gain)
    assert slide(transpose(board), "left")[:2] == (transpose(up), up_gain)


# --- the same games on 4x4 ------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 7, 2048, 2**53 - 1])
def test_grid_kernels_play_the_packed_kernels_games_on_4x4(seed: int) -> None:
    key = seed_key(np.uint64(seed))
    lo, hi = packed.start(key)
    cells = grid.new_cells(DEFAULT_SIZE)
    grid.start_into(key, cells)
    out = grid.new_cells(DEFAULT_SIZE)
    rng = np.random.default_rng(seed % 1000)
    spawn_number = 2
    over = False
    while not over:
        assert cells.tolist() == packed.unpack_exponents(int(lo), int(hi))
        direction = int(rng.integers(4))
        new_lo, new_hi, gain, cell, exponent = packed.play(
            lo, hi, direction, key, spawn_number, packed.ROW_TABLES
        )
        played = grid.play_into(cells, 4, 4, direction, key, spawn_number, out)
        assert played[:3] == (gain if cell >= 0 else 0, cell, exponent if cell >= 0 else 0)
        if cell >= 0:
            lo, hi = new_lo, new_hi
            cells, out = out, cells
            spawn_number += 1
            over = played[3]
            assert over == (not packed.can_move(lo, hi, packed.ROW_TABLES))
    assert spawn_number > 20


# --- games and saves of every size ----------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_a_game_of_each_size_replays_and_its_save_round_trips(size: BoardSize) -> None:
    game = Game(size.rows * 100 + size.cols, size=size)
    assert sum(1 for e in game.exponents if e) == 2 and game.size == size
    rng = np.random.default_rng(3)
    for _ in range(150):
        game.move(int(rng.integers(4)))
    assert len(game.board) == size.rows and {len(row) for row in game.board} == {size.cols}
    again = Game.replay(game.seed, game.history, size=str(size))
    assert (again.board, again.score, again.over) == (game.board, game.score, game.over)
    saved = game.to_dict()
    assert ("size" in saved) == (size != DEFAULT_SIZE)
    if size != DEFAULT_SIZE:
        assert saved["size"] == [size.rows, size.cols]
    loaded = Game.from_json(game.to_json())
    assert loaded.to_json() == game.to_json() and loaded.size == size
    if not game.over:  # the loaded game goes on exactly as the saved one
        direction = game.legal_moves()[0]
        assert loaded.step(direction) == game.step(direction)
        assert loaded.board == game.board


OLD_SAVE = {
    "format": "py2048",
    "version": 1,
    "board": [[0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]],
    "score": 0,
    "seed": 42,
    "moves": 0,
    "history": "",
    "won": False,
    "keep_going": False,
    "over": False,
}
"""A save as py2048 wrote it before boards had sizes (docs/engine.md's example)."""


def test_an_old_save_loads_as_4x4_and_4x4_saves_are_written_as_before() -> None:
    game = Game.from_json(json.dumps(OLD_SAVE))
    assert game.size == DEFAULT_SIZE and game.board == OLD_SAVE["board"]
    assert game.to_dict() == OLD_SAVE
    assert Game(42).to_dict() == OLD_SAVE


def save_of(size: BoardSize, fields: dict[str, object]) -> dict[str, object]:
    return {**Game(5, size=size).to_dict(), **fields}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"size": [5, 6]}, "6 tiles for a 5x6 board"),
        ({"size": [6, 5]}, "6 rows for a 6x5 board"),
        ({"size": [4, 4]}, "board"),
        ({"board": [[0] * 5] * 4 + [[2, 2, 0, 0]]}, "board[4] must have 5 tiles"),
        ({"board": [[0] * 5] * 4 + [[2, 2, 0, 0, 3]]}, "board[4][4] = 3 is not a tile"),
        ({"board": [[2**27, 2, 0, 0, 0]] + [[0] * 5] * 4}, "from 2 to 67108864 on a 5x5 board"),
    ],
)
def test_a_board_that_does_not_fit_its_size_names_the_board(
    fields: dict[str, object], message: str
) -> None:
    with pytest.raises(SaveError, match=re.escape(message)) as caught:
        Game.from_dict(save_of(BoardSize(5, 5), fields))
    assert caught.value.field == "board"


@pytest.mark.parametrize(
    "value", [[2, 5], [5, 9], [0, 0], "5x5", [5], [5, 5, 5], [5.0, 5], [True, 5]]
)
def test_a_size_out_of_range_or_malformed_names_the_size(value: object) -> None:
    with pytest.raises(SaveError) as caught:
        Game.from_dict(save_of(BoardSize(5, 5), {"size": value}))
    assert caught.value.field == "size"


@pytest.mark.parametrize("value", [(2, 4), (4, 9), "9x9", "five", 2, (4,), (4.5, 4), None])
def test_a_size_out_of_range_is_refused_naming_it(value: object) -> None:
    with pytest.raises(ValueError, match=r"^size"):
        parse_size(value, "size")
    with pytest.raises(ValueError, match="size"):
        Game(1, size=value if value is not None else (1, 1))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "written", ["5x5", "5 x 5", "5X5", 5, (5, 5), [5, 5], BoardSize(5, 5), np.int64(5)]
)
def test_sizes_are_read_in_every_documented_form(written: object) -> None:
    assert parse_size(written) == BoardSize(5, 5)
    assert Game(1, size=written).size == BoardSize(5, 5)  # type: ignore[arg-type]


def test_every_size_from_min_to_max_side_is_listed_once() -> None:
    sides = range(MIN_SIDE, MAX_SIDE + 1)
    assert sorted(SIZES) == [BoardSize(r, c) for r in sides for c in sides]
    assert BoardSize(3, 3).max_tile == 1024 and DEFAULT_SIZE.max_tile == 131072
