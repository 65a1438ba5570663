"""The built-in solver: expectimax search with a pluggable board evaluation.

``best_move(board)`` advises a move for a 4x4 board of tiles; :mod:`py2048.solver.bench` plays
whole games with it. See ``docs/solver.md`` for how it works and how strong it is.
"""

from py2048.solver.evaluation import (
    Evaluator,
    available_evaluators,
    get_evaluator,
    register_evaluator,
)
from py2048.solver.hint import MAX_DEPTH, Hint, best_move
from py2048.solver.presets import DEFAULT_PRESET, PRESETS, Preset

__all__ = [
    "DEFAULT_PRESET",
    "MAX_DEPTH",
    "PRESETS",
    "Evaluator",
    "Hint",
    "Preset",
    "available_evaluators",
    "best_move",
    "get_evaluator",
    "register_evaluator",
]
