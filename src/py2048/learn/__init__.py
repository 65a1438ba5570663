"""Learned evaluation: n-tuple networks trained by TD(0) afterstate learning.

See ``docs/ntuple.md``. The shipped network is the solver's ``"ntuple"`` evaluator
(:mod:`py2048.learn.evaluation`); ``2048 train`` trains new ones (:mod:`py2048.learn.command`).
"""

from py2048.learn.network import NTupleNetwork
from py2048.learn.play import play_greedy
from py2048.learn.storage import WeightsError, load_weights, save_weights
from py2048.learn.training import GameResult, Trainer, TrainingConfig
from py2048.learn.tuples import DEFAULT_TUPLES, parse_tuples

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
