"""best_move: legal answers, the documented depth meaning, budgets, big tiles, bad input."""

from __future__ import annotations

import dataclasses
import math
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from py2048 import Direction, slide
from py2048.engine.board import ROW_TABLES, pack
from py2048.evaluation import DEFAULT_EVALUATOR
from py2048.solver import PRESETS, Evaluator, Hint, best_move, get_evaluator, register_evaluator
from py2048.solver.search import (
    COUNTER_SLOTS,
    LEAF_SLOTS,
    MAX_DEPTH,
    NODES,
    Run,
    SearchPlan,
    chance_slots,
    decide,
    transposition_table,
)
from tests.solver.reference import move_values

TILES = [0, 0, 0, 0, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]


@st.composite
def boards(draw: st.DrawFn) -> list[list[int]]:
    """Random boards; about half hold a 65536 or a 131072 (a non-zero hi word), or both."""
    cells = draw(st.lists(st.sampled_from(TILES), min_size=16, max_size=16))
    big = draw(st.lists(st.sampled_from([65536, 131072]), max_size=2, unique=True))
    places = draw(st.lists(st.integers(0, 15), min_size=len(big), max_size=len(big), unique=True))
    for tile, cell in zip(big, places, strict=True):
        cells[cell] = tile
    return [cells[r * 4 : r * 4 + 4] for r in range(4)]


HARD = [
    [2, 8, 2, 4],
    [4, 32, 64, 8],
    [8, 128, 1024, 4096],
    [0, 2, 16, 8192],
]
OPEN = [[2, 4, 8, 16], [0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 4]]


def legal(board: list[list[int]]) -> set[Direction]:
    return {direction for direction in Direction if slide(board, direction)[2]}


@settings(max_examples=60, deadline=None)
@given(boards(), st.integers(min_value=0, max_value=1))
def test_advice_is_always_a_legal_move_with_a_value_for_every_legal_move(board, depth):
    hint = best_move(board, depth=depth)
    moves = legal(board)
    assert set(hint.values) == moves
    if moves:
        assert hint.direction in moves
        assert hint.values[hint.direction] == max(hint.values.values())
    else:
        assert hint.direction is None


@pytest.mark.parametrize("name", ["heuristic", "ntuple", "ntuple-snake"])
@settings(max_examples=25, deadline=None)
@given(board=boards().filter(lambda b: sum(v == 0 for row in b for v in row) <= 6))
def test_depth_one_matches_a_plain_expectimax_also_with_65536_tiles(name, board):
    evaluator = get_evaluator(name)
    hint = best_move(board, depth=1, evaluator=name)
    expected = move_values(board, 1, evaluator)
    assert hint.values.keys() == expected.keys()
    for d, value in expected.items():
        assert math.isclose(hint.values[d], value, rel_tol=1e-9)


FORCED = [[0, 0, 0, 0], [2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4]]
"""Only up moves anything."""


@pytest.mark.parametrize("depth", [1, 2])
def test_a_forced_move_at_a_fixed_depth_is_valued_at_that_depth(depth):
    hint = best_move(FORCED, depth=depth, evaluator="heuristic")
    expected = move_values(FORCED, depth, get_evaluator("heuristic"))
    assert hint.depth == depth and hint.values.keys() == expected.keys() == {Direction.UP}
    assert math.isclose(hint.values[Direction.UP], expected[Direction.UP], rel_tol=1e-9)


@pytest.mark.parametrize("limits", [{"preset": "balanced"}, {"time_ms": 50}])
def test_a_forced_move_under_a_budget_is_answered_at_once(limits):
    hint = best_move(FORCED, **limits)
    assert (hint.direction, hint.depth) == (Direction.UP, 0)


MIDGAME = [[0, 2, 0, 4], [0, 16, 64, 8], [2, 128, 1024, 4096], [0, 2, 16, 8192]]


@pytest.mark.parametrize("name", ["heuristic", "ntuple", "ntuple-snake"])
@pytest.mark.parametrize(("board", "depth"), [(OPEN, 2), (MIDGAME, 3)])
def test_deeper_searches_cut_lines_less_likely_than_two_to_the_minus_depth_plus_four(
    name, board, depth
):
    evaluator = get_evaluator(name)
    hint = best_move(board, depth=depth, evaluator=name)
    expected = move_values(board, depth, evaluator, cutoff=2.0 ** -(depth + 4))
    assert hint.values.keys() == expected.keys()
    for d, value in expected.items():
        assert math.isclose(hint.values[d], value, rel_tol=1e-9)
    uncut = move_values(board, depth, evaluator)
    assert any(not math.isclose(uncut[d], expected[d], rel_tol=1e-6) for d in expected)


