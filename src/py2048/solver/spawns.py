"""The spawn generators a solver game can use, by name (``2048 bench --rng``).

Names only, with nothing compiled, so that the command line can offer them without loading the
search: ``py2048`` is the game's own generator (:mod:`py2048.engine.rng`, the spawns of
``Game(seed)``), ``c-rand`` glibc's ``rand()`` as the C++ 2048 AIs are benchmarked
(:mod:`py2048.solver.crand`).
"""

from __future__ import annotations

RNGS = ("py2048", "c-rand")
"""Spawn generators a solver game can use, the game's own first."""
