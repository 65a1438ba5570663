"""How the network reads a board: tiles past 32768 are downgraded into its four bits a cell, and
the solver reads boards from 16384 up with their highest missing tiles closed."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from py2048.engine.board import pack_exponents
from py2048.evaluation.tuples import (
    DOWNGRADE_FROM,
    downgraded_board,
    has_exponent_at_least,
    network_board,
    nibble_max,
)

exponents = st.lists(st.integers(0, 17), min_size=16, max_size=16)


def read(board: int) -> list[int]:
    return [(board >> (4 * cell)) & 0xF for cell in range(16)]


def plain_downgrade(cells: list[int]) -> list[int]:
    """The definition: while the largest exponent is over 15 and some exponent below it is
    missing, every exponent above the lowest missing one goes down by one; then cap at 15."""
    cells = list(cells)
    while max(cells) > 15:
        present = {e for e in cells if e}
        gaps = [g for g in range(1, max(cells)) if g not in present]
        if not gaps:
            break
        cells = [e - 1 if e > gaps[0] else e for e in cells]
    return [min(e, 15) for e in cells]


def network_read(cells: list[int]) -> list[int]:
    lo, hi = pack_exponents(cells)
    return read(int(network_board(np.uint64(lo), np.uint64(hi))))


@settings(max_examples=400, deadline=None)
@given(exponents)
def test_the_network_reads_the_downgraded_board(cells: list[int]) -> None:
    assert network_read(cells) == plain_downgrade(cells)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 15), min_size=16, max_size=16))
def test_boards_up_to_32768_are_read_as_they_are(cells: list[int]) -> None:
    assert network_read(cells) == cells


@settings(max_examples=400, deadline=None)
@given(exponents)
def test_a_downgraded_board_keeps_its_tiles_in_order(cells: list[int]) -> None:
    seen = network_read(cells)
    if len(set(seen)) == len(set(cells)):  # no gapless ladder had to be capped
        for a in range(16):
            assert (seen[a] == 0) == (cells[a] == 0)
            for b in range(16):
                assert (cells[a] < cells[b]) == (seen[a] < seen[b])
                assert (cells[a] == cells[b]) == (seen[a] == seen[b])


def test_a_65536_beside_a_32768_is_not_read_as_two_equal_tiles() -> None:
    cells = [16, 15, 14, 13] + [0] * 12
    seen = network_read(cells)
    assert seen[:4] == [15, 14, 13, 12]


def test_a_board_without_a_gap_reads_its_largest_tiles_as_32768() -> None:
    cells = list(range(1, 17))
    assert network_read(cells) == [*range(1, 16), 15]


# --- the solver's downgrading from 16384 up ---------------------------------------------------

nibbles = st.lists(st.integers(0, 15), min_size=16, max_size=16)


def nibble_board(cells: list[int]) -> np.uint64:
    return np.uint64(sum(e << (4 * cell) for cell, e in enumerate(cells)))


def plain_top_downgrade(cells: list[int], threshold: int) -> list[int]:
    """The definition: while the largest exponent is at least ``threshold`` and some exponent
    below it is missing, every exponent above the highest missing one goes down by one."""
    cells = list(cells)
    while max(cells) >= threshold:
        present = {e for e in cells if e}
        gaps = [g for g in range(1, max(cells)) if g not in present]
        if not gaps:
            break
        cells = [e - 1 if e > gaps[-1] else e for e in cells]
    return cells


def solver_read(cells: list[int], threshold: int) -> list[int]:
    return read(int(downgraded_board(nibble_board(cells), threshold)))


@settings(max_examples=400, deadline=None)
@given(nibbles, st.integers(1, 15))
def test_the_solver_reads_the_board_with_its_highest_gaps_closed(
    cells: list[int], threshold: int
) -> None:
    assert solver_read(cells, threshold) == plain_top_downgrade(cells, threshold)


@settings(max_examples=400, deadline=None)
@given(nibbles, st.integers(1, 15))
def test_downgrading_keeps_the_tiles_in_order(cells: list[int], threshold: int) -> None:
    seen = solver_read(cells, threshold)
    for a in range(16):
        assert (seen[a] == 0) == (cells[a] == 0)
        for b in range(16):
            assert (cells[a] < cells[b]) == (seen[a] < seen[b])
            assert (cells[a] == cells[b]) == (seen[a] == seen[b])


@settings(max_examples=400, deadline=None)
@given(nibbles, st.integers(1, 15))
def test_a_downgraded_board_stops_below_the_threshold_or_without_a_gap(
    cells: list[int], threshold: int
) -> None:
    seen = solver_read(cells, threshold)
    if max(cells) < threshold:
        assert seen == cells
    top = max(seen)
    gapless = all(e in seen for e in range(1, top))
    assert top < threshold or gapless
    # only tiles above every gap that was closed moved, each by as many steps as gaps closed
    moved = [a for a in range(16) if seen[a] != cells[a]]
    if moved:
        lowest_moved = min(cells[a] for a in moved)
        assert all(seen[a] == cells[a] for a in range(16) if cells[a] < lowest_moved)


def test_a_16384_building_its_8192_is_read_as_an_8192_building_its_4096() -> None:
    cells = [14, 12, 11, 10, 9, 8, 1, 1] + [0] * 8
    assert solver_read(cells, 14) == [13, 12, 11, 10, 9, 8, 1, 1] + [0] * 8
    gapless = [14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0]
    assert solver_read(gapless, 14) == gapless
    assert DOWNGRADE_FROM == 1 << 14


@settings(max_examples=400, deadline=None)
@given(nibbles, st.integers(1, 15))
def test_the_quick_test_for_a_large_tile_agrees_with_the_cells(
    cells: list[int], exponent: int
) -> None:
    board = nibble_board(cells)
    assert bool(has_exponent_at_least(board, exponent)) == (max(cells) >= exponent)
    assert nibble_max(board) == max(cells)
