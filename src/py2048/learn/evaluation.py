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

from py2048.learn.kernels import board_value
from py2048.learn.network import NTupleNetwork
from py2048.learn.storage import load_weights
from py2048.solver.evaluation import KERNEL_SIGNATURE, Evaluator, register_evaluator

SHIPPED_WEIGHTS = "ntuple-4x6.npz"
WEIGHTS_VARIABLE = "PY2048_NTUPLE_WEIGHTS"


@njit(KERNEL_SIGNATURE, cache=True, nogil=True)
def ntuple_value(lo: np.uint64, hi: np.uint64, weights: np.ndarray, layout: np.ndarray) -> float:
    """The network's value of an afterstate, never below 0 (the value of a lost game)."""
    return max(board_value(lo, hi, weights[0], layout), 0.0)


def network_evaluator(network: NTupleNetwork, name: str = "ntuple") -> Evaluator:
    """Wrap any network as a solver evaluation (the weights are shared, not copied)."""
    return Evaluator(
        name,
        ntuple_value,
        network.weights.reshape(1, -1),
        network.layout,
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
