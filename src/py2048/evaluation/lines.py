"""The heuristic on a board of any size: the same line terms, read from the board directly.

:mod:`py2048.evaluation.heuristic` scores the four rows and four columns of a 4x4 board from a
table of all 2**20 lines. A board of another size (3 to 8 rows and columns, see
:mod:`py2048.engine.size`) has lines of 3 to 8 cells and exponents up to 65, far too many for a
table, so here each row and each column is scored as it is read, by the same terms
(:func:`~py2048.evaluation.line_terms.line_score`) and the same weights
(:class:`~py2048.evaluation.heuristic.HeuristicParams`).

On 4x4 the value is the table heuristic's (the tests hold it to that, up to the table's float32
rounding). Every cell sits in one row and one column on any size, so each term already grows
with the number of cells; what does not is the price of losing, a fixed amount against the
board's own value: :func:`line_weights` scales ``lost_penalty`` by the cells over 16, so that on
8x8 losing still outweighs the larger boards' larger spread of values.

The board is the engine's grid board (:mod:`py2048.engine.grid`): a 1-D ``uint8`` array of
exponents, row-major, with ``rows`` and ``cols`` beside it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, types

from py2048.engine.size import BoardSize
from py2048.evaluation.heuristic import HeuristicParams, line_terms
from py2048.evaluation.line_terms import LINE_WEIGHTS, LineWeights, line_score

NAME = "heuristic"
"""The name a hint or a bench gives this evaluation: it is the heuristic, on any size."""


@dataclass(frozen=True)
class LineEvaluation:
    """The heuristic's weights for one board size."""

    size: BoardSize
    weights: LineWeights

    @property
    def name(self) -> str:
        return NAME

    def __call__(self, exponents: np.ndarray) -> float:
        """The value of one board (row-major exponents), for tests and for showing it."""
        cells = np.ascontiguousarray(exponents, dtype=np.uint8)
        return float(evaluate(cells, self.size.rows, self.size.cols, self.weights))


def line_weights(size: BoardSize, params: HeuristicParams | None = None) -> LineWeights:
    """The weights for ``size`` (the default ones when ``params`` is None)."""
    params = params or HeuristicParams()
    weights = line_terms(params)
    return weights._replace(lost_penalty=weights.lost_penalty * size.cells / 16.0)


def line_evaluation(size: BoardSize, params: HeuristicParams | None = None) -> LineEvaluation:
    """The heuristic for boards of ``size``."""
    return LineEvaluation(size, line_weights(size, params))


@njit(
    types.float64(types.uint8[::1], types.int64, types.int64, LINE_WEIGHTS),
    cache=True,
    nogil=True,
)
def evaluate(cells, rows, cols, weights):
    """The sum of the scores of every row (left to right) and every column (top to bottom)."""
    total = 0.0
    for row in range(rows):
        total += line_score(cells, row * cols, 1, cols, weights)
    for col in range(cols):
        total += line_score(cells, col, cols, rows, weights)
    return total
