"""Small networks for the tests of the evaluation and of the learner, which they keep fast (the
default 4 x 6-tuples take 268 MB)."""

from __future__ import annotations

import numpy as np

from py2048.learn.network import NTupleNetwork

SMALL_TUPLES = ((0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 4, 5), (1, 2, 5, 6))
SMALL_SPEC = "0,1,2,3/4,5,6,7/0,1,4,5/1,2,5,6"


def random_network() -> NTupleNetwork:
    """A small network with arbitrary non-zero weights."""
    network = NTupleNetwork.zeros(SMALL_TUPLES)
    network.weights[:] = np.random.default_rng(7).normal(0, 100, network.weights.size)
    return network


def whole_weights(network: NTupleNetwork, seed: int = 2, low: int = -32767) -> NTupleNetwork:
    """Whole-number weights from ``low`` to 32767: int16 with scale 1, so the solver's
    quantised evaluation of the network is exact."""
    network.weights[:] = np.random.default_rng(seed).integers(low, 32768, network.weights.size)
    network.weights[0] = 32767
    return network
