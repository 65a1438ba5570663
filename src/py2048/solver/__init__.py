"""The built-in solver: expectimax search with a pluggable board evaluation.

The evaluations themselves live in :mod:`py2048.evaluation`; the names re-exported here are
the ones a solver user needs.

``best_move(board)`` advises a move for a 4x4 board of tiles; :mod:`py2048.solver.bench` plays
whole games with it; ``review(seed, history)`` grades every move of a game
(:mod:`py2048.solver.reviewer`). See ``docs/solver.md`` for how it works and how strong it is.

The presets load with the package; the search and the evaluations on first use, because their
compiled kernels take a while to load (seconds, the first time on a machine). So the command
line, the terminal game and the web server can offer the presets without waiting for them.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

from py2048.solver.presets import DEFAULT_PRESET, PRESETS, Preset

if TYPE_CHECKING:
    from py2048.evaluation import (
        Evaluator,
        available_evaluators,
        get_evaluator,
        register_evaluator,
    )
    from py2048.solver.hint import Hint, best_move
    from py2048.solver.reviewer import (
        REVIEW_SETTINGS,
        GameReview,
        MoveReview,
        ReviewSetting,
        review,
    )
    from py2048.solver.search import MAX_DEPTH

__all__ = [
    "DEFAULT_PRESET",
    "MAX_DEPTH",
    "PRESETS",
    "REVIEW_SETTINGS",
    "Evaluator",
    "GameReview",
    "Hint",
    "MoveReview",
    "Preset",
    "ReviewSetting",
    "available_evaluators",
    "best_move",
    "get_evaluator",
    "register_evaluator",
    "review",
]

_HINT_NAMES = frozenset({"MAX_DEPTH", "Hint", "best_move"})
_REVIEW_NAMES = frozenset(
    {"REVIEW_SETTINGS", "GameReview", "MoveReview", "ReviewSetting", "review"}
)
_EVALUATION_NAMES = frozenset(
    {"Evaluator", "available_evaluators", "get_evaluator", "register_evaluator"}
)


def __getattr__(name: str) -> Any:
    """Load the search or the evaluations the first time one of their names is asked for."""
    module: ModuleType
    if name in _HINT_NAMES:
        from py2048.solver import hint as module
    elif name in _REVIEW_NAMES:
        from py2048.solver import reviewer as module
    elif name in _EVALUATION_NAMES:
        from py2048 import evaluation as module
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(module, name)
    globals()[name] = value
    return value
