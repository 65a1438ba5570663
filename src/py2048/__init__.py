"""py2048: the 2048 game by its official rules, a strong solver, and a fast engine for research.

What is public: each package's ``__all__`` (this one's below, and those of ``py2048.engine``,
``solver``, ``evaluation``, ``tables``, ``learn``, ``batch``, ``env``, ``web``); every other
module and name may change in any release. ``docs/api-surface.md`` lists them.
"""

from py2048._compile_cache import use_private_cache

use_private_cache()

from py2048.engine import (  # noqa: E402  (numba's cache folder is chosen before any kernel)
    BoardError,
    BoardSize,
    Direction,
    Game,
    GameError,
    MoveResult,
    SaveError,
    can_move,
    slide,
)

__version__ = "0.1.0"

__all__ = [
    "BoardError",
    "BoardSize",
    "Direction",
    "Game",
    "GameError",
    "MoveResult",
    "SaveError",
    "__version__",
    "can_move",
    "slide",
]
