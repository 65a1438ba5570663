"""The solver's warm-up: its network, tables and compiled search loaded before the first hint."""

from __future__ import annotations

import threading


def warm_up_in_background() -> threading.Thread:
    """Load the solver and compile its kernels on a daemon thread (a quickest-preset search of a
    fresh game's board), so that the first hint does not wait for them while the player is
    already playing. Returns the started thread."""
    thread = threading.Thread(target=_search_once, name="py2048-solver-warm-up", daemon=True)
    thread.start()
    return thread


def _search_once() -> None:
    from py2048.engine import Game
    from py2048.solver import best_move
    from py2048.solver.presets import QUICKEST_PRESET

    best_move(Game(seed=0).board, preset=QUICKEST_PRESET)
