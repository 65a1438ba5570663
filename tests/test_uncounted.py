"""njit_uncounted: kernels without numba's reference counting."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from numba.core.errors import NumbaError

from py2048._uncounted import njit_uncounted
from tests.fresh_process import run_in_a_fresh_process


@njit_uncounted(nogil=True)
def _row_sum(table: np.ndarray, row: int) -> float:
    view = table[row]  # a view of the caller's array needs no counting
    total = 0.0
    for value in view:
        total += value
    return total


@njit_uncounted
def _returns_a_new_array(n: int) -> np.ndarray:
    return np.zeros(n)


@njit_uncounted
def _uses_a_new_array(table: np.ndarray) -> float:
    copy = table.copy()
    return float(copy[0])


def test_an_uncounted_kernel_reads_the_arrays_it_is_given() -> None:
    table = np.arange(12, dtype=np.float64).reshape(3, 4)
    assert _row_sum(table, 1) == 4 + 5 + 6 + 7
    assert _row_sum(table, 2) == 8 + 9 + 10 + 11


def test_an_uncounted_kernel_that_allocates_fails_to_compile() -> None:
    with pytest.raises(NumbaError, match="zeros"):
        _returns_a_new_array(3)
    with pytest.raises(NumbaError, match="NRT required"):
        _uses_a_new_array(np.ones(3))


FIRST_IN_A_FRESH_PROCESS = """
from py2048.learn.network import NTupleNetwork
from py2048.learn.play import play_greedy
from py2048.learn.training import Trainer, TrainingConfig
from py2048.solver import best_move

tuples = ((0, 1, 2), (4, 5, 6))
for workers, lock_free in ((1, False), (2, True)):
    trainer = Trainer(TrainingConfig(tuples=tuples, workers=workers, lock_free=lock_free))
    trainer.run_round(20)
play_greedy(NTupleNetwork.zeros(tuples), 3)
board = [[2, 4, 8, 16], [0, 2, 0, 4], [0, 0, 0, 0], [65536, 0, 0, 2]]
for evaluator in ("ntuple-snake", "ntuple", "heuristic"):
    best_move(board, depth=2, evaluator=evaluator, tables=False)
best_move([[2, 4, 0, 0, 0]] + [[0] * 5] * 4, depth=1, tables=False)
print("ok")
"""


@pytest.mark.timeout(600)
def test_the_hot_kernels_compile_first_in_a_fresh_process(tmp_path: Path) -> None:
    """The search, the network's evaluation and the trainer's play loop are compiled without
    counting, and so is every helper numba compiles for them on first use: in a process with
    an empty cache they compile before anything else can compile their helpers with counting
    (tests/env/test_uncounted_kernels.py does the same for the batch API)."""
    assert run_in_a_fresh_process(FIRST_IN_A_FRESH_PROCESS, tmp_path / "numba") == "ok"
