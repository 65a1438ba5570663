"""How the network reads a board: tiles past 32768 are downgraded into its four bits a cell."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from py2048.engine.board import pack_exponents
from py2048.evaluation.tuples import network_board

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
