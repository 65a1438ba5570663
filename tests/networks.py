"""Small networks for the tests of the evaluation and of the learner, which they keep fast (the
default 4 x 6-tuples take 268 MB)."""

from __future__ import annotations

import numpy as np

from py2048.evaluation.storage import QUANTISED_LIMIT
from py2048.learn.network import NTupleNetwork

SMALL_TUPLES = ((0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 4, 5), (1, 2, 5, 6))
SMALL_SPEC = "0,1,2,3/4,5,6,7/0,1,4,5/1,2,5,6"


def random_network() -> NTupleNetwork:
    """A small network with arbitrary non-zero weights."""
    network = NTupleNetwork.zeros(SMALL_TUPLES)
    network.weights[:] = np.random.default_rng(7).normal(0, 100, network.weights.size)
    return network


def whole_weights(
    network: NTupleNetwork, seed: int = 2, low: int = -QUANTISED_LIMIT
) -> NTupleNetwork:
    """Whole-number weights from ``low`` to the quantised limit: int16 with scale 1, so the
    solver's quantised evaluation of the network is exact."""
    high = QUANTISED_LIMIT + 1
    network.weights[:] = np.random.default_rng(seed).integers(low, high, network.weights.size)
    network.weights[0] = QUANTISED_LIMIT
    return network
