"""The built-in evaluation: a hand-made score of each row and column, read from a table.

Every row and every column of the board (read left to right, top to bottom) is scored on its
own, and the board's value is the sum of its eight lines. A line's score
(:mod:`py2048.evaluation.line_terms`: empty cells, merges, monotonicity and the sum of the
tiles' powers) is precomputed for all 2**20 possible lines (5-bit exponents, like the engine's
move tables), so evaluating a board is eight table reads.

Together they push the tiles into a monotone arrangement with the big ones along an edge and in
a corner, and keep cells free. The weights are in :class:`HeuristicParams`;
``docs/solver-reference.md`` ("Tuning the heuristic") says how they were measured.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from py2048.engine.board import ROW_COUNT, row_index, transpose_hi, transpose_lo
from py2048.evaluation.contract import KERNEL_SIGNATURE, Evaluator
from py2048.evaluation.line_terms import LineWeights, exponent_powers, line_score


@dataclass(frozen=True)
class HeuristicParams:
    """Weights of the line terms (see the module docstring)."""

    lost_penalty: float = 1_000_000.0
    """What losing costs, against the board's own score (see ``Evaluator.lost_penalty``)."""
    empty: float = 1000.0
    merges: float = 700.0
    monotonicity: float = 40.0
    monotonicity_power: float = 3.0
    sum: float = 11.0
    sum_power: float = 3.5


@njit(cache=True)
def _line_scores(weights: LineWeights) -> np.ndarray:
    """Every 4-cell line's score (:func:`~py2048.evaluation.line_terms.line_score`), indexed
    as the engine's row tables are (four 4-bit exponents, then their four fifth bits)."""
    table = np.zeros((1, ROW_COUNT), dtype=np.float32)
    line = np.zeros(4, dtype=np.uint8)
    for index in range(ROW_COUNT):
        for c in range(4):
            line[c] = ((index >> (4 * c)) & 0xF) | (((index >> (16 + c)) & 1) << 4)
        table[0, index] = line_score(line, 0, 1, 4, weights)
    return table


def line_terms(params: HeuristicParams) -> LineWeights:
    """These weights as the line terms read them (``lost_penalty`` as it is: a 4x4 board's)."""
    return LineWeights(
        float(params.empty),
        float(params.merges),
        float(params.monotonicity),
        float(params.sum),
        float(params.lost_penalty),
        exponent_powers(params.monotonicity_power, params.sum_power),
    )


def line_table(params: HeuristicParams) -> np.ndarray:
    """The (1, 2**20) float32 table of line scores for these weights."""
    return _line_scores(line_terms(params))


@njit(KERNEL_SIGNATURE, cache=True, nogil=True)
def evaluate(lo: np.uint64, hi: np.uint64, weights: np.ndarray, layout: np.ndarray) -> float:
    """Sum of the table scores of the four rows and the four columns."""
    t_lo = transpose_lo(lo)
    t_hi = transpose_hi(hi)
    total = 0.0
    for r in range(4):
        total += weights[0, row_index(lo, hi, r)]
        total += weights[0, row_index(t_lo, t_hi, r)]
    return total


def heuristic_evaluator(params: HeuristicParams | None = None) -> Evaluator:
    """An Evaluator with these weights (the default ones when ``params`` is None)."""
    params = params or HeuristicParams()
    return Evaluator(
        "heuristic",
        evaluate,
        line_table(params),
        np.zeros((0, 0), dtype=np.int64),
        gain_weight=0.0,
        lost_penalty=params.lost_penalty,
        lines=True,
    )
