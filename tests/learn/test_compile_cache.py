"""The training kernels are compiled once per layout and machine: a second process loads them
from numba's cache (they are closures over the layout, which numba must key its cache on)."""

from __future__ import annotations

import subprocess
import sys

import pytest

PROBE = """
from py2048.learn.training import Trainer, TrainingConfig

config = TrainingConfig(tuples=((0, 1, 2, 3), (4, 5, 6, 7)), stage_tiles=(256,), workers=2)
trainer = Trainer(config)
while not trainer.done(3):
    trainer.run_round(3)
trainer.network.greedy_direction(0x1234, 0)
print(sum(sum(k.stats.cache_misses.values()) for k in trainer.network.kernels))
"""


@pytest.mark.slow
def test_second_process_compiles_no_training_kernel():
    runs = [
        subprocess.run(
            [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=300, check=True
        )
        for _ in range(2)
    ]
    assert runs[1].stdout.strip() == "0", runs[1].stderr
