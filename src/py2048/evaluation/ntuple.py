"""The n-tuple network as an evaluation, and the shipped network: ``evaluator="ntuple"``.

The network estimates the score still to come after an afterstate, so the search adds each
move's gain to it (``gain_weight`` 1.0), and greedy play with it (depth 0) is how the network
was trained to play (with its weights rounded to int16 steps, as the shipped file stores them).
The search reads the entries as int16: half the memory of float32 (134 MB for the default
tuples) and quicker searches, since more of the tables' busy entries stay in the processor's
caches.

The weights come from the file shipped inside the package, or from the file named by the
environment variable ``PY2048_NTUPLE_WEIGHTS`` (to measure a network of your own with
``2048 bench --evaluator ntuple``). ``py2048.learn`` trains networks and turns one being
trained into an evaluation (:func:`py2048.learn.network.network_evaluator`).
"""

from __future__ import annotations

import os
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

import numpy as np
from numba import njit
from numba.core.dispatcher import Dispatcher

from py2048.engine.board import max_exponent
from py2048.evaluation.contract import KERNEL_SIGNATURE, Evaluator
from py2048.evaluation.storage import load_int16_weights
from py2048.evaluation.tuples import (
    Plan,
    capped_board,
    layout_plan,
    symmetric_boards,
    table_index,
    tuple_layout,
)

SHIPPED_WEIGHTS = "ntuple-4x6.npz"
WEIGHTS_VARIABLE = "PY2048_NTUPLE_WEIGHTS"


def int16_evaluator(layout: np.ndarray, scale: float, entries: np.ndarray, name: str) -> Evaluator:
    """The evaluation of a network whose entries are int16 steps of ``scale``.

    The Evaluator's ``weights`` are those entries, two to a float32 word, as the evaluation
    interface passes every table as float32.
    """
    if entries.size % 2:
        entries = np.append(entries, np.int16(0))
    return Evaluator(
        name,
        value_kernel(layout, scale),
        entries.view(np.float32).reshape(1, -1),
        layout,
        gain_weight=1.0,
    )


def value_kernel(layout: np.ndarray, scale: float) -> Dispatcher:
    """The solver kernel for a network of this layout and int16 scale: its value, never below 0.

    0 is the value of a lost game. The layout (which table, which masks and shifts read each
    tuple; :func:`~py2048.evaluation.tuples.layout_plan`) and the scale are compiled into the
    kernel as constants, as in the training kernels: numba then folds the index arithmetic
    away, which made d2 searches twice as fast (``docs/solver-notes.md``). numba caches one compiled
    kernel per layout and scale on disk, so only a new network compiles (about a second).
    """
    return _compiled_kernel(layout_plan(layout), float(scale))


@lru_cache(maxsize=16)
def _compiled_kernel(planned: Plan, scale: float) -> Dispatcher:
    plan, runs, staged = planned

    @njit(KERNEL_SIGNATURE, cache=True, nogil=True)
    def ntuple_value(lo, hi, weights, layout):
        table = weights[0].view(np.int16)
        top = max_exponent(lo, hi) if staged else 0
        total = 0
        for board in symmetric_boards(capped_board(lo, hi)):
            for row in plan:
                if row[1] <= top < row[2]:
                    total += table[table_index(board, row, runs)]
        return max(total * scale, 0.0)

    return ntuple_value


def weights_path() -> Path:
    """The weights file the ``"ntuple"`` evaluator loads."""
    chosen = os.environ.get(WEIGHTS_VARIABLE)
    if chosen:
        return Path(chosen)
    return Path(str(files("py2048.evaluation") / "weights" / SHIPPED_WEIGHTS))


def shipped_evaluator() -> Evaluator:
    """The ``"ntuple"`` evaluation, read from the file's int16 entries with no float32 copy."""
    weights = load_int16_weights(weights_path())
    layout = tuple_layout(weights.tuples, weights.stage_tiles)
    return int16_evaluator(layout, weights.scale, weights.entries, "ntuple")
