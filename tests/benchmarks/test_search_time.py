"""benchmarks/search_time.py times the solver's own search: the same nodes as ``decide``."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from benchmarks.search_time import evaluator_named, searched_boards, timed_search

from py2048.engine.board import ROW_TABLES
from py2048.evaluation.ntuple import playing_with, shipped_weights_path
from py2048.evaluation.registry import get_evaluator
from py2048.learn.network import NTupleNetwork, save_weights
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
    # a table that does not remember leaves visits the same positions
    assert timed_search(boards, 2, evaluator, probability_cutoff(2), leaves=False)[0] == nodes


def test_a_network_named_by_its_file_evaluates_as_the_solver_reads_that_network(
    tmp_path: Path,
) -> None:
    boards = searched_boards(games=1, seed=7, depth=0)[:40]
    other = NTupleNetwork.zeros(((0, 1, 2, 3), (0, 1, 4, 5)))
    other.weights[:] = np.random.default_rng(3).normal(0, 2000, other.weights.size)
    save_weights(other, tmp_path / "other.npz")
    named = evaluator_named(f"ntuple-snake@{tmp_path / 'other.npz'}")
    with playing_with(tmp_path / "other.npz"):
        solver = get_evaluator("ntuple-snake")
        values = [solver(lo, hi) for lo, hi in boards]
    assert [named(lo, hi) for lo, hi in boards] == values
    in_use = get_evaluator("ntuple-snake")
    assert [in_use(lo, hi) for lo, hi in boards] != values

    shipped = evaluator_named(f"ntuple-snake@{shipped_weights_path()}")
    as_is = evaluator_named("ntuple-snake@as-is")
    late = np.uint64(0xEC00000000000021)  # a 16384 beside a 4096, no 8192: read downgraded
    zero = np.uint64(0)
    assert shipped(late, zero) == in_use(late, zero) != as_is(late, zero)


def test_a_weights_file_that_cannot_be_read_stops_with_its_name(tmp_path: Path) -> None:
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"not a weights file")
    with pytest.raises(SystemExit, match=re.escape(str(broken))):
        evaluator_named(f"ntuple@{broken}")
    with pytest.raises(SystemExit, match="heuristic"):
        evaluator_named(f"heuristic@{broken}")
