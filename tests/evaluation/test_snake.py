from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from py2048.engine.board import pack, pack_exponents, unpack
from py2048.engine.geometry import SNAKE
from py2048.evaluation.registry import get_evaluator
from py2048.evaluation.snake import MIN_EXPONENT, PULL, snake_sum
from tests.engine.reference import symmetries

exponent_lists = st.lists(st.integers(0, 17), min_size=16, max_size=16)


def snake(board: list[list[int]]) -> int:
    lo, hi = pack(board)
    return int(snake_sum(np.uint64(lo), np.uint64(hi), MIN_EXPONENT))


def walked_snake(board: list[list[int]]) -> int:
    """The definition, plainly: walk the snake from the top-left corner of every image."""
    best = 0
    for image in symmetries(board):
        cells = [value for row in image for value in row]
        total, previous = 0, 1 << 17
        for cell in SNAKE:
            if not 1 << MIN_EXPONENT <= cells[cell] <= previous:
                break
            total, previous = total + cells[cell], cells[cell]
        best = max(best, total)
    return best


@st.composite
def snake_boards(draw: st.DrawFn) -> list[list[int]]:
    """Boards whose cells along the snake start with a run of large tiles, non-increasing but
    for at most one step up, then anything, under a random symmetry; a 65536 or 131072 in half
    of them."""
    top = draw(st.sampled_from([15, 17]))
    run = sorted(draw(st.lists(st.integers(MIN_EXPONENT, top), max_size=16)), reverse=True)
    if run and draw(st.booleans()):  # one tile a step larger than the one before it
        bumped = draw(st.integers(0, len(run) - 1))
        run[bumped] = min(top, run[bumped] + 1)
    rest = draw(st.lists(st.integers(0, top), min_size=16 - len(run), max_size=16 - len(run)))
    cells = [0] * 16
    for cell, exponent in zip(SNAKE, run + rest, strict=True):
        cells[cell] = exponent
    board = unpack(*pack_exponents(cells))
    return symmetries(board)[draw(st.integers(0, 7))]


def test_the_large_tiles_along_a_snake_from_a_corner_count() -> None:
    board = [[16384, 8192, 4096, 2048], [0, 256, 512, 1024], [0, 0, 2, 0], [0, 0, 0, 0]]
    assert snake(board) == 16384 + 8192 + 4096 + 2048 + 1024 + 512 + 256


def test_a_larger_tile_a_small_tile_or_a_gap_ends_the_run() -> None:
    larger = [[16384, 8192, 4096, 2048], [0, 256, 4096, 1024], [0] * 4, [2, 0, 0, 0]]
    assert snake(larger) == 16384 + 8192 + 4096 + 2048 + 1024
    small = [[16384, 8192, 128, 2048], [0] * 4, [0] * 4, [0, 0, 0, 2]]
    assert snake(small) == 16384 + 8192
    gap = [[16384, 0, 4096, 2048], [0] * 4, [0] * 4, [0, 0, 0, 2]]
    assert snake(gap) == 16384
    next_row = [[16384, 8192, 4096, 2048], [0, 0, 0, 4096], [0] * 4, [0, 0, 0, 2]]
    assert snake(next_row) == 16384 + 8192 + 4096 + 2048


def test_equal_neighbours_stay_in_the_run_and_a_board_of_small_tiles_has_none() -> None:
    assert snake([[512, 512, 256, 0], [0] * 4, [0] * 4, [0, 0, 0, 2]]) == 1280
    assert snake([[128, 64, 32, 16], [8, 4, 2, 2], [0] * 4, [0] * 4]) == 0


def test_the_largest_tile_out_of_its_corner_loses_the_run_behind_it() -> None:
    held = [[16384, 8192, 4096, 2048], [0, 0, 0, 1024], [0] * 4, [0, 0, 0, 2]]
    left = [[0, 8192, 4096, 2048], [16384, 0, 0, 1024], [0] * 4, [0, 0, 0, 2]]
    assert snake(held) > snake(left) == 2048 + 1024


@settings(max_examples=500, deadline=None)
@given(board=snake_boards())
def test_the_sum_is_the_longest_run_along_the_eight_snakes(board: list[list[int]]) -> None:
    assert snake(board) == walked_snake(board)


@settings(max_examples=200, deadline=None)
@given(cells=exponent_lists)
def test_every_symmetric_board_has_the_same_sum(cells: list[int]) -> None:
    board = unpack(*pack_exponents(cells))
    assert {snake(b) for b in symmetries(board)} == {snake(board)}


@settings(max_examples=100, deadline=None)
@given(cells=exponent_lists)
def test_the_default_evaluation_is_the_network_plus_the_pulled_sum(cells: list[int]) -> None:
    network, pulled = get_evaluator("ntuple"), get_evaluator()
    lo, hi = pack_exponents(cells)
    pull = PULL * snake(unpack(lo, hi))
    assert pulled.name == "ntuple-snake"
    assert pulled(lo, hi) == pytest.approx(network(lo, hi) + pull, rel=1e-12, abs=1e-9)
    assert pulled.baseline(lo, hi) == pull
    assert np.shares_memory(pulled.weights, network.weights)  # one copy of the entries
