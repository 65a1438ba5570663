"""The heuristic on a board of any size: the same line terms, read from the board directly.

:mod:`py2048.evaluation.heuristic` scores the four rows and four columns of a 4x4 board from a
table of all 2**20 lines. A board of another size (3 to 8 rows and columns, see
:mod:`py2048.engine.size`) has lines of 3 to 8 cells and exponents up to 65, far too many for a
table, so here each row and each column is scored as it is read, by the same terms and the same
weights (:class:`~py2048.evaluation.heuristic.HeuristicParams`):

- ``empty``: each empty cell;
- ``merges``: each pair of equal tiles next to each other once empty cells are skipped (a run
  of ``k`` equal tiles counts ``k``);
- ``monotonicity``: the smaller of the line's rises and falls, each step measured in
  ``e ** monotonicity_power``: a penalty for tiles that go up and then down;
- ``sum``: ``sum(e ** sum_power)``, a penalty that prefers boards that have merged more.

On 4x4 the value is the table heuristic's (the tests hold it to that, up to the table's float32
rounding). Every cell sits in one row and one column on any size, so each term already grows
with the number of cells; what does not is the price of losing, a fixed amount against the
board's own value: :func:`line_weights` scales ``lost_penalty`` by the cells over 16, so that on
8x8 losing still outweighs the larger boards' larger spread of values.

The board is the engine's grid board (:mod:`py2048.engine.grid`): a 1-D ``uint8`` array of
exponents, row-major, with ``rows`` and ``cols`` beside it. The weights travel as one record,
:class:`LineWeights` (typed :data:`LINE_WEIGHTS` for compiled code), with the powers of every
exponent precomputed, so a board costs two passes over its cells and no power is taken at a leaf.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba import njit, types

from py2048.engine.size import BoardSize
from py2048.evaluation.heuristic import HeuristicParams

NAME = "heuristic"
"""The name a hint or a bench gives this evaluation: it is the heuristic, on any size."""
POWER_ROWS = 128
"""Exponents the power tables cover (8x8's largest is 65)."""


class LineWeights(NamedTuple):
    """The heuristic's weights as compiled code reads them (see the module docstring)."""

    empty: float
    merges: float
    monotonicity: float
    sum: float
    lost_penalty: float
    powers: np.ndarray
    """(2, POWER_ROWS) float64: ``e ** monotonicity_power`` and ``e ** sum_power``."""


LINE_WEIGHTS = types.NamedTuple(
    (types.float64,) * 5 + (types.float64[:, ::1],),
    LineWeights,
)
"""The numba type of :class:`LineWeights`."""


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
    exponents = np.arange(POWER_ROWS, dtype=np.float64)
    powers = np.ascontiguousarray(
        np.stack([exponents**params.monotonicity_power, exponents**params.sum_power])
    )
    return LineWeights(
        float(params.empty),
        float(params.merges),
        float(params.monotonicity),
        float(params.sum),
        float(params.lost_penalty) * size.cells / 16.0,
        powers,
    )


def line_evaluation(size: BoardSize, params: HeuristicParams | None = None) -> LineEvaluation:
    """The heuristic for boards of ``size``."""
    return LineEvaluation(size, line_weights(size, params))


@njit(
    types.float64(types.uint8[::1], types.int64, types.int64, types.int64, LINE_WEIGHTS),
    cache=True,
    nogil=True,
)
def line_score(cells, first, step, length, weights):
    """The score of the line of ``length`` cells from ``first`` on, ``step`` apart."""
    mono = weights.powers[0]
    power = weights.powers[1]
    empty = 0
    merges = 0
    previous = 0
    run = 0
    total = 0.0
    rising = 0.0
    falling = 0.0
    last = 0.0
    for k in range(length):
        e = int(cells[first + k * step])
        here = mono[e]
        if k > 0:
            if last > here:
                falling += last - here
            else:
                rising += here - last
        last = here
        if e == 0:
            empty += 1
            continue
        total += power[e]
        if previous == e:
            run += 1
        elif run > 0:
            merges += 1 + run
            run = 0
        previous = e
    if run > 0:
        merges += 1 + run
    return (
        weights.empty * empty
        + weights.merges * merges
        - weights.monotonicity * min(rising, falling)
        - weights.sum * total
    )


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
