"""benchmarks/search_time.py times the solver's own search: the same nodes as ``decide``."""

from __future__ import annotations

import numpy as np
from benchmarks.search_time import searched_boards, timed_search

from py2048.engine.board import ROW_TABLES
from py2048.evaluation.registry import get_evaluator
from py2048.solver.search import (
    COUNTER_SLOTS,
    NODES,
    Run,
    SearchPlan,
    decide,
    probability_cutoff,
    transposition_table,
)


def test_the_timed_loop_visits_the_nodes_the_solver_visits() -> None:
    boards = searched_boards(games=1, seed=7, depth=0)[:40]
    assert boards.shape == (40, 2) and np.all(boards[:, 0] != 0)
    evaluator = get_evaluator()
    nodes, seconds = timed_search(boards, 2, evaluator, probability_cutoff(2))
    counters = np.zeros(COUNTER_SLOTS, dtype=np.int64)
    expected = 0
    table = transposition_table(2)
    out = np.empty(4)
    for generation, (lo, hi) in enumerate(boards, start=1):
        run = Run(ROW_TABLES, np.uint64(generation), counters, 0.0, 0.0)
        decide(
            lo, hi, SearchPlan(2, 2, 0.0, False), evaluator.kernel, evaluator.data, table, run, out
        )
        expected += counters[NODES]
    assert nodes == expected > 0 and seconds > 0
