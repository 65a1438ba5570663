"""Training n-tuple networks by TD(0) afterstate learning.

See ``docs/ntuple.md``. The network itself (its tuples, weights file and solver evaluation,
including the shipped one) lives in :mod:`py2048.evaluation`; this package trains new ones
(``2048 train``, :mod:`py2048.learn.command`).
"""

from py2048.evaluation.storage import WeightsError
from py2048.evaluation.tuples import DEFAULT_TUPLES, parse_tuples
from py2048.learn.network import NTupleNetwork, load_weights, save_weights
from py2048.learn.play import play_greedy
from py2048.learn.training import GameResult, Trainer, TrainingConfig

__all__ = [
    "DEFAULT_TUPLES",
    "GameResult",
    "NTupleNetwork",
    "Trainer",
    "TrainingConfig",
    "WeightsError",
    "load_weights",
    "parse_tuples",
    "play_greedy",
    "save_weights",
]