@pytest.mark.parametrize("name", ["heuristic", "ntuple", "ntuple-snake"])
def test_depth_zero_is_the_greedy_look_ahead(name):
    evaluator = get_evaluator(name)
    hint = best_move(OPEN, depth=0, evaluator=name)
    assert hint.values == pytest.approx(move_values(OPEN, 0, evaluator))


def test_board_with_131072_and_65536_tiles():
    board = [
        [131072, 65536, 32768, 16384],
        [512, 1024, 2048, 8192],
        [256, 128, 64, 4096],
        [2, 0, 0, 2],
    ]
    hint = best_move(board, depth=2)
    assert set(hint.values) == legal(board)
    assert hint.direction in legal(board)


def test_merging_two_65536_tiles_is_found():
    board = [
        [65536, 65536, 2, 4],
        [4, 2, 4, 2],
        [2, 4, 2, 4],
        [4, 2, 4, 2],
    ]
    hint = best_move(board, depth=1)
    assert set(hint.values) == {Direction.LEFT, Direction.RIGHT}
    assert hint.direction in {Direction.LEFT, Direction.RIGHT}


ONE_WAY = {
    Direction.UP: [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [2, 4, 8, 16]],
    Direction.DOWN: [[2, 4, 8, 16], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
    Direction.LEFT: [[0, 0, 0, 2], [0, 0, 0, 4], [0, 0, 0, 8], [0, 0, 0, 16]],
    Direction.RIGHT: [[2, 0, 0, 0], [4, 0, 0, 0], [8, 0, 0, 0], [16, 0, 0, 0]],
}


@pytest.mark.parametrize("direction", list(Direction))
@pytest.mark.parametrize("kwargs", [{"depth": 3}, {"time_ms": 5}, {"preset": "strong"}, {}])
def test_single_legal_move_is_returned(direction, kwargs):
    board = ONE_WAY[direction]
    assert legal(board) == {direction}
    hint = best_move(board, **kwargs)
    assert hint.direction is direction
    assert set(hint.values) == {direction}


def test_no_move_gives_none():
    board = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]
    hint = best_move(board)
    assert hint == Hint(None, {}, -1, hint.elapsed_ms, 0, DEFAULT_EVALUATOR)


def test_same_board_and_depth_give_the_same_answer():
    first = [best_move(HARD, depth=2) for _ in range(3)]
    assert len({(h.direction, tuple(h.values.items()), h.nodes) for h in first}) == 1


def test_threads_get_the_answers_of_a_single_thread():
    boards = [HARD, OPEN, [row[::-1] for row in HARD], HARD[::-1]]
    expected = [best_move(b, depth=2) for b in boards]
    results: dict[int, list[Hint]] = {}

    def work(index: int) -> None:
        results[index] = [best_move(boards[(index + k) % 4], depth=2) for k in range(4)]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for index, hints in results.items():
        for k, hint in enumerate(hints):
            want = expected[(index + k) % 4]
            assert (hint.direction, hint.values) == (want.direction, want.values)


@pytest.mark.parametrize("budget_ms", [5, 50])
def test_time_budget_is_kept_on_a_hard_board(budget_ms):
    best_move(HARD, time_ms=budget_ms)  # loads and sizes this thread's table first
    margin_ms = 150  # generous: the machine running the tests may be busy
    for _ in range(3):
        hint = best_move(HARD, time_ms=budget_ms)
        assert hint.elapsed_ms <= budget_ms + margin_ms
        assert hint.depth >= 0


def test_presets_answer_and_default_is_balanced():
    for name in PRESETS:
        assert best_move(HARD, preset=name).direction in legal(HARD)
    assert best_move(HARD).values == best_move(HARD, preset="balanced").values


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"depth": 2, "time_ms": 10}, "at most one"),
        ({"depth": 1, "preset": "fast"}, "at most one"),
        ({"depth": -1}, "depth"),
        ({"depth": 99}, "depth"),
        ({"depth": 1.5}, "depth"),
        ({"time_ms": -5}, "positive"),
        ({"time_ms": 0}, "positive"),
        ({"time_ms": float("nan")}, "positive"),
        ({"preset": "insane"}, "unknown preset"),
        ({"evaluator": "nonsense"}, "unknown evaluator"),
        ({"depth": 2, "budget": "nodes"}, "for presets"),
        ({"time_ms": 5, "budget": "nodes"}, "for presets"),
        ({"preset": "fast", "budget": "moves"}, "unknown budget"),
    ],
)
def test_bad_settings_are_rejected_clearly(kwargs, message):
    with pytest.raises(ValueError, match=message):
        best_move(OPEN, **kwargs)


