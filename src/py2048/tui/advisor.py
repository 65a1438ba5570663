"""Advice for Hint and Autoplay: the solver's move and the expected value of every direction."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from py2048.engine import Direction


class Advice(Protocol):
    """What ``py2048.solver.best_move`` returns."""

    @property
    def direction(self) -> Direction | None:
        """The advised move; None only when no move is left."""

    @property
    def values(self) -> Mapping[Direction, float]:
        """The expected value of every legal direction."""


Advisor = Callable[[list[list[int]], str], Advice]
"""Gives advice for a board (its rows of tile values, of any size) at a preset. Runs off the UI
thread."""


def solver_advice(board: list[list[int]], preset: str) -> Advice:
    """The built-in solver's advice (imported on first use, so start-up stays quick)."""
    from py2048.solver import best_move

    return best_move(board, preset=preset)
