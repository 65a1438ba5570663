"""The built-in solver: expectimax search with a pluggable board evaluation.

The evaluations themselves live in :mod:`py2048.evaluation`; the names re-exported here are
the ones a solver user needs.

``best_move(board)`` advises a move for a board of tiles (4x4, or any size from 3x3 to 8x8);
:mod:`py2048.solver.bench` plays whole games with it; ``review(seed, history)`` grades every
move of a game (:mod:`py2048.solver.reviewer`; ``size=`` for other sizes). See
``docs/solver.md`` for how it works and how strong it is.

The presets load with the package; the search and the evaluations on first use, because their
compiled kernels take a while to load (seconds, the first time on a machine). So the command
line, the terminal game and the web server can offer the presets without waiting for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from py2048._lazy import lazy_names
from py2048.solver.presets import DEFAULT_PRESET, PRESETS, Preset

# Loaded on first use (py2048._lazy): each name is written only here. "X as X" says that the
# package exports it; isort is off so that each module keeps one statement.
# isort: off
if TYPE_CHECKING:
    from py2048.evaluation import (
        Evaluator as Evaluator,
        available_evaluators as available_evaluators,
        get_evaluator as get_evaluator,
        register_evaluator as register_evaluator,
    )
    from py2048.solver.hint import Hint as Hint, best_move as best_move
    from py2048.solver.reviewer import (
        REVIEW_SETTINGS as REVIEW_SETTINGS,
        GameReview as GameReview,
        MoveReview as MoveReview,
        ReviewSetting as ReviewSetting,
        review as review,
    )
    from py2048.solver.search import MAX_DEPTH as MAX_DEPTH
# isort: on

__getattr__, __dir__, _LAZY = lazy_names(__name__)

__all__ = ["DEFAULT_PRESET", "PRESETS", "Preset", *_LAZY]
