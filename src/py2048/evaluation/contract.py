"""The evaluation contract: what the search needs from a board evaluation.

An evaluation is an :class:`Evaluator`: a compiled kernel plus the data it reads. The search
calls ``kernel(lo, hi, weights, layout)`` at every leaf, where ``(lo, hi)`` is a packed board
right after a move and before its spawn (an *afterstate*, see :mod:`py2048.engine.board`). The
kernel must be:

- compiled by numba with exactly :data:`KERNEL_SIGNATURE`, ``nogil=True`` and ``cache=True``::

      @njit(KERNEL_SIGNATURE, cache=True, nogil=True)
      def evaluate(lo, hi, weights, layout):  # (u8, u8, f4[:, ::1], i8[:, ::1]) -> f8
          ...

  The explicit signature makes the kernel a first-class function whose address the search
  takes at run time, so the search is compiled once for every evaluation and a second process
  loads both from numba's disk cache instead of compiling again. (Passing a dispatcher without
  that signature would recompile the whole search in every process.)
  A kernel that allocates nothing may be compiled with
  :func:`py2048._uncounted.njit_uncounted` instead (no reference counting), as the n-tuple
  network's is: at millions of leaves a search, counting the arrays it is handed up and down
  is a measurable share of the search.
- pure: it reads ``weights`` and ``layout`` and never writes them, so concurrent searches on
  threads can share one Evaluator;
- correct on boards with a non-zero ``hi`` word (65536 and 131072 tiles);
- larger for better boards, on any scale.

A lost position (a spawn after which no move exists) is worth ``0.0`` when ``lost_penalty`` is
0 (right for a value function of future score, such as an n-tuple network: nothing more will
be scored), and otherwise its own evaluation minus ``lost_penalty`` (right for a heuristic,
whose values are not anchored at 0: losing then costs the same on every board, with small
tiles or with a 131072).

``weights`` (float32, 2-D, C order) and ``layout`` (int64, 2-D, C order) are whatever the kernel
needs: the heuristic uses one row table in ``weights`` and an empty ``layout``; the n-tuple
network keeps its int16 entries in ``weights``, two to a word, which its kernel views as int16
(:mod:`py2048.evaluation.ntuple`).

``lines`` lets an evaluation that is a sum of line scores (like the heuristic) skip the call:
see :attr:`Evaluator.lines`.

``gain_weight`` says how the score gained by a move adds to the evaluation: a value function
learned on the game's score (an n-tuple network estimating future score) uses 1.0, so a move is
worth ``gain + V(afterstate)``; a heuristic that only judges shapes uses 0.0.

The search receives an evaluation as two arguments: the kernel, and its data as one record,
:class:`EvaluationData` (typed :data:`EVALUATION_DATA` for compiled code). Evaluators are
found by name in :mod:`py2048.evaluation.registry`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np
from numba import types
from numba.core.dispatcher import Dispatcher

KERNEL_SIGNATURE = types.float64(
    types.uint64, types.uint64, types.float32[:, ::1], types.int64[:, ::1]
)
"""``(lo, hi, weights, layout) -> value``: the one signature every evaluation kernel has."""

KERNEL_TYPE = types.FunctionType(KERNEL_SIGNATURE)
"""The numba type of an evaluation kernel as the search receives it."""


class EvaluationData(NamedTuple):
    """An evaluation's data and how the search combines it with the score, as one record."""

    weights: np.ndarray
    layout: np.ndarray
    gain_weight: float
    lost_penalty: float
    lines: bool


EVALUATION_DATA = types.NamedTuple(
    (types.float32[:, ::1], types.int64[:, ::1], types.float64, types.float64, types.boolean),
    EvaluationData,
)
"""The numba type of :class:`EvaluationData`."""


@dataclass(frozen=True, eq=False)
class Evaluator:
    """A board evaluation the search can use (see the module docstring for the contract)."""

    name: str
    kernel: Dispatcher
    weights: np.ndarray
    layout: np.ndarray
    gain_weight: float = 0.0
    lost_penalty: float = 0.0
    lines: bool = False
    """A fast path: True promises that the kernel is exactly the sum of ``weights[0, line]``
    over the 20-bit indices (``engine.board.row_index``) of the four rows and the four columns;
    the search then computes that sum in place instead of calling the kernel."""

    baseline: Callable[[int, int], float] | None = None
    """For an evaluation that adds a preference of its own to a value in points (see
    :mod:`py2048.evaluation.snake`): that preference for the board searched, which hints
    subtract from every direction's value so that values stay in points."""

    def __post_init__(self) -> None:
        if not isinstance(self.kernel, Dispatcher) or not self.kernel.signatures:
            raise TypeError(f"evaluator {self.name!r}: kernel must be compiled with a signature")
        if KERNEL_SIGNATURE.args not in [tuple(s) for s in self.kernel.signatures]:
            raise TypeError(
                f"evaluator {self.name!r}: kernel must have the signature {KERNEL_SIGNATURE}"
            )
        if not (self.lost_penalty >= 0.0 and self.gain_weight >= 0.0):
            raise TypeError(f"evaluator {self.name!r}: lost_penalty and gain_weight must be >= 0")
        for field, dtype in (("weights", np.float32), ("layout", np.int64)):
            array = getattr(self, field)
            if (
                not isinstance(array, np.ndarray)
                or array.dtype != dtype
                or array.ndim != 2
                or not array.flags.c_contiguous
            ):
                raise TypeError(
                    f"evaluator {self.name!r}: {field} must be a C-ordered 2-D "
                    f"{np.dtype(dtype).name} array"
                )

    @cached_property
    def data(self) -> EvaluationData:
        """What the search reads besides the kernel."""
        return EvaluationData(
            self.weights,
            self.layout,
            float(self.gain_weight),
            float(self.lost_penalty),
            bool(self.lines),
        )

    def __call__(self, lo: int, hi: int) -> float:
        """Evaluate one packed board (for tests and for showing a position's value)."""
        return float(self.kernel(np.uint64(lo), np.uint64(hi), self.weights, self.layout))
