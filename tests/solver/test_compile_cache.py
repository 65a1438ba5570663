"""The search is compiled once per machine: a second process loads it from numba's cache."""

from __future__ import annotations

import subprocess
import sys

import pytest

PROBE = """
from py2048.evaluation import get_evaluator
from py2048.solver import best_move
from py2048.solver.autoplay import play_game
from py2048.solver.endgame import choose, table_choice
from py2048.solver.search import chance_value, decide

best_move([[2, 4, 8, 16], [0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 4]], depth=1)
kernels = (decide, chance_value, play_game, choose, table_choice, get_evaluator().kernel)
misses = sum(sum(k.stats.cache_misses.values()) for k in kernels)
print(misses)
"""


@pytest.mark.slow
def test_second_process_compiles_nothing():
    runs = [
        subprocess.run(
            [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=300, check=True
        )
        for _ in range(2)
    ]
    assert runs[1].stdout.strip() == "0", runs[1].stderr
