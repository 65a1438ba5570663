"""The heuristic on any board size, against a plain-Python reference of its line terms."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from py2048.engine.board import pack_exponents
from py2048.engine.size import BoardSize
from py2048.evaluation.heuristic import HeuristicParams, heuristic_evaluator
from py2048.evaluation.lines import evaluate, line_evaluation, line_weights

PARAMS = HeuristicParams()


def reference_line(line: list[int], params: HeuristicParams = PARAMS) -> float:
    """One line's score, term by term, as the module docstring states them."""
    empty = line.count(0)
    tiles = [e for e in line if e]
    merges = 0
    run = 1
    for previous, e in itertools.pairwise(tiles):
        if e == previous:
            run += 1
        else:
            merges += run if run > 1 else 0
            run = 1
    merges += run if run > 1 else 0
    powers = [float(e) ** params.monotonicity_power for e in line]
    steps = list(itertools.pairwise(powers))
    rises = sum(b - a for a, b in steps if b > a)
    falls = sum(a - b for a, b in steps if a > b)
    total = sum(float(e) ** params.sum_power for e in tiles)
    return (
        params.empty * empty
        + params.merges * merges
        - params.monotonicity * min(rises, falls)
        - params.sum * total
    )


def reference_board(exponents: list[int], size: BoardSize) -> float:
    rows, cols = size
    lines = [exponents[r * cols : (r + 1) * cols] for r in range(rows)]
    lines += [[exponents[r * cols + c] for r in range(rows)] for c in range(cols)]
    return sum(reference_line(line) for line in lines)


@st.composite
def boards(draw: st.DrawFn) -> tuple[BoardSize, list[int]]:
    size = BoardSize(draw(st.integers(3, 8)), draw(st.integers(3, 8)))
    top = draw(st.integers(1, size.max_exponent))
    cells = draw(st.lists(st.integers(0, top), min_size=size.cells, max_size=size.cells))
    return size, cells


@given(boards())
@settings(max_examples=120, deadline=None)
def test_every_size_matches_the_reference(board: tuple[BoardSize, list[int]]) -> None:
    size, cells = board
    expected = reference_board(cells, size)
    assert line_evaluation(size)(np.array(cells)) == pytest.approx(expected, rel=1e-9, abs=1e-6)


@pytest.mark.parametrize(
    ("line", "merges"),
    [([1, 1, 0, 0], 2), ([1, 0, 1, 0], 2), ([2, 2, 2, 0], 3), ([1, 1, 2, 2], 4), ([1, 2, 1], 0)],
)
def test_merges_count_runs_across_gaps(line: list[int], merges: int) -> None:
    bare = HeuristicParams(empty=0.0, merges=1.0, monotonicity=0.0, sum=0.0)
    assert reference_line(line, bare) == merges
    size = BoardSize(3, len(line)) if len(line) > 3 else BoardSize(3, 3)
    cells = line + [0] * (size.cells - len(line))
    # the other rows are empty and each column holds at most one tile: no merges there
    weights = line_weights(size, bare)
    assert evaluate(np.array(cells, dtype=np.uint8), size.rows, size.cols, weights) == merges


@given(st.lists(st.integers(0, 17), min_size=16, max_size=16))
@settings(max_examples=80, deadline=None)
def test_on_4x4_it_is_the_table_heuristic(cells: list[int]) -> None:
    table = heuristic_evaluator()
    packed = table(*pack_exponents(cells))
    assert line_evaluation(BoardSize(4, 4))(np.array(cells)) == pytest.approx(packed, abs=2.0)


def test_the_price_of_losing_grows_with_the_cells() -> None:
    assert line_weights(BoardSize(4, 4)).lost_penalty == PARAMS.lost_penalty
    assert line_weights(BoardSize(8, 8)).lost_penalty == 4 * PARAMS.lost_penalty
    assert line_weights(BoardSize(3, 3)).lost_penalty == PARAMS.lost_penalty * 9 / 16


def test_a_monotone_board_beats_a_scrambled_one() -> None:
    size = BoardSize(5, 5)
    ordered = [10, 9, 8, 7, 6] + [0] * 20
    scrambled = [6, 10, 7, 9, 8] + [0] * 20
    evaluation = line_evaluation(size)
    assert evaluation(np.array(ordered)) > evaluation(np.array(scrambled))
