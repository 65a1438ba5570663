"""How the solver judges a position: the evaluation contract and the built-in evaluations.

- :mod:`~py2048.evaluation.contract`: what an evaluation is (a compiled kernel and its data);
- :mod:`~py2048.evaluation.heuristic`: hand-made line scores;
- :mod:`~py2048.evaluation.ntuple`: the n-tuple network, with the shipped weights
  (:mod:`~py2048.evaluation.tuples` says which cells it reads, :mod:`~py2048.evaluation.storage`
  how its weights file is stored);
- :mod:`~py2048.evaluation.snake`: the endgame tables' formation as a number, which the default
  evaluation (the network, ``"ntuple-snake"``) adds to pull the search toward it;
- :mod:`~py2048.evaluation.registry`: evaluations by name.

It sits on the engine only; the solver searches with these evaluations and ``py2048.learn``
trains new networks for them.
"""

from py2048.evaluation.contract import KERNEL_SIGNATURE, Evaluator
from py2048.evaluation.registry import (
    DEFAULT_EVALUATOR,
    available_evaluators,
    get_evaluator,
    register_evaluator,
)

__all__ = [
    "DEFAULT_EVALUATOR",
    "KERNEL_SIGNATURE",
    "Evaluator",
    "available_evaluators",
    "get_evaluator",
    "register_evaluator",
]
