"""The shipped n-tuple network as a solver evaluation: ``best_move(..., evaluator="ntuple")``.

Importing this module registers the ``"ntuple"`` evaluator with :mod:`py2048.solver`; the
solver imports it on first use of that name. The network estimates the score still to come
after an afterstate, so the search adds each move's gain to it (``gain_weight`` 1.0), and
greedy play with it (depth 0) is exactly how the network was trained to play.

The weights come from the file shipped inside the package, or from the file named by the
environment variable ``PY2048_NTUPLE_WEIGHTS`` (to measure a network of your own with
``2048 bench --evaluator ntuple``).
"""

from __future__ import annotations

import os
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

import numpy as np
from numba import njit

from py2048.learn.kernels import capped_board
from py2048.learn.network import NTupleNetwork
from py2048.learn.storage import load_weights
from py2048.learn.tuples import MAX_TUPLE_LENGTH
from py2048.solver.evaluation import KERNEL_SIGNATURE, Evaluator, register_evaluator

SHIPPED_WEIGHTS = "ntuple-4x6.npz"
WEIGHTS_VARIABLE = "PY2048_NTUPLE_WEIGHTS"

_OFFSET, _LENGTH, _SHIFTS = 0, 1, 2
_NIBBLE = np.uint64(0xF)


@njit(KERNEL_SIGNATURE, cache=True, nogil=True)
def ntuple_value(lo: np.uint64, hi: np.uint64, weights: np.ndarray, layout: np.ndarray) -> float:
    """The network's value of an afterstate, never below 0 (the value of a lost game)."""
    board = capped_board(lo, hi)
    table = weights[0]
    total = 0.0
    for f in range(layout.shape[0]):
        index = 0
        for i in range(layout[f, _LENGTH]):
            index |= int((board >> np.uint64(layout[f, _SHIFTS + i])) & _NIBBLE) << (4 * i)
        total += table[layout[f, _OFFSET] + index]
    return max(total, 0.0)


def evaluator_layout(network: NTupleNetwork) -> np.ndarray:
    """One row per feature: table offset, cell count, then each cell's bit position in ``lo``."""
    layout = np.zeros((network.lengths.size, _SHIFTS + MAX_TUPLE_LENGTH), dtype=np.int64)
    layout[:, _OFFSET] = network.offsets
    layout[:, _LENGTH] = network.lengths
    layout[:, _SHIFTS:] = network.shifts.astype(np.int64)
    return layout


def network_evaluator(network: NTupleNetwork, name: str = "ntuple") -> Evaluator:
    """Wrap any network as a solver evaluation (the weights are shared, not copied)."""
    return Evaluator(
        name,
        ntuple_value,
        network.weights.reshape(1, -1),
        evaluator_layout(network),
        gain_weight=1.0,
    )


def weights_path() -> Path:
    """The weights file the ``"ntuple"`` evaluator loads."""
    chosen = os.environ.get(WEIGHTS_VARIABLE)
    if chosen:
        return Path(chosen)
    return Path(str(files("py2048.learn") / "weights" / SHIPPED_WEIGHTS))


@lru_cache(maxsize=1)
def shipped_network() -> NTupleNetwork:
    """The network ``"ntuple"`` uses, loaded once per process."""
    return load_weights(weights_path())


def shipped_evaluator() -> Evaluator:
    return network_evaluator(shipped_network())


register_evaluator("ntuple", shipped_evaluator)