@pytest.mark.parametrize(
    "board",
    [
        [[2, 4], [8, 16]],
        [[3, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4],
        "2 4 8 16",
        [[2, 4, 8, 16], [0] * 4, [0] * 4, [0, 0, 0, -2]],
    ],
)
def test_impossible_boards_are_rejected_clearly(board):
    with pytest.raises(ValueError, match="board"):
        best_move(board)


def test_an_evaluator_whose_data_cannot_load_is_a_clear_error():
    def broken() -> Evaluator:
        raise FileNotFoundError("weights.npz")

    register_evaluator("broken-for-test", broken)
    with pytest.raises(ValueError, match="could not be loaded"):
        best_move(OPEN, evaluator="broken-for-test")


def test_a_registered_evaluator_is_used_by_name():
    base = get_evaluator("heuristic")
    register_evaluator(
        "heuristic-copy-for-test",
        lambda: Evaluator(
            "heuristic-copy-for-test",
            base.kernel,
            base.weights,
            base.layout,
            lost_penalty=base.lost_penalty,
        ),
    )
    hint = best_move(HARD, depth=1, evaluator="heuristic-copy-for-test")
    assert hint.evaluator == "heuristic-copy-for-test"
    reference = best_move(HARD, depth=1, evaluator="heuristic")
    for d, value in reference.values.items():
        assert math.isclose(hint.values[d], value, rel_tol=1e-9)


def decided(board: list[list[int]], plan: SearchPlan) -> tuple[int, list[float], int]:
    """``decide`` on ``board`` with the default evaluation: (depth, values, positions)."""
    evaluator = get_evaluator(None)
    lo, hi = pack(board)
    counters = np.zeros(COUNTER_SLOTS, dtype=np.int64)
    out = np.zeros(4, dtype=np.float64)
    run = Run(ROW_TABLES, np.uint64(1), counters, 0.0, 0.0)
    table = transposition_table(plan.max_depth)
    depth = decide(
        np.uint64(lo), np.uint64(hi), plan, evaluator.kernel, evaluator.data, table, run, out
    )
    return depth, list(out), int(counters[NODES])


def test_a_budget_in_positions_gives_the_same_advice_every_time():
    first = best_move(HARD, preset="strong", budget="nodes")
    again = best_move(HARD, preset="strong", budget="nodes")
    assert (first.values, first.depth, first.nodes) == (again.values, again.depth, again.nodes)
    assert first.nodes > 0


@pytest.mark.parametrize("budget", [30_000, 200_000])
def test_a_budget_in_positions_stops_the_search_near_it(budget):
    unbounded = decided(MIDGAME, SearchPlan(6, 6, 0.0, False))
    depth, _, nodes = decided(MIDGAME, SearchPlan(0, 6, 0.0, False, nodes=budget))
    assert unbounded[2] > budget  # the full search would need more
    assert 0 <= depth < unbounded[0]
    assert nodes <= budget + 2 * 4096  # the limit is read every 4096 positions


def test_an_unbounded_budget_in_positions_answers_as_an_unbounded_time_budget():
    by_time = decided(MIDGAME, SearchPlan(2, 4, 1000.0, True))
    by_nodes = decided(MIDGAME, SearchPlan(2, 4, 0.0, True, nodes=10**15))
    assert by_time == by_nodes


def test_the_smallest_budget_in_positions_still_answers_at_depth_zero():
    depth, values, _ = decided(OPEN, SearchPlan(0, 6, 0.0, False, nodes=1))
    assert (depth, values) == decided(OPEN, SearchPlan(0, 0, 0.0, False))[:2]


SPENT = [{"seconds": 1e-9}, {"nodes": 1}]
"""Budgets spent before the search starts: a machine so loaded that no deeper search fits."""


@pytest.mark.parametrize("board", [OPEN, MIDGAME, HARD])
@pytest.mark.parametrize("spent", SPENT, ids=["time", "nodes"])
@pytest.mark.parametrize("preset", list(PRESETS.values()), ids=list(PRESETS))
def test_a_presets_minimum_depth_is_a_floor_even_when_its_budget_is_spent(board, spent, preset):
    plan = SearchPlan(preset.min_depth, preset.max_depth, 0.0, True)._replace(**spent)
    depth, values, _ = decided(board, plan)
    assert depth >= preset.min_depth
    exact = SearchPlan(depth, depth, 0.0, False)
    assert values == decided(board, exact)[1]  # the values of a whole search at that depth


@pytest.mark.parametrize("spent", SPENT, ids=["time", "nodes"])
def test_a_forced_move_is_still_answered_at_once_when_the_budget_is_spent(spent):
    plan = SearchPlan(3, 6, 0.0, True)._replace(**spent)
    assert decided(FORCED, plan)[0] == 0


def test_a_time_budget_without_a_preset_has_no_floor_but_depth_zero():
    assert decided(MIDGAME, SearchPlan(0, 6, 1e-9, False))[0] == 0


def test_best_move_with_a_preset_searches_at_least_its_minimum_depth(monkeypatch):
    from py2048.solver import hint as hint_module

    spent = {name: dataclasses.replace(p, time_ms=1e-6) for name, p in PRESETS.items()}
    monkeypatch.setattr(hint_module, "PRESETS", spent)
    for name, preset in PRESETS.items():
        found = best_move(MIDGAME, preset=name, tables=False)
        assert found.depth >= preset.min_depth, name


CROWDED_CORNER = [[8192, 4, 2, 64], [2, 0, 16, 16], [2, 128, 64, 128], [2, 0, 8, 16]]
"""The 8192 in a corner of a crowded board, where some spawns leave only replies that take it
out: the rule changes the value of two moves (with the shipped network)."""


@pytest.mark.parametrize("board", [MIDGAME, CROWDED_CORNER], ids=["midgame", "crowded"])
def test_replies_that_take_the_largest_tile_from_its_corner_are_judged_not_searched(board):
    evaluator = get_evaluator("ntuple")
    hint = best_move(board, depth=2, evaluator="ntuple")  # the 8192 sits in a corner
    cutoff = 2.0**-6
    judged = move_values(board, 2, evaluator, cutoff=cutoff)
    for d, value in judged.items():
        assert math.isclose(hint.values[d], value, rel_tol=1e-9)
    if board is CROWDED_CORNER:  # elsewhere such a reply is seldom the best, and nothing moves
        searched = move_values(board, 2, evaluator, cutoff=cutoff, keep_corner=False)
        assert any(not math.isclose(judged[d], searched[d], rel_tol=1e-9) for d in judged)


def searched(
    board: list[list[int]], depth: int, table: np.ndarray, generation: int, name: str | None
) -> tuple[list[float], int]:
    """One search of ``board`` at ``depth`` in ``table``: (values, positions)."""
    evaluator = get_evaluator(name)
    lo, hi = pack(board)
    counters = np.zeros(COUNTER_SLOTS, dtype=np.int64)
    out = np.zeros(4, dtype=np.float64)
    run = Run(ROW_TABLES, np.uint64(generation), counters, 0.0, 0.0)
    plan = SearchPlan(depth, depth, 0.0, False)
    decide(np.uint64(lo), np.uint64(hi), plan, evaluator.kernel, evaluator.data, table, run, out)
    return list(out), int(counters[NODES])


@settings(max_examples=15, deadline=None)
@given(
    first=boards().filter(lambda b: sum(v == 0 for row in b for v in row) <= 8),
    second=boards().filter(lambda b: sum(v == 0 for row in b for v in row) <= 8),
)
def test_remembered_leaves_change_no_value_and_no_position_count(first, second):
    for depth in range(MAX_DEPTH + 1):  # every table the solver makes has its leaf entries
        size = transposition_table(depth).shape[0]
        chance = chance_slots(size)
        assert chance == size - LEAF_SLOTS and chance & (chance - 1) == 0
    shared = transposition_table(2)
    searches = [(first, "ntuple-snake"), (first, "ntuple"), (second, "heuristic")]
    searches += [(second, "ntuple"), (first, "ntuple-snake")]
    for generation, (board, name) in enumerate(searches, start=1):
        chance_only = transposition_table(2)[:-LEAF_SLOTS].copy()
        assert chance_slots(chance_only.shape[0]) == chance_only.shape[0]
        # a table reused by later searches, with other evaluations, answers as a fresh one
        assert searched(board, 2, shared, generation, name) == searched(
            board, 2, chance_only, generation, name
        )
