"""The search on boards other than 4x4, against the plain-Python expectimax of grid_reference."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from py2048.engine.direction import Direction
from py2048.engine.size import BoardSize
from py2048.evaluation.lines import line_evaluation
from py2048.solver import best_move
from py2048.solver.grid_search import GridRun, adaptive_depth, decide, scratch_boards
from py2048.solver.hint import weights_for
from py2048.solver.search import COUNTER_SLOTS, LEAF_SLOTS, NODES, SearchPlan, transposition_table
from tests.solver.grid_reference import move_values

# 3x3, two moves: right loses after either spawn; down loses after a 2, not after a 4.
NEARLY_LOST = [[2, 4, 8], [16, 32, 64], [128, 256, 0]]
SMALL = [[2, 0, 4], [0, 8, 0], [2, 16, 0]]
RECTANGLE = [[0, 2, 0, 0], [4, 0, 0, 2], [0, 0, 8, 0]]  # 3x4
TALL = [[2, 0, 0], [0, 4, 0], [0, 0, 2], [8, 0, 0]]  # 4x3
WIDE = [[0, 0, 2, 0, 0], [0, 4, 0, 0, 0], [2, 0, 0, 0, 16], [0, 0, 0, 32, 64]]  # 4x5


def _size(board: list[list[int]]) -> BoardSize:
    return BoardSize(len(board), len(board[0]))


@pytest.mark.parametrize(
    ("board", "depth"),
    [
        (NEARLY_LOST, 0),
        (NEARLY_LOST, 1),
        (NEARLY_LOST, 3),
        (SMALL, 1),
        (SMALL, 2),
        (RECTANGLE, 1),
        (RECTANGLE, 2),
        (TALL, 2),
        (WIDE, 1),
    ],
)
def test_the_search_is_the_plain_expectimax(board: list[list[int]], depth: int) -> None:
    evaluation = line_evaluation(_size(board))
    hint = best_move(board, depth=depth)
    expected = move_values(board, depth, evaluation, cutoff=2.0 ** -(depth + 4))
    assert hint.depth == depth and hint.source == "search" and hint.evaluator == "heuristic"
    assert hint.values.keys() == expected.keys()
    for d, value in expected.items():
        assert math.isclose(hint.values[d], value, rel_tol=1e-9, abs_tol=1e-6)
    assert hint.direction == max(expected, key=expected.__getitem__)


def test_the_probability_cutoff_prunes_as_on_4x4() -> None:
    # a 4 on one of the eight empty cells (0.1 / 8) is less likely than 2**-6: it is cut at d2
    evaluation = line_evaluation(_size(RECTANGLE))
    cut = move_values(RECTANGLE, 2, evaluation, cutoff=2.0**-6)
    uncut = move_values(RECTANGLE, 2, evaluation)
    assert any(not math.isclose(cut[d], uncut[d], rel_tol=1e-6) for d in cut)
    hint = best_move(RECTANGLE, depth=2)
    assert all(math.isclose(hint.values[d], cut[d], rel_tol=1e-9) for d in cut)


def test_losing_costs_the_price_scaled_to_the_board() -> None:
    hint = best_move(NEARLY_LOST, depth=1)
    penalty = line_evaluation(BoardSize(3, 3)).weights.lost_penalty
    assert penalty == pytest.approx(1_000_000.0 * 9 / 16)
    assert hint.values.keys() == {Direction.RIGHT, Direction.DOWN}
    # right always loses: the spawned board's value less the whole price; down only mostly
    assert hint.values[Direction.RIGHT] < -penalty
    assert hint.values[Direction.RIGHT] < hint.values[Direction.DOWN] < -0.8 * penalty
    assert hint.direction == Direction.DOWN


def test_the_same_search_twice_gives_the_same_values() -> None:
    first = best_move(WIDE, depth=2)
    second = best_move(WIDE, depth=2)
    assert first.values == second.values and first.nodes == second.nodes


def test_a_board_with_no_move_has_no_advice() -> None:
    over = [[2, 4, 2], [4, 2, 4], [2, 4, 2]]
    hint = best_move(over, depth=1)
    assert (hint.direction, hint.values, hint.depth) == (None, {}, -1)


@pytest.mark.parametrize("limits", [{"preset": "fast"}, {"time_ms": 20}])
def test_budgets_answer_on_big_boards(limits: dict[str, object]) -> None:
    board = [[0] * 8 for _ in range(8)]
    board[0][0], board[7][7] = 2, 4
    hint = best_move(board, **limits)  # type: ignore[arg-type]
    assert hint.direction is not None and hint.depth >= 0 and hint.nodes > 0


def test_a_preset_searches_its_own_floor_on_other_sizes(monkeypatch) -> None:
    """A preset's floor on 4x4 may be deeper than its floor elsewhere: a big board, with every
    budget spent, is answered at the floor of its own range."""
    from dataclasses import replace

    from py2048.solver import hint as hint_module
    from py2048.solver.presets import PRESETS

    spent = {
        name: replace(p, time_ms=1e-6, min_depth=p.grid_depths[0] + 1)
        for name, p in PRESETS.items()
    }
    monkeypatch.setattr(hint_module, "PRESETS", spent)
    board = [[0] * 6 for _ in range(6)]
    board[0][0], board[2][3], board[5][5] = 2, 4, 8
    for name, preset in spent.items():
        assert best_move(board, preset=name).depth == preset.grid_depths[0], name


def _reference_adaptive(cells: list[int], low: int, high: int) -> int:
    distinct = len({e for e in cells if e})
    extra = max(0, distinct - 7) // 2 + (1 if cells.count(0) <= 3 else 0)
    return max(low, min(high, low + extra))


@given(
    st.integers(3, 8).flatmap(
        lambda side: st.lists(st.integers(0, 20), min_size=side * side, max_size=side * side)
    ),
    st.integers(0, 3),
    st.integers(0, 3),
)
@settings(max_examples=100, deadline=None)
def test_adaptive_depth_is_the_packed_rule(cells: list[int], low: int, span: int) -> None:
    found = adaptive_depth(np.array(cells, dtype=np.uint8), low, low + span)
    assert found == _reference_adaptive(cells, low, low + span)


def test_other_evaluations_are_refused_off_4x4() -> None:
    with pytest.raises(ValueError, match="4x4 boards only"):
        best_move(SMALL, depth=1, evaluator="ntuple")
    assert best_move(SMALL, depth=1, evaluator="heuristic").direction in Direction


def _searched(
    board: list[list[int]], depth: int, table: np.ndarray, generation: int
) -> tuple[list[float], int]:
    """One grid search of ``board`` at ``depth`` in ``table``: (values, positions)."""
    size = _size(board)
    cells = np.array([v.bit_length() - 1 if v else 0 for row in board for v in row], np.uint8)
    counters = np.zeros(COUNTER_SLOTS, dtype=np.int64)
    out = np.zeros(4, dtype=np.float64)
    run = GridRun(
        size.rows, size.cols, scratch_boards(cells.size), np.uint64(generation), counters, 0.0, 0.0
    )
    plan = SearchPlan(depth, depth, 0.0, False)
    decide(cells, plan, weights_for(size), table, run, out)
    return list(out), int(counters[NODES])


def test_remembered_leaves_change_no_value_and_no_position_count() -> None:
    shared = transposition_table(2)
    boards = [WIDE, RECTANGLE, TALL, WIDE, SMALL]
    for generation, board in enumerate(boards, start=1):
        chance_only = transposition_table(2)[:-LEAF_SLOTS].copy()
        # a table reused by searches of other boards and sizes answers as a fresh one does
        assert _searched(board, 2, shared, generation) == _searched(
            board, 2, chance_only, generation
        )
